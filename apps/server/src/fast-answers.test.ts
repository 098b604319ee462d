import { Writable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from './lib/http.js';
import { type TestContext, createTestContext } from './test/context.js';
import { insertProduct, setPrice } from './test/factories.js';

/**
 * Issue 10: cache hits of the catalogue are sent from node:http ahead of fastify. Over real HTTP,
 * each answer must be what fastify itself gives the same request (inject() always goes through
 * fastify): same status, headers, body and log line. Whether fastify saw a request is told by an
 * onRequest hook the test adds.
 */

const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding']);

function stable(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !VOLATILE.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** fetch asks for gzip unless told otherwise; inject asks for nothing. */
const IDENTITY = { 'accept-encoding': 'identity' };

function fetchHeaders(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.entries());
}

interface Served {
  app: App;
  base: string;
  lines: Record<string, unknown>[];
  /** The URLs of the requests fastify saw (its onRequest hooks ran). */
  seen: string[];
}

async function serve(ctx: TestContext, env: { cors?: boolean } = {}): Promise<Served> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await ctx.newApp({
    logger: pino({ level: 'info' }, sink),
    ...(env.cors ? { config: { ...ctx.config, corsOrigins: ['https://partner.example'] } } : {}),
  });
  const seen: string[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    seen.push(request.url);
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, base: `http://127.0.0.1:${address.port}`, lines, seen };
}

describe('catalogue answers sent ahead of fastify', () => {
  let ctx: TestContext;
  let served: Served;
  let productId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { productsCacheTtlMs: 60_000 } });
    productId = (await insertProduct(ctx.db, { name: 'Fast Path Cartridge' })).id;
    // Enough products that the list is compressed (over 1 kB).
    for (let i = 0; i < 6; i += 1) await insertProduct(ctx.db);
    served = await serve(ctx);
  });
  afterAll(() => ctx.close());

  /** Asks twice over HTTP (the first may fill the cache) and returns the second answer. */
  async function secondAnswer(url: string, extra: Record<string, string> = {}) {
    const headers = { ...IDENTITY, ...extra };
    await fetch(served.base + url, { headers });
    const before = served.seen.length;
    const res = await fetch(served.base + url, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body, byFastify: served.seen.length > before };
  }

  it.each([
    ['the whole list', '/api/products'],
    ['one product', () => `/api/products/${productId}`],
  ])('answers %s with what fastify answers, asking the cache once', async (_name, path) => {
    const url = typeof path === 'function' ? path() : path;
    const { res, body, byFastify } = await secondAnswer(url);
    expect(byFastify).toBe(false);
    const viaFastify = await served.app.inject({ method: 'GET', url, headers: IDENTITY });
    expect(res.status).toBe(200);
    expect(stable(fetchHeaders(res))).toEqual(stable(viaFastify.headers));
    expect(body.toString()).toBe(viaFastify.body);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every request its own id on headers it otherwise shares with the others', async () => {
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push((await secondAnswer('/api/products')).res);
    const ids = answers.map((res) => res.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    const [first, ...others] = answers.map((res) => stable(fetchHeaders(res)));
    for (const headers of others) expect(headers).toEqual(first);
  });

  it('sends the brotli form to a browser and a 304 to a client that has the answer', async () => {
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    // Node's fetch decompresses; the raw bytes are compared through inject's rawPayload instead.
    const viaFastify = await served.app.inject({ method: 'GET', url: '/api/products', headers: br });
    const { res, byFastify } = await secondAnswer('/api/products', br);
    expect(byFastify).toBe(false);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(stable(fetchHeaders(res))).toEqual(
      // fetch drops content-length when it decodes the body.
      stable({ ...viaFastify.headers, 'content-length': res.headers.get('content-length') ?? undefined }),
    );
    expect(JSON.parse(brotliDecompressSync(viaFastify.rawPayload).toString())).toHaveLength(7);

    const etag = res.headers.get('etag') ?? '';
    const revalidated = await secondAnswer('/api/products', { 'if-none-match': etag });
    expect(revalidated.byFastify).toBe(false);
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.body).toHaveLength(0);
    const notModified = await served.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: { ...IDENTITY, 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    expect(stable(fetchHeaders(revalidated.res))).toEqual(stable(notModified.headers));
  });

  it('leaves every other request to fastify: a bad id, an unknown id, HEAD, a query it would refuse', async () => {
    expect((await fetch(`${served.base}/api/products/not-an-id`)).status).toBe(400);
    const unknown = await fetch(`${served.base}/api/products/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: 'Product not found' });
    const head = await fetch(`${served.base}/api/products`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    for (const refused of [
      '?page=0',
      '?limit=abc',
      '?page=1&page=2',
      '?category=toys',
      `?q=${'x'.repeat(101)}`,
    ]) {
      const before = served.seen.length;
      const res = await fetch(`${served.base}/api/products${refused}`);
      expect(res.status, refused).toBe(400);
      expect(served.seen.length, refused).toBe(before + 1);
    }
  });

  it('answers a page of a category, a search, as its route does (issue 28: the web app’s own calls)', async () => {
    for (const url of [
      '/api/products?page=1&limit=2',
      '/api/products?category=retro-games&q=a&page=1&limit=12',
    ]) {
      const { res, byFastify, body } = await secondAnswer(url);
      expect(byFastify, url).toBe(false);
      const viaFastify = await served.app.inject({ method: 'GET', url });
      expect(body.toString(), url).toBe(viaFastify.body);
      expect(res.headers.get('etag'), url).toBe(viaFastify.headers.etag);
    }
    const paged = await secondAnswer('/api/products?page=1&limit=2');
    expect(JSON.parse(paged.body.toString())).toMatchObject({ page: 1, totalPage: 4 });
  });

  it('logs one line per request in the shape of fastify’s own line', async () => {
    served.lines.length = 0;
    await secondAnswer('/api/products');
    await fetch(`${served.base}/api/products?page=1`);
    const requests = served.lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(3);
    const keys = (line: Record<string, unknown>) => Object.keys(line).sort();
    const viaFastify = requests[2]!;
    for (const line of requests.slice(0, 2)) {
      expect(keys(line)).toEqual(keys(viaFastify));
      expect(line).toMatchObject({ method: 'GET', url: '/api/products', status: 200, level: 30 });
    }
    expect(requests[1]!.reqId).not.toBe(requests[0]!.reqId);
  });

  it('keeps a request id a proxy sent, as fastify does', async () => {
    const { res, byFastify } = await secondAnswer('/api/products', { 'x-request-id': 'lb-1234.abc' });
    expect(byFastify).toBe(false);
    expect(res.headers.get('x-request-id')).toBe('lb-1234.abc');
  });

  it('sends a change as soon as the cache is dropped: the first request after it goes to fastify', async () => {
    await secondAnswer(`/api/products/${productId}`);
    await setPrice(ctx.db, productId, 4321);
    served.app.services.products.invalidate();
    const lookup = vi.spyOn(served.app.services.products, 'stockedAnswer');
    const spy = vi.spyOn(served.app.services.products, 'getAnswer');
    try {
      const before = served.seen.length;
      const miss = await fetch(`${served.base}/api/products/${productId}`);
      // The fast path's lookup started the query; fastify's route joined it.
      expect(served.seen.length).toBe(before + 1);
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await miss.json()) as unknown).toMatchObject({ productPrice: 43.21 });
      const hit = await fetch(`${served.base}/api/products/${productId}`);
      expect(served.seen.length).toBe(before + 1);
      expect((await hit.json()) as unknown).toMatchObject({ productPrice: 43.21 });
    } finally {
      spy.mockRestore();
      lookup.mockRestore();
    }
  });

  describe('with CORS on', () => {
    let cors: Served;
    beforeAll(async () => {
      cors = await serve(ctx, { cors: true });
    });

    it('answers same-origin requests itself and cross-origin ones through @fastify/cors', async () => {
      await fetch(`${cors.base}/api/products`);
      const before = cors.seen.length;
      {
        const plain = await fetch(`${cors.base}/api/products`, { headers: IDENTITY });
        expect(cors.seen.length).toBe(before);
        const viaFastify = await cors.app.inject({ method: 'GET', url: '/api/products', headers: IDENTITY });
        expect(stable(fetchHeaders(plain))).toEqual(stable(viaFastify.headers));
        expect(plain.headers.get('vary')).toBe('Origin, Accept-Encoding');

        const afterInject = cors.seen.length;
        const crossOrigin = await fetch(`${cors.base}/api/products`, {
          headers: { origin: 'https://partner.example' },
        });
        expect(cors.seen.length).toBe(afterInject + 1);
        expect(crossOrigin.headers.get('access-control-allow-origin')).toBe('https://partner.example');
      }
    });
  });
});

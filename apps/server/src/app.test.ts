import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { AppError } from './lib/errors.js';
import { ENTRY_LOADER_CSP } from './lib/entry-loader.js';
import { type TestContext, createTestContext } from './test/context.js';
import { insertProduct, insertUser } from './test/factories.js';

describe('HTTP basics', () => {
  let ctx: TestContext;
  let web: string;
  /** Who the route's own onRequest hook saw as the caller, call by call. */
  const hookSaw: (string | null)[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.app.get('/api/test/private', { config: { access: 'user' } }, async () => ({}));
    ctx.app.get(
      '/api/test/hooked',
      {
        config: { access: 'user' },
        onRequest: (request, _reply, done) => {
          hookSaw.push(request.user?.id ?? null);
          done();
        },
      },
      async () => ({}),
    );
    ctx.app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('connection string postgres://secret@db leaked');
    });
    ctx.app.get('/api/test/conflict', { config: { access: 'public' } }, async () => {
      throw new AppError(409, 'Only 2 left of Zelda II', 'OUT_OF_STOCK');
    });
    web = ctx.config.webDistDir;
    mkdirSync(path.join(web, 'assets'), { recursive: true });
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><title>Pixel Vault</title><div id="root"></div>',
    );
    writeFileSync(
      path.join(web, 'assets', 'index-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(4000))});`,
    );
    writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterAll(() => ctx.close());

  describe('security headers', () => {
    it('sends the page policy (CSP for the React app and PayPal) with the helmet headers on pages', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/shop/consoles' });
      expect(res.headers['content-security-policy']).toBe(
        [
          "default-src 'self'",
          // One inline script, by the hash of its text: the loader of rendered pages (entry-loader.ts).
          `script-src 'self' ${ENTRY_LOADER_CSP} https://www.paypal.com https://*.paypal.com`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: blob: https://*.paypal.com https://*.paypalobjects.com",
          "font-src 'self' data:",
          "connect-src 'self' https://*.paypal.com",
          'frame-src https://*.paypal.com',
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'none'",
        ].join(';'),
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('sends the page policy on assets and uploads too', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('sends the short API set on JSON answers, errors included, and no x-powered-by', async () => {
      for (const url of ['/api/health', '/api/unknown', '/api/products/not-an-id']) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.headers['content-security-policy'], url).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('sends the headers on refused requests (401)', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/test/private' });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });
  });

  describe('access control', () => {
    it("checks the token before the route's own hooks, which then see the caller", async () => {
      hookSaw.length = 0;
      const refused = await ctx.app.inject({ method: 'GET', url: '/api/test/hooked' });
      expect(refused.statusCode).toBe(401);
      expect(hookSaw).toEqual([]);
      const { user, auth } = await insertUser(ctx.db);
      const res = await ctx.app.inject({ method: 'GET', url: '/api/test/hooked', headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(hookSaw).toEqual([user.id]);
    });

    it("guards a user route's HEAD like its GET", async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: '/api/test/private' });
      expect(res.statusCode).toBe(401);
      expect(res.headers['cache-control']).toBe('private, no-store');
    });
  });

  describe('request ids', () => {
    it('echoes a sane incoming x-request-id', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': 'abc-123.DEF' },
      });
      expect(res.headers['x-request-id']).toBe('abc-123.DEF');
    });

    it('replaces a missing or unsafe x-request-id with a UUID', async () => {
      for (const incoming of [undefined, 'has spaces', 'x'.repeat(200), '<script>']) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/health',
          headers: incoming ? { 'x-request-id': incoming } : {},
        });
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  describe('web app and SPA fallback', () => {
    it('serves index.html at / without long-term caching', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Pixel Vault</title>');
    });

    it('answers client-side routes with index.html (200, no-cache)', async () => {
      for (const url of [
        '/shop/consoles',
        '/shop/retro-games/product/123',
        '/admin/dashboard?tab=x',
        '/nowhere',
      ]) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toContain('<title>Pixel Vault</title>');
      }
    });

    it('serves the account pages as the app; a reset or verification link page is stored by no cache and sends no referrer', async () => {
      for (const url of ['/forgot-password', '/account']) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>Pixel Vault</title>');
      }
      const token = Buffer.alloc(32, 1).toString('base64url');
      for (const [method, page] of [
        ['GET', 'reset-password'],
        ['HEAD', 'reset-password'],
        ['GET', 'verify-email'],
        ['HEAD', 'verify-email'],
      ] as const) {
        const res = await ctx.app.inject({ method, url: `/${page}/${token}` });
        expect(res.statusCode, method).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], method).toBe('no-store');
        // The page policy: the token in the path is never sent on to anyone, not even this origin.
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        if (method === 'GET') expect(res.body).toContain('<title>Pixel Vault</title>');
      }
    });

    it('answers HEAD on a client-side route like GET, without a body', async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: '/order-history' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    });

    it('serves hashed assets with an immutable one-year cache, compressed when asked', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['content-encoding']).toBe('gzip');
    });

    it('serves other root files of the build (favicon) without long-term caching', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    });

    it('answers 404, not the page, for a missing asset or upload', async () => {
      for (const url of ['/assets/gone-123.js', '/uploads/products/nope.svg']) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ message: 'Not found' });
      }
    });

    it('answers 404 JSON for unknown API paths, whatever the method', async () => {
      for (const [method, url] of [
        ['GET', '/api/unknown'],
        ['POST', '/api/unknown'],
        ['GET', '/api'],
        ['DELETE', '/api/products'],
      ] as const) {
        const res = await ctx.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual({ message: 'Not found' });
      }
    });

    it('answers 404 JSON to a non-GET request outside the API', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/shop' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    });
  });

  describe('errors', () => {
    it('answers an unexpected error with 500 Something went wrong and nothing of its details', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/test/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Something went wrong' });
    });

    it('answers an AppError with its status, message and code', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/test/conflict' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'Only 2 left of Zelda II', code: 'OUT_OF_STOCK' });
    });
  });

  describe('request bodies', () => {
    it('answers 400 Malformed JSON body for invalid JSON', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a@b.co", "password": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Malformed JSON body' });
    });

    it('answers 400 for a __proto__ key instead of letting it through', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"A","email":"a@b.co","password":"password1","__proto__":{"isAdmin":true}}',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    });

    it('answers 400 for text holding a NUL character, which the database cannot store', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': 'application/json' },
        payload: '{"from_name":"A\\u0000B","from_email":"a@b.co","message":"hi"}',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Text must not contain NUL characters' });
    });

    it('ignores NUL characters in query strings', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/products?q=%00' });
      expect(res.statusCode).toBe(200);
    });

    it('answers 413 for a body over 1 MB', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          from_name: 'A',
          from_email: 'a@b.co',
          message: 'x'.repeat(2 * 1024 * 1024),
        }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'Request body is too large' });
    });

    it('answers 415 for a content type the API does not take', async () => {
      for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/users/login',
          headers: { 'content-type': type },
          payload: 'email=a@b.co&password=x',
        });
        expect(res.statusCode, type).toBe(415);
        expect(res.json()).toEqual({ message: 'Unsupported content type' });
      }
    });

    it('answers 400 for a JSON body that is not an object', async () => {
      for (const payload of ['[]', '"text"', '42', 'null']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/users/login',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, payload).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
    });
  });

  describe('compression', () => {
    it('sends small JSON answers as they are', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBeUndefined();
    });

    it('compresses JSON answers over 1 KB when the client accepts it', async () => {
      for (let i = 0; i < 5; i += 1) await insertProduct(ctx.db, { description: 'Long text. '.repeat(30) });
      ctx.app.services.products.invalidate();
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/products',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toHaveLength(5);
    });
  });
});

describe('when the web app is not built', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    rmSync(ctx.config.webDistDir, { recursive: true, force: true });
  });
  afterAll(() => ctx.close());

  it('answers pages with a plain 503 that says how to build it', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/shop/puzzles' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('The web app is not built yet: run npm run build');
  });

  it('still answers the API', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('request log', () => {
  let ctx: TestContext;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    ctx = await createTestContext({ app: { logger: log, productsCacheTtlMs: 60_000 } });
    await insertProduct(ctx.db, { name: 'Logged Thing' });
  });
  afterAll(() => ctx.close());

  /** The lines a request wrote, once its response has finished. */
  async function loggedBy(request: InjectOptions) {
    lines.length = 0;
    const res = await ctx.app.inject(request);
    await new Promise((resolve) => setImmediate(resolve));
    return { res, lines: [...lines] };
  }

  it('writes one info line per request with its id, method, url, status and time', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/api/products' });
    const id = (first.json() as { _id: string }[])[0]?._id;
    for (const [url, headers, status] of [
      ['/api/products', {}, 200],
      ['/api/products', { 'if-none-match': String(first.headers.etag) }, 304],
      ['/api/products', { 'accept-encoding': 'br' }, 200],
      [`/api/products/${id}`, {}, 200],
      ['/api/products/not-an-id', {}, 400],
      ['/api/nowhere', {}, 404],
    ] as const) {
      const { res, lines: written } = await loggedBy({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(status);
      const line = written.find((l) => l.msg === 'request');
      expect(
        written.filter((l) => l.msg === 'request'),
        url,
      ).toHaveLength(1);
      expect(line).toEqual({
        level: 30,
        time: expect.any(Number),
        pid: process.pid,
        hostname: expect.any(String),
        reqId: res.headers['x-request-id'],
        method: 'GET',
        url,
        status,
        ms: expect.any(Number),
        msg: 'request',
      });
      // The id comes first after the logger's own fields, as a child logger's binding puts it.
      expect(Object.keys(line!)).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'method',
        'url',
        'status',
        'ms',
        'msg',
      ]);
    }
  });

  it("keeps a proxy's request id in the line, so logs can be joined up", async () => {
    const { res, lines: written } = await loggedBy({
      method: 'GET',
      url: '/api/products',
      headers: { 'x-request-id': 'trace-me-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(written.map((l) => l.reqId)).toEqual(['trace-me-1']);
  });
});

import { sql } from 'drizzle-orm';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';
import { createDatabaseMetrics } from './metrics.db.js';
import { type Exposition, parseExposition, samplesOf, valueOf } from '../../test/prometheus.js';
import { CATALOGUE_ROUTES, catalogueRouteOf } from './metrics.http.js';

const TOKEN = 'metrics-token-for-the-http-test';
const bearer = { authorization: `Bearer ${TOKEN}` };
const DURATION = 'pixelvault_http_request_duration_seconds';

/**
 * Issue 37: GET /metrics behind its token, and the request histogram by route pattern, for the
 * requests fastify answers and for the catalogue's fast path ahead of it (a real port: inject() does
 * not go through the node:http server the fast path lives in). On PGlite and (npm run test:pg)
 * PostgreSQL.
 */
describe('GET /metrics', () => {
  let ctx: TestContext;
  let app: App;
  let base: string;
  /** URLs fastify itself saw (the fast path's answers never reach it). */
  const seen: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { METRICS_TOKEN: TOKEN },
      app: { limits: NO_RATE_LIMITS, productsCacheTtlMs: 60_000 },
    });
    app = ctx.app;
    app.addHook('onRequest', (request, _reply, done) => {
      seen.push(request.url);
      done();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function scrape(): Promise<Exposition> {
    const res = await fetch(`${base}/metrics`, { headers: bearer });
    expect(res.status).toBe(200);
    return parseExposition(await res.text());
  }
  const requests = (e: Exposition, labels: Record<string, string>) => valueOf(e, `${DURATION}_count`, labels);

  describe('access', () => {
    it('refuses a scrape without the token, or with another, with a 401 message', async () => {
      const refused: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-the-token' },
        { authorization: `Basic ${TOKEN}` },
      ];
      for (const headers of refused) {
        const res = await fetch(`${base}/metrics`, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(await res.json()).toMatchObject({ message: expect.stringMatching(/METRICS_TOKEN/) });
      }
    });

    it("answers Prometheus's text format with the token, the process's own metrics included", async () => {
      const res = await fetch(`${base}/metrics`, { headers: bearer });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const e = parseExposition(await res.text());
      expect(e.types.get('pixelvault_process_cpu_user_seconds_total')).toBe('counter');
      expect(valueOf(e, 'pixelvault_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(e.types.get('pixelvault_nodejs_eventloop_lag_seconds')).toBe('gauge');
      expect(e.types.get(DURATION)).toBe('histogram');
      // Every series of the shop's own is prefixed.
      for (const name of e.types.keys()) expect(name).toMatch(/^pixelvault_/);
    });

    it('answers 404 when METRICS_TOKEN is unset, as an unknown API URL does', async () => {
      const without = await ctx.newApp({ config: { ...ctx.config, metricsToken: undefined } });
      const res = await without.inject({ method: 'GET', url: '/metrics', headers: bearer });
      expect(res.statusCode).toBe(404);
      const unknown = await without.inject({ method: 'GET', url: '/api/no-such-route' });
      expect(res.json()).toEqual(unknown.json());
    });
  });

  describe('the request histogram', () => {
    it("counts catalogue GETs, the fast path's too, under their route pattern and status class", async () => {
      const product = await insertProduct(ctx.db, { name: 'Metrics Cartridge' });
      const category = `/api/products?category=${encodeURIComponent(product.category)}`;
      const url = `/api/products/${product.id}`;
      const byId = { method: 'GET', route: '/api/products/:id' };
      const list = { method: 'GET', route: '/api/products' };
      const before = await scrape();
      const seenBefore = seen.length;
      // Not kept yet: fastify's route answers. Then kept: the fast path answers, fastify never sees it.
      const first = await fetch(`${base}${url}`);
      expect(first.status).toBe(200);
      const second = await fetch(`${base}${url}`);
      expect(second.status).toBe(200);
      expect(seen.slice(seenBefore).filter((u) => u === url)).toHaveLength(1);
      // The browser's revalidation: a 304 from the fast path.
      const etag = second.headers.get('etag') ?? '';
      const revalidated = await fetch(`${base}${url}`, { headers: { 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      // The list and a category page: one pattern, whatever the query.
      for (const page of ['/api/products', category, category]) {
        expect((await fetch(`${base}${page}`)).status).toBe(200);
      }
      const after = await scrape();

      expect(
        requests(after, { ...byId, status_class: '2xx' }) -
          requests(before, { ...byId, status_class: '2xx' }),
      ).toBe(2);
      expect(
        requests(after, { ...byId, status_class: '3xx' }) -
          requests(before, { ...byId, status_class: '3xx' }),
      ).toBe(1);
      expect(
        requests(after, { ...list, status_class: '2xx' }) -
          requests(before, { ...list, status_class: '2xx' }),
      ).toBe(3);
      // The buckets are cumulative and end with every request.
      const buckets = samplesOf(after, `${DURATION}_bucket`, { ...byId, status_class: '2xx' });
      expect(buckets.at(-1)?.labels.le).toBe('+Inf');
      expect(buckets.at(-1)?.value).toBe(requests(after, { ...byId, status_class: '2xx' }));
      for (let i = 1; i < buckets.length; i += 1)
        expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
      expect(valueOf(after, `${DURATION}_sum`, { ...byId, status_class: '2xx' })).toBeGreaterThan(0);
      // The raw URL is never a label: only its pattern.
      expect(after.samples.some((s) => Object.values(s.labels).some((v) => v.includes(product.id)))).toBe(
        false,
      );
      expect(after.samples.some((s) => s.labels.route?.includes('?'))).toBe(false);
    });

    it('counts unknown URLs under one route, and the status class of refusals', async () => {
      const before = await scrape();
      for (const url of ['/api/no-such-thing', '/api/no-such-thing/else', '/wp-login.php']) {
        await fetch(`${base}${url}`);
      }
      // A refusal (401) of a known route keeps its pattern.
      expect((await fetch(`${base}/api/orders`)).status).toBe(401);
      const after = await scrape();
      const unmatched = { route: 'unmatched' };
      expect(requests(after, unmatched) - requests(before, unmatched)).toBe(3);
      const mine = { method: 'GET', route: '/api/orders', status_class: '4xx' };
      expect(requests(after, mine) - requests(before, mine)).toBe(1);
      expect(after.samples.some((s) => s.labels.route?.includes('no-such-thing'))).toBe(false);
    });

    it("counts a HEAD request once, under its GET route's pattern", async () => {
      const head = { method: 'HEAD', route: '/api/health', status_class: '2xx' };
      const before = await scrape();
      expect((await fetch(`${base}/api/health`, { method: 'HEAD' })).status).toBe(200);
      const after = await scrape();
      expect(requests(after, head) - requests(before, head)).toBe(1);
    });

    it('counts the scrape itself under /metrics, not as a catalogue request', async () => {
      const before = await scrape();
      const after = await scrape();
      const catalogue = (e: Exposition) =>
        CATALOGUE_ROUTES.reduce((sum, route) => sum + requests(e, { route }), 0);
      expect(catalogue(after)).toBe(catalogue(before));
      expect(valueOf(after, 'pixelvault_catalogue_cache_hits_total')).toBe(
        valueOf(before, 'pixelvault_catalogue_cache_hits_total'),
      );
      expect(valueOf(after, 'pixelvault_catalogue_cache_misses_total')).toBe(
        valueOf(before, 'pixelvault_catalogue_cache_misses_total'),
      );
      expect(requests(after, { route: '/metrics', status_class: '2xx' })).toBeGreaterThan(
        requests(before, { route: '/metrics', status_class: '2xx' }),
      );
    });

    it('reads each fast-path URL as its route pattern', () => {
      const id = '0b6f1f44-5d3a-4c1e-9a51-64f0f0b7a0c1';
      const cases: [string, string][] = [
        ['/api/products', '/api/products'],
        ['/api/products?page=2&category=Consoles', '/api/products'],
        ['/api/products/facets', '/api/products/facets'],
        ['/api/products/facets?q=zelda', '/api/products/facets'],
        ['/api/products/suggest?q=mar', '/api/products/suggest'],
        [`/api/products/${id}`, '/api/products/:id'],
      ];
      for (const [url, route] of cases) expect(CATALOGUE_ROUTES[catalogueRouteOf(url)]).toBe(route);
    });
  });

  it('counts catalogue cache misses (loads) and hits (answers from memory)', async () => {
    const product = await insertProduct(ctx.db, { name: 'Cache Cartridge' });
    const url = `${base}/api/products/${product.id}`;
    const counts = (e: Exposition) => ({
      hits: valueOf(e, 'pixelvault_catalogue_cache_hits_total'),
      misses: valueOf(e, 'pixelvault_catalogue_cache_misses_total'),
    });
    const before = counts(await scrape());
    expect((await fetch(url)).status).toBe(200);
    const afterMiss = counts(await scrape());
    expect(afterMiss).toEqual({ hits: before.hits, misses: before.misses + 1 });
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
    expect(counts(await scrape())).toEqual({ hits: before.hits + 2, misses: before.misses + 1 });
  });

  it('counts a 429 by its route, and the gift-card refusal it is', async () => {
    const limited = await ctx.newApp({
      limits: { ...NO_RATE_LIMITS, giftCardCodes: { max: 1, windowMs: 60_000 } },
    });
    const customer = await insertUser(ctx.db);
    const scrapeLimited = async () =>
      parseExposition((await limited.inject({ method: 'GET', url: '/metrics', headers: bearer })).body);
    const route = { route: '/api/giftcards/check-balance' };
    const before = await scrapeLimited();
    const check = () =>
      limited.inject({
        method: 'POST',
        url: '/api/giftcards/check-balance',
        headers: customer.auth,
        payload: { code: 'NO-SUCH-CARD-2' },
      });
    expect((await check()).statusCode).toBe(404);
    expect((await check()).statusCode).toBe(429);
    const after = await scrapeLimited();
    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('pixelvault_rate_limit_refusals_total', route)).toBe(1);
    expect(moved(`${DURATION}_count`, { ...route, status_class: '4xx' })).toBe(2);
    expect(moved('pixelvault_giftcard_code_refusals_total', { reason: 'unknown' })).toBe(1);
    expect(moved('pixelvault_giftcard_code_refusals_total', { reason: 'rate_limited' })).toBe(1);
  });

  it('reports the mail outbox: how many wait, and how long the oldest has', async () => {
    await ctx.db
      .update(mailOutbox)
      .set({ status: 'sent' })
      .where(sql`${mailOutbox.status} = 'pending'`);
    const empty = await scrape();
    expect(valueOf(empty, 'pixelvault_mail_outbox_pending')).toBe(0);
    expect(valueOf(empty, 'pixelvault_mail_outbox_oldest_pending_age_seconds')).toBe(0);

    const mail = { toAddress: 'a@example.com', subject: 'Queued', textBody: 'Hello' };
    await ctx.db.insert(mailOutbox).values([
      { ...mail, createdAt: new Date(Date.now() - 90_000) },
      { ...mail, createdAt: new Date(Date.now() - 5_000) },
      { ...mail, status: 'sent', createdAt: new Date(Date.now() - 600_000) },
    ]);
    const queued = await scrape();
    expect(valueOf(queued, 'pixelvault_mail_outbox_pending')).toBe(2);
    const age = valueOf(queued, 'pixelvault_mail_outbox_oldest_pending_age_seconds');
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(300);
  });

  it('reports the database pool: connections in use and callers waiting', async () => {
    const registry = new Registry();
    createDatabaseMetrics(registry, 'test_', ctx.db, () => {});
    const read = async () => parseExposition(await registry.metrics());
    const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
    const size = valueOf(await read(), 'test_db_pool_connections_max');
    expect(size).toBe(onPostgres ? 4 : 1);

    // Every connection (PGlite's only one) held by a transaction, and one more query waiting for one.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    let allHeld = () => {};
    const inside = new Promise<void>((resolve) => (allHeld = resolve));
    const transactions = Array.from({ length: size }, () =>
      ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        if (++holding === size) allHeld();
        await held;
      }),
    );
    let busy: Exposition;
    let query: Promise<unknown> = Promise.resolve();
    try {
      await inside;
      // Started (drizzle's query runs when awaited), and given a turn to reach the driver.
      query = Promise.resolve(ctx.db.execute(sql`select 1`));
      await new Promise((resolve) => setImmediate(resolve));
      busy = await read();
    } finally {
      release();
      await Promise.all([...transactions, query]);
    }
    expect(valueOf(busy, 'test_db_pool_connections_in_use')).toBe(size);
    expect(valueOf(busy, 'test_db_pool_waiting')).toBeGreaterThanOrEqual(1);
  });
});

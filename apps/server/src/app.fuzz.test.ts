import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAccess } from './lib/access.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from './test/context.js';
import { insertProduct, insertUser } from './test/factories.js';

/**
 * Nothing a client can send may produce a 500 (ARCHITECTURE.md). Every /api route, found through
 * the access table so new routes are covered without touching this file, gets garbage.
 */

const HUGE = 'x'.repeat(200_000);

const GARBAGE_IDS = [
  'not-a-uuid',
  '123',
  '00000000-0000-0000-0000-000000000000',
  "1' OR '1'='1",
  '%00',
  '%E0%A4%A',
  'a'.repeat(150),
  '..%2F..%2Fetc%2Fpasswd',
  '__proto__',
  '%F0%9F%92%A9',
];

const JSON_BODIES: unknown[] = [
  {},
  [],
  [{}],
  'text',
  42,
  null,
  true,
  { name: 123, email: [], password: {} },
  { name: HUGE, email: `${HUGE}@example.com`, password: HUGE, message: HUGE },
  { email: 'a@b.co', password: 'x'.repeat(129) },
  {
    name: 'a\u0000b',
    email: 'nul@example.com',
    password: 'pass\u0000word',
    from_name: 'a\u0000',
    message: '\u0000',
  },
  { name: '\ud800', email: '\udfff@example.com', password: '\ud83d\ude00'.repeat(64), from_email: 'a@b.co' },
  { from_name: ['a'], from_email: { $ne: null }, message: 1e308 },
  { isAdmin: true, _id: 'x', id: { $gt: '' } },
  { email: 'a@b.co', password: 'password1', name: 'n', extra: Array.from({ length: 10_000 }, (_, i) => i) },
  { productName: 'x', productPrice: -1, stockQuantity: 1.5, productRating: 99, reviewCount: -3 },
  { code: '', amount: Number.MAX_VALUE, balance: -Number.MAX_VALUE, isDelivered: 'yes' },
];

const RAW_BODIES: { type: string; body: string }[] = [
  { type: 'application/json', body: '{' },
  { type: 'application/json', body: '{"a":}' },
  { type: 'application/json', body: '' },
  { type: 'application/json', body: 'undefined' },
  {
    type: 'application/json',
    body: '{"__proto__":{"isAdmin":true},"email":"a@b.co","password":"password1"}',
  },
  { type: 'application/json', body: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { type: 'application/json', body: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  { type: 'application/json', body: '{"email":"a@b.co","password":"\\u0000\\u0000\\u0000\\u0000"}' },
  { type: 'application/json; charset=latin1', body: '{"email":"a@b.co"}' },
  { type: 'text/plain', body: 'hello' },
  { type: 'application/xml', body: '<a/>' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&a=2' },
  {
    type: 'multipart/form-data; boundary=xyz',
    body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--',
  },
  { type: 'multipart/form-data', body: 'garbage' },
  { type: '', body: 'no type' },
  { type: 'application/json', body: '\u0000\u0001\u0002' },
];

const QUERIES = [
  '?page=1&page=2',
  '?limit[]=1',
  '?q=a&q=b',
  '?q[$ne]=1',
  '?category=retro-games&category=puzzles',
  '?page=1e20',
  '?page=9007199254740993',
  '?page=99999999999&limit=100',
  '?limit=-5',
  '?page=NaN&limit=Infinity',
  '?q=%00',
  '?q=%',
  '?q=%25%5F%5C',
  `?q=${'%F0%9F%92%A9'.repeat(50)}`,
  `?q=${'a'.repeat(5000)}`,
  '?__proto__[isAdmin]=1',
  '?constructor[prototype][x]=1',
  '?%ZZ=1',
];

const AUTH_HEADERS = [
  'Bearer',
  'Bearer x.y.z',
  `Bearer ${'a'.repeat(10_000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'bearer    spaced',
  'Basic Zm9vOmJhcg==',
];

function expectClientSafe(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  label: string,
) {
  expect(res.statusCode, `${label} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 400 && String(res.headers['content-type'] ?? '').includes('json')) {
    const body = JSON.parse(res.body) as { message?: unknown };
    expect(typeof body.message, `${label}: message`).toBe('string');
  }
}

describe('garbage in, never a 500 out', () => {
  let ctx: TestContext;
  let routes: RouteAccess[];
  let tokens: { customer: string; admin: string };

  beforeAll(async () => {
    ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
    mkdirSync(ctx.config.webDistDir, { recursive: true });
    writeFileSync(path.join(ctx.config.webDistDir, 'index.html'), '<!doctype html><title>x</title>');
    await ctx.app.ready();
    routes = ctx.app.accessTable.filter((r) => !r.url.startsWith('/api/test'));
    tokens = {
      customer: (await insertUser(ctx.db)).token,
      admin: (await insertUser(ctx.db, { isAdmin: true })).token,
    };
    await insertProduct(ctx.db);
  });
  afterAll(() => ctx.close());

  const urlsFor = (route: RouteAccess) =>
    route.url.includes(':') ? GARBAGE_IDS.map((id) => route.url.replace(/:[A-Za-z]+/g, id)) : [route.url];

  /**
   * The two body sweeps send every wrong shape to every route that reads a body: 15-20 s on a quiet
   * 2-core machine, so the default 20 s ran out when other jobs shared it. A bound on a hang, not a
   * speed check.
   */
  const SWEEP_TIMEOUT_MS = 90_000;
  /**
   * Fastify never reads the body of a GET or HEAD (the handler runs without it), so bodies go to the
   * other routes; the GETs get garbage ids, queries and headers below. (A GET with a body would only
   * repeat its plain call, and the backup and CSV downloads take a second or more each.)
   */
  const bodyRoutes = () => routes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');

  it('covers the routes that exist', () => {
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    for (const checkout of [
      'POST /api/orders',
      'PUT /api/orders/:id/payment',
      'POST /api/orders/:id/paypal/capture',
      'POST /api/giftcards/use',
      'POST /api/payments/paypal/webhook',
    ]) {
      expect(urls).toContain(checkout);
    }
  });

  it(
    'answers JSON bodies of every wrong shape with < 500 and a message',
    async () => {
      for (const route of bodyRoutes()) {
        for (const url of urlsFor(route).slice(0, 3)) {
          for (const payload of JSON_BODIES) {
            for (const token of [undefined, tokens.customer, tokens.admin]) {
              const res = await ctx.app.inject({
                method: route.method as 'POST',
                url,
                headers: {
                  'content-type': 'application/json',
                  ...(token ? { authorization: `Bearer ${token}` } : {}),
                },
                payload: JSON.stringify(payload),
              });
              expectClientSafe(res, `${route.method} ${url} ${JSON.stringify(payload).slice(0, 80)}`);
            }
          }
        }
      }
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'answers malformed bodies and wrong content types with < 500 and a message',
    async () => {
      for (const route of bodyRoutes()) {
        for (const { type, body } of RAW_BODIES) {
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url: urlsFor(route)[0] ?? route.url,
            headers: { ...(type ? { 'content-type': type } : {}), authorization: `Bearer ${tokens.admin}` },
            payload: body,
          });
          expectClientSafe(res, `${route.method} ${route.url} ${type} ${body.slice(0, 40)}`);
        }
      }
    },
    SWEEP_TIMEOUT_MS,
  );

  it('answers garbage ids in the path with < 500 and a message', async () => {
    for (const route of routes.filter((r) => r.url.includes(':'))) {
      for (const url of urlsFor(route)) {
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${tokens.admin}` },
        });
        expectClientSafe(res, `${route.method} ${url}`);
      }
    }
  });

  it('answers garbage query strings with < 500 and a message', async () => {
    for (const route of routes) {
      for (const query of QUERIES) {
        const url = `${urlsFor(route)[0] ?? route.url}${query}`;
        const res = await ctx.app.inject({ method: route.method as 'GET', url });
        expectClientSafe(res, `${route.method} ${url.slice(0, 120)}`);
      }
    }
  });

  it('answers garbage Authorization headers with < 500 and a message', async () => {
    for (const route of routes) {
      for (const authorization of AUTH_HEADERS) {
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url: urlsFor(route)[0] ?? route.url,
          headers: { authorization },
        });
        expectClientSafe(res, `${route.method} ${route.url} auth=${authorization.slice(0, 30)}`);
      }
    }
  });

  it('answers garbage on paths outside the API with < 500', async () => {
    for (const url of [
      '/%00',
      '/..%2F..%2Fetc%2Fpasswd',
      '/uploads/..%2F..%2Fjwt-secret',
      '/assets/%E0%A4%A',
      '/%',
    ]) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
        const res = await ctx.app.inject({ method, url });
        expectClientSafe(res, `${method} ${url}`);
      }
    }
  });
});

import { createRequire } from 'node:module';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { TEST_ADDRESS, insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { buyable, quote } from '../../test/tradeins.js';

/**
 * The contract (issue 37): real answers of the main routes checked against the response schema the
 * document gives for their status, with a JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1).
 * Ajv 8 comes with fastify (through ajv-formats); the root node_modules/ajv is an older major.
 */
const fromAjvFormats = createRequire(createRequire(import.meta.url).resolve('ajv-formats'));
type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };
interface Ajv {
  compile(schema: object): Validate;
}
const Ajv2020 = (fromAjvFormats('ajv/dist/2020') as { default: new (options: object) => Ajv }).default;
const addFormats = (fromAjvFormats('ajv-formats') as { default: (ajv: Ajv) => void }).default;

type Json = Record<string, unknown>;
interface Response {
  content?: Record<string, { schema: Json }>;
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: Json;
}

let ctx: TestContext;
let doc: Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<string, Validate>();

/**
 * The answer's status is documented for this operation, its media type is one documented for that
 * status, and a JSON body validates against the documented schema (its `$ref`s resolved in the
 * document's components).
 */
function expectDocumented(
  method: string,
  path: string,
  res: { statusCode: number; headers: Json; body: string },
) {
  const label = `${method} ${path} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
  const response = doc.paths[path]?.[method.toLowerCase()]?.responses[String(res.statusCode)];
  expect(response, `${label}: status not documented`).toBeDefined();
  const mediaType = String(res.headers['content-type']).split(';')[0]!.trim();
  const media = response!.content?.[mediaType];
  expect(media, `${label}: ${mediaType} not documented`).toBeDefined();
  if (mediaType !== 'application/json') return;
  const key = `${method} ${path} ${res.statusCode}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ ...media!.schema, components: doc.components });
    compiled.set(key, validate);
  }
  const valid = validate(JSON.parse(res.body));
  expect(valid, `${label}\n${JSON.stringify(validate.errors, null, 1)}`).toBe(true);
}

const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  path: string,
  options: { headers?: Record<string, string>; payload?: object } = {},
): Promise<LightMyRequestResponse> => {
  const res = await ctx.app.inject({ method, url, ...options });
  expectDocumented(method, path, res as never);
  return res;
};

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
});
afterAll(() => ctx.close());

describe('the answers of the main routes match the documented schemas', () => {
  it('the catalogue: list, page, product, facets, suggestions (fastify and the fast path alike)', async () => {
    const product = await insertProduct(ctx.db, {
      name: 'Contract Cartridge',
      platform: 'Nintendo 64',
      options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
      variants: [{ options: { Condition: 'Loose' } }, { options: { Condition: 'Boxed' } }],
    });
    await insertProduct(ctx.db, { name: 'Contract Board Game', category: 'board-games' });
    const list = await call('GET', '/api/products', '/api/products');
    expect(Array.isArray(list.json())).toBe(true);
    expect(list.json<unknown[]>().length).toBeGreaterThanOrEqual(2);
    const page = await call('GET', '/api/products?page=1&limit=1', '/api/products');
    expect(page.json()).toMatchObject({ page: 1, products: [expect.any(Object)] });
    await call('GET', `/api/products/${product.id}`, '/api/products/{id}');
    await call('GET', '/api/products/facets?q=contract', '/api/products/facets');
    await call('GET', '/api/products/suggest?q=contract', '/api/products/suggest');

    // The cached answers, as the fast path in front of fastify sends them to a real socket.
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    for (const [url, path] of [
      ['/api/products', '/api/products'],
      ['/api/products?page=1&limit=1', '/api/products'],
      [`/api/products/${product.id}`, '/api/products/{id}'],
    ] as const) {
      const res = await fetch(`${address}${url}`);
      const body = await res.text();
      expectDocumented('GET', path, {
        statusCode: res.status,
        headers: Object.fromEntries(res.headers),
        body,
      });
    }
  });

  it('accounts: register, login, profile', async () => {
    const email = `contract-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    const registered = await call('POST', '/api/users', '/api/users', {
      payload: { name: 'Contract Shopper', email, password },
    });
    expect(registered.statusCode).toBe(201);
    const login = await call('POST', '/api/users/login', '/api/users/login', {
      payload: { email, password },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json<{ token: string }>().token;
    const profile = await call('GET', '/api/users/profile', '/api/users/profile', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.json()).toMatchObject({ email });
  });

  it('orders: place, mine, one, the admin list; a gift card balance; the trade-in buy list', async () => {
    const customer = await insertUser(ctx.db);
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const product = await insertProduct(ctx.db, { name: 'Contract Console', priceCents: 4999, stock: 5 });
    const placed = await call('POST', '/api/orders', '/api/orders', {
      headers: customer.auth,
      payload: {
        orderItems: [{ product: product.id, itemQuantity: 1 }],
        shippingAddress: TEST_ADDRESS,
        paymentMethod: 'paypal',
      },
    });
    expect(placed.statusCode).toBe(201);
    const order = placed.json<{ _id: string }>();
    await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    const mine = await call('GET', '/api/orders', '/api/orders', { headers: customer.auth });
    expect(mine.json<unknown[]>()).toHaveLength(2);
    await call('GET', `/api/orders/${order._id}`, '/api/orders/{id}', { headers: customer.auth });
    const all = await call('GET', '/api/orders/admin/vieworders', '/api/orders/admin/vieworders', {
      headers: admin.auth,
    });
    expect(all.statusCode).toBe(200);
    await call('GET', '/api/orders/admin/vieworders?page=1&limit=1', '/api/orders/admin/vieworders', {
      headers: admin.auth,
    });

    const card = await insertGiftCard(ctx.db, { balanceCents: 2500 });
    const balance = await call('POST', '/api/giftcards/check-balance', '/api/giftcards/check-balance', {
      headers: customer.auth,
      payload: { code: card.code },
    });
    expect(balance.statusCode).toBe(200);

    const traded = await buyable(ctx.db, { name: 'Contract Trade Game', creditCents: 1200 });
    const buylist = await call('GET', '/api/tradeins/buylist?q=contract', '/api/tradeins/buylist');
    expect(buylist.json<{ total: number }>().total).toBeGreaterThanOrEqual(1);
    const tradeIn = await quote(ctx.app, customer.auth, [{ product: traded.id, qty: 1 }]);
    await call('GET', `/api/tradeins/${tradeIn._id}`, '/api/tradeins/{id}', { headers: customer.auth });
    await call('GET', '/api/admin/stats', '/api/admin/stats', { headers: admin.auth });
  });

  it('errors: 400, 401, 403, 404, 409 and 429 answer the documented { message, code? }', async () => {
    const customer = await insertUser(ctx.db);
    const bad = await call('GET', '/api/orders/not-an-id', '/api/orders/{id}', { headers: customer.auth });
    expect(bad.statusCode).toBe(400);
    const missing = await call('GET', `/api/products/${crypto.randomUUID()}`, '/api/products/{id}');
    expect(missing.statusCode).toBe(404);
    const anonymous = await call('GET', '/api/users/profile', '/api/users/profile');
    expect(anonymous.statusCode).toBe(401);
    const notAdmin = await call('GET', '/api/orders/admin/vieworders', '/api/orders/admin/vieworders', {
      headers: customer.auth,
    });
    expect(notAdmin.statusCode).toBe(403);
    const invalid = await call('POST', '/api/users', '/api/users', { payload: { name: 'x' } });
    expect(invalid.statusCode).toBe(400);
    const taken = await call('POST', '/api/users', '/api/users', {
      payload: { name: 'Again', email: customer.user.email, password: 'correct horse battery staple' },
    });
    expect(taken.statusCode).toBe(409);

    // A rate limit: the second failed login from one address, on an app with a budget of one.
    const strict = await ctx.newApp({
      limits: { ...NO_RATE_LIMITS, loginAddress: { max: 1, windowMs: 60_000 } },
    });
    const login = () =>
      strict.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: customer.user.email, password: 'not the password at all' },
      });
    expect((await login()).statusCode).toBe(401);
    const limited = await login();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expectDocumented('POST', '/api/users/login', limited as never);
  });
});

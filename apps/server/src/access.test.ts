import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access, RouteAccess } from './lib/access.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from './test/context.js';
import { products } from './db/schema/index.js';
import { insertProduct, insertUser, productRows } from './test/factories.js';

/**
 * Every /api route the server registers, called as visitor, customer, another customer and admin,
 * must answer as its declared access says: a new route without a guard fails here.
 * Only the auth outcome is asserted (401/403 or not); ids are random UUIDs, bodies minimal.
 */

type Caller = 'visitor' | 'customer' | 'otherCustomer' | 'admin';

const DENIED: Record<Access, Record<Caller, number | null>> = {
  public: { visitor: null, customer: null, otherCustomer: null, admin: null },
  'visitor-or-user': { visitor: null, customer: null, otherCustomer: null, admin: null },
  user: { visitor: 401, customer: null, otherCustomer: null, admin: null },
  admin: { visitor: 401, customer: 403, otherCustomer: 403, admin: null },
};

/** Routes whose declared access is a promise of this test: checked explicitly, not only by table. */
const EXPECTED_ADMIN_ROUTES = [
  'GET /api/admin/audit',
  'GET /api/admin/stats',
  'GET /api/admin/export/orders.csv',
  'GET /api/admin/export/products.csv',
  'GET /api/admin/backup',
  'POST /api/admin/import/products',
  'GET /api/users/admin/users',
  'GET /api/users/admin/user/:id',
  'PUT /api/users/admin/user/:id',
  'DELETE /api/users/admin/user/:id',
  'POST /api/users/admin/add',
  'POST /api/users/admin/user/:id/password-reset',
  'POST /api/users/admin/user/:id/2fa/reset',
  'GET /api/orders/admin/vieworders',
  'PUT /api/orders/:id/delivery',
  'GET /api/giftcards/admin/getall',
  'POST /api/giftcards/admin/create',
  'PUT /api/giftcards/admin/:id/add-balance',
  'DELETE /api/giftcards/admin/delete/:id',
  'POST /api/products/add-new',
  'DELETE /api/products/delete/:id',
  'PUT /api/products/:id/reviews/:reviewId/hide',
  'GET /api/reviews/admin/reviews',
  'GET /api/alerts/admin/most-wanted',
  'GET /api/admin/export/tradeins.csv',
  'GET /api/tradeins/admin',
  'GET /api/tradeins/admin/:id',
  'POST /api/tradeins/admin/:id/receive',
  'POST /api/tradeins/admin/:id/inspect',
];

describe('access control of every /api route', () => {
  let ctx: TestContext;
  let routes: RouteAccess[];
  let headers: Record<Caller, Record<string, string>>;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
    await ctx.app.ready();
    routes = ctx.app.accessTable;
    const customer = await insertUser(ctx.db);
    const other = await insertUser(ctx.db);
    const admin = await insertUser(ctx.db, { isAdmin: true });
    headers = { visitor: {}, customer: customer.auth, otherCustomer: other.auth, admin: admin.auth };
  });
  afterAll(() => ctx.close());

  it('declares the admin routes as admin-only', () => {
    const table = new Map(routes.map((r) => [`${r.method} ${r.url}`, r.access]));
    for (const route of EXPECTED_ADMIN_ROUTES) expect(table.get(route), route).toBe('admin');
  });

  it('lets a customer send only the stock update of the spec checkout, which writes nothing', async () => {
    const table = new Map(routes.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(table.get('PUT /api/products/update/:id')).toBe('user');
    const product = await insertProduct(ctx.db, { name: 'Stocked', priceCents: 1000, stock: 7 });
    const update = (caller: Caller, payload: object) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/products/update/${product.id}`,
        headers: headers[caller],
        payload,
      });
    const echo = await update('customer', { stockQuantity: 0 });
    expect(echo.statusCode).toBe(200);
    expect(echo.json()).toMatchObject({ _id: product.id, stockQuantity: 7, productPrice: 10 });
    for (const payload of [
      { productPrice: 0.01 },
      { stockQuantity: 0, productPrice: 0.01 },
      { productName: 'Mine now' },
      { stockQuantity: 0, productCategory: 'puzzles' },
    ]) {
      const res = await update('customer', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Admin access only' });
    }
    expect((await update('visitor', { stockQuantity: 0 })).statusCode).toBe(401);
    const [row] = await productRows(ctx.db, eq(products.id, product.id));
    expect(row).toMatchObject({ stock: 7, priceCents: 1000, name: 'Stocked', category: 'retro-games' });
    // An admin's stock-only update still writes.
    expect((await update('admin', { stockQuantity: 3 })).json()).toMatchObject({ stockQuantity: 3 });
  });

  it('answers each route as its declared access says, for every kind of caller', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(EXPECTED_ADMIN_ROUTES.length);
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z]+/g, () => randomUUID());
      for (const caller of ['visitor', 'customer', 'otherCustomer', 'admin'] as const) {
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...headers[caller], ...(hasBody ? { 'content-type': 'application/json' } : {}) },
          ...(hasBody ? { payload: '{}' } : {}),
        });
        const label = `${route.method} ${route.url} as ${caller} (${route.access}) -> ${res.statusCode} ${res.body.slice(0, 120)}`;
        const denied = DENIED[route.access][caller];
        if (denied === null) expect([401, 403], label).not.toContain(res.statusCode);
        else expect(res.statusCode, label).toBe(denied);
      }
    }
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access, RouteAccess } from './lib/access.js';
import { type TestContext, createTestContext } from './test/context.js';
import { insertUser } from './test/factories.js';

/**
 * Every /api route the server registers, called as visitor, customer, another customer and admin,
 * must answer as its declared access says: a new route without a guard fails here.
 * Only the auth outcome is asserted (401/403 or not); ids are random UUIDs, bodies minimal.
 */

type Caller = 'visitor' | 'customer' | 'otherCustomer' | 'admin';

const DENIED: Record<Access, Record<Caller, number | null>> = {
  public: { visitor: null, customer: null, otherCustomer: null, admin: null },
  user: { visitor: 401, customer: null, otherCustomer: null, admin: null },
  admin: { visitor: 401, customer: 403, otherCustomer: 403, admin: null },
};

/** Routes whose declared access is a promise of this test: checked explicitly, not only by table. */
const EXPECTED_ADMIN_ROUTES = [
  'GET /api/admin/audit',
  'GET /api/users/admin/users',
  'GET /api/users/admin/user/:id',
  'PUT /api/users/admin/user/:id',
  'DELETE /api/users/admin/user/:id',
  'POST /api/users/admin/add',
  'GET /api/orders/admin/vieworders',
  'PUT /api/orders/:id/delivery',
  'GET /api/giftcards/admin/getall',
  'POST /api/giftcards/admin/create',
  'PUT /api/giftcards/admin/:id/add-balance',
  'DELETE /api/giftcards/admin/delete/:id',
  'POST /api/products/add-new',
  'PUT /api/products/update/:id',
  'DELETE /api/products/delete/:id',
];

describe('access control of every /api route', () => {
  let ctx: TestContext;
  let routes: RouteAccess[];
  let headers: Record<Caller, Record<string, string>>;

  beforeAll(async () => {
    const big = { max: 1_000_000, windowMs: 60_000 };
    ctx = await createTestContext({ app: { limits: { login: big, register: big, contact: big } } });
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

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse } from '@pixel-vault/shared';
import { users } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../../test/factories.js';

type Auth = { authorization: string };

/**
 * Issue 30: an admin reading an order sees who did each step (`byUser`) and the order's customer; the
 * customer's own answer never names an admin. On PGlite and (npm run test:pg) PostgreSQL.
 */
describe("GET /api/orders/:id names the timeline's people to admins only (issue 30)", () => {
  let ctx: TestContext;
  let ada: Auth;
  let bo: { auth: Auth; id: string };
  let customer: Auth;
  let customerEmail: string;
  let orderId: string;

  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const post = (auth: Auth, url: string, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: auth, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
    ada = (await insertUser(ctx.db, { name: 'Ada Admin', email: 'ada@shop.test', isAdmin: true })).auth;
    const boRow = await insertUser(ctx.db, { name: 'Bo Gone', email: 'bo@shop.test', isAdmin: true });
    bo = { auth: boRow.auth, id: boRow.user.id };
    const cleo = await insertUser(ctx.db, { name: 'Cleo Customer' });
    customer = cleo.auth;
    customerEmail = cleo.user.email;

    // Placed and paid by the customer (demo provider), delivered and refunded by Ada, refunded by Bo.
    const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
    orderId = (await placeOrder(ctx.app, customer, [{ product: product.id, itemQuantity: 1 }]))._id;
    const created = await post(customer, `/api/orders/${orderId}/paypal`);
    const { id: paypalOrderId } = created.json<PayPalOrderResponse>();
    expect(
      (await post(customer, `/api/orders/${orderId}/paypal/capture`, { paypalOrderId })).statusCode,
    ).toBe(200);
    const delivered = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/delivery`,
      headers: ada,
      payload: { isDelivered: true },
    });
    expect(delivered.statusCode).toBe(200);
    const refunds = [
      await post(ada, `/api/orders/${orderId}/refund`, { amount: 10, reason: 'Box arrived dented' }),
      await post(bo.auth, `/api/orders/${orderId}/refund`, { amount: 5, reason: 'Late' }),
    ];
    expect(refunds.map((r) => r.statusCode)).toEqual([200, 200]);
    // Bo's account goes: the event's actor_user_id is set null.
    await ctx.db.delete(users).where(eq(users.id, bo.id));
  });
  afterAll(() => ctx.close());

  it("names the admin and the customer by their accounts in the admin's reading", async () => {
    const res = await get(ada, `/api/orders/${orderId}`);
    expect(res.statusCode).toBe(200);
    const order = res.json<Order>();
    const cleo = { name: 'Cleo Customer', email: customerEmail };
    const adaUser = { name: 'Ada Admin', email: 'ada@shop.test' };
    expect(order.timeline?.map(({ event, by, amount, byUser }) => ({ event, by, amount, byUser }))).toEqual([
      { event: 'placed', by: 'customer', amount: null, byUser: cleo },
      { event: 'paid', by: 'customer', amount: 30.99, byUser: cleo },
      { event: 'delivered', by: 'admin', amount: null, byUser: adaUser },
      { event: 'refunded', by: 'admin', amount: 10, byUser: adaUser },
      // A deleted admin is named by nobody: the web reads "an admin".
      { event: 'refunded', by: 'admin', amount: 5, byUser: undefined },
    ]);
    expect(order.timeline?.[4]).not.toHaveProperty('byUser');
    expect(order.customer).toEqual(cleo);
  });

  it("never gives the customer an admin's name or e-mail", async () => {
    const res = await get(customer, `/api/orders/${orderId}`);
    expect(res.statusCode).toBe(200);
    const order = res.json<Order>();
    expect(order.timeline?.map((e) => [e.event, e.by])).toEqual([
      ['placed', 'customer'],
      ['paid', 'customer'],
      ['delivered', 'admin'],
      ['refunded', 'admin'],
      ['refunded', 'admin'],
    ]);
    for (const event of order.timeline ?? []) expect(event).not.toHaveProperty('byUser');
    expect(order).not.toHaveProperty('customer');
    for (const secret of ['Ada Admin', 'ada@shop.test', 'byUser']) expect(res.body).not.toContain(secret);
    const list = await get(customer, '/api/orders');
    for (const secret of ['Ada Admin', 'ada@shop.test', 'byUser']) expect(list.body).not.toContain(secret);
  });
});

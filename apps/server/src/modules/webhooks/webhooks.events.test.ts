import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse, TradeIn, WebhookPayload } from '@pixel-vault/shared';
import { orders, productVariants, webhookEvents } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { acceptAll, adminMove, buyable, move, ok, quote } from '../../test/tradeins.js';
import { type Receiver, createEndpoint, eventsOf, startReceiver } from '../../test/webhooks.js';

/**
 * Issue 37: every event type is written by the database when the real API action commits (and only
 * then), sent once with the payload the docs describe; none is written when no endpoint subscribes.
 */
type Auth = { authorization: string };
let ctx: TestContext;
let admin: Auth;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { WEBHOOKS_ALLOW_LOCAL: 'true', LOW_STOCK_THRESHOLD: '3' },
    app: { limits: NO_RATE_LIMITS, productsCacheTtlMs: 0 },
  });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const post = (url: string, headers: Auth, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

async function drain() {
  for (;;) {
    const { succeeded, retrying, failed } = await ctx.app.webhooks.worker.drainOnce();
    if (succeeded + retrying + failed === 0) return;
  }
}

/** The bodies the receiver got at `path` of one type, parsed. */
const received = (path: string, type: string) =>
  receiver
    .hits(path)
    .map((hit) => JSON.parse(hit.body) as WebhookPayload)
    .filter((p) => p.type === type);

async function newOrder(stock = 10, quantity = 1) {
  const customer = await insertUser(ctx.db);
  const product = await insertProduct(ctx.db, { priceCents: 2000, stock });
  const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: quantity }]);
  return { auth: customer.auth, product, order };
}

async function payByDemo(auth: Auth, orderId: string) {
  const created = await post(`/api/orders/${orderId}/paypal`, auth);
  expect(created.statusCode, created.body).toBe(200);
  const { id } = created.json<PayPalOrderResponse>();
  const captured = await post(`/api/orders/${orderId}/paypal/capture`, auth, { paypalOrderId: id });
  expect(captured.statusCode, captured.body).toBe(200);
}

const adminOrder = async (id: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: admin });
  expect(res.statusCode).toBe(200);
  return res.json<Order>();
};

describe('no subscriber, no cost', () => {
  it('writes no event at all while no endpoint subscribes to the type', async () => {
    const before = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    await newOrder();
    // A subscriber to another type only.
    await createEndpoint(ctx.app, admin, { url: receiver.url('/other'), events: ['tradein.accepted'] });
    const { auth, order } = await newOrder(10);
    await payByDemo(auth, order._id);
    const after = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe('each event, from the API action that makes it', () => {
  const path = '/all';
  beforeAll(async () => {
    await createEndpoint(ctx.app, admin, {
      url: receiver.url(path),
      events: [
        'order.placed',
        'order.paid',
        'order.cancelled',
        'order.refunded',
        'order.delivered',
        'product.low_stock',
        'product.back_in_stock',
        'tradein.accepted',
      ],
    });
  });

  it('order.placed carries the order as an admin reads it', async () => {
    const { order } = await newOrder();
    await drain();
    const [placed, ...more] = received(path, 'order.placed').filter((p) => p.data._id === order._id);
    expect(more).toHaveLength(0);
    expect(placed?.data).toEqual(await adminOrder(order._id));
    expect(placed?.data).toMatchObject({ status: 'awaiting_payment', customer: expect.any(Object) });
  });

  it('order.paid after a demo payment, once, and order.delivered when marked delivered', async () => {
    const { auth, order } = await newOrder();
    await payByDemo(auth, order._id);
    await drain();
    const paid = received(path, 'order.paid').filter((p) => p.data._id === order._id);
    expect(paid).toHaveLength(1);
    expect(paid[0]?.data).toMatchObject({ status: 'paid' });

    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/delivery`,
      headers: admin,
      payload: { isDelivered: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Marking it again changes nothing and sends nothing.
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/delivery`,
      headers: admin,
      payload: { isDelivered: true },
    });
    await drain();
    const delivered = received(path, 'order.delivered').filter((p) => p.data._id === order._id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.data).toMatchObject({ status: 'delivered' });
  });

  it("order.cancelled at a customer's cancel, once", async () => {
    const { auth, order } = await newOrder();
    expect((await post(`/api/orders/${order._id}/cancel`, auth)).statusCode).toBe(200);
    expect((await post(`/api/orders/${order._id}/cancel`, auth)).statusCode).toBe(200);
    await drain();
    const cancelled = received(path, 'order.cancelled').filter((p) => p.data._id === order._id);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.data).toMatchObject({ status: 'cancelled' });
  });

  it('order.refunded once per completed refund, with its amount', async () => {
    const { auth, order } = await newOrder();
    await payByDemo(auth, order._id);
    expect(
      (await post(`/api/orders/${order._id}/refund`, admin, { amount: 5, reason: 'Scratched' })).statusCode,
    ).toBe(200);
    expect((await post(`/api/orders/${order._id}/refund`, admin, { reason: 'Returned' })).statusCode).toBe(
      200,
    );
    expect((await post(`/api/orders/${order._id}/refund`, admin, { reason: 'Again' })).statusCode).toBe(409);
    await drain();
    const refunds = received(path, 'order.refunded').filter((p) => p.data._id === order._id);
    expect(refunds.map((p) => (p.data.refund as { amount: number }).amount).sort((a, b) => a - b)).toEqual([
      5,
      Number((order.totalPrice - 5).toFixed(2)),
    ]);
  });

  it('product.low_stock when an order takes stock to the threshold, not again below it', async () => {
    const { product } = await newOrder(5, 2);
    const customer = await insertUser(ctx.db);
    await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    await drain();
    const low = received(path, 'product.low_stock').filter((p) => p.data.productId === product.id);
    expect(low).toHaveLength(1);
    expect(low[0]?.data).toEqual({
      productId: product.id,
      variantId: product.variantId,
      sku: expect.any(String),
      name: product.name,
      stock: 3,
      threshold: 3,
    });
  });

  it('product.back_in_stock when an admin restocks a sold-out product', async () => {
    const product = await insertProduct(ctx.db, { stock: 0 });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/products/update/${product.id}`,
      headers: admin,
      payload: { stockQuantity: 4 },
    });
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    const back = received(path, 'product.back_in_stock').filter((p) => p.data.productId === product.id);
    expect(back).toHaveLength(1);
    expect(back[0]?.data).toMatchObject({ variantId: product.variantId, stock: 4 });
    expect(back[0]?.data).not.toHaveProperty('threshold');
  });

  it('product.back_in_stock is not sent for a deleted product', async () => {
    const product = await insertProduct(ctx.db, { stock: 0, deletedAt: new Date() });
    await ctx.db.update(productVariants).set({ stock: 2 }).where(eq(productVariants.id, product.variantId));
    await drain();
    expect(
      received(path, 'product.back_in_stock').filter((p) => p.data.productId === product.id),
    ).toHaveLength(0);
  });

  it('stock is compared before and after the whole transaction', async () => {
    const settle = await insertProduct(ctx.db, { stock: 10 });
    const replaced = await insertProduct(ctx.db, { stock: 3 });
    const soldOut = await insertProduct(ctx.db, { stock: 0 });
    await ctx.db.transaction(async (tx) => {
      const set = (id: string, stock: number) =>
        tx.update(productVariants).set({ stock }).where(eq(productVariants.id, id));
      // 10 -> 4 -> 2: one crossing.
      await set(settle.variantId, 4);
      await set(settle.variantId, 2);
      // 3 -> 5 -> 3 (a checkout given back and placed again): no crossing.
      await set(replaced.variantId, 5);
      await set(replaced.variantId, 3);
      // 0 -> 1 -> 0: not back in stock.
      await set(soldOut.variantId, 1);
      await set(soldOut.variantId, 0);
    });
    await drain();
    const low = received(path, 'product.low_stock');
    expect(low.filter((p) => p.data.productId === settle.id).map((p) => p.data.stock)).toEqual([2]);
    expect(low.filter((p) => p.data.productId === replaced.id)).toHaveLength(0);
    expect(
      received(path, 'product.back_in_stock').filter((p) => p.data.productId === soldOut.id),
    ).toHaveLength(0);
  });

  it('tradein.accepted when an inspection accepts every line and credits it', async () => {
    const customer = await insertUser(ctx.db);
    const game = await buyable(ctx.db);
    const made = await quote(ctx.app, customer.auth, [{ product: game.id, qty: 1 }]);
    await ok(move(ctx.app, customer.auth, made._id, 'ship'));
    await ok(adminMove(ctx.app, admin, made._id, 'receive'));
    const accepted = await ok(adminMove(ctx.app, admin, made._id, 'inspect', acceptAll(made)));
    expect(accepted.status).toBe('accepted');
    await drain();
    const sent = received(path, 'tradein.accepted').filter((p) => p.data._id === made._id);
    expect(sent).toHaveLength(1);
    expect((sent[0]?.data as unknown as TradeIn).status).toBe('accepted');
    expect(sent[0]?.data).toMatchObject({ _id: made._id, creditedAmount: expect.any(Number) });
  });

  it('writes nothing for a change that rolls back, nor for an order refused', async () => {
    const { order } = await newOrder(1);
    const before = (await eventsOf(ctx.db, 'order.cancelled')).length;
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, order._id));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await eventsOf(ctx.db, 'order.cancelled')).toHaveLength(before);

    const placedBefore = (await eventsOf(ctx.db, 'order.placed')).length;
    const customer = await insertUser(ctx.db);
    const soldOut = await insertProduct(ctx.db, { stock: 0 });
    await expect(
      placeOrder(ctx.app, customer.auth, [{ product: soldOut.id, itemQuantity: 1 }]),
    ).rejects.toThrow(/409/);
    expect(await eventsOf(ctx.db, 'order.placed')).toHaveLength(placedBefore);
  });
});

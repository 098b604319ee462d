import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse } from '@pixel-vault/shared';
import { giftCardLedger, giftCards, orders, payments } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  stockOf as stockIn,
} from '../../test/factories.js';

// Issue 9: one customer's unpaid orders together may hold at most 3 orders, 10 units and $500.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { HOLD_MAX_ORDERS: '3', HOLD_MAX_UNITS: '10', HOLD_MAX_VALUE: '500' },
  });
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type Line = { product: string; itemQuantity: number };

const post = (auth: Auth, orderItems: Line[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal' },
  });

const stockOf = (id: string) => stockIn(ctx.db, id);
const statusOf = async (id: string) =>
  (await ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;

/** `count` orders of one unit each, each of its own $10 product (so no two carts are the same). */
async function fillHolds(auth: Auth, count: number): Promise<Order[]> {
  const placed: Order[] = [];
  for (let i = 0; i < count; i++) {
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 5 });
    placed.push(await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]));
  }
  return placed;
}

/** One more order of a fresh product: answers the response and the product. */
async function oneMore(auth: Auth, quantity = 1) {
  const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 20 });
  return { res: await post(auth, [{ product: p.id, itemQuantity: quantity }]), product: p };
}

/** Pays an order in demo mode: our server makes the provider order, then captures it. */
async function pay(auth: Auth, orderId: string) {
  const created = await ctx.app.inject({
    method: 'POST',
    url: `/api/orders/${orderId}/paypal`,
    headers: auth,
  });
  expect(created.statusCode).toBe(200);
  const { id } = created.json<PayPalOrderResponse>();
  const captured = await ctx.app.inject({
    method: 'POST',
    url: `/api/orders/${orderId}/paypal/capture`,
    headers: auth,
    payload: { paypalOrderId: id },
  });
  expect(captured.json<Order>()).toMatchObject({ isPaid: true });
}

function expectHoldLimit(res: Awaited<ReturnType<typeof post>>) {
  expect(res.statusCode, res.body).toBe(409);
  const body = res.json<{ message: string; code: string }>();
  expect(body.code).toBe('HOLD_LIMIT');
  return body.message;
}

describe('holds: what one customer may reserve with unpaid orders', () => {
  it('refuses one order that would take far more than the unit limit, and leaves the stock to others', async () => {
    const attacker = await insertUser(ctx.db);
    const shelf = await Promise.all(
      Array.from({ length: 8 }, () => insertProduct(ctx.db, { priceCents: 50, stock: 90 })),
    );
    const res = await post(
      attacker.auth,
      shelf.map((p) => ({ product: p.id, itemQuantity: 90 })),
    );
    expect(expectHoldLimit(res)).toMatch(/at most 10 items/);
    for (const p of shelf) expect(await stockOf(p.id)).toBe(90);

    const shopper = await insertUser(ctx.db);
    await placeOrder(ctx.app, shopper.auth, [{ product: shelf[0]!.id, itemQuantity: 2 }]);
    expect(await stockOf(shelf[0]!.id)).toBe(88);
  });

  it('refuses a fourth open order, pointing to My Orders, and reserves nothing for it', async () => {
    const { auth } = await insertUser(ctx.db);
    await fillHolds(auth, 3);
    const { res, product } = await oneMore(auth);
    expect(expectHoldLimit(res)).toMatch(/3 unpaid orders.*My Orders/);
    expect(await stockOf(product.id)).toBe(20);
  });

  it('counts the units of all open orders together, the new one included', async () => {
    const { auth } = await insertUser(ctx.db);
    expect((await oneMore(auth, 6)).res.statusCode).toBe(201);
    const refused = await oneMore(auth, 5);
    expect(expectHoldLimit(refused.res)).toMatch(/at most 10 items.*My Orders/);
    expect(await stockOf(refused.product.id)).toBe(20);
    expect((await oneMore(auth, 4)).res.statusCode).toBe(201);
  });

  it('counts the order totals together against the value limit', async () => {
    const { auth } = await insertUser(ctx.db);
    const dear = await insertProduct(ctx.db, { priceCents: 20_000, stock: 5 });
    const other = await insertProduct(ctx.db, { priceCents: 20_000, stock: 5 });
    // $200 + 15% tax, free shipping: $230 each, $460 held.
    await placeOrder(ctx.app, auth, [{ product: dear.id, itemQuantity: 1 }]);
    await placeOrder(ctx.app, auth, [{ product: other.id, itemQuantity: 1 }]);
    // $30 + $4.50 + $7.99 = $42.49: $502.49 would be held.
    const thirty = await insertProduct(ctx.db, { priceCents: 3000, stock: 5 });
    const refused = await post(auth, [{ product: thirty.id, itemQuantity: 1 }]);
    expect(expectHoldLimit(refused)).toMatch(/\$500\.00/);
    expect(await stockOf(thirty.id)).toBe(5);
    // $20 + $3 + $7.99 = $30.99: $490.99 fits.
    const twenty = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
    expect((await post(auth, [{ product: twenty.id, itemQuantity: 1 }])).statusCode).toBe(201);
  });

  it('lets exactly 3 of 6 simultaneous orders of one customer through', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const shelf = await Promise.all(
      Array.from({ length: 6 }, () => insertProduct(ctx.db, { priceCents: 1000, stock: 5 })),
    );
    const results = await Promise.all(shelf.map((p) => post(auth, [{ product: p.id, itemQuantity: 1 }])));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 409, 409, 409]);
    const open = await ctx.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(open).toHaveLength(3);
    const stock = await Promise.all(shelf.map((p) => stockOf(p.id)));
    expect(stock.sort()).toEqual([4, 4, 4, 5, 5, 5]);
  });

  it('replaces an open order of the same cart: its stock and gift-card money come back', async () => {
    const { auth } = await insertUser(ctx.db);
    const a = await insertProduct(ctx.db, { priceCents: 1000, stock: 10 });
    const b = await insertProduct(ctx.db, { priceCents: 1000, stock: 10 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 1500 });
    const first = await placeOrder(ctx.app, auth, [
      { product: a.id, itemQuantity: 2 },
      { product: b.id, itemQuantity: 1 },
    ]);
    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10, orderId: first._id },
    });
    expect(used.statusCode).toBe(200);

    // The same lines in another order (and split): the same cart.
    const second = await placeOrder(ctx.app, auth, [
      { product: b.id, itemQuantity: 1 },
      { product: a.id, itemQuantity: 1 },
      { product: a.id, itemQuantity: 1 },
    ]);
    expect(second._id).not.toBe(first._id);
    expect(await statusOf(first._id)).toBe('expired');
    expect(await statusOf(second._id)).toBe('unpaid');
    // Released, then reserved again: held once, not twice.
    expect(await stockOf(a.id)).toBe(8);
    expect(await stockOf(b.id)).toBe(9);
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after?.balanceCents).toBe(1500);
  });

  it('does not count the replaced order against the limits', async () => {
    const { auth } = await insertUser(ctx.db);
    const [first] = await fillHolds(auth, 3);
    const line = first!.orderItems[0]!;
    const again = await post(auth, [{ product: line.product, itemQuantity: line.itemQuantity }]);
    expect(again.statusCode, again.body).toBe(201);
    expect(await statusOf(first!._id)).toBe('expired');
  });

  it('keeps an order of the same cart that has a payment under way, and counts it', async () => {
    const { auth } = await insertUser(ctx.db);
    const [first] = await fillHolds(auth, 3);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${first!._id}/paypal`,
      headers: auth,
    });
    expect(started.statusCode).toBe(200);
    const line = first!.orderItems[0]!;
    expectHoldLimit(await post(auth, [{ product: line.product, itemQuantity: line.itemQuantity }]));
    expect(await statusOf(first!._id)).toBe('unpaid');
    const rows = await ctx.db.select().from(payments).where(eq(payments.orderId, first!._id));
    expect(rows.map((r) => r.status)).toEqual(['created']);
  });

  it('never counts a paid order', async () => {
    const { auth } = await insertUser(ctx.db);
    const [first] = await fillHolds(auth, 3);
    expectHoldLimit((await oneMore(auth)).res);
    await pay(auth, first!._id);
    expect((await oneMore(auth)).res.statusCode).toBe(201);
  });

  it('never counts an order whose hold ran out, and expires it on the spot', async () => {
    const { auth } = await insertUser(ctx.db);
    const [first] = await fillHolds(auth, 3);
    expectHoldLimit((await oneMore(auth)).res);
    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, first!._id));
    const product = first!.orderItems[0]!.product;
    expect(await stockOf(product)).toBe(4);
    // No sweeper ran: the placement itself expired the overdue order and gave its stock back.
    expect((await oneMore(auth)).res.statusCode).toBe(201);
    expect(await statusOf(first!._id)).toBe('expired');
    expect(await stockOf(product)).toBe(5);
  });

  it("does not limit another customer by one customer's holds", async () => {
    const greedy = await insertUser(ctx.db);
    const placed = await fillHolds(greedy.auth, 3);
    expectHoldLimit((await oneMore(greedy.auth)).res);
    const other = await insertUser(ctx.db);
    await fillHolds(other.auth, 3);
    const held = await ctx.db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((o) => o._id),
        ),
      );
    expect(held.map((o) => o.status)).toEqual(['unpaid', 'unpaid', 'unpaid']);
  });
});

describe('holds: an order placed to replace an earlier one of the same checkout (replacesOrderId)', () => {
  const replacing = (auth: Auth, orderItems: Line[], replacesOrderId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: auth,
      payload: { orderItems, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal', replacesOrderId },
    });

  /** A new one-unit order of a fresh product, replacing `orderId`. */
  async function replaceWithFresh(auth: Auth, orderId: string) {
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 20 });
    return { res: await replacing(auth, [{ product: p.id, itemQuantity: 1 }], orderId), product: p };
  }

  it('releases the named open order of the caller: stock back, gift-card money refunded with a ledger row', async () => {
    const { auth } = await insertUser(ctx.db);
    const a = await insertProduct(ctx.db, { priceCents: 1000, stock: 10 });
    const b = await insertProduct(ctx.db, { priceCents: 1000, stock: 10 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 1500 });
    const first = await placeOrder(ctx.app, auth, [{ product: a.id, itemQuantity: 2 }]);
    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10, orderId: first._id },
    });
    expect(used.statusCode, used.body).toBe(200);

    // Another cart (the shopper changed it during checkout): not released as the same cart would be.
    const res = await replacing(auth, [{ product: b.id, itemQuantity: 1 }], first._id);
    expect(res.statusCode, res.body).toBe(201);
    const second = res.json<Order>();
    expect(await statusOf(first._id)).toBe('expired');
    expect(await statusOf(second._id)).toBe('unpaid');
    expect(await stockOf(a.id)).toBe(10);
    expect(await stockOf(b.id)).toBe(9);
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after?.balanceCents).toBe(1500);
    const refunds = await ctx.db
      .select()
      .from(giftCardLedger)
      .where(and(eq(giftCardLedger.orderId, first._id), eq(giftCardLedger.kind, 'order_refund')));
    expect(refunds).toMatchObject([{ giftCardId: card.id, amountCents: 1000, balanceAfterCents: 1500 }]);
  });

  it('never reaches the order cap when each new order replaces the last, five times in a row', async () => {
    const { auth, user } = await insertUser(ctx.db);
    // Two other open orders: with the checkout's own order, the cap of 3 is reached.
    const others = await fillHolds(auth, 2);
    let previous = (await oneMore(auth)).res.json<Order>();
    const replaced: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { res } = await replaceWithFresh(auth, previous._id);
      expect(res.statusCode, res.body).toBe(201);
      replaced.push(previous._id);
      previous = res.json<Order>();
    }
    for (const id of replaced) expect(await statusOf(id)).toBe('expired');
    const open = await ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'unpaid')));
    expect(open.map((o) => o.id).sort()).toEqual([...others.map((o) => o._id), previous._id].sort());
  });

  it("ignores another customer's order id (and an unknown one) alike: that order stays open", async () => {
    const other = await insertUser(ctx.db);
    const [theirs] = await fillHolds(other.auth, 1);
    const theirProduct = theirs!.orderItems[0]!.product;
    const { auth } = await insertUser(ctx.db);
    const mine = await fillHolds(auth, 3);

    // Ignored, so the normal rules apply: the caller is at the cap. Nothing tells the ids apart.
    const foreign = expectHoldLimit((await replaceWithFresh(auth, theirs!._id)).res);
    const unknown = expectHoldLimit((await replaceWithFresh(auth, randomUUID())).res);
    expect(foreign).toBe(unknown);
    expect(await statusOf(theirs!._id)).toBe('unpaid');
    expect(await stockOf(theirProduct)).toBe(4);

    // The caller's own open order is released by the same request.
    expect((await replaceWithFresh(auth, mine[0]!._id)).res.statusCode).toBe(201);
    expect(await statusOf(mine[0]!._id)).toBe('expired');
  });

  it('ignores a paid order id: it stays paid and the new order is placed under the normal rules', async () => {
    const { auth } = await insertUser(ctx.db);
    const [paidOrder, second] = await fillHolds(auth, 3);
    await pay(auth, paidOrder!._id);

    const res = (await replaceWithFresh(auth, paidOrder!._id)).res;
    expect(res.statusCode, res.body).toBe(201);
    expect(await statusOf(paidOrder!._id)).toBe('paid');
    expect(await stockOf(paidOrder!.orderItems[0]!.product)).toBe(4);

    // Three open again; replacing one of them still goes through.
    expect((await replaceWithFresh(auth, second!._id)).res.statusCode).toBe(201);
    expect(await statusOf(second!._id)).toBe('expired');
  });

  it('ignores an order with a payment under way: it stays held and counts against the cap', async () => {
    const { auth } = await insertUser(ctx.db);
    const [paying, other] = await fillHolds(auth, 3);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${paying!._id}/paypal`,
      headers: auth,
    });
    expect(started.statusCode).toBe(200);

    expectHoldLimit((await replaceWithFresh(auth, paying!._id)).res);
    expect(await statusOf(paying!._id)).toBe('unpaid');
    expect(await stockOf(paying!.orderItems[0]!.product)).toBe(4);
    const rows = await ctx.db.select().from(payments).where(eq(payments.orderId, paying!._id));
    expect(rows.map((r) => r.status)).toEqual(['created']);

    expect((await replaceWithFresh(auth, other!._id)).res.statusCode).toBe(201);
    expect(await statusOf(other!._id)).toBe('expired');
  });
});

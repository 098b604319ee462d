import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@pixel-vault/shared';
import { giftCardLedger, giftCards, mailOutbox, orders } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  stockOf as stockIn,
} from '../../test/factories.js';
import { createOrderExpiry } from './orders.expiry.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const stockOf = (id: string) => stockIn(ctx.db, id);

function post(auth: { authorization: string }, payload: unknown) {
  return ctx.app.inject({ method: 'POST', url: '/api/orders', headers: auth, payload: payload as object });
}

describe('POST /api/orders', () => {
  it('prices the order from the product table and ignores tampered prices and totals', async () => {
    const { auth } = await insertUser(ctx.db);
    const a = await insertProduct(ctx.db, { priceCents: 1999, stock: 10, name: 'Zelda II' });
    const b = await insertProduct(ctx.db, { priceCents: 4550, stock: 10 });
    const res = await post(auth, {
      orderItems: [
        { product: a.id, itemQuantity: 2, itemPrice: 0.01, itemName: 'free', displayImage: 'x' },
        { product: b.id, itemQuantity: 1, itemPrice: 0.01 },
      ],
      shippingAddress: TEST_ADDRESS,
      paymentMethod: 'paypal',
      totalPrice: 0.01,
      price: 0.01,
      taxPrice: 0,
      shippingPrice: 0,
    });
    expect(res.statusCode).toBe(201);
    const order = res.json<Order>();
    // 2 x 19.99 + 45.50 = 85.48; tax 12.822 -> 12.82; shipping 7.99 (not above 100).
    expect(order).toMatchObject({
      price: 85.48,
      taxPrice: 12.82,
      shippingPrice: 7.99,
      totalPrice: 106.29,
      isPaid: false,
      status: 'awaiting_payment',
      refundedPrice: 0,
      giftCardAmount: 0,
      amountDue: 106.29,
      paymentMethod: 'paypal',
      shippingAddress: TEST_ADDRESS,
      paymentResult: null,
    });
    const line = order.orderItems.find((i) => i.product === a.id);
    expect(line).toMatchObject({ itemName: 'Zelda II', itemQuantity: 2, itemPrice: 19.99 });
    expect(line?.displayImage).toMatch(/^\/uploads\//);
    expect(await stockOf(a.id)).toBe(8);
    expect(await stockOf(b.id)).toBe(9);
    expect(new Date(order.expiresAt ?? 0).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it('gives free shipping above 100 and merges duplicate lines', async () => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { priceCents: 6000, stock: 3 });
    const order = await placeOrder(ctx.app, auth, [
      { product: p.id, itemQuantity: 1 },
      { product: p.id, itemQuantity: 1 },
    ]);
    expect(order.orderItems).toHaveLength(1);
    expect(order.orderItems[0]?.itemQuantity).toBe(2);
    expect(order).toMatchObject({ price: 120, shippingPrice: 0, taxPrice: 18, totalPrice: 138 });
    expect(await stockOf(p.id)).toBe(1);
  });

  it.each([0, -1, 1.5, '2', 100, null])('refuses quantity %s', async (qty) => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { stock: 200 });
    const res = await post(auth, {
      orderItems: [{ product: p.id, itemQuantity: qty }],
      shippingAddress: TEST_ADDRESS,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Quantity/);
    expect(await stockOf(p.id)).toBe(200);
  });

  it.each(['address', 'city', 'postalCode', 'country'] as const)(
    'refuses an address without %s',
    async (field) => {
      const { auth } = await insertUser(ctx.db);
      const p = await insertProduct(ctx.db);
      const res = await post(auth, {
        orderItems: [{ product: p.id, itemQuantity: 1 }],
        shippingAddress: { ...TEST_ADDRESS, [field]: '  ' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/required/);
    },
  );

  it('refuses an empty cart, unknown, removed and malformed products', async () => {
    const { auth } = await insertUser(ctx.db);
    const ok = await insertProduct(ctx.db, { stock: 5 });
    const removed = await insertProduct(ctx.db, { deletedAt: new Date() });
    expect((await post(auth, { orderItems: [], shippingAddress: TEST_ADDRESS })).statusCode).toBe(400);
    for (const id of ['00000000-0000-4000-8000-000000000000', removed.id]) {
      const res = await post(auth, {
        orderItems: [
          { product: ok.id, itemQuantity: 1 },
          { product: id, itemQuantity: 1 },
        ],
        shippingAddress: TEST_ADDRESS,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Product not found' });
    }
    const bad = await post(auth, {
      orderItems: [{ product: 'nope', itemQuantity: 1 }],
      shippingAddress: TEST_ADDRESS,
    });
    expect(bad.statusCode).toBe(400);
    // The first line's reservation was rolled back with the failed order.
    expect(await stockOf(ok.id)).toBe(5);
  });

  it('says how many are left, or that a product is sold out, and reserves nothing', async () => {
    const { auth } = await insertUser(ctx.db);
    const few = await insertProduct(ctx.db, { name: 'Zelda II', stock: 2 });
    const none = await insertProduct(ctx.db, { name: 'Tetris', stock: 0 });
    const res = await post(auth, {
      orderItems: [{ product: few.id, itemQuantity: 3 }],
      shippingAddress: TEST_ADDRESS,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'Only 2 left of Zelda II', code: 'OUT_OF_STOCK' });
    const sold = await post(auth, {
      orderItems: [{ product: none.id, itemQuantity: 1 }],
      shippingAddress: TEST_ADDRESS,
    });
    expect(sold.json()).toMatchObject({ message: 'Tetris is sold out' });
    expect(await stockOf(few.id)).toBe(2);
  });

  it('needs a login', async () => {
    const res = await post({ authorization: '' }, { orderItems: [], shippingAddress: TEST_ADDRESS });
    expect(res.statusCode).toBe(401);
  });

  it('shows the new stock in the catalogue at once (cache invalidated)', async () => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { stock: 4 });
    await ctx.app.inject({ method: 'GET', url: `/api/products/${p.id}` });
    await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 3 }]);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/products/${p.id}` });
    expect(res.json<{ stockQuantity: number }>().stockQuantity).toBe(1);
  });

  it('never oversells: 10 concurrent buyers of the last 3 units', async () => {
    const p = await insertProduct(ctx.db, { stock: 3 });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => insertUser(ctx.db)));
    const results = await Promise.all(
      buyers.map(({ auth }) =>
        post(auth, { orderItems: [{ product: p.id, itemQuantity: 1 }], shippingAddress: TEST_ADDRESS }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
    expect(await stockOf(p.id)).toBe(0);
  });

  it('does not deadlock when orders take the same products in different line orders', async () => {
    const a = await insertProduct(ctx.db, { stock: 50 });
    const b = await insertProduct(ctx.db, { stock: 50 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => insertUser(ctx.db)));
    const results = await Promise.all(
      buyers.map(({ auth }, i) =>
        post(auth, {
          orderItems:
            i % 2 === 0
              ? [
                  { product: a.id, itemQuantity: 1 },
                  { product: b.id, itemQuantity: 1 },
                ]
              : [
                  { product: b.id, itemQuantity: 1 },
                  { product: a.id, itemQuantity: 1 },
                ],
          shippingAddress: TEST_ADDRESS,
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect(await stockOf(a.id)).toBe(42);
    expect(await stockOf(b.id)).toBe(42);
  });
});

describe('GET /api/orders and /api/orders/:id', () => {
  it("lists the caller's own orders, newest first", async () => {
    const { auth, user } = await insertUser(ctx.db, { name: 'Ann', email: 'ann-orders@example.com' });
    const other = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { stock: 10 });
    const first = await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]);
    const second = await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 2 }]);
    await placeOrder(ctx.app, other.auth, [{ product: p.id, itemQuantity: 1 }]);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/orders', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = res.json<Order[]>();
    expect(list.map((o) => o._id)).toEqual([second._id, first._id]);
    expect(list[0]?.user).toEqual({ _id: user.id, name: 'Ann', email: 'ann-orders@example.com' });
  });

  it('shows an order to its owner and admins, and 404 to anyone else', async () => {
    const owner = await insertUser(ctx.db);
    const stranger = await insertUser(ctx.db);
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const p = await insertProduct(ctx.db);
    const order = await placeOrder(ctx.app, owner.auth, [{ product: p.id, itemQuantity: 1 }]);
    const url = `/api/orders/${order._id}`;
    expect((await ctx.app.inject({ method: 'GET', url, headers: owner.auth })).json()).toMatchObject({
      _id: order._id,
      user: { email: owner.user.email },
    });
    expect((await ctx.app.inject({ method: 'GET', url, headers: admin.auth })).statusCode).toBe(200);
    const denied = await ctx.app.inject({ method: 'GET', url, headers: stranger.auth });
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toMatchObject({ message: 'Order not found' });
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const malformed = await ctx.app.inject({ method: 'GET', url: '/api/orders/123', headers: owner.auth });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('PUT /api/orders/:id/payment', () => {
  it('refuses a claimed payment the server has not verified (402) and changes nothing', async () => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { priceCents: 1000 });
    const order = await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: {
        order_id: 'PAYPAL-123',
        status: 'COMPLETED',
        updated_time: new Date().toISOString(),
        email_address: 'me@example.com',
        payment_method: 'paypal',
      },
    });
    // The server asked the payment provider (demo mode here): no such payment.
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'PayPal has no payment with this id', code: 'PAYMENT_NOT_FOUND' });
    // Without a PayPal order id: settled from what is verified, which is nothing.
    const bare = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { status: 'COMPLETED', payment_method: 'paypal', updated_time: Date.now() },
    });
    expect(bare.statusCode).toBe(402);
    expect(bare.json()).toMatchObject({
      message: 'Payment is not complete: $19.49 still due',
      amountDue: 19.49,
    });
    const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe('unpaid');
  });

  it("refuses another customer's order with 404", async () => {
    const owner = await insertUser(ctx.db);
    const stranger = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db);
    const order = await placeOrder(ctx.app, owner.auth, [{ product: p.id, itemQuantity: 1 }]);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: stranger.auth,
      payload: { payment_method: 'Gift Card', status: 'COMPLETED' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('expiry', () => {
  it('returns the stock and the gift-card money of overdue unpaid orders, and refuses later payment', async () => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const order = await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 2 }]);
    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10, orderId: order._id },
    });
    expect(used.statusCode).toBe(200);
    expect(await stockOf(p.id)).toBe(3);

    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order._id));
    const expiry = createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} } });
    expect(await expiry.sweepOnce()).toBeGreaterThanOrEqual(1);
    // Idempotent: a second sweep (or another instance) finds nothing.
    expect(await expiry.sweepOnce()).toBe(0);

    expect(await stockOf(p.id)).toBe(5);
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after?.balanceCents).toBe(1000);
    const dto = (
      await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth })
    ).json<Order>();
    expect(dto).toMatchObject({
      status: 'expired',
      isPaid: false,
      giftCardAmount: 0,
      amountDue: 0,
      expiresAt: null,
    });

    for (const [method, url, payload] of [
      ['PUT', `/api/orders/${order._id}/payment`, { payment_method: 'Gift Card' }],
      [
        'POST',
        '/api/giftcards/use',
        { code: (await insertGiftCard(ctx.db)).code, amount: 1, orderId: order._id },
      ],
      ['POST', `/api/orders/${order._id}/paypal`, undefined],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(409);
      expect(res.json()).toMatchObject({ message: 'This order has expired. Please place it again.' });
    }
  });

  it('lets several sweepers run at once: each overdue order is expired and refunded exactly once', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 20 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 5000 });
    // Six customers: one may hold only a few unpaid orders, and the same cart once (issue 9).
    const placed: { auth: { authorization: string }; order: Order }[] = [];
    for (let i = 0; i < 6; i++) {
      const { auth } = await insertUser(ctx.db);
      placed.push({ auth, order: await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 2 }]) });
    }
    for (const { auth, order } of placed) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/use',
        headers: auth,
        payload: { code: card.code, amount: 5, orderId: order._id },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await stockOf(p.id)).toBe(8);
    // Far in the future for these sweepers: every unpaid order in this database is overdue.
    const later = () => new Date(Date.now() + 365 * 24 * 60 * 60_000);
    const sweepers = Array.from({ length: 3 }, () =>
      createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} }, clock: later }),
    );
    const counts = await Promise.all(sweepers.map((s) => s.sweepOnce()));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(6);
    expect(await stockOf(p.id)).toBe(20);
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after?.balanceCents).toBe(5000);
    const refunds = await ctx.db
      .select()
      .from(giftCardLedger)
      .where(and(eq(giftCardLedger.giftCardId, card.id), eq(giftCardLedger.kind, 'order_refund')));
    expect(refunds).toHaveLength(6);
  });

  it('expires an overdue order the moment someone tries to pay it, before the sweeper runs', async () => {
    const { auth } = await insertUser(ctx.db);
    const p = await insertProduct(ctx.db, { stock: 2 });
    const order = await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 2 }]);
    await ctx.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, order._id));
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'paypal' },
    });
    expect(res.statusCode).toBe(409);
    expect(await stockOf(p.id)).toBe(2);
    const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe('expired');
    expect(
      await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, row?.customerEmail ?? '')),
    ).toHaveLength(0);
  });
});

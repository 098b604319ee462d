import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Order, type Promotion, priceOrder, toDollars } from '@pixel-vault/shared';
import { auditLog, giftCards, orderItems, orders, promotionUses, promotions } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  createDiscountCode,
  insertGiftCard,
  insertProduct,
  insertUser,
} from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';

/**
 * Issue 32: discount codes, on both engines (npm test and npm run test:pg). The clock is the test's,
 * so a code's window opens and closes when the test says.
 */
let ctx: TestContext;
const now = new Date('2026-11-27T12:00:00Z');
let admin: { authorization: string };

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type Line = { product: string; variant?: string; itemQuantity: number };

let codeCounter = 0;
const freshCode = (prefix = 'CODE') => `${prefix}${(codeCounter += 1)}${Date.now() % 100_000}`;

const createCode = (body: Record<string, unknown>) => createDiscountCode(ctx.app, admin, body);

const placeWith = (auth: Auth, lines: Line[], discountCode?: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: {
      orderItems: lines,
      shippingAddress: TEST_ADDRESS,
      paymentMethod: 'paypal',
      ...(discountCode === undefined ? {} : { discountCode }),
    },
  });

const check = (auth: Auth, code: string, lines: Line[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/promotions/check',
    headers: auth,
    payload: { code, orderItems: lines },
  });

async function customer(): Promise<Auth> {
  return (await insertUser(ctx.db)).auth;
}

describe('admin: discount codes', () => {
  it('creates a code (upper-case, used 0, audited), lists it, and refuses the same code in other case', async () => {
    const code = freshCode('retro').toLowerCase();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: admin,
      payload: { code, kind: 'percentage', value: 10, categories: ['puzzles'], usageLimit: 100 },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json<Promotion>();
    expect(body).toMatchObject({
      code: code.toUpperCase(),
      kind: 'percentage',
      value: 10,
      used: 0,
      active: true,
      state: 'active',
      categories: ['puzzles'],
      usageLimit: 100,
      perCustomerLimit: null,
    });
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: admin,
      payload: { code: code.toUpperCase(), kind: 'fixed', value: 5 },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CODE_TAKEN' });

    const list = await ctx.app.inject({ method: 'GET', url: '/api/promotions/admin', headers: admin });
    expect(list.json<Promotion[]>().find((p) => p._id === body._id)).toMatchObject({ used: 0 });
    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, body._id));
    expect(audit.map((a) => a.action)).toEqual(['promotion.create']);
  });

  it('refuses bad codes and values with messages (400), and anyone but an admin', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ code: 'AB', kind: 'fixed', value: 5 }, /3 to 32/],
      [{ code: 'NO SPACES', kind: 'fixed', value: 5 }, /3 to 32/],
      [{ code: freshCode(), kind: 'percentage', value: 101 }, /1 to 100/],
      [{ code: freshCode(), kind: 'percentage', value: 12.5 }, /1 to 100/],
      [{ code: freshCode(), kind: 'fixed', value: 0 }, /more than \$0/],
      [{ code: freshCode(), kind: 'fixed', value: 1.234 }, /more than \$0/],
      [{ code: freshCode(), kind: 'bogus', value: 5 }, /Kind must be/],
      [
        {
          code: freshCode(),
          kind: 'fixed',
          value: 5,
          startsAt: '2026-12-02T00:00:00Z',
          endsAt: '2026-12-01T00:00:00Z',
        },
        /end must be after the start/,
      ],
      [{ code: freshCode(), kind: 'fixed', value: 5, categories: ['toys'] }, /Categories are/],
      [{ code: freshCode(), kind: 'fixed', value: 5, usageLimit: 0 }, /at least 1/],
    ];
    for (const [payload, message] of cases) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/promotions/admin',
        headers: admin,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const unknownProduct = await ctx.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: admin,
      payload: {
        code: freshCode(),
        kind: 'fixed',
        value: 5,
        products: ['00000000-0000-4000-8000-000000000000'],
      },
    });
    expect(unknownProduct.statusCode).toBe(400);

    const shopper = await customer();
    for (const headers of [shopper, {}]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/promotions/admin', headers });
      expect([401, 403]).toContain(res.statusCode);
      const made = await ctx.app.inject({
        method: 'POST',
        url: '/api/promotions/admin',
        headers,
        payload: { code: freshCode(), kind: 'fixed', value: 5 },
      });
      expect([401, 403]).toContain(made.statusCode);
    }
  });

  it('updates part of a code, checks the value against its kind, and deactivates without erasing', async () => {
    const made = await createCode({ kind: 'fixed', value: 5 });
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: `/api/promotions/admin/${made._id}`, headers: admin, payload });
    const moved = await put({ value: 7.5, minSubtotal: 20 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ kind: 'fixed', value: 7.5, minSubtotal: 20 });
    expect((await put({ kind: 'percentage' })).statusCode).toBe(400);
    expect((await put({ kind: 'percentage', value: 15 })).json()).toMatchObject({
      kind: 'percentage',
      value: 15,
    });
    expect((await put({ minSubtotal: null })).json()).toMatchObject({ minSubtotal: null });
    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: '/api/promotions/admin/00000000-0000-4000-8000-000000000000',
      headers: admin,
      payload: { active: false },
    });
    expect(unknown.statusCode).toBe(404);

    const off = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/promotions/admin/${made._id}`,
      headers: admin,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ active: false, state: 'inactive' });
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/promotions/admin/${made._id}`,
      headers: admin,
    });
    expect(again.json()).toMatchObject({ active: false });
    const [row] = await ctx.db.select().from(promotions).where(eq(promotions.id, made._id));
    expect(row?.active).toBe(false);
  });
});

describe('applying a code to an order', () => {
  it('takes a percentage off the lines of its category only; tax on the discounted subtotal', async () => {
    const puzzle = await insertProduct(ctx.db, { category: 'puzzles', priceCents: 1999, stock: 50 });
    const game = await insertProduct(ctx.db, { category: 'retro-games', priceCents: 3333, stock: 50 });
    const code = await createCode({ kind: 'percentage', value: 15, categories: ['puzzles'] });
    const lines = [
      { product: puzzle.id, itemQuantity: 3 },
      { product: game.id, itemQuantity: 1 },
    ];
    const shopper = await customer();
    const res = await placeWith(shopper, lines, code.code.toLowerCase());
    expect(res.statusCode).toBe(201);
    const order = res.json<Order>();
    // 3 x 19.99 = 59.97 of puzzles: 15% = 8.9955 -> 9.00. Items 93.30; discounted 84.30; tax 12.645 -> 12.65.
    expect(order).toMatchObject({
      discountCode: code.code,
      price: 93.3,
      discountPrice: 9,
      taxPrice: 12.65,
      shippingPrice: 7.99,
      totalPrice: 104.94,
      amountDue: 104.94,
    });
    const items = await ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order._id));
    const byProduct = new Map(items.map((i) => [i.productId, i.discountCents]));
    expect(byProduct.get(puzzle.id)).toBe(900);
    expect(byProduct.get(game.id)).toBe(0);
    // Read back, the order says the same.
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}`,
      headers: shopper,
    });
    expect(read.json<Order>()).toMatchObject({
      discountCode: code.code,
      discountPrice: 9,
      totalPrice: 104.94,
    });
  });

  it('spreads a fixed discount over its lines in proportion, to the cent, never below zero', async () => {
    const a = await insertProduct(ctx.db, { priceCents: 100, stock: 50 });
    const b = await insertProduct(ctx.db, { priceCents: 100, stock: 50 });
    const c = await insertProduct(ctx.db, { priceCents: 100, stock: 50 });
    const code = await createCode({ kind: 'fixed', value: 1 });
    const res = await placeWith(
      await customer(),
      [
        { product: a.id, itemQuantity: 1 },
        { product: b.id, itemQuantity: 1 },
        { product: c.id, itemQuantity: 1 },
      ],
      code.code,
    );
    const order = res.json<Order>();
    expect(order).toMatchObject({
      price: 3,
      discountPrice: 1,
      taxPrice: 0.3,
      shippingPrice: 7.99,
      totalPrice: 10.29,
    });
    const shares = (await ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order._id)))
      .map((i) => i.discountCents)
      .sort();
    expect(shares).toEqual([33, 33, 34]);

    // More off than the lines cost: the items come to $0, and shipping is still charged.
    const big = await createCode({ kind: 'fixed', value: 50 });
    const all = (
      await placeWith(await customer(), [{ product: a.id, itemQuantity: 2 }], big.code)
    ).json<Order>();
    expect(all).toMatchObject({
      price: 2,
      discountPrice: 2,
      taxPrice: 0,
      shippingPrice: 7.99,
      totalPrice: 7.99,
    });
  });

  it('ships free with a free_shipping code; shipping is free above $100 of discounted subtotal only', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 6000, stock: 50 });
    const free = await createCode({ kind: 'free_shipping' });
    const res = await placeWith(await customer(), [{ product: p.id, itemQuantity: 1 }], free.code);
    expect(res.json<Order>()).toMatchObject({
      price: 60,
      discountPrice: 0,
      shippingPrice: 0,
      taxPrice: 9,
      totalPrice: 69,
    });

    // $120 of items, 20% off = $96: under $100 again, so shipping is charged.
    const pct = await createCode({ kind: 'percentage', value: 20 });
    const two = await placeWith(await customer(), [{ product: p.id, itemQuantity: 2 }], pct.code);
    expect(two.json<Order>()).toMatchObject({
      price: 120,
      discountPrice: 24,
      shippingPrice: 7.99,
      taxPrice: 14.4,
    });
  });

  it('gives a spec client that sends no code exactly the totals it got before (and "" or null is no code)', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 1234, stock: 50 });
    const expected = priceOrder([{ priceCents: 1234, qty: 3 }]);
    for (const code of [undefined, '', null]) {
      const res = await placeWith(await customer(), [{ product: p.id, itemQuantity: 3 }], code);
      expect(res.statusCode).toBe(201);
      expect(res.json<Order>()).toMatchObject({
        price: toDollars(expected.itemsCents),
        taxPrice: toDollars(expected.taxCents),
        shippingPrice: toDollars(expected.shippingCents),
        totalPrice: toDollars(expected.totalCents),
        discountCode: null,
        discountPrice: 0,
      });
    }
  });

  it('answers the check with the totals the order then gets', async () => {
    const p = await insertProduct(ctx.db, { category: 'board-games', priceCents: 2599, stock: 50 });
    const code = await createCode({ kind: 'fixed', value: 4.99, categories: ['board-games'] });
    const shopper = await customer();
    const lines = [{ product: p.id, itemQuantity: 2 }];
    const checked = await check(shopper, code.code, lines);
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({
      code: code.code,
      kind: 'fixed',
      description: '$4.99 off board games',
    });
    const order = (await placeWith(shopper, lines, code.code)).json<Order>();
    const { price, discountPrice, shippingPrice, taxPrice, totalPrice } = order;
    expect(checked.json()).toMatchObject({ price, discountPrice, shippingPrice, taxPrice, totalPrice });
  });

  it('refuses with a message a shopper understands, the same on check and on order, and places nothing', async () => {
    const puzzle = await insertProduct(ctx.db, { category: 'puzzles', priceCents: 1000, stock: 50 });
    const game = await insertProduct(ctx.db, { category: 'retro-games', priceCents: 1000, stock: 50 });
    const expired = await createCode({ kind: 'fixed', value: 5, endsAt: '2026-11-27T11:00:00Z' });
    const later = await createCode({ kind: 'fixed', value: 5, startsAt: '2026-12-01T09:00:00Z' });
    const off = await createCode({ kind: 'fixed', value: 5 });
    await ctx.app.inject({ method: 'DELETE', url: `/api/promotions/admin/${off._id}`, headers: admin });
    const min = await createCode({ kind: 'fixed', value: 5, minSubtotal: 25, categories: ['puzzles'] });
    const puzzlesOnly = await createCode({ kind: 'percentage', value: 10, categories: ['puzzles'] });

    const cases: [string, Line[], number, string, RegExp][] = [
      ['NO-SUCH-CODE', [{ product: puzzle.id, itemQuantity: 1 }], 400, 'DISCOUNT_CODE_UNKNOWN', /not valid/],
      [
        expired.code,
        [{ product: puzzle.id, itemQuantity: 1 }],
        400,
        'DISCOUNT_CODE_EXPIRED',
        /^This code has expired$/,
      ],
      [
        later.code,
        [{ product: puzzle.id, itemQuantity: 1 }],
        400,
        'DISCOUNT_CODE_NOT_STARTED',
        /can be used from/,
      ],
      [off.code, [{ product: puzzle.id, itemQuantity: 1 }], 400, 'DISCOUNT_CODE_INACTIVE', /no longer valid/],
      [
        min.code,
        [
          { product: puzzle.id, itemQuantity: 2 },
          { product: game.id, itemQuantity: 5 },
        ],
        400,
        'DISCOUNT_CODE_MIN_SUBTOTAL',
        /^Spend \$25\.00 on puzzles to use this code$/,
      ],
      [
        puzzlesOnly.code,
        [{ product: game.id, itemQuantity: 1 }],
        400,
        'DISCOUNT_CODE_NOT_APPLICABLE',
        /^This code is for puzzles only$/,
      ],
    ];
    const shopper = await customer();
    const before = (await ctx.db.select().from(orders)).length;
    for (const [code, lines, status, errorCode, message] of cases) {
      for (const res of [await check(shopper, code, lines), await placeWith(shopper, lines, code)]) {
        expect(res.statusCode, code).toBe(status);
        expect(res.json(), code).toMatchObject({ code: errorCode });
        expect(res.json<{ message: string }>().message).toMatch(message);
      }
    }
    expect((await ctx.db.select().from(orders)).length).toBe(before);
  });

  it("refuses a used-up code and a customer's second use with 409, and frees a use on expiry and on cancel", async () => {
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 50 });
    const lines = [{ product: p.id, itemQuantity: 1 }];
    const limited = await createCode({ kind: 'fixed', value: 2, usageLimit: 1 });
    const first = await customer();
    const firstOrder = (await placeWith(first, lines, limited.code)).json<Order>();
    const second = await customer();
    const usedUp = await placeWith(second, lines, limited.code);
    expect(usedUp.statusCode).toBe(409);
    expect(usedUp.json()).toMatchObject({
      code: 'DISCOUNT_CODE_USED_UP',
      message: 'This code has been used up',
    });
    expect((await check(second, limited.code, lines)).statusCode).toBe(409);

    // The first order expires unpaid: its use comes back, and the second customer gets the code.
    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(now.getTime() - 1000) })
      .where(eq(orders.id, firstOrder._id));
    await createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} }, clock: () => now }).sweepOnce();
    const [afterExpiry] = await ctx.db.select().from(promotions).where(eq(promotions.id, limited._id));
    expect(afterExpiry?.used).toBe(0);
    const secondOrder = await placeWith(second, lines, limited.code);
    expect(secondOrder.statusCode).toBe(201);

    // Once per customer: the second order with it is refused, and cancelling the first frees it.
    const once = await createCode({ kind: 'percentage', value: 10, perCustomerLimit: 1 });
    const shopper = await customer();
    const mine = (await placeWith(shopper, lines, once.code)).json<Order>();
    // Another cart (the same one again would replace the first order, as a reloaded checkout does).
    const again = await placeWith(shopper, [{ product: p.id, itemQuantity: 2 }], once.code);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'DISCOUNT_CODE_CUSTOMER_LIMIT',
      message: 'You have already used this code',
    });
    const cancelled = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${mine._id}/cancel`,
      headers: shopper,
    });
    expect(cancelled.statusCode).toBe(200);
    const uses = await ctx.db.select().from(promotionUses).where(eq(promotionUses.orderId, mine._id));
    expect(uses[0]?.releasedAt).not.toBeNull();
    expect((await placeWith(shopper, lines, once.code)).statusCode).toBe(201);
  });

  it('counts the uses of a code without a limit, and holds a limit set later against them', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 50 });
    const code = await createCode({ kind: 'fixed', value: 1 });
    const usedNow = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/promotions/admin', headers: admin }))
        .json<Promotion[]>()
        .find((p) => p._id === code._id)?.used;
    for (let i = 0; i < 2; i += 1) {
      expect(
        (await placeWith(await customer(), [{ product: p.id, itemQuantity: 1 }], code.code)).statusCode,
      ).toBe(201);
    }
    expect(await usedNow()).toBe(2);
    const limited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/promotions/admin/${code._id}`,
      headers: admin,
      payload: { usageLimit: 2 },
    });
    expect(limited.json()).toMatchObject({ used: 2, usageLimit: 2, state: 'used_up' });
    const third = await placeWith(await customer(), [{ product: p.id, itemQuantity: 1 }], code.code);
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({ code: 'DISCOUNT_CODE_USED_UP' });
  });

  it('a paid discounted order cancelled gives back what was paid, and its code use', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 4000, stock: 50 });
    const code = await createCode({ kind: 'percentage', value: 25, usageLimit: 10 });
    const shopper = await customer();
    const order = (await placeWith(shopper, [{ product: p.id, itemQuantity: 1 }], code.code)).json<Order>();
    // 40.00 - 10.00 = 30.00; tax 4.50; shipping 7.99 = 42.49.
    expect(order.totalPrice).toBe(42.49);
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const paid = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: shopper,
      payload: { payment_method: 'Gift Card', gift_card_code: card.code },
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json<Order>()).toMatchObject({ isPaid: true, giftCardAmount: 42.49 });
    const [afterPay] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(afterPay?.balanceCents).toBe(10_000 - 4249);

    const cancelled = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${order._id}/cancel`,
      headers: shopper,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Order>()).toMatchObject({ status: 'cancelled', refundedPrice: 42.49 });
    const [afterCancel] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(afterCancel?.balanceCents).toBe(10_000);
    const [promotion] = await ctx.db.select().from(promotions).where(eq(promotions.id, code._id));
    expect(promotion?.used).toBe(0);
  });

  it('an admin refund of a discounted order returns at most what was paid, and keeps the code used', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 3000, stock: 50 });
    const code = await createCode({ kind: 'fixed', value: 10, usageLimit: 5 });
    const shopper = await customer();
    const order = (await placeWith(shopper, [{ product: p.id, itemQuantity: 1 }], code.code)).json<Order>();
    // 30.00 - 10.00 = 20.00; tax 3.00; shipping 7.99 = 30.99.
    expect(order.totalPrice).toBe(30.99);
    const card = await insertGiftCard(ctx.db, { balanceCents: 5000 });
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: shopper,
      payload: { payment_method: 'Gift Card', gift_card_code: card.code },
    });
    const refund = (payload: object) =>
      ctx.app.inject({ method: 'POST', url: `/api/orders/${order._id}/refund`, headers: admin, payload });
    // More than was paid (the undiscounted total would be 41.99): refused.
    expect((await refund({ amount: 41.99, reason: 'too much' })).statusCode).toBeGreaterThanOrEqual(400);
    const full = await refund({ reason: 'returned' });
    expect(full.statusCode).toBe(200);
    expect(full.json<Order>()).toMatchObject({ status: 'refunded', refundedPrice: 30.99 });
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after?.balanceCents).toBe(5000);
    // A refund is not a cancellation: the code stays used by this order.
    const [promotion] = await ctx.db.select().from(promotions).where(eq(promotions.id, code._id));
    expect(promotion?.used).toBe(1);
  });

  it('lets 40 customers behind one address use a right code at once (right codes never spend)', async () => {
    // Default limits: 30 wrong codes per address. A code just created is in no instance's memory, so
    // every one of these reads it; none may be refused for a budget that only wrong codes spend.
    const shop = await ctx.newApp({ clock: () => now });
    const p = await insertProduct(ctx.db, { priceCents: 1500, stock: 100 });
    const code = await createCode({ kind: 'percentage', value: 5 });
    const shoppers = await Promise.all(Array.from({ length: 40 }, () => customer()));
    const answers = await Promise.all(
      shoppers.map((auth) =>
        shop.inject({
          method: 'POST',
          url: '/api/orders',
          headers: auth,
          payload: {
            orderItems: [{ product: p.id, itemQuantity: 1 }],
            shippingAddress: TEST_ADDRESS,
            discountCode: code.code,
          },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
  });

  it("counts unknown codes against the customer's budget (429 after it), right codes never", async () => {
    const limited = await ctx.newApp({
      clock: () => now,
      limits: {
        discountCodes: { max: 3, windowMs: 60_000 },
        discountCodesAddress: { max: 100, windowMs: 60_000 },
      },
    });
    const p = await insertProduct(ctx.db, { priceCents: 1000, stock: 50 });
    const right = await createCode({ kind: 'fixed', value: 1 });
    const shopper = await customer();
    const lines = [{ product: p.id, itemQuantity: 1 }];
    const tryCode = (code: string) =>
      limited.inject({
        method: 'POST',
        url: '/api/promotions/check',
        headers: shopper,
        payload: { code, orderItems: lines },
      });
    for (let i = 0; i < 5; i += 1) expect((await tryCode(right.code)).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await tryCode(`WRONG${i}XX`)).statusCode).toBe(400);
    expect((await tryCode('WRONG9XX')).statusCode).toBe(429);
    // Used up: a right code is refused too, so guessing cannot go on by telling 429 from 200.
    expect((await tryCode(right.code)).statusCode).toBe(429);
  });
});

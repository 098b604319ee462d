import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, RemoveGiftCardResponse, UseGiftCardResponse } from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { giftCardLedger, giftCards, orders } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';

/**
 * Issue 30: "Remove" beside an applied gift card at checkout. POST /api/giftcards/remove takes a card
 * off an unpaid order and gives back exactly what it held there; the card (or another) may then be
 * applied again, and expiry, cancel and refunds count only what is still held. On PGlite and (npm run
 * test:pg) PostgreSQL.
 */

type Auth = { authorization: string };
let ctx: TestContext;
/** Bursts of right codes from one customer test money, not limits (those have their own app below). */
const roomy = { max: 500, windowMs: 60_000 };
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: { giftCardCodes: roomy, giftCardCodesAddress: roomy } } });
});
afterAll(() => ctx.close());

const balanceOf = async (id: string) =>
  (await ctx.db.select({ b: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, id)))[0]?.b;
const ledgerOf = (cardId: string) =>
  ctx.db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, cardId));
const post = (url: string, auth: Auth, payload: object) =>
  ctx.app.inject({ method: 'POST', url, headers: auth, payload });
const use = (auth: Auth, code: string, amount: number, orderId: string) =>
  post('/api/giftcards/use', auth, { code, amount, orderId });
const remove = (auth: Auth, code: string, orderId: string) =>
  post('/api/giftcards/remove', auth, { code, orderId });
const getOrder = async (auth: Auth, id: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: auth })).json<Order>();

/** A new customer's order of one $20.00 item: 20.00 + 3.00 tax + 7.99 shipping = 30.99. */
async function newOrder() {
  const customer = await insertUser(ctx.db);
  const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 10 });
  const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
  return { auth: customer.auth, user: customer.user, order };
}

/** What a card holds on an order: its debits less its releases (refund credits aside). */
async function heldOn(cardId: string, orderId: string): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(giftCardLedger)
    .where(and(eq(giftCardLedger.giftCardId, cardId), eq(giftCardLedger.orderId, orderId)));
  return rows.filter((r) => r.refundId === null).reduce((sum, r) => sum - r.amountCents, 0);
}

describe('POST /api/giftcards/remove', () => {
  it('puts the card and the order back as they were before the card was applied', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    expect((await use(auth, card.code, 10, order._id)).json()).toMatchObject({ amountDue: 20.99 });

    const res = await remove(auth, card.code.toLowerCase(), order._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<RemoveGiftCardResponse>()).toEqual({
      orderId: order._id,
      balance: 10,
      released: 10,
      amountDue: 30.99,
      message: 'Gift card removed: $10.00 went back to the card. $30.99 is due.',
    });
    expect(await balanceOf(card.id)).toBe(10_00);
    expect(await getOrder(auth, order._id)).toMatchObject({
      status: 'awaiting_payment',
      isPaid: false,
      giftCardAmount: 0,
      amountDue: 30.99,
    });
    // One release, of the application it gives back, with the balance it left.
    const rows = (await ledgerOf(card.id)).filter((r) => r.orderId === order._id);
    expect(rows.map((r) => [r.kind, r.amountCents, r.application, r.balanceAfterCents]).sort()).toEqual([
      ['order_debit', -10_00, 1, 0],
      ['order_refund', 10_00, 1, 10_00],
    ]);
  });

  it('answers a repeated remove with 200 and released 0, and moves nothing', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    await use(auth, card.code, 5, order._id);
    expect((await remove(auth, card.code, order._id)).statusCode).toBe(200);
    const again = await Promise.all([remove(auth, card.code, order._id), remove(auth, card.code, order._id)]);
    for (const res of again) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        orderId: order._id,
        balance: 10,
        released: 0,
        amountDue: 30.99,
        message: 'This gift card is no longer applied to this order.',
      });
    }
    expect(await balanceOf(card.id)).toBe(10_00);
    expect((await ledgerOf(card.id)).filter((r) => r.kind === 'order_refund')).toHaveLength(1);
  });

  it('applies card A, removes it, then applies card B: only B is on the order', async () => {
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 20_00 });
    await use(auth, a.code, 10, order._id);
    expect((await remove(auth, a.code, order._id)).json()).toMatchObject({ released: 10, amountDue: 30.99 });
    const applied = await use(auth, b.code, 20, order._id);
    expect(applied.json<UseGiftCardResponse>()).toMatchObject({
      balance: 0,
      applied: 20,
      amountDue: 10.99,
      message: 'Gift card applied: $20.00. $10.99 is still due.',
    });
    expect(await getOrder(auth, order._id)).toMatchObject({ giftCardAmount: 20, amountDue: 10.99 });
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([10_00, 0]);
    expect([await heldOn(a.id, order._id), await heldOn(b.id, order._id)]).toEqual([0, 20_00]);
  });

  it('applies, removes, applies and removes the same card again: each application once, each release once', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 50_00 });
    expect((await use(auth, card.code, 10, order._id)).json()).toMatchObject({ applied: 10 });
    expect((await remove(auth, card.code, order._id)).json()).toMatchObject({ released: 10, balance: 50 });
    // The same card again is a new application (the old code answered "already applied", 0 applied).
    const second = await use(auth, card.code, 12.5, order._id);
    expect(second.json()).toMatchObject({ applied: 12.5, balance: 37.5, amountDue: 18.49 });
    // A retry of that apply moves nothing.
    expect((await use(auth, card.code, 12.5, order._id)).json()).toMatchObject({ applied: 0, balance: 37.5 });
    expect((await remove(auth, card.code, order._id)).json()).toMatchObject({
      released: 12.5,
      balance: 50,
      amountDue: 30.99,
    });
    expect(await balanceOf(card.id)).toBe(50_00);
    const rows = (await ledgerOf(card.id)).filter((r) => r.orderId === order._id);
    expect(rows.map((r) => [r.application, r.kind, r.amountCents]).sort()).toEqual([
      [1, 'order_debit', -10_00],
      [1, 'order_refund', 10_00],
      [2, 'order_debit', -12_50],
      [2, 'order_refund', 12_50],
    ]);
  });

  it('refuses a paid order (409) and moves nothing', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 100_00 });
    expect((await use(auth, card.code, 30.99, order._id)).json()).toMatchObject({ amountDue: 0 });
    const res = await remove(auth, card.code, order._id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'This order is paid; the gift card can no longer be removed.',
      code: 'ORDER_PAID',
    });
    expect(await balanceOf(card.id)).toBe(100_00 - 30_99);
    expect((await ledgerOf(card.id)).filter((r) => r.kind === 'order_refund')).toHaveLength(0);
    expect(await getOrder(auth, order._id)).toMatchObject({ isPaid: true, giftCardAmount: 30.99 });
  });

  it("refuses another customer's order like every owner check (404), and an admin is no exception", async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    await use(auth, card.code, 10, order._id);
    const stranger = await insertUser(ctx.db);
    const admin = await insertUser(ctx.db, { isAdmin: true });
    for (const caller of [stranger.auth, admin.auth]) {
      const res = await remove(caller, card.code, order._id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Order not found' });
    }
    const anon = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/remove',
      payload: { code: card.code, orderId: order._id },
    });
    expect(anon.statusCode).toBe(401);
    expect(await balanceOf(card.id)).toBe(0);
    expect(await heldOn(card.id, order._id)).toBe(10_00);
  });

  it('refuses a card that is not on the order (409), and bad bodies (400)', async () => {
    const { auth, order } = await newOrder();
    const onIt = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const other = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    await use(auth, onIt.code, 10, order._id);
    const res = await remove(auth, other.code, order._id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'This gift card is not applied to this order.',
      code: 'GIFT_CARD_NOT_APPLIED',
    });
    for (const payload of [
      {},
      { code: other.code },
      { orderId: order._id },
      { code: other.code, orderId: 'not-an-id' },
      { code: 'bad code!', orderId: order._id },
      { code: 7, orderId: order._id },
    ]) {
      expect((await post('/api/giftcards/remove', auth, payload)).statusCode).toBe(400);
    }
    const unknownOrder = await remove(auth, onIt.code, '00000000-0000-4000-8000-000000000000');
    expect(unknownOrder.statusCode).toBe(404);
    expect([await balanceOf(onIt.id), await balanceOf(other.id)]).toEqual([0, 10_00]);
  });

  it('counts an unknown code as a wrong code: 404, then 429 once the budget is spent', async () => {
    const app = await ctx.newApp({ limits: {} });
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const removeOn = (code: string) =>
      app.inject({
        method: 'POST',
        url: '/api/giftcards/remove',
        headers: auth,
        payload: { code, orderId: order._id },
      });
    for (let i = 0; i < 10; i++) {
      const res = await removeOn(`WRONG-${i}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Gift card not found' });
    }
    const limited = await removeOn(card.code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: 'Too many gift card attempts. Please try again later.' });
  });

  it('answers 409 ORDER_EXPIRED for an order whose hold ran out, and the expiry gave the money back once', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    await use(auth, card.code, 10, order._id);
    await ctx.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, order._id));
    for (let i = 0; i < 2; i++) {
      const res = await remove(auth, card.code, order._id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ORDER_EXPIRED' });
    }
    expect(await balanceOf(card.id)).toBe(10_00);
    expect((await ledgerOf(card.id)).filter((r) => r.kind === 'order_refund')).toHaveLength(1);
  });
});

describe('after a remove, expiry, cancel and refunds count only what is still held', () => {
  it('expires an order after a remove and a second application: gives back the second, not the first again', async () => {
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    await use(auth, a.code, 10, order._id);
    await remove(auth, a.code, order._id);
    await use(auth, a.code, 4, order._id); // a's second application
    await use(auth, b.code, 6, order._id);
    await remove(auth, b.code, order._id); // b's only application, already given back
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([6_00, 10_00]);

    await ctx.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, order._id));
    const expiry = createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} } });
    expect(await expiry.sweepOnce()).toBeGreaterThanOrEqual(1);
    expect(await expiry.sweepOnce()).toBe(0);

    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([10_00, 10_00]);
    expect([await heldOn(a.id, order._id), await heldOn(b.id, order._id)]).toEqual([0, 0]);
    const releases = async (cardId: string) =>
      (await ledgerOf(cardId))
        .filter((r) => r.kind === 'order_refund')
        .map((r) => [r.application, r.amountCents])
        .sort();
    expect(await releases(a.id)).toEqual([
      [1, 10_00],
      [2, 4_00],
    ]);
    expect(await releases(b.id)).toEqual([[1, 6_00]]);
    expect(await getOrder(auth, order._id)).toMatchObject({ status: 'expired', giftCardAmount: 0 });
  });

  it('cancels an unpaid order after a swap: only the card still on it gets its money back, and the timeline says so', async () => {
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 10_00, code: `SWAP-${Date.now()}-A111` });
    const b = await insertGiftCard(ctx.db, { balanceCents: 10_00, code: `SWAP-${Date.now()}-B222` });
    await use(auth, a.code, 10, order._id);
    await remove(auth, a.code, order._id);
    await use(auth, b.code, 7, order._id);
    const res = await post(`/api/orders/${order._id}/cancel`, auth, {});
    expect(res.statusCode, res.body).toBe(200);
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([10_00, 10_00]);
    expect((await ledgerOf(a.id)).filter((r) => r.kind === 'order_refund')).toHaveLength(1);
    expect((await ledgerOf(b.id)).filter((r) => r.kind === 'order_refund')).toHaveLength(1);
    const cancelled = res.json<Order>().timeline?.find((e) => e.event === 'cancelled');
    // A card is named by the end of its code.
    expect(cancelled?.note).toBe('$7.00 back to gift card ending B222');
  });

  it('refunds a paid order after a re-application to the card as it holds now', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 50_00 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 20_00 });
    await use(auth, a.code, 10, order._id);
    await remove(auth, a.code, order._id);
    await use(auth, b.code, 20, order._id);
    await remove(auth, b.code, order._id);
    await use(auth, a.code, 15, order._id); // a's second application
    const paid = await use(auth, b.code, 15.99, order._id); // b's second: the order is paid
    expect(paid.json()).toMatchObject({
      amountDue: 0,
      message: 'Gift card applied: $15.99. Your order is paid.',
    });
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([35_00, 4_01]);

    const refund = (payload: object) => post(`/api/orders/${order._id}/refund`, admin.auth, payload);
    const partial = await refund({ amount: 20, reason: 'Scratched' });
    expect(partial.statusCode, partial.body).toBe(200);
    const full = await refund({ reason: 'Returned' });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json<Order>()).toMatchObject({ status: 'refunded', refundedPrice: 30.99 });
    // Each card gets back what it paid in the end: never the removed applications again.
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([50_00, 20_00]);
    const credits = async (cardId: string) =>
      (await ledgerOf(cardId)).filter((r) => r.refundId !== null).reduce((sum, r) => sum + r.amountCents, 0);
    expect([await credits(a.id), await credits(b.id)]).toEqual([15_00, 15_99]);
  });
});

/**
 * RUSH (a money path): many calls at once applying, removing and swapping two cards on one order. The
 * order's row lock makes them take turns; whatever the order, no money is made or lost.
 */
describe('RUSH: concurrent apply and remove of two cards on one order', () => {
  async function checkBooks(cardIds: string[], order: Order, auth: Auth) {
    for (const id of cardIds) {
      const rows = await ledgerOf(id);
      // Issue + top-ups + every order row: the balance is the sum of the card's ledger.
      expect(await balanceOf(id)).toBe(rows.reduce((sum, r) => sum + r.amountCents, 0));
      expect(rows.every((r) => r.balanceAfterCents >= 0)).toBe(true);
      expect(await balanceOf(id)).toBeGreaterThanOrEqual(0);
      // Each application: one debit, at most one release, and the release gives back exactly the debit.
      const onOrder = rows.filter((r) => r.orderId === order._id);
      const apps = new Set(onOrder.map((r) => r.application));
      for (const app of apps) {
        const debits = onOrder.filter((r) => r.application === app && r.kind === 'order_debit');
        const releases = onOrder.filter((r) => r.application === app && r.kind === 'order_refund');
        expect(debits).toHaveLength(1);
        expect(releases.length).toBeLessThanOrEqual(1);
        if (releases[0]) expect(releases[0].amountCents).toBe(-debits[0]!.amountCents);
      }
      expect([...apps].sort((x, y) => x - y)).toEqual(Array.from({ length: apps.size }, (_, i) => i + 1));
    }
    const [net] = await queryRows<{ cents: string | number }>(
      ctx.db,
      sql`select coalesce(-sum(amount_cents), 0) as cents from gift_card_ledger
          where order_id = ${order._id} and kind in ('order_debit', 'order_refund') and refund_id is null`,
    );
    const netCents = Number(net?.cents);
    expect(netCents).toBeGreaterThanOrEqual(0);
    expect(netCents).toBeLessThanOrEqual(3099);
    const dto = await getOrder(auth, order._id);
    expect(Math.round(dto.giftCardAmount * 100)).toBe(netCents);
    expect(Math.round(dto.amountDue * 100)).toBe(3099 - netCents);
    return netCents;
  }

  it('takes 40 calls at once (apply A, remove A, apply B, remove B): no 5xx, and the books balance', async () => {
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 40_00 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 25_00 });
    const calls = Array.from({ length: 40 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return use(auth, a.code, 10, order._id);
        case 1:
          return remove(auth, a.code, order._id);
        case 2:
          return use(auth, b.code, 15, order._id);
        default:
          return remove(auth, b.code, order._id);
      }
    });
    const results = await Promise.all(calls);
    for (const res of results) {
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect([200, 409]).toContain(res.statusCode);
    }
    const netCents = await checkBooks([a.id, b.id], order, auth);
    // Whatever is left on the order is one application of each card at most.
    expect([0, 10_00, 15_00, 25_00]).toContain(netCents);
    expect((await balanceOf(a.id))! + (await heldOn(a.id, order._id))).toBe(40_00);
    expect((await balanceOf(b.id))! + (await heldOn(b.id, order._id))).toBe(25_00);

    // Both taken off at the end: each card is whole again, the order owes its total.
    await remove(auth, a.code, order._id);
    await remove(auth, b.code, order._id);
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([40_00, 25_00]);
    expect(await checkBooks([a.id, b.id], order, auth)).toBe(0);
  });

  it('swaps between two cards in 30 concurrent rounds, then pays in full with one of them', async () => {
    const { auth, order } = await newOrder();
    const a = await insertGiftCard(ctx.db, { balanceCents: 30_99 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 30_99 });
    // Each round takes one card off and puts the other on for $15 (both on: $30, never the whole total).
    const rounds = Array.from({ length: 30 }, (_, i) => {
      const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
      return (async () => [
        await remove(auth, from.code, order._id),
        await use(auth, to.code, 15, order._id),
      ])();
    });
    const results = (await Promise.all(rounds)).flat();
    for (const res of results) {
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect([200, 409]).toContain(res.statusCode);
    }
    const netCents = await checkBooks([a.id, b.id], order, auth);
    expect([0, 15_00, 30_00]).toContain(netCents);
    expect((await balanceOf(a.id))! + (await balanceOf(b.id))!).toBe(2 * 30_99 - netCents);

    // Both off, then card A pays the whole order: it is paid once, and A can no longer be removed.
    await Promise.all([remove(auth, a.code, order._id), remove(auth, b.code, order._id)]);
    const paid = await use(auth, a.code, 30.99, order._id);
    expect(paid.json()).toMatchObject({ applied: 30.99, balance: 0, amountDue: 0 });
    expect((await remove(auth, a.code, order._id)).statusCode).toBe(409);
    expect(await checkBooks([a.id, b.id], order, auth)).toBe(30_99);
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual([0, 30_99]);
    const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe('paid');
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GiftCard, Order, UseGiftCardResponse } from '@pixel-vault/shared';
import { auditLog, giftCardLedger, giftCards, mailOutbox, orders } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

let ctx: TestContext;
/** Bursts of 20 right codes from one customer test money, not limits (those have their own app below). */
const roomy = { max: 100, windowMs: 60_000 };
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: { giftCardCodes: roomy, giftCardCodesAddress: roomy } } });
});
afterAll(() => ctx.close());

const balanceOf = async (id: string) =>
  (await ctx.db.select({ b: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, id)))[0]?.b;
const ledgerOf = (cardId: string) =>
  ctx.db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, cardId));
const mailsTo = (email: string) => ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

function use(auth: { authorization: string }, payload: unknown) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/giftcards/use',
    headers: auth,
    payload: payload as object,
  });
}

/** An order of one product at `priceCents` (total = price + 15% tax + 7.99 shipping when <= 100). */
async function orderFor(auth: { authorization: string }, priceCents = 2000) {
  const p = await insertProduct(ctx.db, { priceCents, stock: 10 });
  return placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]);
}

/**
 * `count` orders, one after another, each of one unit of the same $20.00 product (total 30.99), each
 * by its own customer: one customer may hold only a few unpaid orders, and one cart once (issue 9).
 */
async function ordersOfOneProduct(count: number) {
  const p = await insertProduct(ctx.db, { priceCents: 2000, stock: 100 });
  const placed: { auth: { authorization: string }; order: Order }[] = [];
  for (let i = 0; i < count; i++) {
    const { auth } = await insertUser(ctx.db);
    placed.push({ auth, order: await placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]) });
  }
  return placed;
}

describe('POST /api/giftcards/check-balance', () => {
  it('answers the balance in dollars, whatever the case of the code', async () => {
    const { auth } = await insertUser(ctx.db);
    await insertGiftCard(ctx.db, { code: 'Retro-2024', balanceCents: 2550 });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/check-balance',
      headers: auth,
      payload: { code: 'retro-2024' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: 25.5 });
  });

  it('answers 404 for unknown and deleted codes, 400 for non-string codes, 401 without a login', async () => {
    const { auth } = await insertUser(ctx.db);
    const deleted = await insertGiftCard(ctx.db, { deletedAt: new Date() });
    for (const code of ['NOPE-1', deleted.code]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/check-balance',
        headers: auth,
        payload: { code },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Gift card not found' });
    }
    for (const code of [123, ['a'], { $ne: null }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/check-balance',
        headers: auth,
        payload: { code },
      });
      expect(res.statusCode).toBe(400);
    }
    const anon = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/check-balance',
      payload: { code: 'X' },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('limits wrong codes per user (429 after 10) without affecting another user', async () => {
    const app = await ctx.newApp({ limits: {} });
    const guesser = await insertUser(ctx.db);
    const other = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 100 });
    const check = (auth: { authorization: string }, code: string) =>
      app.inject({
        method: 'POST',
        url: '/api/giftcards/check-balance',
        headers: auth,
        payload: { code },
      });
    // Right codes never count.
    for (let i = 0; i < 3; i++) expect((await check(guesser.auth, card.code)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await check(guesser.auth, `WRONG-${i}`)).statusCode).toBe(404);
    const limited = await check(guesser.auth, card.code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: 'Too many gift card attempts. Please try again later.' });
    expect((await check(other.auth, card.code)).statusCode).toBe(200);
    expect((await check(other.auth, 'WRONG-X')).statusCode).toBe(404);
  });
});

describe('admin gift card routes', () => {
  it('refuses customers (403) and visitors (401)', async () => {
    const { auth } = await insertUser(ctx.db);
    for (const [method, url] of [
      ['GET', '/api/giftcards/admin/getall'],
      ['POST', '/api/giftcards/admin/create'],
    ] as const) {
      const payload = method === 'POST' ? { code: 'NEW-1', balance: 10 } : undefined;
      expect(
        (await ctx.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) })).statusCode,
      ).toBe(403);
      expect((await ctx.app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
  });

  it('creates cards with an issue ledger row, unique regardless of case, and lists them newest first', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const create = (code: string, balance: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/admin/create',
        headers: admin.auth,
        payload: { code, balance },
      });
    const res = await create('Summer-Sale', 50.25);
    expect(res.statusCode).toBe(201);
    const card = res.json<GiftCard>();
    expect(card).toMatchObject({ code: 'Summer-Sale', balance: 50.25 });
    expect(await ledgerOf(card._id)).toMatchObject([
      { kind: 'issue', amountCents: 5025, balanceAfterCents: 5025, actorUserId: admin.user.id },
    ]);
    expect((await create('SUMMER-SALE', 1)).statusCode).toBe(409);
    expect((await create('Bad code!', 1)).statusCode).toBe(400);
    expect((await create('NEG-1', -1)).statusCode).toBe(400);
    expect((await create('STR-1', '5')).statusCode).toBe(400);
    const second = (await create('Winter-Sale', 0)).json<GiftCard>();
    const list = (
      await ctx.app.inject({ method: 'GET', url: '/api/giftcards/admin/getall', headers: admin.auth })
    ).json<GiftCard[]>();
    expect(list[0]?._id).toBe(second._id);
    expect(list.map((c) => c._id)).toContain(card._id);
  });
});

/**
 * Issue 28: a top-up has no order and no refund. Under the ledger's old key (card, order, kind, refund)
 * NULLS NOT DISTINCT, the second top-up of a card was a unique violation: 500 Something went wrong.
 */
describe('PUT /api/giftcards/admin/:id/add-balance, any number of times', () => {
  const topUp = (auth: { authorization: string }, cardId: string, amount: number) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/giftcards/admin/${cardId}/add-balance`,
      headers: auth,
      payload: { amount },
    });
  const topUpsOf = async (cardId: string) =>
    (await ledgerOf(cardId))
      .filter((l) => l.kind === 'top_up')
      .sort((a, b) => a.balanceAfterCents - b.balanceAfterCents);
  const auditsOf = (cardId: string) =>
    ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, cardId), eq(auditLog.action, 'giftcard.add_balance')));
  type TopUpAudit = {
    before: { balance: number };
    after: { balance: number; added: number; ledgerId: string };
  };

  it('tops up one card three times in a row: the balances add up, three ledger rows, three audit rows', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const answers: number[] = [];
    for (const amount of [5, 2.5, 0.25]) {
      const res = await topUp(admin.auth, card.id, amount);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(res.json<GiftCard>().balance);
    }
    expect(answers).toEqual([15, 17.5, 17.75]);
    expect(await balanceOf(card.id)).toBe(17_75);
    const rows = await topUpsOf(card.id);
    expect(rows.map((r) => [r.amountCents, r.balanceAfterCents, r.orderId, r.refundId])).toEqual([
      [5_00, 15_00, null, null],
      [2_50, 17_50, null, null],
      [25, 17_75, null, null],
    ]);
    expect(rows.every((r) => r.actorUserId === admin.user.id)).toBe(true);
    // Each audit row names the ledger row of its own top-up.
    const audits = (await auditsOf(card.id)) as unknown as TopUpAudit[];
    expect(audits.map((a) => a.after.ledgerId).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('takes 20 top-ups of one card at once: every one 200, the balance is the sum, 20 ledger and audit rows', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const card = await insertGiftCard(ctx.db, { balanceCents: 1_00 });
    const amounts = Array.from({ length: 20 }, (_, i) => i + 1); // $1 .. $20: $210 in all
    const results = await Promise.all(amounts.map((amount) => topUp(admin.auth, card.id, amount)));
    expect(results.map((r) => r.statusCode)).toEqual(amounts.map(() => 200));
    expect(await balanceOf(card.id)).toBe(1_00 + 210_00);

    // One chain: each top-up starts from the balance the one before it left (row lock), none is lost.
    const rows = await topUpsOf(card.id);
    expect(rows).toHaveLength(20);
    let balance = 1_00;
    for (const row of rows) {
      balance += row.amountCents;
      expect(row.balanceAfterCents).toBe(balance);
    }
    expect(rows.map((r) => r.amountCents).sort((a, b) => a - b)).toEqual(amounts.map((a) => a * 100));
    expect(new Set(rows.map((r) => r.id)).size).toBe(20);

    const audits = (await auditsOf(card.id)) as unknown as TopUpAudit[];
    expect(audits).toHaveLength(20);
    for (const audit of audits) {
      expect(Math.round((audit.after.balance - audit.before.balance) * 100)).toBe(audit.after.added * 100);
    }
    expect(audits.map((a) => a.after.ledgerId).sort()).toEqual(rows.map((r) => r.id).sort());
  });
});

describe('POST /api/giftcards/use', () => {
  it('pays an order with a gift card alone: paid, one debit, balance down once, one mail', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const order = await orderFor(auth); // 20.00 + 3.00 + 7.99 = 30.99
    const res = await use(auth, { code: card.code.toLowerCase(), amount: 30.99, orderId: order._id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      orderId: order._id,
      balance: 69.01,
      updatedBalance: 69.01,
      applied: 30.99,
      amountDue: 0,
      message: 'Gift card applied: $30.99. Your order is paid.',
    });

    const paid = (
      await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth })
    ).json<Order>();
    expect(paid).toMatchObject({
      isPaid: true,
      status: 'paid',
      giftCardAmount: 30.99,
      amountDue: 0,
      paymentResult: { method: 'Gift Card', status: 'COMPLETED', payerEmail: user.email },
    });
    expect(paid.paidAt).not.toBeNull();

    // The spec's client then calls the payment update; it and every replay change nothing.
    for (let i = 0; i < 2; i++) {
      const put = await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/payment`,
        headers: auth,
        payload: { payment_method: 'Gift Card', status: 'COMPLETED', gift_card_code: card.code },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json<Order>().paidAt).toBe(paid.paidAt);
      const again = await use(auth, { code: card.code, amount: 30.99, orderId: order._id });
      expect(again.json()).toEqual({
        orderId: order._id,
        balance: 69.01,
        updatedBalance: 69.01,
        applied: 0,
        amountDue: 0,
        message: 'This gift card is already applied to this order.',
      });
    }
    expect(await balanceOf(card.id)).toBe(6901);
    expect((await ledgerOf(card.id)).filter((l) => l.kind === 'order_debit')).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('applies part of the total and leaves the remainder due', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const order = await orderFor(auth);
    const res = await use(auth, { code: card.code, amount: 10, orderId: order._id });
    expect(res.json()).toMatchObject({
      balance: 0,
      updatedBalance: 0,
      applied: 10,
      amountDue: 20.99,
      message: 'Gift card applied: $10.00. $20.99 is still due.',
    });
    const dto = (
      await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth })
    ).json<Order>();
    expect(dto).toMatchObject({ isPaid: false, giftCardAmount: 10, amountDue: 20.99 });
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'Gift Card' },
    });
    expect(put.statusCode).toBe(402);
    expect(put.json()).toEqual({
      message: 'Payment is not complete: $20.99 still due',
      code: 'PAYMENT_INCOMPLETE',
      amountDue: 20.99,
    });
  });

  it('refuses amounts above the balance or the remainder, zero, negative and non-numbers', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 500 });
    const order = await orderFor(auth);
    const above = await use(auth, { code: card.code, amount: 6, orderId: order._id });
    expect(above.statusCode).toBe(409);
    expect(above.json()).toMatchObject({ message: 'Insufficient gift card balance' });
    const big = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
    const overRemainder = await use(auth, { code: big.code, amount: 31, orderId: order._id });
    expect(overRemainder.statusCode).toBe(400);
    expect(overRemainder.json<{ message: string }>().message).toMatch(/\$30\.99 left to pay/);
    for (const amount of [0, -5, '5', null, 1.001]) {
      expect((await use(auth, { code: card.code, amount, orderId: order._id })).statusCode).toBe(400);
    }
    expect((await use(auth, { code: 7, amount: 1, orderId: order._id })).statusCode).toBe(400);
    expect(await balanceOf(card.id)).toBe(500);
    expect(await balanceOf(big.id)).toBe(100_000);
  });

  it("refuses another customer's order (404), unknown cards (404) and paid orders (409)", async () => {
    const owner = await insertUser(ctx.db);
    const stranger = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const order = await orderFor(owner.auth);
    const res = await use(stranger.auth, { code: card.code, amount: 1, orderId: order._id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Order not found' });
    const unknown = await use(owner.auth, { code: 'NO-SUCH-CARD', amount: 1, orderId: order._id });
    expect(unknown.json()).toMatchObject({ message: 'Gift card not found' });
    await use(owner.auth, { code: card.code, amount: 30.99, orderId: order._id });
    const other = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const paid = await use(owner.auth, { code: other.code, amount: 1, orderId: order._id });
    expect(paid.statusCode).toBe(409);
    expect(await balanceOf(card.id)).toBe(10_000 - 3099);
  });

  it('pays with two cards together, and the mail goes out once', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const a = await insertGiftCard(ctx.db, { balanceCents: 2000 });
    const b = await insertGiftCard(ctx.db, { balanceCents: 2000 });
    const order = await orderFor(auth);
    expect(
      (await use(auth, { code: a.code, amount: 20, orderId: order._id })).json<UseGiftCardResponse>()
        .amountDue,
    ).toBe(10.99);
    expect(
      (await use(auth, { code: b.code, amount: 10.99, orderId: order._id })).json<UseGiftCardResponse>(),
    ).toMatchObject({
      balance: 9.01,
      applied: 10.99,
      amountDue: 0,
    });
    const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe('paid');
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('never overdraws a card: 20 concurrent uses on 20 orders', async () => {
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const placed = await ordersOfOneProduct(20);
    const results = await Promise.all(
      placed.map(({ auth, order }) => use(auth, { code: card.code, amount: 15, orderId: order._id })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(6);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(14);
    const final = await balanceOf(card.id);
    expect(final).toBe(1000);
    const debits = (await ledgerOf(card.id)).filter((l) => l.kind === 'order_debit');
    expect(debits).toHaveLength(6);
    expect(-debits.reduce((s, d) => s + d.amountCents, 0)).toBe(10_000 - (final ?? 0));
    expect(debits.every((d) => d.balanceAfterCents >= 0)).toBe(true);
  });

  it('debits once when the same card is applied to one order concurrently', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const order = await orderFor(auth);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => use(auth, { code: card.code, amount: 5, orderId: order._id })),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.map((r) => r.json<UseGiftCardResponse>().applied).sort()).toEqual([0, 0, 0, 0, 5]);
    expect(await balanceOf(card.id)).toBe(9500);
    const debits = await ctx.db
      .select()
      .from(giftCardLedger)
      .where(and(eq(giftCardLedger.giftCardId, card.id), eq(giftCardLedger.kind, 'order_debit')));
    expect(debits).toHaveLength(1);
  });

  it("debits once under the spec's sequence raced: payment updates and uses without orderId at once", async () => {
    const { auth, user } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const order = await orderFor(auth); // 30.99
    const payment = () =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/payment`,
        headers: auth,
        payload: {
          order_id: order._id,
          status: 'COMPLETED',
          updated_time: Date.now(),
          email_address: user.email,
          payment_method: 'Gift Card',
          gift_card_code: card.code,
        },
      });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, payment),
      ...Array.from({ length: 5 }, () => use(auth, { code: card.code, amount: 30.99 })),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    const applied = results.slice(5).map((r) => r.json<UseGiftCardResponse>().applied);
    // Whichever call came first took the money; every other one moved nothing.
    expect(applied.filter((a) => a > 0).length).toBeLessThanOrEqual(1);
    expect(await balanceOf(card.id)).toBe(10_000 - 3099);
    expect((await ledgerOf(card.id)).filter((l) => l.kind === 'order_debit')).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('never overdraws a card paying 20 orders at once through the payment update, and never takes more than due', async () => {
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const placed = await ordersOfOneProduct(20);
    const results = await Promise.all(
      placed.map(({ auth, order }) =>
        ctx.app.inject({
          method: 'PUT',
          url: `/api/orders/${order._id}/payment`,
          headers: auth,
          payload: { status: 'COMPLETED', payment_method: 'Gift Card', gift_card_code: card.code },
        }),
      ),
    );
    // $100.00 pays three $30.99 orders in full, then $7.03 of a fourth (402), then nothing is left.
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const partial = results.filter((r) => r.statusCode === 402);
    expect(partial).toHaveLength(1);
    expect(partial[0]?.json()).toMatchObject({ amountDue: 23.96 });
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(16);
    expect(await balanceOf(card.id)).toBe(0);
    const debits = (await ledgerOf(card.id)).filter((l) => l.kind === 'order_debit');
    expect(debits.map((d) => -d.amountCents).sort((x, y) => x - y)).toEqual([703, 3099, 3099, 3099]);
    expect(debits.every((d) => d.balanceAfterCents >= 0)).toBe(true);
  });
});

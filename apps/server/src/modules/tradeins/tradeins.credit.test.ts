import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, TradeIn } from '@pixel-vault/shared';
import { giftCardLedger, giftCards, tradeIns } from '../../db/schema/index.js';
import { ALERT_SUBJECT, mailsTo, subscribeUser } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser, placeOrder } from '../../test/factories.js';
import {
  type Auth,
  acceptAll,
  adminMove,
  buyable,
  creditState,
  move,
  ok,
  quote,
  stockOfVariants,
  storeCardsOf,
} from '../../test/tradeins.js';

/**
 * Issue 35: the credit, exactly once, on both engines (npm run test:pg: real concurrency through a
 * pool): a store-credit gift card per customer, one ledger row per trade-in, the stock of the accepted
 * lines once, whatever double clicks, two admins or retries do; and the credit spent at checkout.
 */
let ctx: TestContext;
let admin: Auth;
let admin2: Auth;

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS, productsCacheTtlMs: 60_000 } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  admin2 = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}`;

/** A new customer's trade-in of `lines` (game, qty), shipped and received. */
async function received(lines: [Awaited<ReturnType<typeof buyable>>, number][], auth?: Auth) {
  const customer = auth ? { auth, user: undefined } : await insertUser(ctx.db);
  const made = await quote(
    ctx.app,
    customer.auth,
    lines.map(([game, qty]) => ({ product: game.id, qty })),
  );
  await ok(move(ctx.app, customer.auth, made._id, 'ship'));
  await ok(adminMove(ctx.app, admin, made._id, 'receive'));
  return { auth: customer.auth, user: customer.user, tradeIn: made };
}

const userIdOf = async (tradeInId: string) =>
  (await ctx.db.select().from(tradeIns).where(eq(tradeIns.id, tradeInId)))[0]?.userId ?? '';

/** The credit invariant in the database: one ledger row, the card's balance, credited_cents, events. */
async function expectCreditedOnce(tradeIn: TradeIn, cents: number) {
  const state = await creditState(ctx.db, tradeIn._id);
  expect(state.row).toMatchObject({ status: 'accepted', creditedCents: cents });
  expect(state.ledger).toHaveLength(1);
  expect(state.ledger[0]).toMatchObject({ kind: 'tradein_credit', amountCents: cents });
  expect(state.kinds.filter((k) => k === 'accepted')).toHaveLength(1);
  expect(state.kinds.filter((k) => k === 'credited')).toHaveLength(1);
  const cards = await storeCardsOf(ctx.db, state.row?.userId ?? '');
  expect(cards).toHaveLength(1);
  // The card's balance is its ledger's sum (issue row + every credit and debit).
  const [sum] = await ctx.db
    .select({ cents: sql<number>`coalesce(sum(${giftCardLedger.amountCents}), 0)`.mapWith(Number) })
    .from(giftCardLedger)
    .where(eq(giftCardLedger.giftCardId, cards[0]?.id ?? ''));
  expect(cards[0]?.balanceCents).toBe(sum?.cents);
  return { card: cards[0], state };
}

describe('crediting an accepted trade-in', () => {
  it('credits an all-accepted inspection at once: a new store-credit card, the stock, the mail with the code', async () => {
    const mario = await buyable(ctx.db, { name: unique('Credit Mario'), creditCents: 1800, stock: 0 });
    const zelda = await buyable(ctx.db, { name: unique('Credit Zelda'), creditCents: 1050, stock: 4 });
    const { auth, tradeIn } = await received([
      [mario, 2],
      [zelda, 1],
    ]);
    const email = (await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: auth })).json<{
      email: string;
    }>().email;
    // Someone waits for Mario, sold out: the stock the trade-in adds mails them (migration 0025).
    const waiter = await insertUser(ctx.db);
    await subscribeUser(ctx.app, waiter.auth, mario.id);
    // The catalogue shows Mario sold out (and caches it).
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/products/${mario.id}` });
    expect(shown.json()).toMatchObject({ stockQuantity: 0 });

    const answer = await ok(adminMove(ctx.app, admin, tradeIn._id, 'inspect', acceptAll(tradeIn)));
    expect(answer).toMatchObject({ status: 'accepted', inspectedCredit: 46.5, creditedAmount: 46.5 });
    expect(answer.giftCardCode).toMatch(/^CREDIT-[0-9A-F]{8}-[0-9A-F]{8}$/);
    expect(answer.timeline.map((e) => [e.kind, e.actor, e.amount])).toEqual([
      ['quoted', 'customer', 46.5],
      ['shipped', 'customer', null],
      ['received', 'admin', null],
      ['inspected', 'admin', 46.5],
      ['accepted', 'system', null],
      ['credited', 'system', 46.5],
    ]);
    const { card } = await expectCreditedOnce(tradeIn, 4650);
    expect(card).toMatchObject({ code: answer.giftCardCode, balanceCents: 4650 });
    expect(await stockOfVariants(ctx.db, [mario.variantId, zelda.variantId])).toEqual(
      new Map([
        [mario.variantId, 2],
        [zelda.variantId, 5],
      ]),
    );
    // The catalogue was told: the cached product shows the new stock.
    const after = await ctx.app.inject({ method: 'GET', url: `/api/products/${mario.id}` });
    expect(after.json()).toMatchObject({ stockQuantity: 2 });

    const [credited] = await mailsTo(ctx.db, email, 'Your trade-in credit: $46.50');
    expect(credited?.textBody).toContain(`Gift card code: ${answer.giftCardCode}`);
    expect(credited?.textBody).toContain('choose Gift Card as the payment at checkout');
    expect(await mailsTo(ctx.db, email, 'Your trade-in was inspected')).toEqual([]);
    expect(await mailsTo(ctx.db, waiter.user.email, ALERT_SUBJECT)).toHaveLength(1);

    // The customer reads the same answer, code included; the admin sees it too.
    const mine = await ok(
      ctx.app.inject({ method: 'GET', url: `/api/tradeins/${tradeIn._id}`, headers: auth }),
    );
    expect(mine.giftCardCode).toBe(answer.giftCardCode);
  });

  it('adds a later trade-in to the same card, and puts only accepted and lowered lines into stock', async () => {
    const a = await buyable(ctx.db, { name: unique('Same Card A'), creditCents: 1000, stock: 1 });
    const b = await buyable(ctx.db, { name: unique('Same Card B'), creditCents: 2000, stock: 1 });
    const c = await buyable(ctx.db, { name: unique('Same Card C'), creditCents: 3000, stock: 1 });
    const first = await received([[a, 1]]);
    await ok(adminMove(ctx.app, admin, first.tradeIn._id, 'inspect', acceptAll(first.tradeIn)));
    const second = await received(
      [
        [a, 1],
        [b, 2],
        [c, 3],
      ],
      first.auth,
    );
    const [la, lb, lc] = second.tradeIn.items;
    const inspected = await ok(
      adminMove(ctx.app, admin, second.tradeIn._id, 'inspect', {
        items: [
          { _id: la?._id, outcome: 'accepted' },
          { _id: lb?._id, outcome: 'lowered', credit: 12.5, reason: 'No manual' },
          { _id: lc?._id, outcome: 'rejected', reason: 'Does not start' },
        ],
      }),
    );
    expect(inspected).toMatchObject({ status: 'inspected', totalCredit: 140, inspectedCredit: 35 });
    // Nothing moves before the customer agrees.
    expect(
      [...(await stockOfVariants(ctx.db, [a.variantId, b.variantId, c.variantId])).values()].sort(),
    ).toEqual([1, 1, 2]);
    const accepted = await ok(move(ctx.app, second.auth, second.tradeIn._id, 'accept'));
    expect(accepted).toMatchObject({ status: 'accepted', creditedAmount: 35 });
    const { card } = await expectCreditedOnce(second.tradeIn, 3500);
    expect(card?.balanceCents).toBe(4500);
    expect(accepted.giftCardCode).toBe(card?.code);
    expect(await stockOfVariants(ctx.db, [a.variantId, b.variantId, c.variantId])).toEqual(
      new Map([
        [a.variantId, 3],
        [b.variantId, 3],
        [c.variantId, 1],
      ]),
    );
    const accepting = accepted.timeline.find((e) => e.kind === 'accepted');
    expect(accepting?.actor).toBe('customer');
  });
});

describe('exactly once', () => {
  it('credits once under two concurrent accepts and a retried one', async () => {
    const game = await buyable(ctx.db, { name: unique('Double Click'), creditCents: 2500, stock: 0 });
    const { auth, tradeIn } = await received([[game, 2]]);
    await ok(
      adminMove(ctx.app, admin, tradeIn._id, 'inspect', {
        items: [{ _id: tradeIn.items[0]?._id, outcome: 'lowered', credit: 20, reason: 'Worn label' }],
      }),
    );
    const [one, two] = await Promise.all([
      move(ctx.app, auth, tradeIn._id, 'accept'),
      move(ctx.app, auth, tradeIn._id, 'accept'),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(one.json<TradeIn>().giftCardCode).toBe(two.json<TradeIn>().giftCardCode);
    const retried = await ok(move(ctx.app, auth, tradeIn._id, 'accept'));
    expect(retried).toMatchObject({ status: 'accepted', creditedAmount: 40 });
    const { card } = await expectCreditedOnce(tradeIn, 4000);
    expect(card?.balanceCents).toBe(4000);
    expect((await stockOfVariants(ctx.db, [game.variantId])).get(game.variantId)).toBe(2);
  });

  it('credits once when two admins send the same all-accepted inspection at once', async () => {
    const game = await buyable(ctx.db, { name: unique('Two Admins'), creditCents: 1500, stock: 3 });
    const { tradeIn } = await received([[game, 3]]);
    const answers = await Promise.all([
      adminMove(ctx.app, admin, tradeIn._id, 'inspect', acceptAll(tradeIn)),
      adminMove(ctx.app, admin2, tradeIn._id, 'inspect', acceptAll(tradeIn)),
      adminMove(ctx.app, admin, tradeIn._id, 'inspect', acceptAll(tradeIn)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    await expectCreditedOnce(tradeIn, 4500);
    expect((await stockOfVariants(ctx.db, [game.variantId])).get(game.variantId)).toBe(6);
    const kinds = (await creditState(ctx.db, tradeIn._id)).kinds;
    expect(kinds.filter((k) => k === 'inspected')).toHaveLength(1);
  });

  it('refuses a second credit row for a trade-in at the database (the last line of defence)', async () => {
    const game = await buyable(ctx.db, { name: unique('Defence'), creditCents: 100 });
    const { tradeIn } = await received([[game, 1]]);
    await ok(adminMove(ctx.app, admin, tradeIn._id, 'inspect', acceptAll(tradeIn)));
    const { card } = await expectCreditedOnce(tradeIn, 100);
    await expect(
      ctx.db.insert(giftCardLedger).values({
        giftCardId: card?.id ?? '',
        kind: 'tradein_credit',
        tradeInId: tradeIn._id,
        amountCents: 100,
        balanceAfterCents: 200,
      }),
    ).rejects.toThrow();
    // And a second live store-credit card for the same customer.
    await expect(
      ctx.db.insert(giftCards).values({
        code: 'CREDIT-SECOND-CARD',
        balanceCents: 0,
        storeCreditUserId: await userIdOf(tradeIn._id),
      }),
    ).rejects.toThrow();
  });
});

describe('spending the credit', () => {
  it('pays an order at checkout like any gift card', async () => {
    const game = await buyable(ctx.db, { name: unique('Spend Credit'), creditCents: 5000 });
    const { auth, tradeIn } = await received([[game, 2]]);
    const credited = await ok(adminMove(ctx.app, admin, tradeIn._id, 'inspect', acceptAll(tradeIn)));
    const code = credited.giftCardCode ?? '';
    // $19.99 + 15 % tax + $7.99 shipping = $30.98, within the $100.00 credit.
    const order = await placeOrder(ctx.app, auth, [{ product: game.id, itemQuantity: 1 }]);
    const paid = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'Gift Card', gift_card_code: code },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<Order>().isPaid).toBe(true);
    const [card] = await storeCardsOf(ctx.db, await userIdOf(tradeIn._id));
    expect(card?.balanceCents).toBe(10_000 - Math.round(order.totalPrice * 100));
    const ledger = await ctx.db
      .select()
      .from(giftCardLedger)
      .where(eq(giftCardLedger.giftCardId, card?.id ?? ''));
    expect(ledger.map((l) => l.kind).sort()).toEqual(['issue', 'order_debit', 'tradein_credit']);
  });
});

import { asc, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TradeIn, TradeInStatus } from '@pixel-vault/shared';
import type { Database, Executor } from '../db/client.js';
import { giftCardLedger, giftCards, productVariants, tradeInEvents, tradeIns } from '../db/schema/index.js';
import type { App } from '../lib/http.js';
import { createTradeInExpiry } from '../modules/tradeins/tradeins.expiry.js';
import { EVENT_ORDER } from '../modules/tradeins/tradeins.transitions.js';
import { type ProductOverrides, type TestProduct, insertProduct, insertUser } from './factories.js';

// Helpers of the trade-in tests (modules/tradeins, issue 35).

export type Auth = { authorization: string };

/** Sets a variant's trade-in credit (cents; null = not bought) straight in the database. */
export async function setTradeInCredit(db: Executor, variantId: string, cents: number | null): Promise<void> {
  await db
    .update(productVariants)
    .set({ tradeInCreditCents: cents })
    .where(eq(productVariants.id, variantId));
}

/** A product on the buy list: every variant bought at `creditCents` (default $18.00). */
export async function buyable(
  db: Database,
  overrides: ProductOverrides & { creditCents?: number } = {},
): Promise<TestProduct> {
  const { creditCents = 1800, ...product } = overrides;
  const made = await insertProduct(db, product);
  for (const v of made.variants) await setTradeInCredit(db, v.id, creditCents);
  return made;
}

export type QuoteItem = { product: string; variant?: string; qty: number };

export const postQuote = (app: App, auth: Auth | undefined, items: QuoteItem[] | unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/tradeins',
    payload: { items },
    ...(auth ? { headers: auth } : {}),
  });

/** A quote that must succeed (201), answered. */
export async function quote(app: App, auth: Auth, items: QuoteItem[]): Promise<TradeIn> {
  const res = await postQuote(app, auth, items);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TradeIn>();
}

export type CustomerMove = 'ship' | 'cancel' | 'accept' | 'decline';
export type AdminMove = 'receive' | 'inspect';

export const move = (app: App, auth: Auth | undefined, id: string, action: CustomerMove, payload?: object) =>
  app.inject({
    method: 'POST',
    url: `/api/tradeins/${id}/${action}`,
    ...(auth ? { headers: auth } : {}),
    ...(payload ? { payload } : {}),
  });

export const adminMove = (
  app: App,
  auth: Auth | undefined,
  id: string,
  action: AdminMove,
  payload?: object,
) =>
  app.inject({
    method: 'POST',
    url: `/api/tradeins/admin/${id}/${action}`,
    ...(auth ? { headers: auth } : {}),
    ...(payload ? { payload } : {}),
  });

/** Every line accepted at its quote. */
export const acceptAll = (tradeIn: TradeIn) => ({
  items: tradeIn.items.map((i) => ({ _id: i._id, outcome: 'accepted' })),
});

/** A move that must answer 200; answers the trade-in. */
export async function ok(res: Promise<{ statusCode: number; body: string; json<T>(): T }>): Promise<TradeIn> {
  const done = await res;
  expect(done.statusCode, done.body).toBe(200);
  return done.json<TradeIn>();
}

/** What the database holds about a trade-in's credit: its row, its ledger rows, its events. */
export async function creditState(db: Executor, tradeInId: string) {
  const [row] = await db.select().from(tradeIns).where(eq(tradeIns.id, tradeInId));
  const ledger = await db.select().from(giftCardLedger).where(eq(giftCardLedger.tradeInId, tradeInId));
  // In time order, and steps of one instant (a test's clock stands still) in the order they happen.
  const rank = (kind: string) => EVENT_ORDER.indexOf(kind as (typeof EVENT_ORDER)[number]);
  const events = (
    await db
      .select()
      .from(tradeInEvents)
      .where(eq(tradeInEvents.tradeInId, tradeInId))
      .orderBy(asc(tradeInEvents.at))
  ).sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a.kind) - rank(b.kind));
  return { row, ledger, events, kinds: events.map((e) => e.kind) };
}

/** The customer's live store-credit cards (at most one). */
export const storeCardsOf = (db: Executor, userId: string) =>
  db.select().from(giftCards).where(eq(giftCards.storeCreditUserId, userId));

export async function stockOfVariants(db: Executor, ids: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(inArray(productVariants.id, ids));
  return new Map(rows.map((r) => [r.id, r.stock]));
}

/** Mario accepted as quoted, Zelda lowered to $6.00: an inspection that asks the customer. */
export const lowered = (t: TradeIn) => ({
  items: t.items.map((i, n) =>
    n === 0
      ? { _id: i._id, outcome: 'accepted' }
      : { _id: i._id, outcome: 'lowered', credit: 6, reason: 'Label torn' },
  ),
});

export type Move = CustomerMove | AdminMove;

/** Any move by `who`: an inspection is `lowered`'s, a shipment has a tracking number. */
export function send(app: App, who: Auth | undefined, id: string, step: Move, tradeIn: TradeIn) {
  return step === 'receive' || step === 'inspect'
    ? adminMove(app, who, id, step, step === 'inspect' ? lowered(tradeIn) : undefined)
    : move(app, who, id, step, step === 'ship' ? { trackingNumber: 'TRACK-1' } : undefined);
}

/**
 * Trade-ins in any status, each a new customer's (two games: the first x1, the second x2), brought
 * there through the API (an expired one by the sweep, at `clock`).
 */
export function tradeInsIn(options: {
  app: App;
  db: Database;
  admin: Auth;
  games: () => [TestProduct, TestProduct];
  clock: () => Date;
}) {
  const { app, db, admin, clock } = options;
  return async function tradeInIn(
    status: TradeInStatus,
  ): Promise<{ auth: Auth; email: string; tradeIn: TradeIn }> {
    const { auth, user } = await insertUser(db);
    const [first, second] = options.games();
    const made = await quote(app, auth, [
      { product: first.id, qty: 1 },
      { product: second.id, qty: 2 },
    ]);
    const id = made._id;
    const toInspected: [Auth, Move][] = [
      [auth, 'ship'],
      [admin, 'receive'],
      [admin, 'inspect'],
    ];
    const path: Partial<Record<TradeInStatus, [Auth, Move][]>> = {
      shipped: [[auth, 'ship']],
      cancelled: [[auth, 'cancel']],
      received: toInspected.slice(0, 2),
      inspected: toInspected,
      accepted: [...toInspected, [auth, 'accept']],
      returned: [...toInspected, [auth, 'decline']],
    };
    for (const [who, step] of path[status] ?? []) await ok(send(app, who, id, step, made));
    if (status === 'expired') {
      await db
        .update(tradeIns)
        .set({ expiresAt: new Date(clock().getTime() - 1) })
        .where(eq(tradeIns.id, id));
      const sweep = createTradeInExpiry({ db, mailer: { kick() {} }, log: { info() {}, error() {} }, clock });
      expect(await sweep.sweepOnce()).toBeGreaterThanOrEqual(1);
    }
    const tradeIn = await ok(app.inject({ method: 'GET', url: `/api/tradeins/${id}`, headers: auth }));
    expect(tradeIn.status).toBe(status);
    return { auth, email: user.email, tradeIn };
  };
}

import { eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_TRADE_INS, type TradeIn } from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { giftCardLedger, giftCards, tradeInItems, tradeIns } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import {
  type Auth,
  acceptAll,
  adminMove,
  buyable,
  move,
  ok,
  postQuote,
  quote,
  stockOfVariants,
} from '../../test/tradeins.js';

/**
 * Issue 35: many clients at once, on both engines (npm test is PGlite, one connection; npm run
 * test:pg is PostgreSQL with a pool, where they really overlap): two admins inspecting, customers
 * double-clicking accept, declining, and asking for new quotes, all on the same two games. Afterwards
 * the database holds every trade-in credited at most once, each customer's one card holding exactly
 * their credits, the stock grown by exactly what was accepted, and no customer over the open limit.
 */
let ctx: TestContext;
let admins: Auth[];

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admins = [
    (await insertUser(ctx.db, { isAdmin: true })).auth,
    (await insertUser(ctx.db, { isAdmin: true })).auth,
  ];
});
afterAll(() => ctx.close());

const CUSTOMERS = 8;

describe('a rush of trade-ins', () => {
  it('credits every trade-in at most once and adds its stock once through concurrent inspections, accepts, declines and quotes', async () => {
    const mario = await buyable(ctx.db, { name: 'Rush Mario', creditCents: 1800, stock: 0 });
    const zelda = await buyable(ctx.db, { name: 'Rush Zelda', creditCents: 1200, stock: 5 });
    const customers = await Promise.all(Array.from({ length: CUSTOMERS }, () => insertUser(ctx.db)));

    // Two trade-ins each, received: Mario x1 + Zelda x2.
    const work: { auth: Auth; userId: string; tradeIn: TradeIn; n: number }[] = [];
    for (const [i, c] of customers.entries()) {
      for (let k = 0; k < 2; k += 1) {
        const made = await quote(ctx.app, c.auth, [
          { product: mario.id, qty: 1 },
          { product: zelda.id, qty: 2 },
        ]);
        await ok(move(ctx.app, c.auth, made._id, 'ship'));
        await ok(adminMove(ctx.app, admins[0]!, made._id, 'receive'));
        work.push({ auth: c.auth, userId: c.user.id, tradeIn: made, n: i * 2 + k });
      }
    }

    // At once, per trade-in: both admins inspect (every other one all accepted, so credited at once;
    // the rest with Zelda lowered), the customer accepts twice and (for every third) declines, and
    // asks for new quotes.
    const inspection = (t: TradeIn, n: number) =>
      n % 2 === 0
        ? acceptAll(t)
        : {
            items: t.items.map((i, j) =>
              j === 0
                ? { _id: i._id, outcome: 'accepted' }
                : { _id: i._id, outcome: 'lowered', credit: 7.5, reason: 'Worn' },
            ),
          };
    const calls: Promise<LightMyRequestResponse>[] = [];
    for (const { auth, tradeIn, n } of work) {
      calls.push(adminMove(ctx.app, admins[0]!, tradeIn._id, 'inspect', inspection(tradeIn, n)));
      calls.push(adminMove(ctx.app, admins[1]!, tradeIn._id, 'inspect', inspection(tradeIn, n)));
      calls.push(move(ctx.app, auth, tradeIn._id, 'accept'));
      calls.push(move(ctx.app, auth, tradeIn._id, 'accept'));
      if (n % 3 === 0) calls.push(move(ctx.app, auth, tradeIn._id, 'decline'));
      calls.push(postQuote(ctx.app, auth, [{ product: zelda.id, qty: 1 }]));
    }
    const answers = await Promise.all(calls);
    for (const res of answers) expect([200, 201, 409], res.body).toContain(res.statusCode);

    // Whatever is still inspected now gets its customer's answer, once more at once.
    const left = await ctx.db
      .select()
      .from(tradeIns)
      .where(
        inArray(
          tradeIns.id,
          work.map((w) => w.tradeIn._id),
        ),
      );
    await Promise.all(
      left
        .filter((r) => r.status === 'inspected')
        .flatMap((r) => {
          const auth = work.find((w) => w.tradeIn._id === r.id)!.auth;
          return [move(ctx.app, auth, r.id, 'accept'), move(ctx.app, auth, r.id, 'accept')];
        }),
    );

    // Each trade-in: accepted with exactly one credit row of its inspected total, or returned with none.
    const rows = await ctx.db
      .select()
      .from(tradeIns)
      .where(
        inArray(
          tradeIns.id,
          work.map((w) => w.tradeIn._id),
        ),
      );
    const ledger = await ctx.db
      .select()
      .from(giftCardLedger)
      .where(
        inArray(
          giftCardLedger.tradeInId,
          rows.map((r) => r.id),
        ),
      );
    let marioAdded = 0;
    let zeldaAdded = 0;
    for (const row of rows) {
      const credits = ledger.filter((l) => l.tradeInId === row.id);
      expect(['accepted', 'returned']).toContain(row.status);
      if (row.status === 'accepted') {
        expect(credits).toHaveLength(1);
        expect(credits[0]?.amountCents).toBe(row.creditedCents);
        expect(row.creditedCents).toBe(row.inspectedCents);
        marioAdded += 1;
        zeldaAdded += 2;
      } else {
        expect(credits).toEqual([]);
        expect(row.creditedCents).toBe(0);
      }
      const events = await queryRows<{ kind: string; n: number | string }>(
        ctx.db,
        sql`select kind, count(*) as n from trade_in_events where trade_in_id = ${row.id} group by kind`,
      );
      for (const e of events) expect(Number(e.n), `${row.id} ${e.kind}`).toBe(1);
    }
    expect(rows.filter((r) => r.status === 'accepted').length).toBeGreaterThan(0);

    // Each customer: one store-credit card, whose balance is exactly their credits (and its ledger's sum).
    for (const c of customers) {
      const cards = await ctx.db.select().from(giftCards).where(eq(giftCards.storeCreditUserId, c.user.id));
      const credited = rows.filter((r) => r.userId === c.user.id).reduce((s, r) => s + r.creditedCents, 0);
      expect(cards.length).toBe(credited > 0 ? 1 : 0);
      if (cards[0]) {
        expect(cards[0].balanceCents).toBe(credited);
        const [sum] = await queryRows<{ cents: number | string }>(
          ctx.db,
          sql`select coalesce(sum(amount_cents), 0) as cents from gift_card_ledger where gift_card_id = ${cards[0].id}`,
        );
        expect(Number(sum?.cents)).toBe(credited);
      }
      // Never more open trade-ins than the limit.
      const open = await queryRows<{ n: number | string }>(
        ctx.db,
        sql`select count(*) as n from trade_ins where user_id = ${c.user.id}
            and status in ('quoted', 'shipped', 'received', 'inspected')`,
      );
      expect(Number(open[0]?.n)).toBeLessThanOrEqual(MAX_OPEN_TRADE_INS);
    }

    // The stock grew by exactly the accepted lines (new quotes and declines add nothing).
    expect(await stockOfVariants(ctx.db, [mario.variantId, zelda.variantId])).toEqual(
      new Map([
        [mario.variantId, marioAdded],
        [zelda.variantId, 5 + zeldaAdded],
      ]),
    );
    const lines = await ctx.db
      .select()
      .from(tradeInItems)
      .where(
        inArray(
          tradeInItems.tradeInId,
          rows.map((r) => r.id),
        ),
      );
    expect(lines.every((l) => l.outcome !== null)).toBe(true);
  });
});

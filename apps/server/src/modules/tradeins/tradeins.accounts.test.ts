import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeIn } from '@pixel-vault/shared';
import { giftCards } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import {
  type Auth,
  acceptAll,
  adminMove,
  buyable,
  creditState,
  move,
  ok,
  quote,
  storeCardsOf,
} from '../../test/tradeins.js';

/**
 * Issue 35: deleting a customer's account (Manage Users) with trade-ins, on both engines. A trade-in in
 * progress refuses it; an unshipped quote is cancelled; closed ones and the store credit stay.
 */
let ctx: TestContext;
let admin: Auth;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

let counter = 0;
const game = () => buyable(ctx.db, { name: `Deletion Game ${(counter += 1)}` });
const customer = async () => {
  const { auth, user } = await insertUser(ctx.db, { name: 'Leaving Trader' });
  return { auth, id: user.id, email: user.email };
};
const deleteAccount = (id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/users/admin/user/${id}`, headers: admin });
const adminGet = async (id: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/tradeins/admin/${id}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TradeIn>();
};

describe('deleting a customer who traded in', () => {
  it('is refused (409) while a trade-in is shipped, received or inspected, and the account stays', async () => {
    const shopper = await customer();
    const p = await game();
    const t = await quote(ctx.app, shopper.auth, [{ product: p.id, qty: 1 }]);
    await ok(move(ctx.app, shopper.auth, t._id, 'ship'));
    const refused = await deleteAccount(shopper.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'TRADE_IN_IN_PROGRESS' });
    await ok(adminMove(ctx.app, admin, t._id, 'receive'));
    expect((await deleteAccount(shopper.id)).statusCode).toBe(409);
    // The trade-in goes on as if nothing was asked.
    expect((await adminGet(t._id)).status).toBe('received');
  });

  it('cancels an unshipped quote, keeps closed trade-ins with the customer as quoted, and the credit', async () => {
    const shopper = await customer();
    const p = await game();
    const done = await quote(ctx.app, shopper.auth, [{ product: p.id, qty: 2 }]);
    await ok(move(ctx.app, shopper.auth, done._id, 'ship'));
    await ok(adminMove(ctx.app, admin, done._id, 'receive'));
    const credited = await ok(adminMove(ctx.app, admin, done._id, 'inspect', acceptAll(done)));
    expect(credited.status).toBe('accepted');
    const [card] = await storeCardsOf(ctx.db, shopper.id);
    expect(card?.balanceCents).toBe(3600);
    const open = await quote(ctx.app, shopper.auth, [{ product: p.id, qty: 1 }]);

    const res = await deleteAccount(shopper.id);
    expect(res.statusCode, res.body).toBe(200);

    const cancelled = await creditState(ctx.db, open._id);
    expect(cancelled.row?.status).toBe('cancelled');
    expect(cancelled.row?.userId).toBeNull();
    expect(cancelled.events.at(-1)).toMatchObject({ kind: 'cancelled', actor: 'system' });
    const kept = await adminGet(done._id);
    expect(kept.status).toBe('accepted');
    expect(kept.user).toEqual({ _id: null, name: 'Leaving Trader', email: shopper.email });
    // The card and its balance stay, no longer anyone's store credit: spendable by its code.
    const [after] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card!.id));
    expect(after).toMatchObject({ balanceCents: 3600, storeCreditUserId: null, deletedAt: null });
  });
});

import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Promotion } from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { orders } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { TEST_ADDRESS, createDiscountCode, insertProduct, insertUser } from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';

/**
 * Issue 32 (decision 009): a code's limits hold in a rush, on both engines (npm test is PGlite, one
 * connection; npm run test:pg is PostgreSQL with a pool, where the placements really overlap). Every
 * request comes from one address here, so the wrong-code budget is out of the way (NO_RATE_LIMITS);
 * one customer may hold many unpaid orders (HOLD_MAX_ORDERS) so only the code's limits refuse.
 */
let ctx: TestContext;
let admin: { authorization: string };

beforeAll(async () => {
  ctx = await createTestContext({
    env: { HOLD_MAX_ORDERS: '1000' },
    app: { limits: NO_RATE_LIMITS },
  });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type Line = { product: string; itemQuantity: number };

const createCode = (body: Record<string, unknown>) => createDiscountCode(ctx.app, admin, body, 'RUSH');

const placeWith = (auth: Auth, lines: Line[], discountCode: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems: lines, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal', discountCode },
  });

const customers = (n: number) =>
  Promise.all(Array.from({ length: n }, async () => (await insertUser(ctx.db)).auth));

/**
 * The code's count as the database holds it, beside what it counts: its uses not given back, and the
 * orders carrying the code that still hold a use (placed and not expired or cancelled).
 */
async function books(promotion: Promotion) {
  const [row] = await queryRows<{ used: number; held: number; holding: number; carrying: number }>(
    ctx.db,
    sql`select p.used,
          (select count(*) from promotion_uses u
            where u.promotion_id = p.id and u.released_at is null)::int as held,
          (select count(*) from orders o
            where o.discount_code = p.code and o.status in ('unpaid', 'paid'))::int as holding,
          (select count(*) from orders o where o.discount_code = p.code)::int as carrying
        from promotions p where p.id = ${promotion._id}::uuid`,
  );
  if (!row) throw new Error('books: no promotion');
  return {
    used: Number(row.used),
    held: Number(row.held),
    holding: Number(row.holding),
    carrying: Number(row.carrying),
  };
}

describe('discount codes in a rush (issue 32)', () => {
  it('30 customers at once on a code limited to 5: exactly 5 orders carry it, 25 told it is used up', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 2000, stock: 100 });
    const code = await createCode({ kind: 'percentage', value: 10, usageLimit: 5 });
    const shoppers = await customers(30);

    const answers = await Promise.all(
      shoppers.map((auth) => placeWith(auth, [{ product: p.id, itemQuantity: 1 }], code.code)),
    );

    expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
    const won = answers.filter((a) => a.statusCode === 201).map((a) => a.json<Order>());
    const lost = answers.filter((a) => a.statusCode !== 201);
    expect(won).toHaveLength(5);
    for (const order of won) expect(order).toMatchObject({ discountCode: code.code, discountPrice: 2 });
    expect(lost).toHaveLength(25);
    for (const answer of lost) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ message: 'This code has been used up', code: 'DISCOUNT_CODE_USED_UP' });
    }
    expect(await books(code)).toEqual({ used: 5, held: 5, holding: 5, carrying: 5 });
    // A refused placement wrote nothing: the only orders for the product are the 5 with the code.
    const placed = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from order_items where product_id = ${p.id}::uuid`,
    );
    expect(Number(placed[0]?.n)).toBe(5);
  });

  it('one customer sends 10 different carts at once on a once-per-customer code: one order carries it', async () => {
    const products = await Promise.all(
      [1000, 1500, 2500].map((priceCents) => insertProduct(ctx.db, { priceCents, stock: 100 })),
    );
    const code = await createCode({ kind: 'fixed', value: 3, perCustomerLimit: 1 });
    const [shopper] = await customers(1);
    // Ten different carts (the same cart twice would replace the first order, as a reloaded checkout does).
    const carts: Line[][] = Array.from({ length: 10 }, (_, i) => [
      { product: products[i % 3]!.id, itemQuantity: 1 + Math.floor(i / 3) },
    ]);
    expect(new Set(carts.map((c) => JSON.stringify(c))).size).toBe(10);

    const answers = await Promise.all(carts.map((cart) => placeWith(shopper!, cart, code.code)));

    expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
    const won = answers.filter((a) => a.statusCode === 201).map((a) => a.json<Order>());
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ discountCode: code.code, discountPrice: 3 });
    const lost = answers.filter((a) => a.statusCode !== 201);
    expect(lost).toHaveLength(9);
    for (const answer of lost) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({
        message: 'You have already used this code',
        code: 'DISCOUNT_CODE_CUSTOMER_LIMIT',
      });
    }
    // No usage limit: the row keeps no count (decision 009); the admin's list counts the uses.
    expect(await books(code)).toMatchObject({ held: 1, holding: 1, carrying: 1 });
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/promotions/admin', headers: admin });
    expect(listed.json<Promotion[]>().find((p) => p._id === code._id)?.used).toBe(1);
  });

  it('placing, cancelling and expiring at once: used is the uses not given back, within 0 and the limit', async () => {
    const LIMIT = 4;
    const p = await insertProduct(ctx.db, { priceCents: 1200, stock: 500 });
    const lines = [{ product: p.id, itemQuantity: 1 }];
    const code = await createCode({ kind: 'fixed', value: 2, usageLimit: LIMIT });
    const expiry = createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} } });
    /** The orders holding a use of the code, with their customers' tokens. */
    const held = new Map<string, Auth>();

    for (let round = 1; round <= 3; round += 1) {
      // The code's free uses taken by new customers, so the rush starts with it used up.
      const before = await books(code);
      const authOf = new Map<string, Auth>(held);
      for (const auth of await customers(LIMIT - before.used)) {
        const placed = await placeWith(auth, lines, code.code);
        expect(placed.statusCode).toBe(201);
        authOf.set(placed.json<Order>()._id, auth);
      }
      expect(authOf.size).toBe(LIMIT);
      expect(await books(code)).toMatchObject({ used: LIMIT, held: LIMIT });

      // Two are cancelled by their customers (one of them twice at once), one is overdue for the sweepers.
      const [cancelA, cancelB, overdue, kept] = [...authOf.keys()];
      await ctx.db
        .update(orders)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.id, overdue!));
      const cancel = (id: string) =>
        ctx.app.inject({ method: 'POST', url: `/api/orders/${id}/cancel`, headers: authOf.get(id)! });

      const rushers = await customers(12);
      const [placements, cancels] = await Promise.all([
        Promise.all(rushers.map((auth) => placeWith(auth, lines, code.code))),
        Promise.all([cancel(cancelA!), cancel(cancelB!), cancel(cancelA!)]),
        Promise.all([expiry.sweepOnce(), expiry.sweepOnce()]),
      ]);

      const all = [...placements, ...cancels];
      expect(all.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      for (const answer of cancels) expect(answer.statusCode).toBe(200);
      const won = placements.filter((a) => a.statusCode === 201);
      // The next round starts from the orders still holding a use: the one left, and the rush's.
      held.clear();
      held.set(kept!, authOf.get(kept!)!);
      placements.forEach((a, i) => {
        if (a.statusCode === 201) held.set(a.json<Order>()._id, rushers[i]!);
      });
      for (const answer of placements.filter((a) => a.statusCode !== 201)) {
        expect(answer.statusCode).toBe(409);
        expect(answer.json()).toMatchObject({ code: 'DISCOUNT_CODE_USED_UP' });
      }
      // Three uses came back; the rush may have taken each of them once, no more.
      expect(won.length).toBeLessThanOrEqual(3);
      const after = await books(code);
      expect(after.used).toBe(after.held);
      expect(after.used).toBe(after.holding);
      expect(after.used).toBe(LIMIT - 3 + won.length);
      expect(after.used).toBeGreaterThanOrEqual(0);
      expect(after.used).toBeLessThanOrEqual(LIMIT);
      const states = await ctx.db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(inArray(orders.id, [cancelA!, cancelB!, overdue!]));
      expect(Object.fromEntries(states.map((s) => [s.id, s.status]))).toEqual({
        [cancelA!]: 'cancelled',
        [cancelB!]: 'cancelled',
        [overdue!]: 'expired',
      });
    }
  });
});

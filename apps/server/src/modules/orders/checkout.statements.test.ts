// Round trips of a checkout (issue 13): each statement is a round trip to PostgreSQL and holds a pooled
// connection (and, in a transaction, row locks) while it travels, so the count limits paid orders a
// second. Counted at the driver on PostgreSQL, where round trips cost the most; `npm run bench`
// measures what the count buys.
import pg from 'pg';
import type { Order } from '@pixel-vault/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

/** The statements sent to PostgreSQL while `work` runs (every pooled client). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [query] = args as [string | { text: string }];
    seen.push((typeof query === 'string' ? query : query.text).replace(/\s+/g, ' ').trim());
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('statements of a checkout on PostgreSQL', () => {
  it('placing an order of one product takes 9, paying it in full with a gift card 10', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
    const pay = (order: Order) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/use',
        headers: auth,
        payload: { code: card.code, orderId: order._id, amount: order.totalPrice },
      });
    // A first checkout warms what runs once per process (the rate limiter's sweep of old windows).
    const first = await insertProduct(ctx.db, { priceCents: 2000, stock: 10 });
    expect(
      (await pay(await placeOrder(ctx.app, auth, [{ product: first.id, itemQuantity: 1 }]))).statusCode,
    ).toBe(200);

    const product = await insertProduct(ctx.db, { priceCents: 2500, stock: 10 });
    let order: Order | undefined;
    const placing = await statementsOf(async () => {
      order = await placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 2 }]);
    });
    // The answer is built from what the placement wrote: no order, item, ledger or timeline read-back;
    // the order, its timeline line and its lines are written by one statement. The lines are priced
    // before the transaction (issue 28), so the customer's lock is held for one statement fewer.
    expect(order).toMatchObject({ totalPrice: 65.49, amountDue: 65.49, isPaid: false });
    expect(order?.orderItems).toHaveLength(1);
    expect(order?.timeline?.map((e) => e.event)).toEqual(['placed']);
    expect(placing, placing.join('\n')).toHaveLength(9);
    // The pricing read is sent, and before the transaction begins (issue 28).
    const pricing = placing.findIndex((s) => s.includes('from "product_variants" v join "products" p'));
    expect(pricing).toBeGreaterThanOrEqual(0);
    expect(placing.indexOf('begin')).toBeGreaterThan(pricing);

    let answer: { statusCode: number; json: () => { amountDue: number } } | undefined;
    const paying = await statementsOf(async () => {
      answer = await pay(order!);
    });
    expect(answer?.statusCode).toBe(200);
    expect(answer?.json().amountDue).toBe(0);
    // Ledger sums and the order's lines read once, with the "already applied?" check, as the card is
    // locked (issue 28: the lines for the confirmation mail are no read of their own); the debit and
    // its ledger row written by one statement, settle told the amounts rather than reading them again;
    // the confirmation mail, the order's change, its timeline line and the question whether the
    // buyer's server cart holds a paid line one statement (issue 28; a second when the cart does).
    expect(paying, paying.join('\n')).toHaveLength(10);
    expect(paying.some((s) => s.startsWith('select "id", "order_id", "product_id"'))).toBe(false);
    expect(paying.filter((s) => s.includes('"paid_cart"'))).toHaveLength(1);
  });
});

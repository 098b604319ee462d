import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_TRADE_INS } from '@pixel-vault/shared';
import { tradeIns } from '../../db/schema/index.js';
import { mailsTo } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';
import { buyable, move, ok, postQuote, quote, setTradeInCredit } from '../../test/tradeins.js';

/**
 * Issue 35: quotes, priced from the buy list, and their limits, on both engines (npm test
 * and npm run test:pg). The buy list and reading trade-ins are tradeins.test.ts's.
 */
let ctx: TestContext;
const BASE = 'https://shop.example';
let now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;

beforeAll(async () => {
  ctx = await createTestContext({ env: { PUBLIC_URL: BASE }, app: { clock, limits: NO_RATE_LIMITS } });
});
afterAll(() => ctx.close());

let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}-${Date.now()}`;

const customer = async () => {
  const { auth, user } = await insertUser(ctx.db, { name: 'Trade Shopper' });
  return { auth, email: user.email, id: user.id };
};

describe('a quote', () => {
  it('is priced from the buy list now, merged by variant, and holds TRADEIN_QUOTE_DAYS', async () => {
    const shopper = await customer();
    const mario = await buyable(ctx.db, { name: unique('Super Mario 64'), creditCents: 1800 });
    const zelda = await insertProduct(ctx.db, {
      name: unique('Zelda II'),
      options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
      variants: [{ options: { Condition: 'Loose' } }, { options: { Condition: 'Boxed' } }],
    });
    const boxed = zelda.variants[1];
    if (!boxed) throw new Error('variant');
    await setTradeInCredit(ctx.db, boxed.id, 999);

    const made = await quote(ctx.app, shopper.auth, [
      { product: mario.id, qty: 1 },
      { product: zelda.id, variant: boxed.id, qty: 2 },
      { product: mario.id, variant: mario.variantId, qty: 2 },
    ]);
    expect(made).toMatchObject({
      status: 'quoted',
      totalCredit: 73.98,
      inspectedCredit: null,
      creditedAmount: 0,
      giftCardCode: null,
      trackingNumber: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 7 * 24 * 3600_000).toISOString(),
    });
    expect(made.items.map((i) => [i.productName, i.options, i.qty, i.offeredCredit, i.outcome])).toEqual([
      [mario.name, {}, 3, 18, null],
      [zelda.name, { Condition: 'Boxed' }, 2, 9.99, null],
    ]);
    expect(made.timeline).toEqual([
      { kind: 'quoted', actor: 'customer', at: now.toISOString(), amount: 73.98, note: null },
    ]);
    expect(made.user).toBeUndefined();

    // A later change of the buy list does not change the quote.
    await setTradeInCredit(ctx.db, mario.variantId, 100);
    const again = await ok(
      ctx.app.inject({ method: 'GET', url: `/api/tradeins/${made._id}`, headers: shopper.auth }),
    );
    expect(again.totalCredit).toBe(73.98);
    expect(again.items[0]?.offeredCredit).toBe(18);

    // The quote mail: the amount, the items, the deadline and the link to the trade-in.
    const [mail] = await mailsTo(ctx.db, shopper.email, 'Your trade-in quote');
    expect(mail?.subject).toContain('$73.98');
    expect(mail?.textBody).toContain(`${mario.name}: 3 x $18.00 = $54.00`);
    expect(mail?.textBody).toContain(`${BASE}/tradeins/${made._id}`);
    expect(mail?.textBody).toContain('December 4, 2026');
  });

  it('names the items not on the buy list (400), and writes nothing', async () => {
    const shopper = await customer();
    const bought = await buyable(ctx.db, { name: unique('Bought') });
    const notBought = await insertProduct(ctx.db, { name: unique('Not Bought') });
    const alsoNot = await insertProduct(ctx.db, {
      name: unique('Also Not'),
      options: [{ name: 'Region', values: ['PAL', 'NTSC-U'] }],
      variants: [{ options: { Region: 'PAL' } }, { options: { Region: 'NTSC-U' } }],
    });
    const res = await postQuote(ctx.app, shopper.auth, [
      { product: bought.id, qty: 1 },
      { product: notBought.id, qty: 1 },
      { product: alsoNot.id, variant: alsoNot.variants[1]?.id, qty: 1 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: `We do not buy these at the moment: ${notBought.name}, ${alsoNot.name} (NTSC-U). Please remove them from your list.`,
      code: 'NOT_ON_BUYLIST',
    });
    expect(await ctx.db.select().from(tradeIns).where(eq(tradeIns.userId, shopper.id))).toEqual([]);
  });

  it('needs the variant of a product in several versions, and refuses unknown or removed ones', async () => {
    const shopper = await customer();
    const versions = await buyable(ctx.db, {
      name: unique('Two Versions'),
      options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
      variants: [{ options: { Condition: 'Loose' } }, { options: { Condition: 'Boxed' } }],
    });
    const other = await buyable(ctx.db, { name: unique('Other') });
    const gone = await buyable(ctx.db, { name: unique('Gone'), deletedAt: now });
    const cases: [object, number, string][] = [
      [{ product: versions.id, qty: 1 }, 400, 'VARIANT_REQUIRED'],
      [{ product: versions.id, variant: other.variantId, qty: 1 }, 400, 'VARIANT_UNAVAILABLE'],
      [{ product: gone.id, qty: 1 }, 400, 'PRODUCT_UNAVAILABLE'],
      [{ product: '00000000-0000-4000-8000-000000000000', qty: 1 }, 400, 'PRODUCT_UNAVAILABLE'],
      [{ product: other.id, qty: 0 }, 400, 'VALIDATION'],
      [{ product: 'nope', qty: 1 }, 400, 'VALIDATION'],
    ];
    for (const [item, status, code] of cases) {
      const res = await postQuote(ctx.app, shopper.auth, [item]);
      expect(res.statusCode, res.body).toBe(status);
      if (code !== 'VALIDATION') expect(res.json().code, res.body).toBe(code);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const named = await postQuote(ctx.app, shopper.auth, [{ product: versions.id, qty: 1 }]);
    expect(named.json().message).toBe(
      `${versions.name} comes in several versions: please choose the one you are selling.`,
    );
    for (const body of [{}, { items: [] }, { items: 'x' }, { items: [null] }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/tradeins',
        headers: shopper.auth,
        payload: body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await postQuote(ctx.app, undefined, [{ product: other.id, qty: 1 }])).statusCode).toBe(401);
  });

  it('holds at most 50 items, merged lines counted', async () => {
    const shopper = await customer();
    const game = await buyable(ctx.db, { name: unique('Many') });
    const other = await buyable(ctx.db, { name: unique('More') });
    const res = await postQuote(ctx.app, shopper.auth, [
      { product: game.id, qty: 30 },
      { product: other.id, qty: 11 },
      { product: game.id, qty: 10 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'TOO_MANY_ITEMS' });
    expect(res.json().message).toContain('at most 50 items (this one has 51)');
    const fifty = await quote(ctx.app, shopper.auth, [
      { product: game.id, qty: 30 },
      { product: game.id, qty: 20 },
    ]);
    expect(fifty.items).toHaveLength(1);
    expect(fifty.items[0]?.qty).toBe(50);
  });

  it(`allows ${MAX_OPEN_TRADE_INS} open trade-ins at once; closed ones and expired quotes do not count`, async () => {
    const shopper = await customer();
    const game = await buyable(ctx.db, { name: unique('Limit') });
    const one = [{ product: game.id, qty: 1 }];
    const first = await quote(ctx.app, shopper.auth, one);
    await quote(ctx.app, shopper.auth, one);
    await quote(ctx.app, shopper.auth, one);
    const full = await postQuote(ctx.app, shopper.auth, one);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({
      message:
        'You have 3 trade-ins open already. Please finish or cancel one before asking for another quote.',
      code: 'TRADE_INS_FULL',
    });
    await ok(move(ctx.app, shopper.auth, first._id, 'cancel'));
    await quote(ctx.app, shopper.auth, one);
    // Another customer's trade-ins are theirs.
    await quote(ctx.app, (await customer()).auth, one);
    // A quote whose time is up is no longer open, swept or not.
    now = new Date(now.getTime() + 8 * 24 * 3600_000);
    await quote(ctx.app, shopper.auth, one);
  });

  it('lets only three of many concurrent quotes through (the user row lock)', async () => {
    const shopper = await customer();
    const game = await buyable(ctx.db, { name: unique('Concurrent') });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => postQuote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }])),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const rows = await ctx.db.select().from(tradeIns).where(eq(tradeIns.userId, shopper.id));
    expect(rows).toHaveLength(3);
  });
});

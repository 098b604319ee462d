import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuylistResponse, type TradeIn, type TradeInsPage } from '@pixel-vault/shared';
import { productVariants, products, tradeInItems } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';
import {
  type Auth,
  acceptAll,
  adminMove,
  buyable,
  move,
  ok,
  quote,
  setTradeInCredit,
} from '../../test/tradeins.js';

/**
 * Issue 35: the buy list and the customer's and admin's readings of trade-ins, on both engines (npm test
 * and npm run test:pg). Quotes are tradeins.quote.test.ts's, the moves tradeins.moves.test.ts's, the credit tradeins.credit.test.ts's.
 */
let ctx: TestContext;
const BASE = 'https://shop.example';
let now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;
let admin: Auth;

beforeAll(async () => {
  ctx = await createTestContext({ env: { PUBLIC_URL: BASE }, app: { clock, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}-${Date.now()}`;

const customer = async () => {
  const { auth, user } = await insertUser(ctx.db, { name: 'Trade Shopper' });
  return { auth, email: user.email, id: user.id };
};

const buylist = async (query: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/tradeins/buylist${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BuylistResponse>();
};

describe('the buy list', () => {
  it('lists live variants with a trade-in credit, by name then position, to anyone', async () => {
    const tag = unique('Buylistzz');
    const versions = await insertProduct(ctx.db, {
      name: `${tag} Alpha`,
      platform: 'Nintendo 64',
      options: [{ name: 'Condition', values: ['Loose', 'Boxed', 'Sealed'] }],
      variants: [
        { options: { Condition: 'Loose' } },
        { options: { Condition: 'Boxed' } },
        { options: { Condition: 'Sealed' } },
      ],
    });
    const [loose, boxed, sealed] = versions.variants;
    if (!loose || !boxed || !sealed) throw new Error('variants');
    await setTradeInCredit(ctx.db, loose.id, 1800);
    await setTradeInCredit(ctx.db, boxed.id, 2550);
    // Sealed is not bought (null); an archived variant and a removed product are not listed.
    const archived = await buyable(ctx.db, { name: `${tag} Beta` });
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now })
      .where(eq(productVariants.id, archived.variantId));
    await buyable(ctx.db, { name: `${tag} Gamma`, deletedAt: now });
    await buyable(ctx.db, { name: `${tag} Delta`, creditCents: 500 });

    const answer = await buylist(`?q=${encodeURIComponent(tag)}`);
    expect(answer.total).toBe(3);
    // The page that explains quotes says how long one holds (TRADEIN_QUOTE_DAYS, default 7).
    expect(answer.quoteDays).toBe(7);
    expect(answer.items.map((i) => [i.productName, i.options, i.credit])).toEqual([
      [`${tag} Alpha`, { Condition: 'Loose' }, 18],
      [`${tag} Alpha`, { Condition: 'Boxed' }, 25.5],
      [`${tag} Delta`, {}, 5],
    ]);
    expect(answer.items[0]).toMatchObject({
      product: versions.id,
      variant: loose.id,
      platform: 'Nintendo 64',
      productCategory: 'retro-games',
      sku: loose.sku,
    });
    expect(answer.items[0]?.image).toMatch(/^https:\/\/shop\.example\/uploads\//);
  });

  it('matches the platform and the name regardless of case and accents, and pages', async () => {
    const tag = unique('Pokémon Bleu');
    await buyable(ctx.db, { name: `${tag} One`, platform: 'Game Boy Color' });
    await buyable(ctx.db, { name: `${tag} Two`, platform: 'Game Boy Color' });
    expect((await buylist(`?q=${encodeURIComponent(tag.replace('é', 'e').toUpperCase())}`)).total).toBe(2);
    const paged = await buylist(`?q=${encodeURIComponent(`${tag} game boy`)}&limit=1&page=2`);
    expect(paged).toMatchObject({ total: 2, pages: 2, page: 2 });
    expect(paged.items.map((i) => i.productName)).toEqual([`${tag} Two`]);
    expect(await buylist(`?q=${encodeURIComponent(tag)}&page=9`)).toMatchObject({ items: [], total: 2 });
    expect(await buylist('?q=100%25_nothing')).toMatchObject({ items: [], total: 0, pages: 1 });
  });

  it('refuses a bad query with a 400', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/tradeins/buylist?q=${'x'.repeat(101)}` });
    expect(res.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/tradeins/buylist?limit=0' })).statusCode).toBe(
      400,
    );
  });
});

describe('reading trade-ins', () => {
  it('lists mine newest first, and 404s for someone else’s or an unknown one', async () => {
    const shopper = await customer();
    const other = await customer();
    const game = await buyable(ctx.db, { name: unique('Reading') });
    const older = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }]);
    now = new Date(now.getTime() + 60_000);
    const newer = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 2 }]);
    await quote(ctx.app, other.auth, [{ product: game.id, qty: 1 }]);

    const mine = await ctx.app.inject({ method: 'GET', url: '/api/tradeins', headers: shopper.auth });
    expect(mine.json<TradeIn[]>().map((t) => t._id)).toEqual([newer._id, older._id]);
    for (const [auth, id] of [
      [other.auth, older._id],
      [shopper.auth, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/tradeins/${id}`, headers: auth });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Trade-in not found' });
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/tradeins/nope', headers: shopper.auth })).statusCode,
    ).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/tradeins' })).statusCode).toBe(401);
  });

  it('gives the admin the queue by status, oldest first, with the customer; customers get 403', async () => {
    const shopper = await customer();
    const game = await buyable(ctx.db, { name: unique('Queue') });
    const first = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }]);
    now = new Date(now.getTime() + 60_000);
    const second = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }]);
    await ok(move(ctx.app, shopper.auth, first._id, 'ship', { trackingNumber: '1Z999' }));
    await ok(move(ctx.app, shopper.auth, second._id, 'ship'));

    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/tradeins/admin?status=shipped&limit=100',
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<TradeInsPage>();
    const ids = page.tradeIns.map((t) => t._id);
    expect(ids.indexOf(first._id)).toBeLessThan(ids.indexOf(second._id));
    expect(page.tradeIns.every((t) => t.status === 'shipped')).toBe(true);
    const shown = page.tradeIns.find((t) => t._id === first._id);
    expect(shown).toMatchObject({ trackingNumber: '1Z999', user: { _id: shopper.id, email: shopper.email } });
    expect(shown?.timeline.map((e) => e.kind)).toEqual(['quoted', 'shipped']);
    expect(shown?.timeline[1]).toMatchObject({ actor: 'customer', note: 'Tracking number 1Z999' });

    const one = await ok(
      ctx.app.inject({ method: 'GET', url: `/api/tradeins/admin/${first._id}`, headers: admin }),
    );
    expect(one.user?.name).toBe('Trade Shopper');
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/tradeins/admin?status=nope', headers: admin }))
        .statusCode,
    ).toBe(400);
    const past = await ctx.app.inject({ method: 'GET', url: '/api/tradeins/admin?page=999', headers: admin });
    expect(past.json<TradeInsPage>().tradeIns).toEqual([]);
    expect(past.json<TradeInsPage>().total).toBeGreaterThan(0);

    for (const url of ['/api/tradeins/admin', `/api/tradeins/admin/${first._id}`]) {
      const refused = await ctx.app.inject({ method: 'GET', url, headers: shopper.auth });
      expect(refused.statusCode).toBe(403);
    }
    for (const action of ['receive', 'inspect'] as const) {
      const refused = await adminMove(ctx.app, shopper.auth, first._id, action, acceptAll(first));
      expect(refused.statusCode).toBe(403);
    }
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/tradeins/admin/00000000-0000-4000-8000-000000000000',
          headers: admin,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('finds a box by its slip reference (any case) or by the customer, for the admin', async () => {
    const shopper = await customer();
    const other = await customer();
    const game = await buyable(ctx.db, { name: unique('Packing Table') });
    const mine = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }]);
    const theirs = await quote(ctx.app, other.auth, [{ product: game.id, qty: 1 }]);
    const find = async (q: string, status = '') => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/tradeins/admin?limit=100&q=${encodeURIComponent(q)}${status ? `&status=${status}` : ''}`,
        headers: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TradeInsPage>();
    };
    const reference = mine._id.slice(0, 8).toUpperCase();
    const byReference = await find(reference);
    expect(byReference.tradeIns.map((t) => t._id)).toContain(mine._id);
    expect(byReference.tradeIns.map((t) => t._id)).not.toContain(theirs._id);
    expect((await find(mine._id.toUpperCase())).tradeIns.map((t) => t._id)).toEqual([mine._id]);
    const byEmail = await find(shopper.email.toUpperCase());
    expect(byEmail.tradeIns.map((t) => t._id)).toEqual([mine._id]);
    expect(byEmail.total).toBe(1);
    // LIKE's own characters are plain text, and nothing matches a stranger.
    expect((await find('%')).total).toBe(0);
    expect((await find('nobody-like-this@example.com')).tradeIns).toEqual([]);
    // With a status too: both filters.
    expect((await find(reference, 'shipped')).tradeIns).toEqual([]);
    expect((await find(reference, 'quoted')).tradeIns.map((t) => t._id)).toEqual([mine._id]);
  });

  it('keeps what the customer was quoted when the product is renamed', async () => {
    const shopper = await customer();
    const game = await buyable(ctx.db, { name: unique('Before Rename') });
    const made = await quote(ctx.app, shopper.auth, [{ product: game.id, qty: 1 }]);
    await ctx.db.update(products).set({ name: 'After Rename' }).where(eq(products.id, game.id));
    const [line] = await ctx.db.select().from(tradeInItems).where(eq(tradeInItems.tradeInId, made._id));
    expect(line).toMatchObject({ productName: game.name, sku: game.variants[0]?.sku, offeredCents: 1800 });
    const read = await ok(
      ctx.app.inject({ method: 'GET', url: `/api/tradeins/${made._id}`, headers: shopper.auth }),
    );
    expect(read.items[0]?.productName).toBe(game.name);
  });
});

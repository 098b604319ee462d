import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type Product, type Promotion } from '@pixel-vault/shared';
import {
  giftCardLedger,
  giftCards,
  orderItems,
  orders,
  payments,
  productImages,
  productReviews,
  products,
  promotions,
  users,
} from '../schema/index.js';
import { type TestContext, createTestContext, silentLog } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { verifyPassword } from '../../lib/passwords.js';
import {
  ADMIN_NAME,
  DEMO_GIFT_CARD_CENTS,
  boxArtKey,
  ensureAdmin,
  seedDemoGiftCard,
  seedIfEmpty,
  slugify,
} from './index.js';
import { SEED_CUSTOMERS, SEED_PRODUCTS } from './catalogue.js';

describe('seedIfEmpty', () => {
  let ctx: TestContext;
  let inserted: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    inserted = await seedIfEmpty({ db: ctx.db, storage: ctx.storage, log: silentLog });
  });
  afterAll(() => ctx.close());

  it('fills an empty catalogue with at least 40 products across every category', async () => {
    expect(inserted).toBeGreaterThanOrEqual(40);
    const rows = await ctx.db.select().from(products);
    expect(rows).toHaveLength(inserted);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(CATEGORIES));
  });

  it('sells retro games in tiers, consoles boxed or not, and the rest in one form (issue 31)', async () => {
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    const tiered = all.filter((p) => p.variants.length > 1);
    const byCategory = (category: string) => tiered.filter((p) => p.productCategory === category);
    expect(byCategory('retro-games').length).toBeGreaterThanOrEqual(4);
    expect(byCategory('consoles').length).toBeGreaterThanOrEqual(2);
    // A retro shop's tiers: a Condition option, tiers of stock 0 and 1 among them, some in two regions.
    expect(byCategory('retro-games').every((p) => p.options[0]?.name === 'Condition')).toBe(true);
    expect(tiered.some((p) => p.options.some((o) => o.name === 'Region'))).toBe(true);
    const stocks = tiered.flatMap((p) => p.variants.map((v) => v.stockQuantity));
    expect(stocks).toContain(0);
    expect(stocks).toContain(1);
    expect(byCategory('consoles').some((p) => p.options.some((o) => o.name === 'Package'))).toBe(true);
    // Puzzles are sold in one form; every product's own price and stock are its first tier's.
    expect(byCategory('puzzles')).toEqual([]);
    for (const product of all) {
      expect(product.productPrice).toBe(product.variants[0]!.price);
      expect(product.stockQuantity).toBe(product.variants[0]!.stockQuantity);
    }
    // The source agrees with itself, and SKUs are readable for the tiers.
    for (const source of SEED_PRODUCTS.filter((p) => p.variants)) {
      expect(source.priceCents).toBe(source.variants![0]!.priceCents);
      expect(source.variants!.every((v) => /^[A-Z0-9-]+$/.test(v.sku))).toBe(true);
    }
  });

  it('stores and answers a platform for every retro game and console, none for the rest (issue 33)', async () => {
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    for (const product of all) {
      const source = SEED_PRODUCTS.find((p) => p.name === product.productName);
      expect(product.platform, product.productName).toBe(source?.platform ?? null);
      const runs = product.productCategory === 'retro-games' || product.productCategory === 'consoles';
      expect(product.platform !== null, product.productName).toBe(runs);
    }
  });

  it('answers a buy list: a trade-in credit on every retro game and console variant (issue 35)', async () => {
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    const retro = all.filter((p) => p.productCategory === 'retro-games' || p.productCategory === 'consoles');
    for (const p of retro) {
      for (const v of p.variants) expect(v.tradeInCredit, p.productName).toBeGreaterThan(0);
    }
    const others = all.filter((p) => p.productCategory === 'board-games' || p.productCategory === 'puzzles');
    expect(others.filter((p) => p.variants.some((v) => v.tradeInCredit !== null)).length).toBeLessThanOrEqual(
      1,
    );
  });

  it('gives every product 1 to 4 images at positions 0.., stored as content-hashed SVG keys', async () => {
    const images = await ctx.db.select().from(productImages);
    const byProduct = new Map<string, typeof images>();
    for (const image of images)
      byProduct.set(image.productId, [...(byProduct.get(image.productId) ?? []), image]);
    expect(byProduct.size).toBe(inserted);
    for (const list of byProduct.values()) {
      expect(list.length).toBeGreaterThanOrEqual(1);
      expect(list.length).toBeLessThanOrEqual(4);
      expect(list.map((i) => i.position).sort()).toEqual([...list.keys()]);
      for (const image of list)
        expect(image.url).toMatch(/^\/uploads\/products\/[a-z0-9-]+-[0-3]-[0-9a-f]{8}\.svg$/);
    }
  });

  it('seeds reviews whose numbers agree with every product (issue 14)', async () => {
    const reviews = await ctx.db.select().from(productReviews);
    expect(reviews.length).toBe(SEED_PRODUCTS.flatMap((p) => p.reviews).length);
    const rows = await ctx.db.select().from(products);
    expect(rows.filter((p) => p.reviewCount > 0).length).toBeGreaterThan(rows.length / 2);
    for (const product of rows) {
      const own = reviews.filter((r) => r.productId === product.id && !r.hidden);
      const tenths =
        own.length === 0 ? 0 : Math.round((own.reduce((sum, r) => sum + r.rating, 0) * 10) / own.length);
      expect({ name: product.name, rating: product.ratingTenths, count: product.reviewCount }).toEqual({
        name: product.name,
        rating: tenths,
        count: own.length,
      });
    }
    // ... and the API's summary says the same as the product.
    const reviewed = rows.find((p) => p.reviewCount >= 2)!;
    const page = await ctx.app.inject({ method: 'GET', url: `/api/products/${reviewed.id}/reviews` });
    expect(page.json().summary).toMatchObject({
      average: reviewed.ratingTenths / 10,
      count: reviewed.reviewCount,
    });
  });

  it('writes every seeded review by a seeded customer with a paid, delivered order of that product', async () => {
    const reviews = await ctx.db.select().from(productReviews);
    const bought = await ctx.db
      .select({
        userId: orders.userId,
        productId: orderItems.productId,
        status: orders.status,
        delivered: orders.isDelivered,
      })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id));
    const customers = await ctx.db.select().from(users);
    const seededEmails = Object.values(SEED_CUSTOMERS).map((c) => c.email);
    for (const review of reviews) {
      const author = customers.find((u) => u.id === review.userId);
      expect(seededEmails).toContain(author?.email);
      expect(bought).toContainEqual({
        userId: review.userId,
        productId: review.productId,
        status: 'paid',
        delivered: true,
      });
      expect(review.createdAt.getTime()).toBeLessThan(Date.now());
    }
    // Their orders were paid through the demo provider's records: a captured payment of the total.
    const paid = await ctx.db.select().from(orders);
    const captured = await ctx.db.select().from(payments);
    for (const order of paid) {
      expect(captured.find((p) => p.orderId === order.id)).toMatchObject({
        status: 'captured',
        amountCents: order.totalCents,
      });
    }
    // Nobody can log in as a seeded customer: the password is random and not kept anywhere.
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: SEED_CUSTOMERS.marco.email, password: 'password123' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('serves the seeded images from /uploads with an immutable cache header', async () => {
    const list = await ctx.app.inject({ method: 'GET', url: '/api/products?limit=100' });
    const all = list.json().products as Product[];
    expect(all.length).toBeGreaterThanOrEqual(40);
    for (const product of all.slice(0, 5)) {
      for (const url of product.productImage) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.body).toContain('<svg');
      }
    }
  });

  it('adds the demo discount codes: one of each kind, one with a minimum, one ended (issue 32)', async () => {
    const admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    const list = await ctx.app.inject({ method: 'GET', url: '/api/promotions/admin', headers: admin });
    const codes = list.json<Promotion[]>().filter((p) => p.kind !== 'sale');
    const byCode = new Map(codes.map((p) => [p.code, p]));
    expect([...byCode.keys()].sort()).toEqual(['FREESHIP', 'PUZZLE5', 'RETRO10', 'SUMMER24']);
    // And a sale running on board games, so the catalogue shows struck-through prices.
    const sales = list.json<Promotion[]>().filter((p) => p.kind === 'sale');
    expect(sales).toMatchObject([{ code: null, value: 15, categories: ['board-games'], state: 'active' }]);
    const boardGame = (
      await ctx.app.inject({ method: 'GET', url: '/api/products?category=board-games' })
    ).json<Product[]>()[0]!;
    expect(boardGame.compareAtPrice).toBeGreaterThan(boardGame.productPrice);
    expect(byCode.get('RETRO10')).toMatchObject({
      kind: 'percentage',
      value: 10,
      categories: ['retro-games'],
      state: 'active',
      used: 0,
    });
    expect(byCode.get('PUZZLE5')).toMatchObject({
      kind: 'fixed',
      value: 5,
      minSubtotal: 25,
      categories: ['puzzles'],
      state: 'active',
    });
    expect(byCode.get('FREESHIP')).toMatchObject({ kind: 'free_shipping', categories: [], state: 'active' });
    expect(byCode.get('SUMMER24')).toMatchObject({ state: 'ended' });

    // A shopper can use them on the seeded catalogue.
    const shopper = (await insertUser(ctx.db)).auth;
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    const game = all.find((p) => p.productCategory === 'retro-games' && p.stockQuantity > 0)!;
    const check = (code: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/promotions/check',
        headers: shopper,
        payload: { code, orderItems: [{ product: game._id, itemQuantity: 1 }] },
      });
    const retro = await check('retro10');
    expect(retro.statusCode).toBe(200);
    expect(retro.json()).toMatchObject({ code: 'RETRO10', description: '10% off retro games' });
    expect((await check('FREESHIP')).json()).toMatchObject({ shippingPrice: 0 });
    expect((await check('PUZZLE5')).json()).toMatchObject({ code: 'DISCOUNT_CODE_NOT_APPLICABLE' });
    expect((await check('SUMMER24')).json()).toMatchObject({ code: 'DISCOUNT_CODE_EXPIRED' });
  });

  it('does nothing when products already exist', async () => {
    expect(await seedIfEmpty({ db: ctx.db, storage: ctx.storage, log: silentLog })).toBe(0);
    expect(await ctx.db.select().from(products)).toHaveLength(inserted);
    expect(await ctx.db.select().from(promotions)).toHaveLength(5);
  });

  it('makes storage keys from the name, the variant and the content hash', () => {
    expect(slugify('Pac-Man: Championship Édition!')).toBe('pac-man-championship-edition');
    expect(boxArtKey('Neon Drift 64', 2, '<svg/>')).toMatch(/^products\/neon-drift-64-2-[0-9a-f]{8}\.svg$/);
  });
});

describe('ensureAdmin', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.app.get('/api/test/whoami', { config: { access: 'user' } }, async () => ({ ok: true }));
  });
  afterAll(() => ctx.close());

  const messages = () => {
    const lines: string[] = [];
    return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } };
  };
  const findUser = async (email: string) =>
    (await ctx.db.select().from(users).where(eq(users.email, email)))[0];

  it('creates the admin with a generated password that is answered once, never logged, and works', async () => {
    const first = messages();
    const result = await ensureAdmin({
      db: ctx.db,
      adminEmail: 'Owner@Shop.Example',
      adminPassword: undefined,
      log: first.log,
    });
    expect(result.action).toBe('created');
    const password = result.generatedPassword ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    // The caller shows it to a person once (the start banner); the JSON log never holds it (issue 9).
    expect(first.lines.join('\n')).not.toContain(password);
    expect(first.lines.join('\n')).toContain('owner@shop.example');

    const admin = await findUser('owner@shop.example');
    expect(admin).toMatchObject({ name: ADMIN_NAME, isAdmin: true });
    expect(await verifyPassword(admin?.passwordHash, password)).toBe(true);

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'owner@shop.example', password },
    });
    expect(login.json().isAdmin).toBe(true);

    const second = messages();
    const again = await ensureAdmin({
      db: ctx.db,
      adminEmail: 'owner@shop.example',
      adminPassword: undefined,
      log: second.log,
    });
    expect(again).toEqual({ action: 'unchanged' });
    expect(second.lines.join('\n')).not.toContain(password);
    expect(second.lines.join('\n')).not.toContain('Admin login');
  });

  it('creates the admin with ADMIN_PASSWORD without printing it', async () => {
    const out = messages();
    const result = await ensureAdmin({
      db: ctx.db,
      adminEmail: 'set@shop.example',
      adminPassword: 'chosen-password',
      log: out.log,
    });
    expect(result).toEqual({ action: 'created' });
    expect(out.lines.join('\n')).not.toContain('chosen-password');
    expect(await verifyPassword((await findUser('set@shop.example'))?.passwordHash, 'chosen-password')).toBe(
      true,
    );
  });

  it('promotes an existing customer without touching the password when ADMIN_PASSWORD is unset', async () => {
    const { user, password } = await insertUser(ctx.db, { email: 'promote@shop.example' });
    const result = await ensureAdmin({
      db: ctx.db,
      adminEmail: 'promote@shop.example',
      adminPassword: undefined,
      log: silentLog,
    });
    expect(result).toEqual({ action: 'promoted' });
    const row = await findUser('promote@shop.example');
    expect(row?.isAdmin).toBe(true);
    expect(row?.passwordHash).toBe(user.passwordHash);
    expect(row?.tokenVersion).toBe(0);
    expect(await verifyPassword(row?.passwordHash, password)).toBe(true);
  });

  it('applies a changed ADMIN_PASSWORD and ends old sessions, but leaves a matching one alone', async () => {
    const { auth } = await insertUser(ctx.db, { email: 'rotate@shop.example', isAdmin: true });
    const config = { adminEmail: 'rotate@shop.example', adminPassword: 'brand-new-password' };
    expect(await ensureAdmin({ db: ctx.db, ...config, log: silentLog })).toEqual({
      action: 'password-updated',
    });
    const row = await findUser('rotate@shop.example');
    expect(row?.tokenVersion).toBe(1);
    expect(await verifyPassword(row?.passwordHash, 'brand-new-password')).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/test/whoami', headers: auth })).statusCode).toBe(
      401,
    );

    // Restarting with the same ADMIN_PASSWORD changes nothing (no logout on every restart).
    expect(await ensureAdmin({ db: ctx.db, ...config, log: silentLog })).toEqual({ action: 'unchanged' });
    expect((await findUser('rotate@shop.example'))?.tokenVersion).toBe(1);
  });
});

describe('seedDemoGiftCard', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('issues a $100 card with a random code, a ledger row, never logged, that a customer can use', async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
    const code = await seedDemoGiftCard({ db: ctx.db, log });
    const other = await seedDemoGiftCard({ db: ctx.db, log: silentLog });

    expect(code).toMatch(/^DEMO-[0-9A-F]{8}-[0-9A-F]{8}$/);
    expect(other).not.toBe(code);
    // The code is money: answered to the caller (the start banner shows it once), never logged (issue 9).
    expect(lines).toEqual(['Issued a demo gift card of $100.00']);
    expect(lines.join('\n')).not.toContain(code.slice(5));

    const [card] = await ctx.db.select().from(giftCards).where(eq(giftCards.code, code));
    expect(card?.balanceCents).toBe(DEMO_GIFT_CARD_CENTS);
    const ledger = await ctx.db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, card!.id));
    expect(ledger).toMatchObject([{ kind: 'issue', amountCents: 10_000, balanceAfterCents: 10_000 }]);

    const customer = await insertUser(ctx.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/check-balance',
      headers: customer.auth,
      payload: { code: code.toLowerCase() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: 100 });
  });
});

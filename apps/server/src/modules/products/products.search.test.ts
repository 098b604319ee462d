import { eq } from 'drizzle-orm';
import {
  CATEGORIES,
  PRODUCT_SORTS,
  Product,
  ProductFacets,
  ProductList,
  ProductListResponse,
  ProductSuggestion,
  SUGGEST_MAX,
  mulberry32,
} from '@pixel-vault/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productVariants, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  type TestProduct,
  clearProducts,
  insertProduct,
  insertUser,
  setPrice,
  setStock,
  createSale as createSaleAs,
} from '../../test/factories.js';

/**
 * Issue 33, "Finding things": GET /api/products with q, platform, condition, inStock, minPrice,
 * maxPrice and sort; GET /api/products/facets; GET /api/products/suggest. Rows come from the
 * factories; the admin's API only where it is the point (sales, a product's rename).
 */
type Query = Record<string, string | undefined>;

const HOUR = 3_600_000;
let now = new Date('2030-01-01T12:00:00Z');
let ctx: TestContext;
let admin: { authorization: string };

beforeAll(async () => {
  // No cache between requests (each test sees its inserts), and the shop's clock is the test's.
  ctx = await createTestContext({ app: { productsCacheTtlMs: 0, clock: () => now, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

const queryString = (query: Query) =>
  new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();

const get = (url: string, app = () => ctx.app) => app().inject({ method: 'GET', url });

/** GET /api/products?<query> without paging: the whole list, as an array. */
async function listAll(query: Query): Promise<Product[]> {
  const url = `/api/products?${queryString(query)}`;
  const res = await get(url);
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return ProductList.parse(res.json());
}

async function facetsOf(query: Query): Promise<ProductFacets> {
  const url = `/api/products/facets?${queryString(query)}`;
  const res = await get(url);
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return ProductFacets.strict().parse(res.json());
}

async function suggest(q: string): Promise<ProductSuggestion[]> {
  const res = await get(`/api/products/suggest?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProductSuggestion[]>();
}

const namesOf = (list: readonly { productName: string }[]) => list.map((p) => p.productName);
const idsOf = (list: readonly { _id: string }[]) => list.map((p) => p._id);
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const createSale = (body: Record<string, unknown>) => createSaleAs(ctx.app, admin, body);

const condition = (value: string) => ({ options: { Condition: value } });
const conditionOption = (values: string[]) => [{ name: 'Condition', values }];

describe('searching with q', () => {
  const made: Record<string, TestProduct> = {};
  const add = async (key: string, overrides: Parameters<typeof insertProduct>[1]) => {
    made[key] = await insertProduct(ctx.db, overrides);
  };

  beforeAll(async () => {
    now = new Date('2030-01-01T12:00:00Z');
    await clearProducts(ctx.db);
    await add('mario', { name: 'Super Mario 64', platform: 'Nintendo 64' });
    await add('zelda', { name: 'The Legend of Zelda: Ocarina of Time', platform: 'Nintendo 64' });
    await add('metroid', { name: 'Metroid', platform: 'NES' });
    await add('pokemon', {
      name: 'Pokémon Red',
      platform: 'Game Boy',
      description: 'Catch them all: Pikachu and friends.',
    });
    await add('kart', { name: 'Kart Racer' });
    await add('neonDrift', { name: 'Neon Drift 64' });
    // The ranks of "star fox": exact, prefix, every word, typo, description only.
    await add('starFox', { name: 'Star Fox', stock: 0 });
    await add('adventures', { name: 'Star Fox Adventures', stock: 0 });
    await add('zero', { name: 'Star Fox Zero', stock: 4 });
    await add('racing', { name: 'Fox Star Racing' });
    await add('twin1', { name: 'Fox Star Twin' });
    await add('twin2', { name: 'Fox Star Twin' });
    await add('ace', { name: 'Ace Starfox Pilot' });
    await add('foks', { name: 'Sttar Fox' });
    await add('fix', { name: 'Stor Fox' });
    await add('lylat', { name: 'Lylat Wars', description: 'The Star Fox team returns.' });
    // Nine of "mega man", for suggestions: more than SUGGEST_MAX.
    await add('megaMan', {
      name: 'Mega Man',
      platform: 'NES',
      priceCents: 4250,
      images: ['/uploads/products/mega-0.svg', '/uploads/products/mega-1.svg'],
    });
    await add('megaMan2', { name: 'Mega Man 2', platform: 'NES', images: [] });
    for (let n = 3; n <= 9; n += 1) await add(`megaMan${n}`, { name: `Mega Man ${n}`, platform: 'NES' });
    // Removed products that would match best: never shown.
    await add('goneStarFox', { name: 'Star Fox', deletedAt: new Date() });
    await add('goneMetroid', { name: 'Metroid', platform: 'NES', deletedAt: new Date() });
    await add('goneMegaMan', { name: 'Mega Man', platform: 'NES', deletedAt: new Date() });
  });

  const search = async (q: string, more: Query = {}) => namesOf(await listAll({ q, ...more }));

  it('forgives typos in a word of four letters or more', async () => {
    expect(await search('super maro 64')).toEqual(['Super Mario 64']);
    expect(await search('zelda ocarnia')).toEqual(['The Legend of Zelda: Ocarina of Time']);
    expect(await search('metriod')).toEqual(['Metroid']);
    expect(await search('karts')).toEqual(['Kart Racer']);
  });

  it('matches a text that no product holds word by word as a phrase, in lists, facets and suggestions', async () => {
    // "drfit" is 0.33 of "drift" alone (two letters swapped in five), under 0.4; the phrase is 0.64
    // of "Neon Drift 64".
    expect(await search('neon drfit')).toEqual(['Neon Drift 64']);
    const facets = await get('/api/products/facets?q=neon%20drfit');
    expect(facets.json<ProductFacets>().total).toBe(1);
    expect(namesOf(await suggest('neon drfit'))).toEqual(['Neon Drift 64']);
    // Found word by word: no phrase search (which would add what merely looks alike).
    expect(await search('kart racer')).toEqual(['Kart Racer']);
  });

  it('looks for no typo when no word has four letters or digits', async () => {
    // "kat" is as alike to "kart" (0.5) as "metriod" is to "Metroid", but too short to tell.
    expect(await search('kat')).toEqual([]);
    expect(await search('k-a-t')).toEqual([]);
  });

  it('ignores accents and case in the search and in the name', async () => {
    for (const q of ['pokemon', 'POKÉMON', 'Pokemon', 'pokémon', 'PoKeMoN rEd']) {
      expect(await search(q), q).toEqual(['Pokémon Red']);
    }
  });

  it('matches the platform and the description, every word in any order', async () => {
    expect(await search('game boy')).toEqual(['Pokémon Red']);
    expect(await search('nintendo 64')).toEqual(['Super Mario 64', 'The Legend of Zelda: Ocarina of Time']);
    expect(await search('pikachu')).toEqual(['Pokémon Red']);
    expect(await search('friends CATCH')).toEqual(['Pokémon Red']);
    expect(await search('pikachu zzzz')).toEqual([]);
  });

  it('ranks exact name, prefix, every word, typo, then description; in stock, similarity, name and id within a rank', async () => {
    const twins = [made.twin1!.id, made.twin2!.id].sort(byId);
    const expected = [
      made.starFox!.id, // the exact name, sold out: the rank comes first
      made.zero!.id, // a prefix in stock before ...
      made.adventures!.id, // ... a sold-out one earlier by name
      made.racing!.id, // every word, similarity 1
      ...twins, // every word, similarity 1, the same name: by id
      made.ace!.id, // every word, similarity 0.55: after, though first by name
      made.foks!.id, // a typo of "star" (only a word of 4 or more may be one), similarity 0.73, before ...
      made.fix!.id, // ... a typo of 0.5 first by name
      made.lylat!.id, // the description only
    ];
    for (const q of ['star fox', 'STÄR FÖX', ' Star Fox ']) {
      expect(idsOf(await listAll({ q })), q).toEqual(expected);
      expect(idsOf(await listAll({ q, sort: 'relevance' })), q).toEqual(expected);
    }
    expect(idsOf(await listAll({ q: 'star fox' }))).not.toContain(made.goneStarFox!.id);
  });

  it('filters by platform, whatever its case', async () => {
    expect(namesOf(await listAll({ platform: 'nintendo 64' }))).toEqual([
      'Super Mario 64',
      'The Legend of Zelda: Ocarina of Time',
    ]);
    expect(namesOf(await listAll({ platform: 'NINTENDO 64', q: 'zelda' }))).toEqual([
      'The Legend of Zelda: Ocarina of Time',
    ]);
    expect(await listAll({ platform: 'Nintendo' })).toEqual([]);
  });

  it('suggests at most eight products, best match first, as the list orders them', async () => {
    for (const q of ['mega man', 'star fox', 'me', 'star']) {
      const suggestions = await suggest(q);
      const listed = await listAll({ q });
      expect(listed.length, q).toBeGreaterThan(SUGGEST_MAX);
      expect(idsOf(suggestions), q).toEqual(idsOf(listed).slice(0, SUGGEST_MAX));
    }
    expect((await suggest('mega man'))[0]?._id).toBe(made.megaMan!.id);
    expect(namesOf(await suggest('metriod'))).toEqual(['Metroid']);
  });

  it('suggests only a name, category, platform, first image and price', async () => {
    const [first] = await suggest('mega man');
    expect(first).toEqual({
      _id: made.megaMan!.id,
      productName: 'Mega Man',
      productCategory: 'retro-games',
      platform: 'NES',
      image: '/uploads/products/mega-0.svg',
      price: 42.5,
    });
    for (const s of await suggest('mega man')) expect(ProductSuggestion.strict().parse(s)).toBeTruthy();
    const second = (await suggest('mega man 2')).find((s) => s._id === made.megaMan2!.id);
    expect(second).toMatchObject({ image: null, price: 19.99 });
    expect((await suggest('kart racer'))[0]).toMatchObject({ productName: 'Kart Racer', platform: null });
  });

  it('suggests nothing under two characters', async () => {
    for (const q of ['', 'm', ' m ', '   ']) expect(await suggest(q), JSON.stringify(q)).toEqual([]);
    const res = await get('/api/products/suggest');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(await suggest('me')).not.toEqual([]);
  });

  it('never shows a removed product in lists, facets or suggestions', async () => {
    const gone = [made.goneStarFox!.id, made.goneMetroid!.id, made.goneMegaMan!.id];
    for (const query of [
      {},
      { q: 'star fox' },
      { q: 'metroid' },
      { platform: 'NES' },
      { q: 'mega man', sort: 'newest' },
    ]) {
      const ids = idsOf(await listAll(query));
      expect(ids.length).toBeGreaterThan(0);
      for (const id of gone) expect(ids, JSON.stringify(query)).not.toContain(id);
    }
    for (const q of ['star fox', 'metroid', 'mega man']) {
      for (const id of gone) expect(idsOf(await suggest(q))).not.toContain(id);
    }
    // Two live products on the NES besides the nine of Mega Man: the removed ones are not counted.
    expect((await facetsOf({ q: 'metroid' })).total).toBe(1);
    const facets = await facetsOf({});
    expect(facets.platforms.find((p) => p.value === 'NES')?.count).toBe(10);
    expect(facets.total).toBe(Object.values(made).filter((p) => !p.deletedAt).length);
  });

  it('answers 200 and no 500 for odd search texts, on the list, the facets and the suggestions', async () => {
    const texts = [
      '!!!',
      '%',
      '_',
      '\\',
      '%%%%',
      '____',
      '\\%_\\',
      "'; drop table products; --",
      '🎮',
      '🎮🎮🎮🎮',
      'zelda 🎮',
      '(metroid)*',
      'a'.repeat(100),
      'a b c d e f g h i j k l',
      '\u00a0',
    ];
    for (const q of texts) {
      const encoded = encodeURIComponent(q);
      for (const url of [
        `/api/products?q=${encoded}`,
        `/api/products?q=${encoded}&sort=price_desc&page=2&limit=3`,
        `/api/products/facets?q=${encoded}`,
        `/api/products/suggest?q=${encoded}`,
      ]) {
        const res = await get(url);
        expect(res.statusCode, `${url} ${res.body}`).toBe(200);
      }
    }
    expect(await search('%')).toEqual([]);
    expect(await search('🎮')).toEqual([]);
  });

  it('ranks an accented name with a platform as exact, and one longer as a prefix, whatever the accents typed', async () => {
    // Last in this group: it adds products. Each has a platform, so its search text goes on past its
    // name. Without the ranks, the sold-out exact name would come after the prefix in stock, and both
    // after the one holding every word that comes first by name.
    await add('blue', { name: 'Pokémon Blue', platform: 'Game Boy', stock: 0 });
    await add('blueVersion', { name: 'Pokémon Blue Version', platform: 'Game Boy', stock: 3 });
    await add('aaaBlue', { name: 'Aaa Pokémon Blue', platform: 'Game Boy', stock: 3 });
    for (const q of ['pokemon blue', 'POKÉMON BLUE', 'Pokemón Blue']) {
      expect(idsOf(await listAll({ q })), q).toEqual([made.blue!.id, made.blueVersion!.id, made.aaaBlue!.id]);
    }
  });
});

describe('filtering by condition, stock and price', () => {
  const made: Record<string, TestProduct> = {};

  beforeAll(async () => {
    now = new Date('2031-01-01T12:00:00Z');
    await clearProducts(ctx.db);
    const both = conditionOption(['Loose', 'Complete in box']);
    made.alpha = await insertProduct(ctx.db, {
      name: 'Filter Alpha',
      options: both,
      variants: [
        { ...condition('Loose'), priceCents: 3000, stock: 2 },
        { ...condition('Complete in box'), priceCents: 9000, stock: 0 },
      ],
    });
    made.bravo = await insertProduct(ctx.db, {
      name: 'Filter Bravo',
      options: both,
      variants: [
        { ...condition('Loose'), priceCents: 2000, stock: 0 },
        { ...condition('Complete in box'), priceCents: 6000, stock: 3 },
      ],
    });
    made.charlie = await insertProduct(ctx.db, { name: 'Filter Charlie', priceCents: 2500, stock: 1 });
    const delta = await insertProduct(ctx.db, {
      name: 'Filter Delta',
      options: both,
      variants: [
        { ...condition('Complete in box'), priceCents: 7000, stock: 1 },
        { ...condition('Loose'), priceCents: 1000, stock: 5 },
      ],
    });
    // Delta's loose copy is archived (issue 31): it is sold no more, so it is neither found nor priced.
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: new Date() })
      .where(eq(productVariants.id, delta.variants[1]!.id));
    made.delta = delta;
    made.echo = await insertProduct(ctx.db, {
      name: 'Filter Echo',
      options: both,
      variants: [
        { ...condition('Loose'), priceCents: 4000, stock: 0 },
        { ...condition('Complete in box'), priceCents: 8000, stock: 0 },
      ],
    });
    made.gone = await insertProduct(ctx.db, {
      name: 'Filter Gone',
      options: both,
      variants: [{ ...condition('Loose'), priceCents: 1500, stock: 9 }],
      deletedAt: new Date(),
    });
  });

  const names = async (query: Query) => namesOf(await listAll(query));

  it('keeps products with a live variant of the condition, in stock when asked', async () => {
    // Name order, sold-out products (Echo) last.
    expect(await names({ condition: 'Loose' })).toEqual(['Filter Alpha', 'Filter Bravo', 'Filter Echo']);
    expect(await names({ condition: 'Loose', inStock: 'true' })).toEqual(['Filter Alpha']);
    expect(await names({ condition: 'Complete in box' })).toEqual([
      'Filter Alpha',
      'Filter Bravo',
      'Filter Delta',
      'Filter Echo',
    ]);
    expect(await names({ condition: 'Complete in box', inStock: 'true' })).toEqual([
      'Filter Bravo',
      'Filter Delta',
    ]);
    expect(await names({ condition: 'loose' })).toEqual([]);
    expect(await names({ condition: 'Mint' })).toEqual([]);
  });

  it('keeps products with a live variant in stock for inStock=true; inStock=false keeps all', async () => {
    const all = ['Filter Alpha', 'Filter Bravo', 'Filter Charlie', 'Filter Delta', 'Filter Echo'];
    expect(await names({ inStock: 'true' })).toEqual(all.slice(0, 4));
    expect(await names({ inStock: 'false' })).toEqual(all);
    expect(await names({})).toEqual(all);
  });

  it('compares the price bounds, in dollars and inclusive, with the cheapest matching variant', async () => {
    expect(await names({ maxPrice: '25' })).toEqual(['Filter Bravo', 'Filter Charlie']);
    expect(await names({ maxPrice: '24.99' })).toEqual(['Filter Bravo']);
    expect(await names({ minPrice: '25', maxPrice: '30' })).toEqual(['Filter Alpha', 'Filter Charlie']);
    expect(await names({ minPrice: '30.01' })).toEqual(['Filter Delta', 'Filter Echo']);
    expect(await names({ maxPrice: '10' })).toEqual([]);
    // Of the condition: Bravo's box is 60; Alpha's 90.
    expect(await names({ condition: 'Complete in box', maxPrice: '65' })).toEqual(['Filter Bravo']);
    // In stock: Alpha's loose copy (30), not Bravo's sold-out one (20): Bravo's cheapest is 60.
    expect(await names({ inStock: 'true', maxPrice: '30' })).toEqual(['Filter Alpha', 'Filter Charlie']);
    expect(await names({ inStock: 'true', minPrice: '50' })).toEqual(['Filter Bravo', 'Filter Delta']);
    expect(await names({ minPrice: '0', maxPrice: '1000000' })).toHaveLength(5);
  });

  it('sorts by the cheapest matching variant, sold-out products last', async () => {
    expect(await names({ sort: 'price_asc' })).toEqual([
      'Filter Bravo', // 20
      'Filter Charlie', // 25
      'Filter Alpha', // 30
      'Filter Delta', // 70, not its archived 10
      'Filter Echo', // sold out
    ]);
    expect(await names({ sort: 'price_desc' })).toEqual([
      'Filter Delta',
      'Filter Alpha',
      'Filter Charlie',
      'Filter Bravo',
      'Filter Echo',
    ]);
    expect(await names({ sort: 'price_asc', condition: 'Complete in box' })).toEqual([
      'Filter Bravo', // 60
      'Filter Delta', // 70
      'Filter Alpha', // 90
      'Filter Echo',
    ]);
    expect(await names({ sort: 'price_asc', inStock: 'true' })).toEqual([
      'Filter Charlie', // 25
      'Filter Alpha', // 30
      'Filter Bravo', // 60: its loose copy is sold out
      'Filter Delta', // 70
    ]);
  });

  it('counts facets with each filter left out in turn', async () => {
    expect(await facetsOf({})).toEqual({
      total: 5,
      categories: [{ value: 'retro-games', count: 5 }],
      platforms: [],
      conditions: [
        { value: 'Complete in box', count: 4 },
        { value: 'Loose', count: 3 },
      ],
      price: { min: 20, max: 70 },
      inStock: 4,
    });
    expect(await facetsOf({ inStock: 'true' })).toEqual({
      total: 4,
      categories: [{ value: 'retro-games', count: 4 }],
      platforms: [],
      conditions: [
        { value: 'Complete in box', count: 2 },
        { value: 'Loose', count: 1 },
      ],
      price: { min: 25, max: 70 },
      inStock: 4,
    });
    expect(await facetsOf({ condition: 'Loose', maxPrice: '35' })).toEqual({
      total: 2,
      categories: [{ value: 'retro-games', count: 2 }],
      platforms: [],
      // No box is 35 or less: the condition is left out rather than counted 0.
      conditions: [{ value: 'Loose', count: 2 }],
      price: { min: 20, max: 40 },
      inStock: 1,
    });
    expect(await facetsOf({ condition: 'Mint' })).toMatchObject({ total: 0, price: null, inStock: 0 });
  });

  it("follows a variant's stock, price and archiving at once", async () => {
    const golf = await insertProduct(ctx.db, {
      name: 'Filter Golf',
      options: conditionOption(['Loose', 'New']),
      variants: [
        { ...condition('Loose'), priceCents: 1200, stock: 1 },
        { ...condition('New'), priceCents: 5000, stock: 2 },
      ],
    });
    try {
      expect(await names({ condition: 'Loose', inStock: 'true' })).toEqual(['Filter Alpha', 'Filter Golf']);
      expect(await names({ maxPrice: '12' })).toEqual(['Filter Golf']);
      // Its loose copy (the default variant) sells out: its new one, at 50, is what is in stock.
      await setStock(ctx.db, golf.id, 0);
      expect(await names({ condition: 'Loose', inStock: 'true' })).toEqual(['Filter Alpha']);
      expect(await names({ inStock: 'true', maxPrice: '12' })).toEqual([]);
      expect(await names({ inStock: 'true', minPrice: '50', maxPrice: '50' })).toEqual(['Filter Golf']);
      await setPrice(ctx.db, golf.id, 900);
      expect(await names({ maxPrice: '9' })).toEqual(['Filter Golf']);
      // The new copy is archived: nothing of Golf is in stock, so it is listed last.
      await ctx.db
        .update(productVariants)
        .set({ archivedAt: new Date() })
        .where(eq(productVariants.id, golf.variants[1]!.id));
      expect(await names({ condition: 'New' })).toEqual([]);
      expect(await names({ inStock: 'true' })).not.toContain('Filter Golf');
      expect((await names({})).slice(-2)).toEqual(['Filter Echo', 'Filter Golf']);
      // Sold out too, by their cheapest live variant: Golf's loose copy (9), Echo's (40).
      expect((await names({ sort: 'price_asc' })).slice(-2)).toEqual(['Filter Golf', 'Filter Echo']);
    } finally {
      await ctx.db.delete(products).where(eq(products.id, golf.id));
    }
  });

  it('compares, sorts and counts the sale price while a sale runs, and the regular price before and after', async () => {
    const startsAt = new Date(now.getTime() + HOUR);
    const endsAt = new Date(now.getTime() + 2 * HOUR);
    await createSale({
      value: 60,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      products: [made.bravo!.id],
    });
    const check = async (onSale: boolean) => {
      expect(await names({ maxPrice: '15' })).toEqual(onSale ? ['Filter Bravo'] : []);
      // 60% off Bravo: its loose copy 20 -> 8, its box 60 -> 24.
      expect(await names({ minPrice: '8', maxPrice: '8' })).toEqual(onSale ? ['Filter Bravo'] : []);
      expect(await names({ condition: 'Complete in box', maxPrice: '30' })).toEqual(
        onSale ? ['Filter Bravo'] : [],
      );
      expect(await names({ sort: 'price_desc', inStock: 'true' })).toEqual(
        onSale
          ? ['Filter Delta', 'Filter Alpha', 'Filter Charlie', 'Filter Bravo'] // Bravo's box at 24
          : ['Filter Delta', 'Filter Bravo', 'Filter Alpha', 'Filter Charlie'],
      );
      expect((await facetsOf({ condition: 'Loose' })).price).toEqual({ min: onSale ? 8 : 20, max: 40 });
      expect((await facetsOf({ maxPrice: '15' })).total).toBe(onSale ? 1 : 0);
      // A suggestion shows the default variant's price, as the product's page does.
      expect((await suggest('filter bravo'))[0]).toMatchObject({
        _id: made.bravo!.id,
        price: onSale ? 8 : 20,
      });
    };
    await check(false);
    now = startsAt;
    await check(true);
    now = endsAt;
    await check(false);
  });
});

describe('sorting and paging', () => {
  const created = [new Date('2029-03-01T00:00:00Z'), new Date('2029-06-01T00:00:00Z')];

  beforeAll(async () => {
    now = new Date('2032-01-01T12:00:00Z');
    await clearProducts(ctx.db);
    // 18 products sharing names, prices, dates and ratings; a sixth sold out.
    for (let i = 0; i < 18; i += 1) {
      const ratings = [[], [4], [4, 4], [5]][Math.floor(i / 2) % 4]!;
      await insertProduct(ctx.db, {
        name: `Tie ${['Alpha', 'Bravo', 'Charlie'][i % 3]}`,
        category: i % 2 === 0 ? 'puzzles' : 'board-games',
        createdAt: created[Math.floor(i / 3) % 2]!,
        priceCents: [1500, 2500][Math.floor(i / 4) % 2],
        stock: i % 6 === 0 ? 0 : 3,
        reviews: ratings.map((rating) => ({ rating, comment: 'Fine' })),
      });
    }
    // Found by "tie" in their description only (the last rank), one of them sold out.
    for (let i = 0; i < 3; i += 1) {
      await insertProduct(ctx.db, {
        name: 'Knot Alpha',
        description: 'A tie breaker.',
        category: 'puzzles',
        stock: i === 0 ? 0 : 1,
      });
    }
  });

  const soldOut = (p: Product) => p.variants.every((v) => v.stockQuantity === 0);
  const rank = (p: Product) => (p.productName.startsWith('Tie') ? 1 : 4);
  type Compare = (a: Product, b: Product) => number;
  const chain =
    (...compares: Compare[]): Compare =>
    (a, b) => {
      for (const compare of compares) {
        const order = compare(a, b);
        if (order !== 0) return order;
      }
      return byId(a._id, b._id);
    };
  const asc =
    (of: (p: Product) => number | string | boolean): Compare =>
    (a, b) => {
      const x = of(a);
      const y = of(b);
      return x < y ? -1 : x > y ? 1 : 0;
    };
  const desc =
    (of: (p: Product) => number | string): Compare =>
    (a, b) =>
      asc(of)(b, a);
  const ORDERS: Record<(typeof PRODUCT_SORTS)[number], Compare> = {
    // "tie" is a prefix of every "Tie" name, with the same similarity.
    relevance: chain(
      asc(rank),
      asc(soldOut),
      asc((p) => p.productName),
    ),
    price_asc: chain(
      asc(soldOut),
      asc((p) => p.productPrice),
    ),
    price_desc: chain(
      asc(soldOut),
      desc((p) => p.productPrice),
    ),
    newest: chain(
      asc(soldOut),
      desc((p) => p.createdAt),
    ),
    rating: chain(
      asc(soldOut),
      desc((p) => p.productRating),
      desc((p) => p.reviewCount),
    ),
    name: chain(
      asc(soldOut),
      asc((p) => p.productName),
    ),
  };

  it('orders every sort as documented, ties by id, sold-out last except under relevance', async () => {
    for (const sort of PRODUCT_SORTS) {
      for (const filters of [{ q: 'tie' }, { category: 'puzzles' }, { q: 'tie', category: 'puzzles' }]) {
        const query = { ...filters, sort };
        const found = await listAll(query);
        // Relevance without a search text is the name order.
        const order = sort === 'relevance' && !('q' in filters) ? ORDERS.name : ORDERS[sort];
        expect(found.length).toBeGreaterThan(8);
        expect(idsOf(found), JSON.stringify(query)).toEqual(idsOf([...found].sort(order)));
        if (sort !== 'relevance') {
          const firstSoldOut = found.findIndex(soldOut);
          expect(firstSoldOut).toBeGreaterThan(0);
          expect(found.slice(firstSoldOut).every(soldOut), JSON.stringify(query)).toBe(true);
        }
      }
    }
    // Relevance: sold-out "Tie"s (a prefix) before the in-stock "Knot"s (the description).
    const relevant = await listAll({ q: 'tie' });
    const firstKnot = relevant.findIndex((p) => p.productName === 'Knot Alpha');
    expect(soldOut(relevant[firstKnot]!)).toBe(false);
    expect(relevant.slice(0, firstKnot).filter(soldOut)).toHaveLength(3);
    expect(relevant.slice(firstKnot).every((p) => p.productName === 'Knot Alpha')).toBe(true);
  });

  it('defaults to relevance with a search text and to name order without', async () => {
    expect(idsOf(await listAll({ q: 'tie' }))).toEqual(idsOf(await listAll({ q: 'tie', sort: 'relevance' })));
    expect(idsOf(await listAll({ q: 'tie' }))).not.toEqual(idsOf(await listAll({ q: 'tie', sort: 'name' })));
    expect(idsOf(await listAll({ category: 'puzzles', sort: 'relevance' }))).toEqual(
      idsOf(await listAll({ category: 'puzzles', sort: 'name' })),
    );
  });

  it('pages through every sort without repeating or skipping a product', async () => {
    const limit = 4;
    for (const sort of PRODUCT_SORTS) {
      for (const filters of [{ q: 'tie' }, { category: 'puzzles' }, { maxPrice: '20', q: 'tie' }]) {
        const query: Query = { ...filters, sort };
        const whole = idsOf(await listAll(query));
        const totalPage = Math.ceil(whole.length / limit);
        expect(whole.length).toBeGreaterThan(2 * limit);
        const paged: string[] = [];
        for (let page = 1; page <= totalPage + 1; page += 1) {
          const url = `/api/products?${queryString({ ...query, page: String(page), limit: String(limit) })}`;
          const body = ProductListResponse.strict().parse((await get(url)).json());
          expect(body, url).toMatchObject({ page, totalPage, total: whole.length });
          expect(body.products.length, url).toBe(
            page <= totalPage ? Math.min(limit, whole.length - (page - 1) * limit) : 0,
          );
          paged.push(...idsOf(body.products));
        }
        expect(paged, JSON.stringify(query)).toEqual(whole);
        expect(new Set(paged).size).toBe(whole.length);
      }
    }
  });

  it("answers the spec's clients as before: the same array in name order, sold-out last, and the same page envelope", async () => {
    const all = await listAll({});
    const byName = chain(
      asc(soldOut),
      asc((p) => p.productName),
    );
    expect(all).toHaveLength(21);
    expect(idsOf(all)).toEqual(idsOf([...all].sort(byName)));
    for (const p of all) expect(Product.strict().parse(p)).toBeTruthy();
    // The spec's route and the search's give one order.
    expect(idsOf(all)).toEqual(idsOf(await listAll({ sort: 'name' })));
    const puzzles = await listAll({ category: 'puzzles' });
    expect(puzzles).toHaveLength(12);
    expect(puzzles.every((p) => p.productCategory === 'puzzles')).toBe(true);
    expect(idsOf(puzzles)).toEqual(idsOf([...puzzles].sort(byName)));
    const res = await get('/api/products?page=2&limit=5');
    const page = ProductListResponse.strict().parse(res.json());
    expect(page).toMatchObject({ page: 2, totalPage: 5, total: 21 });
    expect(idsOf(page.products)).toEqual(idsOf(all).slice(5, 10));
  });
});

describe('facets against a brute-force count', () => {
  const PLATFORMS = ['Game Boy', 'Nintendo 64', 'Sega Mega Drive'];
  const CONDITIONS = ['Complete in box', 'Loose', 'New'];
  const SALE_PERCENT = 25;
  interface ModelVariant {
    condition: string | undefined;
    priceCents: number;
    stock: number;
    archived: boolean;
  }
  interface ModelProduct {
    id: string;
    category: string;
    platform: string | null;
    deleted: boolean;
    variants: ModelVariant[];
  }
  const model: ModelProduct[] = [];

  beforeAll(async () => {
    now = new Date('2033-01-01T12:00:00Z');
    await clearProducts(ctx.db);
    const random = mulberry32(33);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const first = ['Dragon', 'Kart', 'Castle', 'Galaxy', 'Ninja'];
    const second = ['Quest', 'Racer', 'Tennis', 'Legends', 'Party'];
    for (let i = 0; i < 60; i += 1) {
      const category = pick(CATEGORIES);
      const platform = random() < 0.2 ? null : pick(PLATFORMS);
      const conditions = CONDITIONS.filter(() => random() < 0.5);
      const variants = (conditions.length ? conditions : [undefined]).map((c) => ({
        condition: c,
        priceCents: 500 + 50 * Math.floor(random() * 170),
        stock: random() < 0.4 ? 0 : 1 + Math.floor(random() * 3),
        archived: false,
      }));
      const deleted = i % 15 === 7;
      const row = await insertProduct(ctx.db, {
        name: `${pick(first)} ${pick(second)} ${i}`,
        category,
        platform,
        ...(conditions.length ? { options: conditionOption(conditions) } : {}),
        variants: variants.map((v) => ({
          options: v.condition ? { Condition: v.condition } : ({} as Record<string, string>),
          priceCents: v.priceCents,
          stock: v.stock,
        })),
        deletedAt: deleted ? new Date() : null,
      });
      // Some products lose their last variant: archived, sold no more (issue 31).
      if (variants.length > 1 && i % 5 === 0) {
        variants[variants.length - 1]!.archived = true;
        await ctx.db
          .update(productVariants)
          .set({ archivedAt: new Date() })
          .where(eq(productVariants.id, row.variants[variants.length - 1]!.id));
      }
      model.push({ id: row.id, category, platform, deleted, variants });
    }
    // Puzzles are on sale: prices compared and counted as shown.
    await createSale({
      value: SALE_PERCENT,
      startsAt: new Date(now.getTime() + 60_000).toISOString(),
      endsAt: new Date(now.getTime() + 24 * HOUR).toISOString(),
      categories: ['puzzles'],
    });
    now = new Date(now.getTime() + 120_000);
  });

  const shownCents = (p: ModelProduct, v: ModelVariant) =>
    p.category === 'puzzles' ? v.priceCents - Math.round((v.priceCents * SALE_PERCENT) / 100) : v.priceCents;

  /** The rules of the filters (issue 33), q aside: what the list should hold. */
  function modelList(f: Query): string[] {
    return model
      .filter((p) => {
        if (p.deleted) return false;
        if (f.category !== undefined && p.category !== f.category) return false;
        if (f.platform !== undefined && p.platform?.toLowerCase() !== f.platform.toLowerCase()) return false;
        const kept = p.variants.filter(
          (v) =>
            !v.archived &&
            (f.condition === undefined || v.condition === f.condition) &&
            (f.inStock !== 'true' || v.stock > 0),
        );
        if (kept.length === 0) return false;
        const cents = Math.min(...kept.map((v) => shownCents(p, v)));
        if (f.minPrice !== undefined && cents < Math.round(Number(f.minPrice) * 100)) return false;
        if (f.maxPrice !== undefined && cents > Math.round(Number(f.maxPrice) * 100)) return false;
        return true;
      })
      .map((p) => p.id)
      .sort(byId);
  }

  /** A product's price as the list compares it: its cheapest variant the filters keep, as shown. */
  function cheapestShown(p: Product, f: Query): number | undefined {
    const prices = p.variants
      .filter(
        (v) =>
          (f.condition === undefined || v.options.Condition === f.condition) &&
          (f.inStock !== 'true' || v.stockQuantity > 0),
      )
      .map((v) => v.price);
    return prices.length ? Math.min(...prices) : undefined;
  }

  /** Facets counted by asking the list, with each value chosen in turn. */
  async function bruteFacets(f: Query): Promise<ProductFacets> {
    const count = async (extra: Query) => (await listAll({ ...f, ...extra })).length;
    const counts = async (key: string, values: readonly string[]) => {
      const out: { value: string; count: number }[] = [];
      for (const value of [...values].sort()) {
        const n = await count({ [key]: value });
        if (n > 0) out.push({ value, count: n });
      }
      return out;
    };
    const { minPrice: _min, maxPrice: _max, ...noPrice } = f;
    const prices = (await listAll(noPrice))
      .map((p) => cheapestShown(p, f))
      .filter((price): price is number => price !== undefined);
    return {
      total: await count({}),
      categories: await counts('category', CATEGORIES),
      platforms: await counts('platform', PLATFORMS),
      conditions: await counts('condition', CONDITIONS),
      price: prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
      inStock: await count({ inStock: 'true' }),
    };
  }

  const COMBINATIONS: Query[] = [
    {},
    { category: 'puzzles' },
    { platform: 'game boy' },
    { condition: 'Loose' },
    { inStock: 'true' },
    { minPrice: '20', maxPrice: '60' },
    { condition: 'New', inStock: 'true' },
    { condition: 'Complete in box', maxPrice: '50' },
    { category: 'retro-games', inStock: 'true', minPrice: '15' },
    { platform: 'Nintendo 64', inStock: 'true', condition: 'Loose', minPrice: '10', maxPrice: '70' },
    { q: 'dragon' },
    { q: 'kart', condition: 'Loose', maxPrice: '70' },
    { q: 'legnds', inStock: 'true' },
    { q: 'galaxy party', category: 'consoles', minPrice: '5' },
  ];

  it('lists what the filters keep: live, of the category and platform, a variant of the condition in stock, priced within the bounds', async () => {
    expect(model.filter((p) => p.deleted)).toHaveLength(4);
    expect(model.some((p) => p.variants.some((v) => v.archived))).toBe(true);
    for (const f of COMBINATIONS.filter((c) => c.q === undefined)) {
      const listed = idsOf(await listAll(f)).sort(byId);
      expect(listed, JSON.stringify(f)).toEqual(modelList(f));
      expect(listed.length, JSON.stringify(f)).toBeGreaterThan(0);
    }
  });

  it('counts every facet as the list would hold with that value chosen, the other filters kept', async () => {
    for (const f of COMBINATIONS) {
      const facets = await facetsOf(f);
      expect(facets, JSON.stringify(f)).toEqual(await bruteFacets(f));
      expect(facets.total, JSON.stringify(f)).toBeGreaterThan(0);
    }
  });

  it('answers empty facets when nothing matches', async () => {
    const f = { q: 'nothing like it', inStock: 'true' };
    expect(await facetsOf(f)).toEqual(await bruteFacets(f));
    expect(await facetsOf({ minPrice: '999999' })).toMatchObject({ total: 0 });
    expect(await facetsOf({ minPrice: '999999' })).toEqual(await bruteFacets({ minPrice: '999999' }));
  });

  it('counts one platform however its case is written, as its filter finds it', async () => {
    const a = await insertProduct(ctx.db, { name: 'Zorblax One', platform: 'Virtual Boy' });
    const b = await insertProduct(ctx.db, { name: 'Zorblax Two', platform: 'VIRTUAL BOY' });
    try {
      const facets = await facetsOf({ q: 'zorblax' });
      expect(facets.total).toBe(2);
      for (const { value, count } of facets.platforms) {
        expect(count, value).toBe((await listAll({ q: 'zorblax', platform: value })).length);
      }
    } finally {
      await ctx.db.delete(products).where(eq(products.id, a.id));
      await ctx.db.delete(products).where(eq(products.id, b.id));
    }
  });
});

describe('refusing bad queries', () => {
  const REFUSED: [string, RegExp][] = [
    ['minPrice=-1', /minPrice cannot be negative/],
    ['maxPrice=-0.01', /maxPrice cannot be negative/],
    ['minPrice=abc', /minPrice must be a number/],
    ['maxPrice=abc', /maxPrice must be a number/],
    ['minPrice=1e400', /minPrice must be a number/],
    ['minPrice=50&maxPrice=40', /minPrice cannot be more than maxPrice/],
    ['category=unknown', /Category must be one of/],
    ['inStock=yes', /inStock must be true or false/],
    ['inStock=1', /inStock must be true or false/],
    [`q=${'a'.repeat(101)}`, /Search is at most 100 characters/],
  ];

  it('takes a filter sent empty or blank (a form left untouched) as not sent', async () => {
    await insertProduct(ctx.db, { name: 'Empty Filters' });
    const plain = await get('/api/products?page=1&limit=5');
    const blank = await get(
      '/api/products?page=1&limit=5&category=&platform=%20&condition=&inStock=&minPrice=&maxPrice=%20&sort=',
    );
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toEqual(plain.json());
  });

  it.each([...REFUSED, ['sort=cheap', /sort must be one of relevance, price_asc/] as [string, RegExp]])(
    'answers 400 with a message to /api/products?%s',
    async (query, message) => {
      const res = await get(`/api/products?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
      // With paging too (the envelope's route is the same).
      const paged = await get(`/api/products?${query}&page=1&limit=5`);
      expect(paged.statusCode, paged.body).toBe(400);
    },
  );

  it.each(REFUSED)('answers 400 with a message to /api/products/facets?%s', async (query, message) => {
    const res = await get(`/api/products/facets?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(message);
  });

  it('answers 400 to a suggestion of more than 100 characters', async () => {
    const res = await get(`/api/products/suggest?q=${'a'.repeat(101)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Search is at most 100 characters/);
    expect((await get(`/api/products/suggest?q=${'a'.repeat(100)}`)).statusCode).toBe(200);
  });

  it('never answers 500 to repeated or odd parameters', async () => {
    await insertProduct(ctx.db, { name: 'Odd Parameters' });
    const queries = [
      'q=a&q=b',
      'category=puzzles&category=consoles',
      'sort=name&sort=price_asc',
      'minPrice=1&minPrice=2',
      'inStock=true&inStock=true',
      'condition=Loose&condition=New',
      'platform=NES&platform=SNES',
      'q=',
      'q=%00',
      'minPrice=',
      'page=1&page=2',
      // Not a parameter of the facets or the suggestions: ignored there, as page and limit are.
      'sort=cheap&page=1&limit=1',
      'q=odd&minPrice=0x10',
      'q=%25&minPrice=0&maxPrice=1000000&sort=rating&inStock=true&condition=%25&platform=_',
    ];
    for (const query of queries) {
      for (const path of ['/api/products', '/api/products/facets', '/api/products/suggest']) {
        const res = await get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query} ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.statusCode, `${path}?${query}`).toBe(400);
          expect(res.json<{ message: string }>().message, `${path}?${query}`).toEqual(expect.any(String));
        }
      }
    }
    // A repeated q is refused, not searched for one of its values.
    expect((await get('/api/products?q=a&q=b')).statusCode).toBe(400);
  });
});

describe('caching the search', () => {
  let cached: TestContext;
  let cacheNow = new Date('2034-01-01T12:00:00Z');
  let cachedAdmin: { authorization: string };
  let cartridge: TestProduct;
  let other: TestProduct;

  beforeAll(async () => {
    cached = await createTestContext({
      app: { productsCacheTtlMs: 60_000, clock: () => cacheNow, limits: NO_RATE_LIMITS },
    });
    cachedAdmin = (await insertUser(cached.db, { isAdmin: true })).auth;
    cartridge = await insertProduct(cached.db, {
      name: 'Cache Cartridge',
      platform: 'Atari 2600',
      priceCents: 1000,
    });
    other = await insertProduct(cached.db, {
      name: 'Cache Console',
      platform: 'Atari 2600',
      priceCents: 5000,
    });
    cached.app.services.products.invalidate();
  });
  afterAll(() => cached.close());

  const fetchFrom = (url: string, headers: Record<string, string> = {}) =>
    cached.app.inject({ method: 'GET', url, headers });
  const URLS = [
    '/api/products?q=cache',
    '/api/products?q=cache&sort=price_asc&page=1&limit=1',
    '/api/products?platform=atari%202600',
    '/api/products/facets?q=cache',
    '/api/products/suggest?q=cache',
  ];

  it('answers a repeated request from the cache, with the same ETag', async () => {
    const first = new Map<string, { etag: string; body: string }>();
    for (const url of URLS) {
      const res = await fetchFrom(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers.etag, url).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      first.set(url, { etag: String(res.headers.etag), body: res.body });
    }
    // Behind the service's back: only a cache can still answer the old price.
    await setPrice(cached.db, cartridge.id, 9900);
    for (const url of URLS) {
      const again = await fetchFrom(url);
      expect(again.headers.etag, url).toBe(first.get(url)?.etag);
      expect(again.body, url).toBe(first.get(url)?.body);
      const revalidated = await fetchFrom(url, { 'if-none-match': first.get(url)!.etag });
      expect(revalidated.statusCode, url).toBe(304);
    }
    expect(first.get('/api/products?q=cache')?.body).toContain('"productPrice":10,');
  });

  it("reflects an admin's change of a name and platform at once in lists, facets and suggestions", async () => {
    const before = {
      search: idsOf(await (await fetchFrom('/api/products?q=cache')).json<Product[]>()),
      platform: idsOf(await (await fetchFrom('/api/products?platform=atari%202600')).json<Product[]>()),
      facets: (await fetchFrom('/api/products/facets?q=cache')).json<ProductFacets>(),
      suggest: idsOf((await fetchFrom('/api/products/suggest?q=cache')).json<ProductSuggestion[]>()),
    };
    expect(before.search).toEqual([cartridge.id, other.id]);
    expect(before.platform).toEqual([cartridge.id, other.id]);
    expect(before.facets.platforms).toEqual([{ value: 'Atari 2600', count: 2 }]);
    expect(before.suggest).toEqual([cartridge.id, other.id]);
    // Warm the answers the rename will be looked for under, too.
    expect((await fetchFrom('/api/products?q=lynx')).json()).toEqual([]);
    expect((await fetchFrom('/api/products/suggest?q=lynx')).json()).toEqual([]);
    expect((await fetchFrom('/api/products/facets')).json<ProductFacets>().platforms).toEqual([
      { value: 'Atari 2600', count: 2 },
    ]);

    const res = await cached.app.inject({
      method: 'PUT',
      url: `/api/products/update/${cartridge.id}`,
      headers: cachedAdmin,
      payload: { productName: 'Lynx Cartridge', platform: 'Atari Lynx' },
    });
    expect(res.statusCode, res.body).toBe(200);

    expect(idsOf((await fetchFrom('/api/products?q=cache')).json<Product[]>())).toEqual([other.id]);
    expect(idsOf((await fetchFrom('/api/products?platform=atari%202600')).json<Product[]>())).toEqual([
      other.id,
    ]);
    expect(namesOf((await fetchFrom('/api/products?q=lynx')).json<Product[]>())).toEqual(['Lynx Cartridge']);
    expect((await fetchFrom('/api/products/facets?q=cache')).json<ProductFacets>()).toMatchObject({
      total: 1,
      platforms: [{ value: 'Atari 2600', count: 1 }],
    });
    expect((await fetchFrom('/api/products/facets')).json<ProductFacets>().platforms).toEqual([
      { value: 'Atari 2600', count: 1 },
      { value: 'Atari Lynx', count: 1 },
    ]);
    expect(idsOf((await fetchFrom('/api/products/suggest?q=cache')).json<ProductSuggestion[]>())).toEqual([
      other.id,
    ]);
    expect((await fetchFrom('/api/products/suggest?q=lynx')).json<ProductSuggestion[]>()).toMatchObject([
      { _id: cartridge.id, productName: 'Lynx Cartridge', platform: 'Atari Lynx', price: 99 },
    ]);
    const page = (
      await fetchFrom('/api/products?q=cache&sort=price_asc&page=1&limit=1')
    ).json<ProductListResponse>();
    expect(page).toMatchObject({ total: 1, products: [{ _id: other.id }] });
  });

  it('counts a Condition an admin adds at once, though the Condition values in use are kept', async () => {
    const conditionsOf = async () =>
      (await fetchFrom('/api/products/facets?q=cache')).json<ProductFacets>().conditions;
    const before = await conditionsOf();
    expect(before.map((c) => c.value)).not.toContain('Graded');
    const res = await cached.app.inject({
      method: 'PUT',
      url: `/api/products/update/${other.id}`,
      headers: cachedAdmin,
      payload: {
        options: [{ name: 'Condition', values: ['Graded'] }],
        variants: [
          {
            sku: `GRADED-${other.id.slice(0, 8)}`,
            options: { Condition: 'Graded' },
            price: 80,
            stockQuantity: 1,
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await conditionsOf()).toEqual([{ value: 'Graded', count: 1 }]);
    expect(
      (await fetchFrom('/api/products/facets?q=cache&condition=Graded')).json<ProductFacets>(),
    ).toMatchObject({ total: 1, price: { min: 80, max: 80 } });
  });

  it('compares and sorts by the sale price from the moment a sale starts, with the lists cached', async () => {
    const item = await insertProduct(cached.db, { name: 'Saleable Thing', priceCents: 3000 });
    const dear = await insertProduct(cached.db, { name: 'Saleable Other', priceCents: 2000 });
    cached.app.services.products.invalidate();
    const startsAt = new Date(cacheNow.getTime() + HOUR);
    const sale = await cached.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: cachedAdmin,
      payload: {
        kind: 'sale',
        value: 50,
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
        products: [item.id],
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    const ids = async (url: string) => idsOf((await fetchFrom(url)).json<Product[]>());
    expect(await ids('/api/products?q=saleable&maxPrice=16')).toEqual([]);
    expect(await ids('/api/products?q=saleable&sort=price_asc')).toEqual([dear.id, item.id]);
    expect((await fetchFrom('/api/products/facets?q=saleable&maxPrice=16')).json()).toMatchObject({
      total: 0,
    });
    // The sale starts (no write): 30 -> 15, as the list shows at once (issue 32).
    cacheNow = startsAt;
    const shown = (await fetchFrom('/api/products?q=saleable')).json<Product[]>();
    expect(shown.find((p) => p._id === item.id)?.productPrice).toBe(15);
    expect((await fetchFrom('/api/products/facets?q=saleable&maxPrice=16')).json()).toMatchObject({
      total: 1,
    });
    expect(await ids('/api/products?q=saleable&maxPrice=16')).toEqual([item.id]);
    expect(await ids('/api/products?q=saleable&sort=price_asc')).toEqual([item.id, dear.id]);
  });
});

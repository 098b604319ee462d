import { sql } from 'drizzle-orm';
import {
  CATEGORIES,
  PRODUCT_SORTS,
  ProductFacets,
  ProductListQuery,
  ProductListResponse,
  mulberry32,
  toDollars,
} from '@pixel-vault/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_ADJECTIVES, GENERATED_NOUNS, GENERATED_PLATFORMS } from '../../db/seed/generated.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, createSale, insertProduct, insertUser } from '../../test/factories.js';
import type { Sale } from '../promotions/promotions.sales.js';
import { createSearchIndexes } from './products.search-index.js';
import { type MemorySearch, createMemorySearch } from './products.search-memory.js';

/**
 * Issue 33: searches answered from the in-memory index give exactly the database's answers. A
 * catalogue of a few hundred products made to hit every edge the SQL has (accents, punctuation,
 * platforms written in two cases, several conditions, sold-out variants and products, equal names,
 * dates and ratings, deleted products, a sale on a category and one on products), and a few hundred
 * random searches: each page and each set of facets from memory is compared with the same request
 * to a shop answering from the database alone.
 */

const now = new Date('2030-01-01T12:00:00Z');
let ctx: TestContext;
let sqlApp: Awaited<ReturnType<TestContext['newApp']>>;
let memory: MemorySearch;
const running: Sale[] = [];

const CONDITIONS = ['Loose', 'Complete in box', 'New', 'Graded'];
const PLATFORMS = [...GENERATED_PLATFORMS, 'nintendo 64', 'Pokémon Mini'];
const EXTRA_WORDS = ['Pokémon', 'Café', 'Straße', 'Zelda:', "Rock'n'Roll", 'X-Men', '64', 'Ōkami'];

beforeAll(async () => {
  ctx = await createTestContext({ app: { productsCacheTtlMs: 0, clock: () => now, limits: NO_RATE_LIMITS } });
  sqlApp = await ctx.newApp({ productsCacheTtlMs: 0, clock: () => now, searchInMemory: false });
  await clearProducts(ctx.db);
  const rand = mulberry32(33);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const made: string[] = [];
  for (let n = 0; n < 240; n += 1) {
    const words = [pick(GENERATED_ADJECTIVES), pick(GENERATED_NOUNS)];
    if (rand() < 0.2) words.push(pick(EXTRA_WORDS));
    if (rand() < 0.1) words.reverse();
    const conditions = CONDITIONS.filter(() => rand() < 0.5);
    const product = await insertProduct(ctx.db, {
      // Some names repeat, so ties end on the id.
      name: n % 17 === 0 ? 'Neon Racer' : words.join(' '),
      description: `${pick(GENERATED_NOUNS)} ${pick(EXTRA_WORDS)} of the ${pick(GENERATED_ADJECTIVES)} kind.`,
      category: pick(CATEGORIES),
      platform: rand() < 0.7 ? pick(PLATFORMS) : null,
      // Whole seconds apart at most: equal dates too.
      createdAt: new Date(Date.UTC(2029, 0, 1) + Math.floor(rand() * 50) * 1000),
      deletedAt: rand() < 0.05 ? new Date() : null,
      priceCents: 100 + Math.floor(rand() * 20_000),
      stock: rand() < 0.2 ? 0 : 3,
      ...(conditions.length > 0
        ? {
            options: [{ name: 'Condition', values: conditions }],
            variants: conditions.map((value) => ({
              options: { Condition: value },
              priceCents: 100 + Math.floor(rand() * 20_000),
              stock: rand() < 0.3 ? 0 : 2,
            })),
          }
        : {}),
    });
    if (product.deletedAt === null) made.push(product.id);
    if (rand() < 0.5) {
      await ctx.db.execute(sql`update products set rating_tenths = ${Math.floor(rand() * 6) * 10},
        review_count = ${Math.floor(rand() * 3)} where id = ${product.id}`);
    }
  }
  const admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  const startsAt = new Date(now.getTime() - 3_600_000);
  const endsAt = new Date(now.getTime() + 3_600_000);
  const onSale = made.slice(0, 30);
  const bySlug = await createSale(ctx.app, admin, {
    value: 25,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    categories: ['consoles'],
  });
  const byProduct = await createSale(ctx.app, admin, {
    value: 40,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    products: onSale,
  });
  const window = { startsAt: startsAt.getTime(), endsAt: endsAt.getTime() };
  running.push(
    { id: bySlug._id, percent: 25, ...window, categories: ['consoles'], products: [] },
    { id: byProduct._id, percent: 40, ...window, categories: [], products: onSale },
  );
  const indexes = createSearchIndexes({
    db: ctx.db,
    version: () => 1,
    maxAgeMs: 3_600_000,
    waitMs: 60_000,
    onError: (error) => {
      throw error;
    },
  });
  memory = createMemorySearch({ db: ctx.db, indexes });
});
afterAll(() => ctx.close());

/** A word as a shopper mistypes it: a letter dropped, doubled or swapped. */
function typo(word: string, rand: () => number): string {
  if (word.length < 3) return word;
  const at = Math.floor(rand() * (word.length - 1));
  const r = rand();
  if (r < 1 / 3) return word.slice(0, at) + word.slice(at + 1);
  if (r < 2 / 3) return word.slice(0, at) + word[at] + word.slice(at);
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

function randomQuery(rand: () => number): Record<string, string> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const query: Record<string, string> = {};
  const r = rand();
  if (r < 0.8) {
    const words = [pick([...GENERATED_ADJECTIVES, ...EXTRA_WORDS, 'neon racer', 'the', 'a', 'kind'])];
    if (rand() < 0.5) words.push(pick([...GENERATED_NOUNS, ...PLATFORMS]));
    const text = words.map((w) => (rand() < 0.4 ? typo(w, rand) : w)).join(' ');
    query.q = rand() < 0.3 ? text.toUpperCase() : rand() < 0.1 ? text.slice(0, 3) : text;
  }
  if (rand() < 0.3) query.category = pick(CATEGORIES);
  if (rand() < 0.25) query.platform = pick([...PLATFORMS, 'NINTENDO 64', 'Virtual Boy']);
  if (rand() < 0.25) query.condition = pick([...CONDITIONS, 'Mint']);
  if (rand() < 0.3) query.inStock = 'true';
  if (rand() < 0.3) {
    const min = Math.floor(rand() * 100);
    query.minPrice = String(min);
    query.maxPrice = String(min + Math.floor(rand() * 150));
  }
  if (rand() < 0.8) query.sort = pick(PRODUCT_SORTS);
  return query;
}

const queryString = (query: Record<string, string>) => new URLSearchParams(query).toString();

async function fromDatabase(url: string) {
  const res = await sqlApp.inject({ method: 'GET', url });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json<unknown>();
}

describe('searches from memory (issue 33)', () => {
  it('answers every page as the database does', async () => {
    const rand = mulberry32(7);
    for (let n = 0; n < 250; n += 1) {
      const query = {
        ...randomQuery(rand),
        page: String(1 + Math.floor(rand() * 3)),
        limit: String(1 + Math.floor(rand() * 30)),
      };
      const parsed = ProductListQuery.parse(query);
      const paging = { page: parsed.page!, limit: parsed.limit! };
      const fast = await memory.page(parsed, paging, running);
      const url = `/api/products?${queryString(query)}`;
      expect(fast, url).toBeDefined();
      const answer = ProductListResponse.parse(await fromDatabase(url));
      expect({ ids: fast!.ids, total: fast!.total }, url).toEqual({
        ids: answer.products.map((p) => p._id),
        total: answer.total,
      });
    }
  });

  it('counts every facet as the database does', async () => {
    const rand = mulberry32(11);
    const names = ['Complete in box', 'Graded', 'Loose', 'New'];
    for (let n = 0; n < 200; n += 1) {
      const query = randomQuery(rand);
      delete query.sort;
      const parsed = ProductListQuery.parse(query);
      const row = await memory.facets(parsed, running, names);
      const url = `/api/products/facets?${queryString(query)}`;
      expect(row, url).toBeDefined();
      const answer = ProductFacets.parse(await fromDatabase(url));
      expect(
        {
          ...row!,
          conditions: row!.conditions.filter((c) => c.count > 0),
          price: row!.price && { min: toDollars(row!.price.min), max: toDollars(row!.price.max) },
        },
        url,
      ).toEqual(answer);
    }
  });

  it('leaves deep pages to the database (they sort most of what matched)', async () => {
    const query = ProductListQuery.parse({ q: 'neon', page: '300', limit: '24' });
    expect(await memory.page(query, { page: 300, limit: 24 }, running)).toBeUndefined();
    const url = '/api/products?q=neon&page=300&limit=24';
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(await fromDatabase(url));
  });

  it('answers the shop’s own searches from memory, the same lists as the database', async () => {
    const rand = mulberry32(5);
    for (let n = 0; n < 40; n += 1) {
      const query = { ...randomQuery(rand), page: '1', limit: '24' };
      const url = `/api/products?${queryString(query)}`;
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual(await fromDatabase(url));
    }
  });
});

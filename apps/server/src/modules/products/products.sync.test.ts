import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@pixel-vault/shared';
import { products } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct } from '../../test/factories.js';

/**
 * Issue 13: instances on one database drop each other's cached catalogue at once (LISTEN/NOTIFY), on
 * PGlite (two apps on one database in this process) and on PostgreSQL (npm run test:pg: each app
 * listens on a connection of its own).
 */
describe('catalogue changes reach every instance', () => {
  let ctx: TestContext;
  let other: App;
  let deaf: App;
  // A minute: within it, only a message can make an instance drop what it cached.
  const cacheTtlMs = 60_000;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { productsCacheTtlMs: cacheTtlMs } });
    other = await ctx.newApp();
    deaf = await ctx.newApp({ listen: undefined });
  });
  afterAll(() => ctx.close());

  const priceOn = async (app: App, id: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${id}` });
    return res.json<Product>().productPrice;
  };
  /** Reads until `done` holds (messages arrive asynchronously), at most 3 s; answers the last read. */
  async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const until = Date.now() + 3000;
    let seen = await read();
    while (!done(seen) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await read();
    }
    return seen;
  }
  /** Asks until `app` answers `price`, at most 3 s. */
  const eventually = (app: App, id: string, price: number) =>
    readUntil(
      () => priceOn(app, id),
      (seen) => seen === price,
    );

  it('a change on one instance is seen on another at once, not when its cache expires', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 1000 });
    expect(await priceOn(other, product.id)).toBe(10);
    expect(await priceOn(deaf, product.id)).toBe(10);

    await ctx.db.update(products).set({ priceCents: 1500 }).where(eq(products.id, product.id));
    // Cached: the row changed behind the cache's back, nobody said so yet.
    expect(await priceOn(other, product.id)).toBe(10);
    ctx.app.services.products.invalidate();

    expect(await eventually(other, product.id, 15)).toBe(15);
    expect(await priceOn(ctx.app, product.id)).toBe(15);
    // An instance that does not listen keeps its cached answer until it expires.
    expect(await priceOn(deaf, product.id)).toBe(10);
  });

  it('says when only details changed: the other instance shows the new stock and keeps its lists', async () => {
    const listed = async (app: App) => {
      const res = await app.inject({ method: 'GET', url: '/api/products?category=puzzles&page=1&limit=100' });
      return res.json<{ products: Product[] }>().products;
    };
    const product = await insertProduct(ctx.db, { category: 'puzzles', stock: 9 });
    expect((await listed(other)).find((p) => p._id === product.id)?.stockQuantity).toBe(9);
    // Stock taken by an order on this instance; a product added behind everyone's back meanwhile.
    await ctx.db.update(products).set({ stock: 8 }).where(eq(products.id, product.id));
    const unseen = await insertProduct(ctx.db, { category: 'puzzles' });
    ctx.app.services.products.invalidate('details');
    const shown = await readUntil(
      () => listed(other),
      (list) => list.find((p) => p._id === product.id)?.stockQuantity === 8,
    );
    expect(shown.find((p) => p._id === product.id)?.stockQuantity).toBe(8);
    // The other instance kept its list of the category's products: the silent addition is not in it.
    expect(shown.map((p) => p._id)).not.toContain(unseen.id);
    // A products change drops the lists too.
    ctx.app.services.products.invalidate('products');
    const relisted = await readUntil(
      () => listed(other),
      (list) => list.some((p) => p._id === unseen.id),
    );
    expect(relisted.map((p) => p._id)).toContain(unseen.id);
  });

  it('works both ways, and a message drops each cache once: later silent changes stay unseen', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 2000 });
    expect(await priceOn(ctx.app, product.id)).toBe(20);
    expect(await priceOn(other, product.id)).toBe(20);
    await ctx.db.update(products).set({ priceCents: 2500 }).where(eq(products.id, product.id));
    other.services.products.invalidate();
    expect(await eventually(ctx.app, product.id, 25)).toBe(25);
    expect(await priceOn(other, product.id)).toBe(25);
    // Changed behind the caches' back, with no message: both keep what they cached.
    await ctx.db.update(products).set({ priceCents: 2600 }).where(eq(products.id, product.id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await priceOn(other, product.id)).toBe(25);
    expect(await priceOn(ctx.app, product.id)).toBe(25);
  });
});

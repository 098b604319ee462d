import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Product } from '@pixel-vault/shared';
import { orders } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { type TestContext, createTestContext, silentLog } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder, setPrice, setStock } from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';

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

    await setPrice(ctx.db, product.id, 1500);
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
    await setStock(ctx.db, product.id, 8);
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
    await setPrice(ctx.db, product.id, 2500);
    other.services.products.invalidate();
    expect(await eventually(ctx.app, product.id, 25)).toBe(25);
    expect(await priceOn(other, product.id)).toBe(25);
    // Changed behind the caches' back, with no message: both keep what they cached.
    await setPrice(ctx.db, product.id, 2600);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await priceOn(other, product.id)).toBe(25);
    expect(await priceOn(ctx.app, product.id)).toBe(25);
  });

  it('an order shows its stock in every cached answer at once, here and on another instance, reading nothing again (issue 28)', async () => {
    const product = await insertProduct(ctx.db, { name: 'Sale Cartridge', category: 'consoles', stock: 5 });
    const { auth } = await insertUser(ctx.db);
    const urls = [
      `/api/products/${product.id}`,
      '/api/products',
      '/api/products?category=consoles&page=1&limit=100',
      '/api/products?category=consoles&q=Sale&page=1&limit=12',
    ];
    const stockIn = (body: unknown): number | undefined => {
      const list = Array.isArray(body) ? body : (body as { products?: Product[] }).products;
      return (list ? list.find((p: Product) => p._id === product.id) : (body as Product))?.stockQuantity;
    };
    const read = async (app: App, url: string) => {
      const res = await app.inject({ method: 'GET', url });
      return { stock: stockIn(res.json()), etag: res.headers.etag };
    };
    const before = new Map<string, string | undefined>();
    for (const url of urls) {
      for (const app of [ctx.app, other, deaf]) expect((await read(app, url)).stock, url).toBe(5);
      before.set(url, (await read(ctx.app, url)).etag);
    }
    await placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 2 }]);
    const select = vi.spyOn(ctx.db, 'select');
    try {
      for (const url of urls) {
        const here = await read(ctx.app, url);
        expect(here.stock, url).toBe(3);
        expect(here.etag, url).not.toBe(before.get(url));
        const there = await readUntil(
          () => read(other, url),
          (seen) => seen.stock === 3,
        );
        expect(there.stock, url).toBe(3);
        // No message reaches it: it shows what it cached until its TTL ends.
        expect((await read(deaf, url)).stock, url).toBe(5);
      }
      // The figures came with the order and its message: no catalogue read on either instance.
      expect(select).not.toHaveBeenCalled();
    } finally {
      select.mockRestore();
    }
  });

  it('puts the stock of an expired order back in the cached answers, reading nothing again (issue 28)', async () => {
    const product = await insertProduct(ctx.db, { name: 'Held Cartridge', stock: 4 });
    const { auth } = await insertUser(ctx.db);
    const stockOn = async (app: App) =>
      (await app.inject({ method: 'GET', url: `/api/products/${product.id}` })).json<Product>().stockQuantity;
    const order = await placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 3 }]);
    expect(await stockOn(ctx.app)).toBe(1);
    expect(
      await readUntil(
        () => stockOn(other),
        (stock) => stock === 1,
      ),
    ).toBe(1);
    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order._id));
    const select = vi.spyOn(ctx.db, 'select');
    try {
      const expiry = createOrderExpiry({
        db: ctx.db,
        log: silentLog as never,
        onStockMoved: (moved) => ctx.app.services.products.stockMoved(moved),
      });
      expect(await expiry.sweepOnce()).toBe(1);
      expect(await stockOn(ctx.app)).toBe(4);
      expect(
        await readUntil(
          () => stockOn(other),
          (stock) => stock === 4,
        ),
      ).toBe(4);
      expect(select).not.toHaveBeenCalled();
    } finally {
      select.mockRestore();
    }
  });
  it('lists a product that sells out after the others, here and on another instance, and puts it back when it returns (issue 30)', async () => {
    const category = 'board-games';
    const [first, second] = [
      await insertProduct(ctx.db, { name: 'Aaa Last Copy', category, stock: 1 }),
      await insertProduct(ctx.db, { name: 'Bbb Plenty', category, stock: 9 }),
    ];
    const gone = await insertProduct(ctx.db, { name: 'Aab Long Gone', category, stock: 0 });
    const { auth } = await insertUser(ctx.db);
    const mine = [first.id, second.id, gone.id];
    const orderOn = async (app: App, url: string) => {
      const body = (await app.inject({ method: 'GET', url })).json<Product[] | { products: Product[] }>();
      const list = Array.isArray(body) ? body : body.products;
      return list.map((p) => p._id).filter((id) => mine.includes(id));
    };
    const urls = ['/api/products', `/api/products?category=${category}&page=1&limit=12`];
    // Added behind the caches' back: an admin's write would say so.
    ctx.app.services.products.invalidate();
    for (const url of urls) {
      // In stock by name, then what is sold out: "Aab Long Gone" after "Bbb Plenty".
      expect(await orderOn(ctx.app, url), url).toEqual(mine);
      const there = await readUntil(
        () => orderOn(other, url),
        (ids) => ids.length === 3,
      );
      expect(there, url).toEqual(mine);
    }

    const order = await placeOrder(ctx.app, auth, [{ product: first.id, itemQuantity: 1 }]);
    const soldOut = [second.id, first.id, gone.id];
    for (const url of urls) {
      expect(await orderOn(ctx.app, url), url).toEqual(soldOut);
      const there = await readUntil(
        () => orderOn(other, url),
        (ids) => ids[0] === second.id,
      );
      expect(there, url).toEqual(soldOut);
    }

    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order._id));
    const expiry = createOrderExpiry({
      db: ctx.db,
      log: silentLog as never,
      onStockMoved: (moved) => ctx.app.services.products.stockMoved(moved),
    });
    expect(await expiry.sweepOnce()).toBe(1);
    for (const url of urls) {
      expect(await orderOn(ctx.app, url), url).toEqual(mine);
      const there = await readUntil(
        () => orderOn(other, url),
        (ids) => ids[0] === first.id,
      );
      expect(there, url).toEqual(mine);
    }
  });
});

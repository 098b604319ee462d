import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WISHLIST_ITEMS, type Wishlist } from '@pixel-vault/shared';
import { productVariants, products, wishlistItems } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';

/**
 * Issue 34: the logged-in shopper's wishlist, on both engines. The shop's clock is the test's and moves
 * a second per add, so "newest first" is a fact of the test, not of the machine's speed.
 */
let ctx: TestContext;
let now = new Date('2026-11-27T12:00:00Z');
const tick = () => {
  now = new Date(now.getTime() + 1000);
  return now;
};

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now } });
});
afterAll(() => ctx.close());

type Auth = { authorization: string };

const getList = (auth: Auth) => ctx.app.inject({ method: 'GET', url: '/api/wishlist', headers: auth });
const add = (auth: Auth, id: string) => {
  tick();
  return ctx.app.inject({ method: 'PUT', url: `/api/wishlist/${id}`, headers: auth });
};
const remove = (auth: Auth, id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/wishlist/${id}`, headers: auth });
const customer = async () => insertUser(ctx.db);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('who may call the wishlist', () => {
  it('answers 401 Not authorized! to a visitor on every wishlist route', async () => {
    const p = await insertProduct(ctx.db);
    for (const res of [
      await ctx.app.inject({ method: 'GET', url: '/api/wishlist' }),
      await ctx.app.inject({ method: 'PUT', url: `/api/wishlist/${p.id}` }),
      await ctx.app.inject({ method: 'DELETE', url: `/api/wishlist/${p.id}` }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Not authorized!' });
    }
  });

  it("shows each customer only their own list, and one's removal leaves the other's", async () => {
    const [ann, bob] = [await customer(), await customer()];
    const [p, q] = [await insertProduct(ctx.db), await insertProduct(ctx.db)];
    expect((await add(ann.auth, p.id)).statusCode).toBe(201);
    expect((await add(bob.auth, q.id)).statusCode).toBe(201);
    expect((await add(bob.auth, p.id)).statusCode).toBe(201);
    expect((await getList(ann.auth)).json<Wishlist>().items.map((i) => i.product)).toEqual([p.id]);
    expect((await getList(bob.auth)).json<Wishlist>().items.map((i) => i.product)).toEqual([p.id, q.id]);
    await remove(bob.auth, p.id);
    expect((await getList(ann.auth)).json<Wishlist>().items.map((i) => i.product)).toEqual([p.id]);
    expect((await getList(bob.auth)).json<Wishlist>().items.map((i) => i.product)).toEqual([q.id]);
  });
});

describe('GET, PUT and DELETE /api/wishlist', () => {
  it('answers an empty list at first', async () => {
    const res = await getList((await customer()).auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [] });
  });

  it('adds a product (201, the list), a second time changes nothing (200, the same list), newest first', async () => {
    const { auth } = await customer();
    const first = await insertProduct(ctx.db, {
      name: 'Wish One',
      category: 'puzzles',
      priceCents: 1250,
      stock: 4,
    });
    const second = await insertProduct(ctx.db, { name: 'Wish Two', images: [] });
    const added = await add(auth, first.id);
    expect(added.statusCode).toBe(201);
    const firstAt = now.toISOString();
    expect(added.json()).toEqual({
      items: [
        {
          product: first.id,
          name: 'Wish One',
          image: first.images[0],
          price: 12.5,
          countInStock: 4,
          category: 'puzzles',
          addedAt: firstAt,
        },
      ],
    });
    const again = await add(auth, first.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(added.json());
    expect((await add(auth, second.id)).statusCode).toBe(201);
    const list = (await getList(auth)).json<Wishlist>();
    expect(list.items.map((i) => [i.name, i.image])).toEqual([
      ['Wish Two', ''],
      ['Wish One', first.images[0]],
    ]);
    // Added again, an item keeps its place and its date.
    await add(auth, first.id);
    expect((await getList(auth)).json<Wishlist>().items.map((i) => i.addedAt)).toEqual([
      list.items[0]!.addedAt,
      firstAt,
    ]);
  });

  it('shows the price its page shows and what all its versions hold; a sold-out product stays with 0', async () => {
    const { auth } = await customer();
    const versions = await insertProduct(ctx.db, {
      options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
      variants: [
        { options: { Condition: 'Loose' }, priceCents: 900, stock: 0 },
        { options: { Condition: 'Boxed' }, priceCents: 2500, stock: 3 },
      ],
    });
    const soldOut = await insertProduct(ctx.db, { stock: 0 });
    await add(auth, versions.id);
    await add(auth, soldOut.id);
    expect(
      (await getList(auth)).json<Wishlist>().items.map((i) => [i.product, i.price, i.countInStock]),
    ).toEqual([
      [soldOut.id, 19.99, 0],
      [versions.id, 9, 3],
    ]);
    // An archived version's stock no longer counts.
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now })
      .where(eq(productVariants.id, versions.variants[1]!.id));
    expect((await getList(auth)).json<Wishlist>().items[1]).toMatchObject({ countInStock: 0 });
  });

  it('removes a product (200, the list), and removing it again, or one never added, is 200 too', async () => {
    const { auth } = await customer();
    const [p, q] = [await insertProduct(ctx.db), await insertProduct(ctx.db)];
    await add(auth, p.id);
    await add(auth, q.id);
    const removed = await remove(auth, p.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json<Wishlist>().items.map((i) => i.product)).toEqual([q.id]);
    for (const id of [p.id, UNKNOWN]) {
      const res = await remove(auth, id);
      expect(res.statusCode).toBe(200);
      expect(res.json<Wishlist>().items.map((i) => i.product)).toEqual([q.id]);
    }
  });

  it('refuses an unknown or removed product (404) and a bad id (400), adding nothing', async () => {
    const { auth, user } = await customer();
    const removedProduct = await insertProduct(ctx.db, { deletedAt: new Date() });
    for (const id of [UNKNOWN, removedProduct.id]) {
      const res = await add(auth, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Product not found', code: 'NOT_FOUND' });
    }
    for (const id of ['not-an-id', '123', `${UNKNOWN}x`, '%00', 'null']) {
      for (const res of [await add(auth, id), await remove(auth, id)]) {
        expect(res.statusCode, `${id}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ message: 'Invalid id' });
      }
    }
    expect(await ctx.db.select().from(wishlistItems).where(eq(wishlistItems.userId, user.id))).toEqual([]);
  });

  it('leaves out a product removed from the shop, and does not count it', async () => {
    const { auth } = await customer();
    const [p, q] = [await insertProduct(ctx.db), await insertProduct(ctx.db)];
    await add(auth, p.id);
    await add(auth, q.id);
    await ctx.db.update(products).set({ deletedAt: now }).where(eq(products.id, p.id));
    expect((await getList(auth)).json<Wishlist>().items.map((i) => i.product)).toEqual([q.id]);
    // Its row stays (the shopper can still remove it), and removes cleanly.
    expect((await remove(auth, p.id)).json<Wishlist>().items.map((i) => i.product)).toEqual([q.id]);
  });
});

describe('at most 200 products', () => {
  /** `n` products on the user's list, written straight to the database. */
  async function fill(userId: string, n: number) {
    const many = [];
    for (let i = 0; i < n; i += 1) many.push(await insertProduct(ctx.db, { images: [] }));
    await ctx.db
      .insert(wishlistItems)
      .values(
        many.map((p, i) => ({ userId, productId: p.id, addedAt: new Date(now.getTime() - (i + 1) * 1000) })),
      );
    return many;
  }

  it('refuses the 201st with 409 and a clear message; one already there, or one after a removal, is fine', async () => {
    const { auth, user } = await customer();
    const held = await fill(user.id, MAX_WISHLIST_ITEMS - 1);
    const [last, extra] = [await insertProduct(ctx.db), await insertProduct(ctx.db)];
    expect((await add(auth, last.id)).statusCode).toBe(201);
    const full = await add(auth, extra.id);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({
      message: 'Your wishlist holds at most 200 products. Remove one to add another.',
      code: 'WISHLIST_FULL',
    });
    // Idempotent even when full: a product already there is a 200.
    expect((await add(auth, held[0]!.id)).statusCode).toBe(200);
    expect((await getList(auth)).json<Wishlist>().items).toHaveLength(MAX_WISHLIST_ITEMS);
    // A product removed from the shop no longer counts, so there is room again.
    await ctx.db.update(products).set({ deletedAt: now }).where(eq(products.id, held[1]!.id));
    expect((await add(auth, extra.id)).statusCode).toBe(201);
    // And a removal by the shopper makes room too.
    const another = await insertProduct(ctx.db);
    expect((await add(auth, another.id)).statusCode).toBe(409);
    await remove(auth, held[2]!.id);
    expect((await add(auth, another.id)).statusCode).toBe(201);
    expect((await getList(auth)).json<Wishlist>().items).toHaveLength(MAX_WISHLIST_ITEMS);
  });

  it('six adds at once with room for two: two are added, four refused, never more than 200', async () => {
    const { auth, user } = await customer();
    await fill(user.id, MAX_WISHLIST_ITEMS - 2);
    const wanted = [];
    for (let i = 0; i < 6; i += 1) wanted.push(await insertProduct(ctx.db, { images: [] }));
    const answers = await Promise.all(wanted.map((p) => add(auth, p.id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    const rows = await ctx.db.select().from(wishlistItems).where(eq(wishlistItems.userId, user.id));
    expect(rows).toHaveLength(MAX_WISHLIST_ITEMS);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart, Order, PayPalOrderResponse, Product } from '@pixel-vault/shared';
import { cartItems, carts, productVariants, products } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  type TestProduct,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  setPrice,
  setStock,
} from '../../test/factories.js';

/**
 * Issue 34: the logged-in shopper's cart on the server, on both engines (npm test and npm run test:pg).
 * The shop's clock is the test's, so a sale runs when the test says.
 */
let ctx: TestContext;
const now = new Date('2026-11-27T12:00:00Z');
let admin: Auth;

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type Line = { product: string; variant?: string | null; qty: number; [field: string]: unknown };

const getCart = (auth: Auth) => ctx.app.inject({ method: 'GET', url: '/api/cart', headers: auth });
const putCart = (auth: Auth, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url: '/api/cart', headers: auth, payload: payload as object });
const mergeCart = (auth: Auth, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/api/cart/merge', headers: auth, payload: payload as object });

async function put(auth: Auth, items: Line[]): Promise<Cart> {
  const res = await putCart(auth, { items });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Cart>();
}

/** Each customer's user id, by their authorization header. */
const userIds = new Map<string, string>();
async function customer(): Promise<Auth> {
  const { auth, user } = await insertUser(ctx.db);
  userIds.set(auth.authorization, user.id);
  return auth;
}
const userIdOf = (auth: Auth) => userIds.get(auth.authorization)!;

/** The cart's lines as the database holds them, in order. */
async function storedLines(auth: Auth) {
  const userId = userIdOf(auth);
  const rows = await ctx.db
    .select({ product: cartItems.productId, variant: cartItems.variantId, qty: cartItems.qty })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(cartItems.position);
  const [cart] = await ctx.db.select().from(carts).where(eq(carts.userId, userId));
  return { lines: rows, version: cart?.version ?? 0 };
}

/** A product sold in two versions: Loose ($12.00, stock 4) and Boxed ($30.00, stock 1). */
const versioned = () =>
  insertProduct(ctx.db, {
    name: 'Versioned Cart',
    options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
    variants: [
      { options: { Condition: 'Loose' }, priceCents: 1200, stock: 4 },
      { options: { Condition: 'Boxed' }, priceCents: 3000, stock: 1 },
    ],
  });
const variantOf = (p: TestProduct, i: number) => p.variants[i]!.id;

describe('who may call the cart', () => {
  it('answers 401 Not authorized! to a visitor on every cart route', async () => {
    for (const res of [
      await ctx.app.inject({ method: 'GET', url: '/api/cart' }),
      await ctx.app.inject({ method: 'PUT', url: '/api/cart', payload: { items: [] } }),
      await ctx.app.inject({ method: 'POST', url: '/api/cart/merge', payload: { items: [] } }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Not authorized!' });
    }
  });

  it('shows each customer only their own cart', async () => {
    const [ann, bob] = [await customer(), await customer()];
    const [p, q] = [await insertProduct(ctx.db), await insertProduct(ctx.db)];
    await put(ann, [{ product: p.id, qty: 2 }]);
    expect((await getCart(bob)).json<Cart>()).toMatchObject({ items: [], version: 0 });
    await put(bob, [{ product: q.id, qty: 1 }]);
    await put(ann, [
      { product: p.id, qty: 2 },
      { product: q.id, qty: 3 },
    ]);
    // Both have carts now: each reads their own lines and version, nothing of the other's.
    expect((await getCart(bob)).json<Cart>()).toMatchObject({
      items: [{ product: q.id, qty: 1 }],
      version: 1,
    });
    expect((await getCart(ann)).json<Cart>()).toMatchObject({
      items: [
        { product: p.id, qty: 2 },
        { product: q.id, qty: 3 },
      ],
      version: 2,
    });
    // Bob's write does not touch Ann's cart.
    await put(bob, []);
    expect((await getCart(ann)).json<Cart>().items).toHaveLength(2);
  });
});

describe('GET and PUT /api/cart', () => {
  it('answers an empty cart, version 0, before the first write', async () => {
    const res = await getCart(await customer());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], dropped: [], version: 0, updatedAt: null });
  });

  it("replaces the whole cart and answers the server's names, images, prices and stock, ignoring the client's", async () => {
    const auth = await customer();
    const game = await insertProduct(ctx.db, { name: 'Cart Game', priceCents: 1999, stock: 7 });
    const board = await insertProduct(ctx.db, { name: 'Cart Board', priceCents: 500, stock: 2, images: [] });
    await put(auth, [{ product: board.id, qty: 1 }]);
    const cart = await put(auth, [
      { product: game.id, qty: 2, price: 0.01, name: 'Mine', countInStock: 99, image: '/x.png' },
      { product: board.id, variant: null, qty: 1 },
    ]);
    expect(cart).toEqual({
      items: [
        {
          product: game.id,
          variant: game.variantId,
          qty: 2,
          name: 'Cart Game',
          image: game.images[0],
          price: 19.99,
          countInStock: 7,
          addedPrice: 19.99,
          priceChanged: false,
          stockShort: false,
        },
        {
          product: board.id,
          variant: board.variantId,
          qty: 1,
          name: 'Cart Board',
          image: '',
          price: 5,
          countInStock: 2,
          addedPrice: 5,
          priceChanged: false,
          stockShort: false,
        },
      ],
      dropped: [],
      version: 2,
      updatedAt: now.toISOString(),
    });
    expect((await getCart(auth)).json()).toEqual(cart);
    expect(await storedLines(auth)).toEqual({
      lines: [
        { product: game.id, variant: game.variantId, qty: 2 },
        { product: board.id, variant: board.variantId, qty: 1 },
      ],
      version: 2,
    });
    // An empty cart is a cart too.
    expect(await put(auth, [])).toMatchObject({ items: [], version: 3 });
    expect((await storedLines(auth)).lines).toEqual([]);
  });

  it('says when the price changed since a line was added, and keeps the added price while the line stays', async () => {
    const auth = await customer();
    const p = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
    await put(auth, [{ product: p.id, qty: 1 }]);
    await setPrice(ctx.db, p.id, 2500);
    expect((await getCart(auth)).json<Cart>().items[0]).toMatchObject({
      price: 25,
      addedPrice: 20,
      priceChanged: true,
    });
    // The quantity changes: the line stays, with the price it was added at.
    expect((await put(auth, [{ product: p.id, qty: 3 }])).items[0]).toMatchObject({
      qty: 3,
      price: 25,
      addedPrice: 20,
      priceChanged: true,
    });
    // Taken out and put back: added again, at today's price.
    await put(auth, []);
    expect((await put(auth, [{ product: p.id, qty: 1 }])).items[0]).toMatchObject({
      price: 25,
      addedPrice: 25,
      priceChanged: false,
    });
  });

  it('prices a line as its product page does while a sale runs', async () => {
    const auth = await customer();
    const p = await insertProduct(ctx.db, { priceCents: 4000, stock: 5 });
    await put(auth, [{ product: p.id, qty: 1 }]);
    const sale = await ctx.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: admin,
      payload: {
        kind: 'sale',
        value: 25,
        startsAt: new Date(now.getTime() - 3_600_000).toISOString(),
        endsAt: new Date(now.getTime() + 3_600_000).toISOString(),
        products: [p.id],
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    const page = (await ctx.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).json<Product>();
    expect(page.productPrice).toBe(30);
    expect((await getCart(auth)).json<Cart>().items[0]).toMatchObject({
      price: page.productPrice,
      addedPrice: 40,
      priceChanged: true,
    });
    // Added during the sale: added at the sale price.
    const other = await customer();
    expect((await put(other, [{ product: p.id, qty: 1 }])).items[0]).toMatchObject({
      price: 30,
      addedPrice: 30,
      priceChanged: false,
    });
  });

  it('keeps a quantity above the stock and says the line is short', async () => {
    const auth = await customer();
    const p = await insertProduct(ctx.db, { stock: 3 });
    expect((await put(auth, [{ product: p.id, qty: 4 }])).items[0]).toMatchObject({
      qty: 4,
      countInStock: 3,
      stockShort: true,
    });
    await setStock(ctx.db, p.id, 10);
    expect((await getCart(auth)).json<Cart>().items[0]).toMatchObject({
      countInStock: 10,
      stockShort: false,
    });
  });

  it("buys the named variant at its price, with its title; a product's only variant needs no naming", async () => {
    const auth = await customer();
    const v = await versioned();
    const plain = await insertProduct(ctx.db, { priceCents: 700 });
    const cart = await put(auth, [
      { product: v.id, variant: variantOf(v, 1), qty: 1 },
      { product: plain.id, qty: 1 },
    ]);
    expect(cart.items).toEqual([
      expect.objectContaining({
        product: v.id,
        variant: variantOf(v, 1),
        variantTitle: 'Boxed',
        price: 30,
        countInStock: 1,
      }),
      expect.objectContaining({ product: plain.id, variant: plain.variantId, price: 7 }),
    ]);
    expect(cart.items[1]).not.toHaveProperty('variantTitle');
  });

  it('drops, and reports, lines of unknown or removed products, archived or foreign variants, or no variant chosen', async () => {
    const auth = await customer();
    const v = await versioned();
    const good = await insertProduct(ctx.db, { name: 'Still Here' });
    const removed = await insertProduct(ctx.db, { name: 'Removed Game', deletedAt: new Date() });
    const archived = await versioned();
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now })
      .where(eq(productVariants.id, variantOf(archived, 1)));
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await putCart(auth, {
      items: [
        { product: good.id, qty: 1 },
        { product: unknown, qty: 1 },
        { product: removed.id, qty: 1 },
        { product: archived.id, variant: variantOf(archived, 1), qty: 1 },
        { product: good.id, variant: variantOf(v, 0), qty: 1 },
        { product: v.id, qty: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const cart = res.json<Cart>();
    expect(cart.items.map((i) => i.product)).toEqual([good.id]);
    expect(cart.dropped).toEqual([
      {
        product: unknown,
        variant: null,
        reason: 'product_unavailable',
        message: 'A product in your cart is no longer sold',
      },
      {
        product: removed.id,
        variant: null,
        reason: 'product_unavailable',
        message: 'Removed Game is no longer sold',
      },
      {
        product: archived.id,
        variant: variantOf(archived, 1),
        reason: 'variant_unavailable',
        message: 'That version of Versioned Cart is no longer sold. Please choose another.',
      },
      {
        product: good.id,
        variant: variantOf(v, 0),
        reason: 'variant_unavailable',
        message: 'That version of Still Here is no longer sold. Please choose another.',
      },
      {
        product: v.id,
        variant: null,
        reason: 'variant_required',
        message: 'Versioned Cart comes in several versions: please choose one on its page',
      },
    ]);
    expect((await storedLines(auth)).lines).toEqual([{ product: good.id, variant: good.variantId, qty: 1 }]);
  });

  it('leaves out, and reports, lines whose product or variant was removed since, until the next write', async () => {
    const auth = await customer();
    const keep = await insertProduct(ctx.db, { name: 'Keeper' });
    const goes = await insertProduct(ctx.db, { name: 'Goner' });
    const v = await versioned();
    await put(auth, [
      { product: goes.id, qty: 1 },
      { product: keep.id, qty: 2 },
      { product: v.id, variant: variantOf(v, 1), qty: 1 },
    ]);
    await ctx.db.update(products).set({ deletedAt: now }).where(eq(products.id, goes.id));
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now })
      .where(eq(productVariants.id, variantOf(v, 1)));
    const read = (await getCart(auth)).json<Cart>();
    expect(read.items.map((i) => i.product)).toEqual([keep.id]);
    expect(read.dropped).toEqual([
      expect.objectContaining({
        product: goes.id,
        variant: goes.variantId,
        reason: 'product_unavailable',
        message: 'Goner is no longer sold',
      }),
      expect.objectContaining({ product: v.id, variant: variantOf(v, 1), reason: 'variant_unavailable' }),
    ]);
    // A read writes nothing: the version is the same, the lines are still there.
    expect(read.version).toBe(1);
    expect((await storedLines(auth)).lines).toHaveLength(3);
    // The next write (the client saving the cart it was shown) lets them go.
    await put(auth, read.items);
    expect((await storedLines(auth)).lines).toEqual([{ product: keep.id, variant: keep.variantId, qty: 2 }]);
  });

  it('takes two lines of the same product and variant as one, their quantities summed (at most 99)', async () => {
    const auth = await customer();
    const p = await insertProduct(ctx.db, { stock: 500 });
    const other = await insertProduct(ctx.db);
    const cart = await put(auth, [
      { product: p.id, qty: 2 },
      { product: other.id, qty: 1 },
      { product: p.id, variant: p.variantId, qty: 3 },
    ]);
    expect(cart.items.map((i) => [i.product, i.qty])).toEqual([
      [p.id, 5],
      [other.id, 1],
    ]);
    expect(
      (
        await put(auth, [
          { product: p.id, qty: 60 },
          { product: p.id.toUpperCase(), qty: 60 },
        ])
      ).items,
    ).toMatchObject([{ product: p.id, qty: 99 }]);
  });

  it('takes a cart of 50 lines', async () => {
    const auth = await customer();
    const many = await Promise.all(Array.from({ length: 50 }, () => insertProduct(ctx.db, { images: [] })));
    const cart = await put(
      auth,
      many.map((p) => ({ product: p.id, qty: 1 })),
    );
    expect(cart.items).toHaveLength(50);
    expect((await storedLines(auth)).lines).toHaveLength(50);
  });
});

describe('garbage in: a 400 with a message, never a 500, and nothing written', () => {
  it('refuses every wrong shape of the body', async () => {
    const auth = await customer();
    const p = await insertProduct(ctx.db);
    await put(auth, [{ product: p.id, qty: 1 }]);
    const line = (over: object) => ({ items: [{ product: p.id, qty: 1, ...over }] });
    const cases: [unknown, string][] = [
      [{}, 'Send the cart as a list of items'],
      [{ items: 'all of it' }, 'Send the cart as a list of items'],
      [{ items: null }, 'Send the cart as a list of items'],
      [[], 'Invalid input: expected object, received array'],
      [
        { items: Array.from({ length: 51 }, () => ({ product: p.id, qty: 1 })) },
        'A cart holds at most 50 lines',
      ],
      [
        { items: Array.from({ length: 5000 }, () => ({ product: p.id, qty: 1 })) },
        'A cart holds at most 50 lines',
      ],
      [line({ qty: 0 }), 'Quantity must be at least 1'],
      [line({ qty: 100 }), 'Quantity must be at most 99'],
      [line({ qty: 1.5 }), 'Quantity must be a whole number'],
      [line({ qty: '2' }), 'Quantity must be a number'],
      [line({ qty: -1 }), 'Quantity must be at least 1'],
      [line({ qty: null }), 'Quantity must be a number'],
      [line({ product: 'not-an-id' }), 'Invalid id'],
      [line({ product: 42 }), 'Invalid id'],
      [line({ variant: 'nope' }), 'Invalid id'],
      [{ items: [null] }, 'Invalid input: expected object, received null'],
    ];
    for (const [payload, message] of cases) {
      for (const send of [putCart, mergeCart]) {
        const res = await send(auth, payload);
        const label = `${JSON.stringify(payload).slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 120)}`;
        expect(res.statusCode, label).toBe(400);
        expect(res.json<{ message: string }>().message, label).toBe(message);
      }
    }
    const malformed = await ctx.app.inject({
      method: 'PUT',
      url: '/api/cart',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"items": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await storedLines(auth)).toEqual({
      lines: [{ product: p.id, variant: p.variantId, qty: 1 }],
      version: 1,
    });
  });
});

describe('POST /api/cart/merge', () => {
  it("merges the visitor's cart at login: larger quantity, new lines added, capped at stock, removed ones reported", async () => {
    const auth = await customer();
    const a = await insertProduct(ctx.db, { name: 'Merge A', stock: 3 });
    const b = await insertProduct(ctx.db, { name: 'Merge B', stock: 10 });
    const c = await insertProduct(ctx.db, { name: 'Merge C', stock: 2 });
    const gone = await insertProduct(ctx.db, { name: 'Merge Gone', deletedAt: new Date() });
    await put(auth, [
      { product: a.id, qty: 1 },
      { product: b.id, qty: 4 },
    ]);
    const res = await mergeCart(auth, {
      items: [
        { product: b.id, qty: 2 },
        { product: a.id, qty: 5 },
        { product: c.id, qty: 9 },
        { product: gone.id, qty: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const cart = res.json<Cart>();
    expect(cart.items.map((i) => [i.name, i.qty, i.stockShort])).toEqual([
      ['Merge A', 3, false],
      ['Merge B', 4, false],
      ['Merge C', 2, false],
    ]);
    expect(cart.dropped).toEqual([
      {
        product: gone.id,
        variant: null,
        reason: 'product_unavailable',
        message: 'Merge Gone is no longer sold',
      },
    ]);
    expect(cart.version).toBe(2);
    expect((await storedLines(auth)).lines.map((l) => [l.product, l.qty])).toEqual([
      [a.id, 3],
      [b.id, 4],
      [c.id, 2],
    ]);
  });

  it("is the visitor's cart for an account that had none, and drops lines past 50 as cart_full", async () => {
    const auth = await customer();
    const many = await Promise.all(Array.from({ length: 51 }, () => insertProduct(ctx.db, { images: [] })));
    expect((await mergeCart(auth, { items: [{ product: many[0]!.id, qty: 2 }] })).json<Cart>()).toMatchObject(
      { items: [{ product: many[0]!.id, qty: 2 }], version: 1 },
    );
    await put(
      auth,
      many.slice(0, 40).map((p) => ({ product: p.id, qty: 1 })),
    );
    const merged = (
      await mergeCart(auth, { items: many.slice(30, 51).map((p) => ({ product: p.id, qty: 1 })) })
    ).json<Cart>();
    expect(merged.items).toHaveLength(50);
    expect(merged.dropped).toEqual([expect.objectContaining({ product: many[50]!.id, reason: 'cart_full' })]);
    expect((await storedLines(auth)).lines).toHaveLength(50);
  });
});

describe('an order paid leaves the cart', () => {
  const TOTAL_UNDER_GIFT = 1_000_000;

  it("removes the paid lines (same product and variant) from the buyer's cart and keeps the others (gift card)", async () => {
    const [buyer, other] = [await customer(), await customer()];
    const a = await insertProduct(ctx.db, { name: 'Paid A', stock: 10 });
    const b = await insertProduct(ctx.db, { name: 'Kept B', stock: 10 });
    const v = await versioned();
    const lines = [
      { product: a.id, qty: 1 },
      { product: b.id, qty: 2 },
      { product: v.id, variant: variantOf(v, 0), qty: 1 },
      { product: v.id, variant: variantOf(v, 1), qty: 1 },
    ];
    await put(buyer, lines);
    await put(other, lines);
    const order = await placeOrder(ctx.app, buyer, [
      { product: a.id, itemQuantity: 1 },
      { product: v.id, variant: variantOf(v, 0), itemQuantity: 1 },
    ]);
    // Placed, not paid: the cart is as it was.
    expect((await storedLines(buyer)).lines).toHaveLength(4);
    const card = await insertGiftCard(ctx.db, { balanceCents: TOTAL_UNDER_GIFT });
    const paid = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: buyer,
      payload: { code: card.code, amount: order.totalPrice, orderId: order._id },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const after = await storedLines(buyer);
    expect(after.lines.map((l) => [l.product, l.variant, l.qty])).toEqual([
      [b.id, b.variantId, 2],
      [v.id, variantOf(v, 1), 1],
    ]);
    // The removal counts as a write: another device sees a new version.
    expect(after.version).toBe(2);
    expect((await getCart(buyer)).json<Cart>()).toMatchObject({ version: 2, dropped: [] });
    // Nobody else's cart moves.
    expect(await storedLines(other)).toMatchObject({ version: 1 });
    expect((await storedLines(other)).lines).toHaveLength(4);
  });

  it('removes them when PayPal (demo) settles the order, and counts no write when the cart had none of them', async () => {
    const buyer = await customer();
    const a = await insertProduct(ctx.db, { stock: 10 });
    const b = await insertProduct(ctx.db, { stock: 10 });
    await put(buyer, [
      { product: a.id, qty: 1 },
      { product: b.id, qty: 1 },
    ]);
    const pay = async (order: Order) => {
      const created = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${order._id}/paypal`,
        headers: buyer,
      });
      expect(created.statusCode, created.body).toBe(200);
      const captured = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${order._id}/paypal/capture`,
        headers: buyer,
        payload: { paypalOrderId: created.json<PayPalOrderResponse>().id },
      });
      expect(captured.json<Order>()).toMatchObject({ isPaid: true });
    };
    await pay(await placeOrder(ctx.app, buyer, [{ product: a.id, itemQuantity: 1 }]));
    expect(await storedLines(buyer)).toEqual({
      lines: [{ product: b.id, variant: b.variantId, qty: 1 }],
      version: 2,
    });
    const c = await insertProduct(ctx.db, { stock: 10 });
    await pay(await placeOrder(ctx.app, buyer, [{ product: c.id, itemQuantity: 1 }]));
    expect(await storedLines(buyer)).toEqual({
      lines: [{ product: b.id, variant: b.variantId, qty: 1 }],
      version: 2,
    });
  });

  it('pays the order of a customer who never had a server cart', async () => {
    const buyer = await customer();
    const a = await insertProduct(ctx.db, { stock: 10 });
    const order = await placeOrder(ctx.app, buyer, [{ product: a.id, itemQuantity: 1 }]);
    const card = await insertGiftCard(ctx.db, { balanceCents: TOTAL_UNDER_GIFT });
    const paid = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: buyer,
      payload: { code: card.code, amount: order.totalPrice, orderId: order._id },
    });
    expect(paid.json()).toMatchObject({
      amountDue: 0,
      message: expect.stringContaining('Your order is paid'),
    });
    // No cart row was made for it.
    expect(
      await ctx.db
        .select()
        .from(carts)
        .where(eq(carts.userId, userIdOf(buyer))),
    ).toEqual([]);
  });
});

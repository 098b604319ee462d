import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStats, Order, Product } from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { mailOutbox, orderItems, orders, productVariants } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  type TestProduct,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
} from '../../test/factories.js';
import { createOrderExpiry } from './orders.expiry.js';

/**
 * Issue 31, increment 2 (decision 007): products answer their options and variants; an order line may
 * name a variant, is priced from that variant's row and keeps its title; stock is reserved, given
 * back and watched per variant. A line naming only the product buys its default variant, as a client
 * written to the spec expects.
 */
let ctx: TestContext;
let admin: { authorization: string };
beforeAll(async () => {
  ctx = await createTestContext({
    env: { LOW_STOCK_THRESHOLD: '1', CONTACT_TO: 'owner@example.com', HOLD_MAX_ORDERS: '1000' },
    app: { limits: NO_RATE_LIMITS },
  });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type Line = { product: string; variant?: string; itemQuantity: number; itemPrice?: number };

const post = (auth: Auth, orderItems: Line[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal' },
  });

const stockOfVariant = async (id: string) => {
  const [row] = await ctx.db
    .select({ stock: productVariants.stock })
    .from(productVariants)
    .where(eq(productVariants.id, id));
  return row?.stock;
};
const stocks = (p: TestProduct) => Promise.all(p.variants.map((v) => stockOfVariant(v.id)));
const getProduct = async (id: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();

let counter = 0;
/** Super Mario 64 in three tiers (Loose is the default) and two regions, as a retro shop sells it. */
function insertTiered(stock: { loose?: number; cib?: number; palCib?: number; sealed?: number } = {}) {
  counter += 1;
  return insertProduct(ctx.db, {
    name: `Tiered Game ${counter}`,
    options: [
      { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ],
    variants: [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, priceCents: 4000, stock: stock.loose ?? 5 },
      // Keys written in another order than the options: the title follows the options' order.
      {
        options: { Region: 'NTSC-U', Condition: 'Complete in box' },
        priceCents: 14000,
        stock: stock.cib ?? 2,
      },
      {
        options: { Region: 'PAL', Condition: 'Complete in box' },
        priceCents: 12500,
        stock: stock.palCib ?? 1,
      },
      { options: { Condition: 'New', Region: 'NTSC-U' }, priceCents: 30000, stock: stock.sealed ?? 0 },
    ],
  });
}

describe('product answers (issue 31)', () => {
  it("carry options, variants by position and the price range; the spec's price and stock are the default variant's", async () => {
    const p = await insertTiered();
    const product = await getProduct(p.id);
    expect(product).toMatchObject({ productPrice: 40, stockQuantity: 5, priceRange: { min: 40, max: 300 } });
    expect(product.options).toEqual([
      { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ]);
    expect(product.variants).toEqual(
      p.variants.map((v) => ({
        _id: v.id,
        sku: v.sku,
        options: v.options,
        price: v.priceCents / 100,
        stockQuantity: v.stock,
        // Issue 35: not on the buy list.
        tradeInCredit: null,
      })),
    );

    // The lists carry the same, the whole catalogue and a page of a category alike.
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>();
    expect(all.find((x) => x._id === p.id)).toEqual({ ...product, reviews: [] });
    const page = await ctx.app.inject({ method: 'GET', url: `/api/products?q=${p.name}&page=1&limit=5` });
    expect(page.json<{ products: Product[] }>().products).toEqual([{ ...product, reviews: [] }]);
  });

  it('answer a product sold in one form with no options and its one variant', async () => {
    const p = await insertProduct(ctx.db, { priceCents: 2599, stock: 3 });
    const product = await getProduct(p.id);
    expect(product).toMatchObject({
      productPrice: 25.99,
      stockQuantity: 3,
      options: [],
      variants: [{ _id: p.variantId, sku: p.variants[0]!.sku, options: {}, price: 25.99, stockQuantity: 3 }],
      priceRange: { min: 25.99, max: 25.99 },
    });
  });

  it("show a variant's new stock in the kept answers at once, and the product's own figure follows its default", async () => {
    const p = await insertTiered({ loose: 4, cib: 2 });
    const { auth } = await insertUser(ctx.db);
    // Written straight to the database: the kept whole-catalogue answer does not have it yet.
    ctx.app.services.products.invalidate();
    await getProduct(p.id); // kept from here
    await ctx.app.inject({ method: 'GET', url: '/api/products' });

    await placeOrder(ctx.app, auth, [{ product: p.id, variant: p.variants[1]!.id, itemQuantity: 1 }]);
    let product = await getProduct(p.id);
    expect(product.stockQuantity).toBe(4);
    expect(product.variants.map((v) => v.stockQuantity)).toEqual([4, 1, 1, 0]);

    await placeOrder(ctx.app, (await insertUser(ctx.db)).auth, [{ product: p.id, itemQuantity: 3 }]);
    product = await getProduct(p.id);
    expect(product.stockQuantity).toBe(1);
    expect(product.variants.map((v) => v.stockQuantity)).toEqual([1, 1, 1, 0]);
    const listed = (await ctx.app.inject({ method: 'GET', url: '/api/products' }))
      .json<Product[]>()
      .find((x) => x._id === p.id);
    expect(listed?.stockQuantity).toBe(1);
    expect(listed?.variants.map((v) => v.stockQuantity)).toEqual([1, 1, 1, 0]);
  });

  it('list a product after the others only when every variant is sold out', async () => {
    const name = `Zz Sold Out Order ${counter}`;
    const a = await insertProduct(ctx.db, {
      name: `${name} A`,
      category: 'puzzles',
      options: [{ name: 'Edition', values: ['First', 'Second'] }],
      variants: [
        { options: { Edition: 'First' }, stock: 0 },
        { options: { Edition: 'Second' }, stock: 1 },
      ],
    });
    const b = await insertProduct(ctx.db, { name: `${name} B`, category: 'puzzles', stock: 0 });
    const c = await insertProduct(ctx.db, { name: `${name} C`, category: 'puzzles', stock: 2 });
    const ids = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/api/products?q=${encodeURIComponent(name)}` }))
        .json<Product[]>()
        .map((x) => x._id);
    // A's default is sold out, but its second edition is not: A is not sold out.
    expect(await ids()).toEqual([a.id, c.id, b.id]);
    await placeOrder(ctx.app, (await insertUser(ctx.db)).auth, [
      { product: a.id, variant: a.variants[1]!.id, itemQuantity: 1 },
    ]);
    expect(await ids()).toEqual([c.id, a.id, b.id]);
  });
});

describe('ordering a variant (issue 31)', () => {
  it("prices the line from the variant's row, keeps its title and takes its stock only", async () => {
    const p = await insertTiered({ loose: 5, cib: 2 });
    const { auth } = await insertUser(ctx.db);
    const res = await post(auth, [
      { product: p.id, variant: p.variants[1]!.id, itemQuantity: 2, itemPrice: 1 },
    ]);
    expect(res.statusCode).toBe(201);
    const order = res.json<Order>();
    expect(order.orderItems).toEqual([
      expect.objectContaining({
        product: p.id,
        variant: p.variants[1]!.id,
        variantTitle: 'Complete in box / NTSC-U',
        itemName: p.name,
        itemPrice: 140,
        itemQuantity: 2,
      }),
    ]);
    expect(order.price).toBe(280);
    expect(await stocks(p)).toEqual([5, 0, 1, 0]);
    // Read back, the order says the same.
    const read = await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth });
    expect(read.json<Order>().orderItems).toEqual(order.orderItems);
    // And the admin's orders CSV names the tier.
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/admin/export/orders.csv', headers: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`2 x ${p.name} (Complete in box / NTSC-U) @ 140.00`);
  });

  it('buys the default variant for a line naming only the product, as one line with a line naming it', async () => {
    const p = await insertTiered({ loose: 5 });
    const { auth } = await insertUser(ctx.db);
    const res = await post(auth, [
      { product: p.id, itemQuantity: 1 },
      { product: p.id, variant: p.variantId.toUpperCase(), itemQuantity: 2 },
      { product: p.id, variant: p.variants[2]!.id, itemQuantity: 1 },
    ]);
    expect(res.statusCode).toBe(201);
    const lines = res
      .json<Order>()
      .orderItems.map((i) => [i.variant, i.variantTitle, i.itemQuantity, i.itemPrice]);
    expect(lines).toEqual([
      [p.variants[2]!.id, 'Complete in box / PAL', 1, 125],
      [p.variantId, 'Loose / NTSC-U', 3, 40],
    ]);
    expect(await stocks(p)).toEqual([2, 2, 0, 0]);
  });

  it("answers a product without options with an empty title, and a spec client's order is unchanged", async () => {
    const p = await insertProduct(ctx.db, { priceCents: 1500, stock: 4 });
    const order = await placeOrder(ctx.app, (await insertUser(ctx.db)).auth, [
      { product: p.id, itemQuantity: 1 },
    ]);
    expect(order.orderItems[0]).toMatchObject({
      product: p.id,
      variant: p.variantId,
      variantTitle: '',
      itemPrice: 15,
    });
  });

  it("refuses another product's variant, an unknown one and a removed one with 400, and reserves nothing", async () => {
    const p = await insertTiered({ loose: 5 });
    const other = await insertProduct(ctx.db, { stock: 5 });
    const { auth } = await insertUser(ctx.db);
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: new Date(), position: 50 })
      .where(eq(productVariants.id, p.variants[3]!.id));

    const cases: [Line[], number, string][] = [
      [[{ product: p.id, variant: other.variantId, itemQuantity: 1 }], 400, `not one of ${p.name}'s`],
      [[{ product: p.id, variant: crypto.randomUUID(), itemQuantity: 1 }], 400, `That version of ${p.name}`],
      [[{ product: p.id, variant: p.variants[3]!.id, itemQuantity: 1 }], 400, 'is not sold any more'],
      [[{ product: p.id, variant: 'not-a-uuid', itemQuantity: 1 }], 400, 'Invalid id'],
      // An unknown product stays a 404, as the spec's clients know it, whatever the variant says.
      [[{ product: crypto.randomUUID(), variant: p.variantId, itemQuantity: 1 }], 404, 'Product not found'],
      // A good line beside a bad one: nothing is taken.
      [
        [
          { product: p.id, itemQuantity: 1 },
          { product: other.id, variant: p.variantId, itemQuantity: 1 },
        ],
        400,
        `not one of ${other.name}'s`,
      ],
    ];
    for (const [lines, status, message] of cases) {
      const res = await post(auth, lines);
      expect(res.statusCode, JSON.stringify(lines)).toBe(status);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    expect(await stocks(p)).toEqual([5, 2, 1, 0]);
    expect(await stockOfVariant(other.variantId)).toBe(5);
    const lines = await ctx.db
      .select()
      .from(orderItems)
      .where(inArray(orderItems.productId, [p.id, other.id]));
    expect(lines).toEqual([]);
  });

  it('says which tier is sold out or short', async () => {
    const p = await insertTiered({ palCib: 1, sealed: 0 });
    const { auth } = await insertUser(ctx.db);
    const sealed = await post(auth, [{ product: p.id, variant: p.variants[3]!.id, itemQuantity: 1 }]);
    expect(sealed.statusCode).toBe(409);
    expect(sealed.json()).toEqual({ message: `${p.name} (New / NTSC-U) is sold out`, code: 'OUT_OF_STOCK' });
    const pal = await post(auth, [{ product: p.id, variant: p.variants[2]!.id, itemQuantity: 2 }]);
    expect(pal.json()).toEqual({
      message: `Only 1 left of ${p.name} (Complete in box / PAL)`,
      code: 'OUT_OF_STOCK',
    });
  });

  it('sells the last unit of a variant to exactly one of 10 buyers at once', async () => {
    const p = await insertTiered({ loose: 10, cib: 10, palCib: 1 });
    const pal = p.variants[2]!;
    const buyers = await Promise.all(Array.from({ length: 10 }, () => insertUser(ctx.db)));
    const results = await Promise.all(
      buyers.map(({ auth }) => post(auth, [{ product: p.id, variant: pal.id, itemQuantity: 1 }])),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    // In the database: the variant at 0, exactly one line for it, the other tiers untouched.
    expect(await stocks(p)).toEqual([10, 10, 0, 0]);
    const [sold] = await queryRows<{ units: number; lines: number }>(
      ctx.db,
      sql`select coalesce(sum(quantity), 0)::int as units, count(*)::int as lines
          from ${orderItems} where variant_id = ${pal.id}`,
    );
    expect(sold).toEqual({ units: 1, lines: 1 });
  });
});

describe('stock given back to the variant bought (issue 31)', () => {
  it('on expiry, on cancelling an unpaid order, and on a refund with restock', async () => {
    const p = await insertTiered({ loose: 5, cib: 5 });
    const cib = p.variants[1]!;
    const buy = async () => {
      const customer = await insertUser(ctx.db);
      const order = await placeOrder(ctx.app, customer.auth, [
        { product: p.id, variant: cib.id, itemQuantity: 2 },
      ]);
      return { auth: customer.auth, order };
    };
    const expiring = await buy();
    const cancelled = await buy();
    expect(await stocks(p)).toEqual([5, 1, 1, 0]);

    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, expiring.order._id));
    await createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} } }).sweepOnce();
    expect(await stocks(p)).toEqual([5, 3, 1, 0]);

    const cancel = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${cancelled.order._id}/cancel`,
      headers: cancelled.auth,
    });
    expect(cancel.statusCode).toBe(200);
    expect(await stocks(p)).toEqual([5, 5, 1, 0]);

    const paid = await buy();
    const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
    const pay = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${paid.order._id}/payment`,
      headers: paid.auth,
      payload: { payment_method: 'Gift Card', gift_card_code: card.code },
    });
    expect(pay.json<Order>().isPaid).toBe(true);
    expect(await stocks(p)).toEqual([5, 3, 1, 0]);
    // The receipt names the tier bought, in its text and its HTML.
    const [receipt] = await ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, `Your Pixel Vault order #${paid.order.orderNumber}`));
    expect(receipt?.textBody).toContain(`  ${p.name} (Complete in box / NTSC-U): 2 x $140.00 = $280.00`);
    expect(receipt?.htmlBody).toContain('<small style="color:#555">Complete in box / NTSC-U</small>');
    const refund = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${paid.order._id}/refund`,
      headers: admin,
      payload: { reason: 'Returned', restock: true },
    });
    expect(refund.statusCode).toBe(200);
    expect(await stocks(p)).toEqual([5, 5, 1, 0]);
  });
});

describe('low stock per variant (issue 31)', () => {
  it('mails the owner about the tier that ran low, with its SKU, and lists each tier in the overview', async () => {
    const p = await insertTiered({ loose: 5, cib: 2, palCib: 3, sealed: 4 });
    await placeOrder(ctx.app, (await insertUser(ctx.db)).auth, [
      { product: p.id, variant: p.variants[1]!.id, itemQuantity: 1 },
      { product: p.id, variant: p.variants[2]!.id, itemQuantity: 3 },
    ]);
    const mails = await ctx.db
      .select({ subject: mailOutbox.subject, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `Low stock: ${p.name} %`));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      `Low stock: ${p.name} (Complete in box / NTSC-U) (1 left)`,
      `Low stock: ${p.name} (Complete in box / PAL) (0 left)`,
    ]);
    expect(mails.find((m) => m.subject.includes('PAL'))?.text).toContain(`SKU: ${p.variants[2]!.sku}`);

    const stats = (
      await ctx.app.inject({ method: 'GET', url: '/api/admin/stats?days=1', headers: admin })
    ).json<AdminStats>();
    const rows = stats.lowStock.filter((row) => row._id === p.id);
    expect(rows).toEqual([
      {
        _id: p.id,
        productName: p.name,
        stockQuantity: 0,
        variant: p.variants[2]!.id,
        variantTitle: 'Complete in box / PAL',
        sku: p.variants[2]!.sku,
      },
      {
        _id: p.id,
        productName: p.name,
        stockQuantity: 1,
        variant: p.variants[1]!.id,
        variantTitle: 'Complete in box / NTSC-U',
        sku: p.variants[1]!.sku,
      },
    ]);
    // Nothing else of the product moved.
    expect(
      await ctx.db
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(and(eq(productVariants.productId, p.id), eq(productVariants.position, 0))),
    ).toEqual([{ stock: 5 }]);
  });
});

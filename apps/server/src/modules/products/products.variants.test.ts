import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product, ProductVariantInput } from '@pixel-vault/shared';
import { auditLog, productVariants } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../../test/factories.js';

/**
 * Issue 31, increment 3 (decision 007): an admin gives a product options and variants, on add and on
 * update, as JSON or as JSON text in the multipart form. Variants with `_id` are changed in place, new
 * ones made, and a variant left out is archived: its orders keep its title, and its SKU is free again.
 */
let ctx: TestContext;
let admin: { authorization: string };
let png: Buffer;
beforeAll(async () => {
  ctx = await createTestContext({ env: { HOLD_MAX_ORDERS: '1000' }, app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const OPTIONS = [
  { name: 'Condition', values: ['Loose', 'Complete in box'] },
  { name: 'Region', values: ['NTSC-U', 'PAL'] },
];
let skuCounter = 0;
/** Four tiers: every condition in every region, with SKUs unique to this call. */
function fourTiers(): ProductVariantInput[] {
  skuCounter += 1;
  const n = skuCounter;
  return [
    { sku: `SM64-L-U-${n}`, options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 40, stockQuantity: 3 },
    { sku: `SM64-L-P-${n}`, options: { Condition: 'Loose', Region: 'PAL' }, price: 35, stockQuantity: 1 },
    {
      sku: `SM64-C-U-${n}`,
      options: { Condition: 'Complete in box', Region: 'NTSC-U' },
      price: 140,
      stockQuantity: 1,
    },
    {
      sku: `SM64-C-P-${n}`,
      options: { Condition: 'Complete in box', Region: 'PAL' },
      price: 125,
      stockQuantity: 0,
    },
  ];
}

async function addNew(fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('images', new Blob([png], { type: 'image/png' }), 'box.png');
  const response = new Response(form);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/products/add-new',
    headers: { ...admin, 'content-type': response.headers.get('content-type') ?? '' },
    payload: Buffer.from(await response.arrayBuffer()),
  });
}

const BASE = {
  productName: 'Super Mario 64',
  productCategory: 'retro-games',
  productDescription: 'Mario in three dimensions.',
};

const update = (id: string, payload: object, auth = admin) =>
  ctx.app.inject({ method: 'PUT', url: `/api/products/update/${id}`, headers: auth, payload });

const strip = (variants: Product['variants']) => variants.map(({ _id: _, ...rest }) => rest);

describe('adding a product with options and variants', () => {
  it('takes them as JSON text fields in the form, in order; the spec fields are the first variant', async () => {
    const tiers = fourTiers();
    const res = await addNew({ ...BASE, options: JSON.stringify(OPTIONS), variants: JSON.stringify(tiers) });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json<Product>();
    expect(product).toMatchObject({
      productPrice: 40,
      stockQuantity: 3,
      options: OPTIONS,
      priceRange: { min: 35, max: 140 },
    });
    // Issue 35: a variant sent without a trade-in credit is not bought.
    expect(strip(product.variants)).toEqual(tiers.map((tier) => ({ ...tier, tradeInCredit: null })));

    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, product._id), eq(auditLog.action, 'product.create')));
    expect(audit?.after).toMatchObject({ options: OPTIONS, variants: product.variants });
  });

  it('makes a SKU for a variant sent without one, and takes the spec price and stock when they agree', async () => {
    const [first, second] = fourTiers();
    const res = await addNew({
      ...BASE,
      productPrice: '40',
      stockQuantity: '3',
      options: JSON.stringify(OPTIONS),
      variants: JSON.stringify([{ ...first, sku: '' }, second]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [made] = res.json<Product>().variants;
    expect(made?.sku).toBe(`PV-${made!._id.replace(/-/g, '').toUpperCase()}`);
  });

  it('refuses what cannot be a product, saying why, and keeps nothing', async () => {
    const tiers = fourTiers();
    const cases: [Record<string, string>, string][] = [
      [{ options: JSON.stringify(OPTIONS) }, 'Send the variants with the options'],
      [{ options: '{not json', variants: JSON.stringify(tiers) }, 'Options must be JSON'],
      [
        { options: JSON.stringify([...OPTIONS, { name: 'A', values: ['1'] }, { name: 'B', values: ['2'] }]) },
        'at most 3 options',
      ],
      [
        { options: JSON.stringify(OPTIONS), variants: JSON.stringify([tiers[0], tiers[0]]) },
        'same combination',
      ],
      [
        {
          options: JSON.stringify(OPTIONS),
          variants: JSON.stringify([{ ...tiers[0], options: { Condition: 'Loose' } }]),
        },
        'Variant 1 needs a value for "Region"',
      ],
      [
        {
          options: JSON.stringify(OPTIONS),
          variants: JSON.stringify([{ ...tiers[0], options: { Condition: 'Mint', Region: 'PAL' } }]),
        },
        `"Mint" is not one of Condition's values`,
      ],
      [
        {
          options: JSON.stringify(OPTIONS),
          variants: JSON.stringify([tiers[0], { ...tiers[1], sku: tiers[0]!.sku }]),
        },
        'is there twice',
      ],
      [
        { options: JSON.stringify(OPTIONS), variants: JSON.stringify([{ ...tiers[0], sku: 'no spaces' }]) },
        'A SKU holds letters',
      ],
      [{ variants: JSON.stringify([tiers[0], tiers[1]]) }, 'A product without options has one variant'],
      [
        { productPrice: '41', options: JSON.stringify(OPTIONS), variants: JSON.stringify(tiers) },
        'first variant’s',
      ],
      [
        {
          options: JSON.stringify(OPTIONS),
          variants: JSON.stringify(Array.from({ length: 101 }, () => tiers[0])),
        },
        'at most 100 variants',
      ],
      [{}, 'Price is required'],
    ];
    for (const [fields, message] of cases) {
      const res = await addNew({ ...BASE, productName: 'Refused Game', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/products?q=Refused%20Game' })).json<
      Product[]
    >();
    expect(all).toEqual([]);
  });

  it("refuses a SKU another product's variant has, case aside, with 409 naming it", async () => {
    const taken = await insertProduct(ctx.db, {
      name: 'Owner Of The SKU',
      variants: [{ options: {}, sku: 'TAKEN-1' }],
    });
    const res = await addNew({
      ...BASE,
      options: JSON.stringify(OPTIONS),
      variants: JSON.stringify([{ ...fourTiers()[0], sku: 'taken-1' }]),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: `SKU TAKEN-1 is already used by ${taken.name}`,
      code: 'SKU_TAKEN',
    });
  });
});

describe('updating options and variants', () => {
  async function tiered() {
    const res = await addNew({
      ...BASE,
      options: JSON.stringify(OPTIONS),
      variants: JSON.stringify(fourTiers()),
    });
    return res.json<Product>();
  }

  it('changes variants named by _id in place, makes new ones, reorders, and archives the ones left out', async () => {
    const product = await tiered();
    const [lu, lp, cu, cp] = product.variants;
    // Someone bought the PAL loose copy: its row stays for that order.
    const customer = await insertUser(ctx.db);
    const order = await placeOrder(ctx.app, customer.auth, [
      { product: product._id, variant: lp!._id, itemQuantity: 1 },
    ]);

    const options = [
      { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ];
    const variants = [
      // Complete in box NTSC-U first now: the new default; the loose NTSC-U copy is repriced.
      { _id: cu!._id, sku: cu!.sku, options: cu!.options, price: 150, stockQuantity: 2 },
      { _id: lu!._id, sku: `${lu!.sku}-X`, options: lu!.options, price: 45, stockQuantity: 3 },
      {
        sku: `SEALED-${skuCounter}`,
        options: { Condition: 'New', Region: 'NTSC-U' },
        price: 300,
        stockQuantity: 1,
      },
      { _id: cp!._id, options: cp!.options, price: 125, stockQuantity: 0 },
    ];
    const res = await update(product._id, { options, variants });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json<Product>();
    expect(updated).toMatchObject({ productPrice: 150, stockQuantity: 2, options });
    expect(updated.variants.map((v) => [v._id, v.sku, v.price, v.stockQuantity])).toEqual([
      [cu!._id, cu!.sku, 150, 2],
      [lu!._id, `${lu!.sku}-X`, 45, 3],
      [expect.any(String), `SEALED-${skuCounter}`, 300, 1],
      [cp!._id, cp!.sku, 125, 0],
    ]);

    // The PAL loose copy is archived, not deleted: the order still shows what was bought.
    const [archived] = await ctx.db.select().from(productVariants).where(eq(productVariants.id, lp!._id));
    expect(archived?.archivedAt).not.toBeNull();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}`,
      headers: customer.auth,
    });
    expect(read.json<Order>().orderItems[0]).toMatchObject({ variant: lp!._id, variantTitle: 'Loose / PAL' });
    // It can no longer be bought, and its SKU can be given again.
    const buy = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: (await insertUser(ctx.db)).auth,
      payload: {
        orderItems: [{ product: product._id, variant: lp!._id, itemQuantity: 1 }],
        shippingAddress: { address: '1 St', city: 'C', postalCode: '1', country: 'US' },
      },
    });
    expect(buy.statusCode).toBe(400);
    const again = updated.variants.map((v) => ({
      _id: v._id,
      sku: v.sku,
      options: v.options,
      price: v.price,
      stockQuantity: v.stockQuantity,
    }));
    const reuse = await update(product._id, {
      variants: [...again, { sku: lp!.sku, options: lp!.options, price: 30, stockQuantity: 1 }],
    });
    expect(reuse.statusCode, reuse.body).toBe(200);
    expect(reuse.json<Product>().variants.map((v) => v.sku)).toContain(lp!.sku);
  });

  it('swaps two variants’ SKUs and combinations in one write', async () => {
    const product = await tiered();
    const [a, b, ...rest] = product.variants;
    const res = await update(product._id, {
      variants: [
        { _id: a!._id, sku: b!.sku, options: b!.options, price: a!.price, stockQuantity: a!.stockQuantity },
        { _id: b!._id, sku: a!.sku, options: a!.options, price: b!.price, stockQuantity: b!.stockQuantity },
        ...rest.map((v) => ({
          _id: v._id,
          sku: v.sku,
          options: v.options,
          price: v.price,
          stockQuantity: v.stockQuantity,
        })),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [x, y] = res.json<Product>().variants;
    expect([x?._id, x?.sku, x?.options]).toEqual([a!._id, b!.sku, b!.options]);
    expect([y?._id, y?.sku, y?.options]).toEqual([b!._id, a!.sku, a!.options]);
  });

  it('checks options sent alone against the variants the product keeps', async () => {
    const product = await tiered();
    const narrower = [{ name: 'Condition', values: ['Loose', 'Complete in box'] }];
    const res = await update(product._id, { options: narrower });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('send the variants with the options');
    // Adding a value the variants do not use yet is fine.
    const wider = [{ ...OPTIONS[0]!, values: [...OPTIONS[0]!.values, 'New'] }, OPTIONS[1]!];
    const ok = await update(product._id, { options: wider });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<Product>().options).toEqual(wider);
  });

  it('refuses a variant of another product, and a SKU another product has; changes nothing', async () => {
    const product = await tiered();
    const other = await insertProduct(ctx.db, { variants: [{ options: {}, sku: `OTHER-${skuCounter}` }] });
    const keep = product.variants.map((v) => ({
      _id: v._id,
      sku: v.sku,
      options: v.options,
      price: v.price,
      stockQuantity: v.stockQuantity,
    }));
    const foreign = await update(product._id, {
      variants: [...keep.slice(0, 3), { ...keep[3]!, _id: other.variantId }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ message: string }>().message).toContain("is not one of this product's");
    const taken = await update(product._id, {
      variants: [{ ...keep[0]!, sku: `other-${skuCounter}` }, ...keep.slice(1)],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SKU_TAKEN' });
    const after = (
      await ctx.app.inject({ method: 'GET', url: `/api/products/${product._id}` })
    ).json<Product>();
    expect(after.variants).toEqual(product.variants);
  });

  it('gives a new SKU to exactly one of two products written at once', async () => {
    const sku = `RACE-${skuCounter}`;
    const [a, b] = await Promise.all([tiered(), tiered()]);
    const asked = (p: Product) =>
      p.variants.map((v, i) => ({
        _id: v._id,
        sku: i === 0 ? sku : v.sku,
        options: v.options,
        price: v.price,
        stockQuantity: v.stockQuantity,
      }));
    const results = await Promise.all([a!, b!].map((p) => update(p._id, { variants: asked(p) })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const holders = await ctx.db.select().from(productVariants).where(eq(productVariants.sku, sku));
    expect(holders).toHaveLength(1);
  });

  it("keeps a spec client's stock-only and price updates on the default variant", async () => {
    const product = await tiered();
    const res = await update(product._id, { productPrice: 42.5, stockQuantity: 9 });
    expect(res.statusCode).toBe(200);
    const after = res.json<Product>();
    expect(after.variants[0]).toMatchObject({ price: 42.5, stockQuantity: 9 });
    expect(after.variants.slice(1)).toEqual(product.variants.slice(1));
    // A customer sending a stock-only update (the spec's checkout) still writes nothing.
    const customer = await insertUser(ctx.db);
    const mine = await update(product._id, { stockQuantity: 1 }, customer.auth);
    expect(mine.statusCode).toBe(200);
    expect(mine.json<Product>().stockQuantity).toBe(9);
    const denied = await update(product._id, { variants: [] }, customer.auth);
    expect(denied.statusCode).toBe(400);
    const forbidden = await update(product._id, { options: OPTIONS }, customer.auth);
    expect(forbidden.statusCode).toBe(403);
  });
});

import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@pixel-vault/shared';
import { productVariants } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';

/**
 * Issue 35: the buy list is a variant's trade-in credit ("we pay $18.00 store credit for Super Mario
 * 64, Loose, NTSC-U"), set with the product's variants: dollars, or null / '' for not bought; left out
 * on a variant the product has, the variant keeps what it had.
 */
let ctx: TestContext;
let admin: { authorization: string };
let png: Buffer;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#663399' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const CONDITION = [{ name: 'Condition', values: ['Loose', 'Boxed', 'Sealed'] }];
let counter = 0;

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

const update = (id: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: `/api/products/update/${id}`, headers: admin, payload });

const getProduct = async (id: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/products/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Product>();
};

const credits = (product: Product) => product.variants.map((v) => [v.options['Condition'], v.tradeInCredit]);

async function threeConditions() {
  counter += 1;
  const res = await addNew({
    productName: `Super Mario 64 #${counter}`,
    productCategory: 'retro-games',
    productDescription: 'Mario in three dimensions.',
    options: JSON.stringify(CONDITION),
    variants: JSON.stringify([
      { options: { Condition: 'Loose' }, price: 45, stockQuantity: 2, tradeInCredit: 18 },
      { options: { Condition: 'Boxed' }, price: 120, stockQuantity: 1, tradeInCredit: '48.50' },
      { options: { Condition: 'Sealed' }, price: 900, stockQuantity: 0 },
    ]),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Product>();
}

describe("a variant's trade-in credit (issue 35)", () => {
  it('round-trips on add, in dollars, and a variant sent without one is not bought', async () => {
    const product = await threeConditions();
    expect(credits(product)).toEqual([
      ['Loose', 18],
      ['Boxed', 48.5],
      ['Sealed', null],
    ]);
    // The cached answers and the lists say the same.
    expect(credits(await getProduct(product._id))).toEqual(credits(product));
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/products?q=${encodeURIComponent(product.productName)}`,
    });
    const listed = list.json<Product[]>().find((p) => p._id === product._id);
    expect(listed && credits(listed)).toEqual(credits(product));
    const rows = await ctx.db
      .select({ cents: productVariants.tradeInCreditCents })
      .from(productVariants)
      .where(eq(productVariants.productId, product._id))
      .orderBy(productVariants.position);
    expect(rows.map((r) => r.cents)).toEqual([1800, 4850, null]);
  });

  it('keeps the credit of a variant that leaves it out, clears it with null or empty, sets a new one', async () => {
    const product = await threeConditions();
    const [loose, boxed, sealed] = product.variants;
    const variant = (v: Product['variants'][number], extra: object = {}) => ({
      _id: v._id,
      options: v.options,
      price: v.price,
      stockQuantity: v.stockQuantity,
      ...extra,
    });
    const res = await update(product._id, {
      variants: [
        variant(loose!),
        variant(boxed!, { tradeInCredit: null }),
        variant(sealed!, { tradeInCredit: 300 }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(credits(res.json<Product>())).toEqual([
      ['Loose', 18],
      ['Boxed', null],
      ['Sealed', 300],
    ]);
    const cleared = await update(product._id, {
      variants: [variant(loose!, { tradeInCredit: '' }), variant(boxed!), variant(sealed!)],
    });
    expect(credits(cleared.json<Product>())).toEqual([
      ['Loose', null],
      ['Boxed', null],
      ['Sealed', 300],
    ]);
    expect(credits(await getProduct(product._id))).toEqual(credits(cleared.json<Product>()));
  });

  it('keeps every credit when only the options, or only the spec fields, are written', async () => {
    const product = await threeConditions();
    const options = [{ name: 'Condition', values: ['Loose', 'Boxed', 'Sealed', 'Graded'] }];
    const res = await update(product._id, { options, productName: 'Super Mario 64 (N64)' });
    expect(res.statusCode, res.body).toBe(200);
    expect(credits(res.json<Product>())).toEqual(credits(product));

    // A product sold in one form, written the spec's way: its one variant keeps its credit.
    const single = await insertProduct(ctx.db, { priceCents: 2500 });
    await ctx.db
      .update(productVariants)
      .set({ tradeInCreditCents: 1000 })
      .where(eq(productVariants.id, single.variantId));
    const spec = await update(single.id, { productPrice: 27.5, stockQuantity: 9 });
    expect(spec.statusCode, spec.body).toBe(200);
    expect(spec.json<Product>().variants).toEqual([
      expect.objectContaining({ price: 27.5, stockQuantity: 9, tradeInCredit: 10 }),
    ]);
  });

  it('answers a product made by the spec fields alone as not bought, and takes one through its variant', async () => {
    counter += 1;
    const res = await addNew({
      productName: `Tetris #${counter}`,
      productCategory: 'retro-games',
      productDescription: 'Blocks.',
      productPrice: '12',
      stockQuantity: '4',
    });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json<Product>();
    expect(product.variants[0]?.tradeInCredit).toBeNull();

    const [only] = product.variants;
    const set = await update(product._id, {
      productPrice: 12,
      stockQuantity: 4,
      variants: [{ _id: only!._id, options: {}, price: 12, stockQuantity: 4, tradeInCredit: '4.5' }],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Product>()).toMatchObject({ productPrice: 12, stockQuantity: 4 });
    expect(set.json<Product>().variants[0]?.tradeInCredit).toBe(4.5);
  });

  it('refuses a negative or non-numeric credit with a 400 saying why, and changes nothing', async () => {
    const product = await threeConditions();
    const [loose, boxed, sealed] = product.variants;
    const send = (tradeInCredit: unknown) =>
      update(product._id, {
        variants: [
          { _id: loose!._id, options: loose!.options, price: 45, stockQuantity: 2, tradeInCredit },
          { _id: boxed!._id, options: boxed!.options, price: 120, stockQuantity: 1 },
          { _id: sealed!._id, options: sealed!.options, price: 900, stockQuantity: 0 },
        ],
      });
    for (const [value, message] of [
      [-1, 'Trade-in credit must be 0 or more'],
      ['lots', 'Trade-in credit must be a number'],
      ['1.234', 'At most two decimals'],
    ] as const) {
      const res = await send(value);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    counter += 1;
    const added = await addNew({
      productName: `Zelda #${counter}`,
      productCategory: 'retro-games',
      productDescription: 'Link.',
      options: JSON.stringify(CONDITION),
      variants: JSON.stringify([
        { options: { Condition: 'Loose' }, price: 30, stockQuantity: 1, tradeInCredit: -5 },
      ]),
    });
    expect(added.statusCode, added.body).toBe(400);
    expect(added.json<{ message: string }>().message).toContain('Trade-in credit must be 0 or more');
    expect(credits(await getProduct(product._id))).toEqual(credits(product));
  });
});

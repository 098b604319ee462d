import { asc, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PRODUCTS_EXPORT_COLUMNS,
  PRODUCTS_IMPORT_PATH,
  PRODUCT_CSV_COLUMNS,
  type ProductsImportResult,
  TRADE_IN_CREDIT_CSV_COLUMN,
  VARIANT_CSV_COLUMNS,
} from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { productVariants, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser } from '../../test/factories.js';

/**
 * Issue 35: the buy list in the products CSV. The export writes each variant's trade-in credit in the
 * last column, `tradeInCredit` (dollars; empty: not bought), and the import reads it back: a file
 * without the column leaves every credit as it is (docs/admin-import.md).
 */

type Row = Record<(typeof PRODUCTS_EXPORT_COLUMNS)[number], string>;

const csvOf = (rows: Partial<Row>[], columns: readonly string[] = PRODUCTS_EXPORT_COLUMNS) =>
  stringify(
    rows.map((r) => columns.map((c) => (r as Record<string, string>)[c] ?? '')),
    { header: true, columns: [...columns], record_delimiter: 'windows' },
  );

let ctx: TestContext;
let admin: { authorization: string };

async function upload(file: string) {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'products.csv');
  const response = new Response(form);
  return ctx.app.inject({
    method: 'POST',
    url: PRODUCTS_IMPORT_PATH,
    headers: { ...admin, 'content-type': response.headers.get('content-type') ?? '' },
    payload: Buffer.from(await response.arrayBuffer()),
  });
}
const result = (res: { json(): unknown }) => res.json() as ProductsImportResult;

async function exported(): Promise<Row[]> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/export/products.csv', headers: admin });
  expect(res.statusCode).toBe(200);
  return parse(res.rawPayload.toString('utf8'), { columns: true }) as Row[];
}

/** Each live variant's credit in cents, by SKU. */
async function credits(): Promise<Record<string, number | null>> {
  const rows = await ctx.db
    .select({ sku: productVariants.sku, cents: productVariants.tradeInCreditCents })
    .from(productVariants)
    .where(sql`${productVariants.archivedAt} is null`)
    .orderBy(asc(productVariants.sku));
  return Object.fromEntries(rows.map((r) => [r.sku, r.cents]));
}

async function setCredit(sku: string, cents: number | null) {
  await ctx.db.update(productVariants).set({ tradeInCreditCents: cents }).where(eq(productVariants.sku, sku));
}

const CONDITION = [{ name: 'Condition', values: ['Loose', 'Boxed'] }];
const zelda = () =>
  insertProduct(ctx.db, {
    name: 'Zelda',
    options: CONDITION,
    variants: [
      { options: { Condition: 'Loose' }, sku: 'ZELDA-L', priceCents: 3000, stock: 2 },
      { options: { Condition: 'Boxed' }, sku: 'ZELDA-B', priceCents: 9000, stock: 1 },
    ],
  });

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());
beforeEach(() => clearProducts(ctx.db));

describe('tradeInCredit in the products CSV (issue 35)', () => {
  it('round-trips: an export imported back changes nothing, credits and empty cells included', async () => {
    await zelda();
    await insertProduct(ctx.db, {
      name: 'Catan',
      category: 'board-games',
      variants: [{ options: {}, sku: 'CATAN' }],
    });
    await setCredit('ZELDA-L', 1200);
    await setCredit('ZELDA-B', 3650);
    const back = await exported();
    expect(back.map((r) => [r.sku, r.tradeInCredit])).toEqual(
      expect.arrayContaining([
        ['ZELDA-L', '12.00'],
        ['ZELDA-B', '36.50'],
        ['CATAN', ''],
      ]),
    );
    const before = await credits();
    const res = await upload(csvOf(back));
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res)).toMatchObject({ created: 0, updated: 0, unchanged: 2, errors: [] });
    expect(await credits()).toEqual(before);
  });

  it("sets, changes and clears variants' credits in place, and names the column as changed", async () => {
    const game = await zelda();
    await setCredit('ZELDA-B', 3650);
    const back = await exported();
    const edited = back.map((r) =>
      r.sku === 'ZELDA-L' ? { ...r, tradeInCredit: '12.5' } : { ...r, tradeInCredit: '' },
    );
    const res = await upload(csvOf(edited));
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes).toEqual([
      expect.objectContaining({ action: 'update', _id: game.id, fields: ['tradeInCredit'] }),
    ]);
    expect(await credits()).toEqual({ 'ZELDA-B': null, 'ZELDA-L': 1250 });

    // With a new tier in the same file, the variants are written anew, each with its credit.
    const again = await exported();
    const withTier = [
      ...again,
      { ...again[0]!, variantId: '', sku: 'ZELDA-S', option1Value: 'Sealed', tradeInCredit: '150' },
    ];
    const grown = await upload(csvOf(withTier));
    expect(grown.statusCode, grown.body).toBe(200);
    expect(await credits()).toEqual({ 'ZELDA-B': null, 'ZELDA-L': 1250, 'ZELDA-S': 15000 });
  });

  it('leaves every credit as it is in a file without the column', async () => {
    await zelda();
    await setCredit('ZELDA-L', 1200);
    const back = await exported();
    const columns = [...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS];
    const res = await upload(
      csvOf(
        back.map((r) => ({ ...r, variantPrice: r.sku === 'ZELDA-B' ? '95.00' : r.variantPrice })),
        columns,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await credits()).toEqual({ 'ZELDA-B': null, 'ZELDA-L': 1200 });
    // A file of the product's columns alone, the same.
    const plain = await upload(csvOf([back[0]!], PRODUCT_CSV_COLUMNS));
    expect(plain.statusCode, plain.body).toBe(200);
    expect(await credits()).toEqual({ 'ZELDA-B': null, 'ZELDA-L': 1200 });
  });

  it("reads a product row's credit as its default variant's, and creates products with theirs", async () => {
    const single = await insertProduct(ctx.db, {
      name: 'Tetris',
      variants: [{ options: {}, sku: 'TETRIS' }],
    });
    const [row] = await exported();
    const columns = [...PRODUCT_CSV_COLUMNS, TRADE_IN_CREDIT_CSV_COLUMN];
    const res = await upload(
      csvOf(
        [
          { ...row!, tradeInCredit: '4.50' },
          {
            productName: 'Metroid',
            productCategory: 'retro-games',
            productDescription: 'Samus.',
            productPrice: '25',
            stockQuantity: '1',
            tradeInCredit: '10',
          },
        ],
        columns,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes).toEqual([
      expect.objectContaining({ action: 'update', _id: single.id, fields: ['tradeInCredit'] }),
      expect.objectContaining({ action: 'create', productName: 'Metroid' }),
    ]);
    const rows = await queryRows<{ name: string; cents: number | null }>(
      ctx.db,
      sql`select p.name, v.trade_in_credit_cents as cents from ${products} p
          join ${productVariants} v on v.product_id = p.id order by p.name`,
    );
    expect(rows).toEqual([
      { name: 'Metroid', cents: 1000 },
      { name: 'Tetris', cents: 450 },
    ]);

    // A new product's variants, in a file with the variant columns.
    const made = await upload(
      csvOf([
        {
          productName: 'Pokemon Red',
          productCategory: 'retro-games',
          productDescription: 'Gotta catch them.',
          option1Name: 'Condition',
          option1Value: 'Loose',
          variantPrice: '30',
          variantStock: '1',
          sku: 'PKMN-L',
          tradeInCredit: '12',
        },
        {
          productName: 'Pokemon Red',
          productCategory: 'retro-games',
          productDescription: 'Gotta catch them.',
          option1Name: 'Condition',
          option1Value: 'Boxed',
          variantPrice: '80',
          variantStock: '0',
          sku: 'PKMN-B',
        },
      ]),
    );
    expect(made.statusCode, made.body).toBe(200);
    expect(await credits()).toMatchObject({ 'PKMN-L': 1200, 'PKMN-B': null });
  });

  it('refuses a negative or non-numeric credit, naming the row, and changes nothing', async () => {
    await zelda();
    const back = await exported();
    const res = await upload(
      csvOf([
        { ...back[0]!, tradeInCredit: '-1' },
        { ...back[1]!, tradeInCredit: 'lots' },
      ]),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(result(res).errors).toEqual([
      { row: 1, message: 'Trade-in credit must be 0 or more' },
      { row: 2, message: 'Trade-in credit must be a number' },
    ]);
    expect(await credits()).toEqual({ 'ZELDA-B': null, 'ZELDA-L': null });
  });
});

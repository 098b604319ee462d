import { desc, eq, like, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Order,
  PRODUCTS_EXPORT_COLUMNS,
  PRODUCTS_IMPORT_PATH,
  PRODUCT_CSV_COLUMNS,
  type Product,
  type ProductsImportResult,
} from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { auditLog, productImages, productVariants, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

/**
 * Issue 31, increment 5: the products CSV carries one row per variant (the product's columns repeated,
 * then variantId, sku, option1Name ... option3Value, variantPrice, variantStock), and an export
 * imported back changes nothing (docs/admin-import.md).
 */

type Row = Record<(typeof PRODUCTS_EXPORT_COLUMNS)[number], string>;

const csvOf = (rows: Partial<Row>[], columns: readonly string[] = PRODUCTS_EXPORT_COLUMNS) =>
  stringify(
    rows.map((r) => columns.map((c) => (r as Record<string, string>)[c] ?? '')),
    { header: true, columns: [...columns], record_delimiter: 'windows' },
  );

/** A row of a new product (empty `_id`) with one option, Condition. */
const newRow = (overrides: Partial<Row> = {}): Partial<Row> => ({
  productName: 'Imported Game',
  productCategory: 'retro-games',
  productDescription: 'Came in from a CSV file.',
  option1Name: 'Condition',
  ...overrides,
});

const OPTIONS = [
  { name: 'Condition', values: ['Loose', 'Complete in box'] },
  { name: 'Region', values: ['NTSC-U', 'PAL'] },
];

let ctx: TestContext;
let admin: { authorization: string };

async function upload(file: string, { dryRun }: { dryRun?: boolean } = {}) {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'products.csv');
  const response = new Response(form);
  return ctx.app.inject({
    method: 'POST',
    url: `${PRODUCTS_IMPORT_PATH}${dryRun === undefined ? '' : `?dryRun=${dryRun}`}`,
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

const productAnswer = async (id: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();

/** Every product, variant and image row as PostgreSQL prints it (timestamps to the microsecond). */
async function snapshot(): Promise<string[]> {
  const rows = await queryRows<{ line: string }>(
    ctx.db,
    sql`select p::text as line from ${products} p
        union all select v::text from ${productVariants} v
        union all select i::text from ${productImages} i
        order by 1`,
  );
  return rows.map((r) => r.line);
}
const productAudits = () =>
  ctx.db
    .select({ action: auditLog.action, after: auditLog.after })
    .from(auditLog)
    .where(like(auditLog.action, 'product.%'))
    .orderBy(desc(auditLog.createdAt));

/** Super Mario 64 in four tiers: every condition in every region. */
const tiered = (sku = 'SM64') =>
  insertProduct(ctx.db, {
    name: 'Super Mario 64',
    options: OPTIONS,
    variants: [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, sku: `${sku}-L-U`, priceCents: 4000, stock: 3 },
      { options: { Condition: 'Loose', Region: 'PAL' }, sku: `${sku}-L-P`, priceCents: 3500, stock: 1 },
      {
        options: { Condition: 'Complete in box', Region: 'NTSC-U' },
        sku: `${sku}-C-U`,
        priceCents: 14000,
        stock: 1,
      },
      {
        options: { Condition: 'Complete in box', Region: 'PAL' },
        sku: `${sku}-C-P`,
        priceCents: 12500,
        stock: 0,
      },
    ],
  });

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());
beforeEach(() => clearProducts(ctx.db));

describe('products CSV with the variant columns (issue 31)', () => {
  it('changes nothing when an export of products with and without options comes back', async () => {
    await tiered();
    await insertProduct(ctx.db, {
      name: 'Catan',
      category: 'board-games',
      options: [{ name: 'Edition', values: ['Base', '=Seafarers', 'Unused value'] }],
      variants: [{ options: { Edition: '=Seafarers' } }, { options: { Edition: 'Base' }, sku: 'catan-base' }],
    });
    await insertProduct(ctx.db, { name: 'Tetris', priceCents: 999, stock: 0 });
    await insertProduct(ctx.db, { name: 'Removed', deletedAt: new Date('2026-01-01T00:00:00Z') });
    const before = await snapshot();
    const audits = (await productAudits()).length;
    const back = await exported();
    const file = csvOf(back);

    const preview = await upload(file, { dryRun: true });
    expect(result(preview)).toMatchObject({ created: 0, updated: 0, unchanged: 3, errors: [] });
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    const answer = result(res);
    expect(answer).toMatchObject({ created: 0, updated: 0, unchanged: 3, errors: [] });
    // One change per product, at its first row (the products are exported by id, any order).
    expect(answer.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    const firstRows = back.flatMap((r, i) => (back[i - 1]?._id === r._id ? [] : [i + 1]));
    expect(answer.changes.map((c) => c.row)).toEqual(firstRows);
    expect(await snapshot()).toEqual(before);
    // Nothing but the import's own record: no product or variant was written.
    const after = await productAudits();
    expect(after).toHaveLength(audits + 1);
    expect(after[0]).toMatchObject({
      action: 'product.import',
      after: { rows: 7, created: 0, updated: 0, unchanged: 3 },
    });
  });

  it('adds a tier, reprices one, reorders, and archives the one left out; its order keeps its title', async () => {
    const game = await tiered();
    const [lu, lp, cu, cp] = game.variants;
    const customer = await insertUser(ctx.db);
    const order = await placeOrder(ctx.app, customer.auth, [
      { product: game.id, variant: lp!.id, itemQuantity: 1 },
    ]);
    const rows = await exported();
    const rowOf = (id: string) => rows.find((r) => r.variantId === id)!;
    const file = csvOf([
      // Complete in box NTSC-U first now: the new default.
      rowOf(cu!.id),
      { ...rowOf(lu!.id), variantPrice: '45' },
      rowOf(cp!.id),
      // A sealed copy: a new value of Condition, a new variant (the PAL loose copy is left out).
      {
        ...rowOf(cu!.id),
        variantId: '',
        sku: 'SM64-N-U',
        option1Value: 'New',
        variantPrice: '300.00',
        variantStock: '1',
      },
    ]);

    // Previewed first: the same answer, and nothing written.
    const before = await snapshot();
    const preview = await upload(file, { dryRun: true });
    expect(result(preview)).toMatchObject({ dryRun: true, created: 0, updated: 1, unchanged: 0 });
    expect(await snapshot()).toEqual(before);

    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(result(res).changes).toEqual(result(preview).changes);
    expect(result(res).changes).toEqual([
      {
        row: 1,
        action: 'update',
        _id: game.id,
        productName: 'Super Mario 64',
        fields: ['productPrice', 'stockQuantity', 'options', 'variants', 'variantPrice'],
      },
    ]);
    const answer = await productAnswer(game.id);
    expect(answer).toMatchObject({
      productPrice: 140,
      stockQuantity: 1,
      options: [
        { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
        { name: 'Region', values: ['NTSC-U', 'PAL'] },
      ],
    });
    expect(answer.variants.map((v) => [v._id, v.sku, v.options, v.price, v.stockQuantity])).toEqual([
      [cu!.id, 'SM64-C-U', { Condition: 'Complete in box', Region: 'NTSC-U' }, 140, 1],
      [lu!.id, 'SM64-L-U', { Condition: 'Loose', Region: 'NTSC-U' }, 45, 3],
      [cp!.id, 'SM64-C-P', { Condition: 'Complete in box', Region: 'PAL' }, 125, 0],
      [expect.any(String), 'SM64-N-U', { Condition: 'New', Region: 'NTSC-U' }, 300, 1],
    ]);
    // Left out: archived, not deleted; the order still shows what was bought.
    const [archived] = await ctx.db.select().from(productVariants).where(eq(productVariants.id, lp!.id));
    expect(archived?.archivedAt).not.toBeNull();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}`,
      headers: customer.auth,
    });
    expect(read.json<Order>().orderItems[0]).toMatchObject({ variant: lp!.id, variantTitle: 'Loose / PAL' });

    // The catalogue as the file made it round-trips in its turn.
    const again = await upload(csvOf(await exported()));
    expect(result(again)).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it("makes one product of a new product's consecutive rows, its SKUs given or made", async () => {
    const file = csvOf([
      newRow({ sku: 'TETRIS-L', option1Value: 'Loose', variantPrice: '20', variantStock: '2' }),
      newRow({ option1Value: 'Complete in box', variantPrice: '45.5', variantStock: '1' }),
      newRow({ option1Value: 'New', variantPrice: '120', variantStock: '0' }),
      // Typed as before variants: the product's columns alone, sold in one form.
      {
        productName: 'Imported Puzzle',
        productCategory: 'puzzles',
        productDescription: 'Plain.',
        productPrice: '9.99',
        stockQuantity: '4',
      },
    ]);
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    const answer = result(res);
    expect(answer).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    expect(answer.changes.map((c) => [c.row, c.action, c.productName])).toEqual([
      [1, 'create', 'Imported Game'],
      [4, 'create', 'Imported Puzzle'],
    ]);
    const game = await productAnswer(answer.changes[0]!._id!);
    expect(game).toMatchObject({
      productPrice: 20,
      stockQuantity: 2,
      options: [{ name: 'Condition', values: ['Loose', 'Complete in box', 'New'] }],
      priceRange: { min: 20, max: 120 },
    });
    expect(game.variants.map((v) => [v.sku, v.options, v.price, v.stockQuantity])).toEqual([
      ['TETRIS-L', { Condition: 'Loose' }, 20, 2],
      [
        `PV-${game.variants[1]!._id.replace(/-/g, '').toUpperCase()}`,
        { Condition: 'Complete in box' },
        45.5,
        1,
      ],
      [expect.stringMatching(/^PV-/), { Condition: 'New' }, 120, 0],
    ]);
    const plain = await productAnswer(answer.changes[1]!._id!);
    expect(plain).toMatchObject({
      productPrice: 9.99,
      stockQuantity: 4,
      options: [],
      productCategory: 'puzzles',
    });
    expect(plain.variants).toHaveLength(1);
  });

  it('takes an export edited the old way, in productPrice and stockQuantity, and refuses two prices', async () => {
    const plain = await insertProduct(ctx.db, { name: 'Pong', priceCents: 500, stock: 2 });
    const [row] = await exported();
    const res = await upload(csvOf([{ ...row!, productPrice: '7.77', stockQuantity: '10' }]));
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes[0]).toMatchObject({
      action: 'update',
      fields: ['productPrice', 'stockQuantity'],
    });
    expect(await productAnswer(plain.id)).toMatchObject({ productPrice: 7.77, stockQuantity: 10 });

    const [edited] = await exported();
    const both = await upload(csvOf([{ ...edited!, productPrice: '8', variantPrice: '9' }]));
    expect(both.statusCode).toBe(422);
    expect(result(both).errors).toEqual([
      {
        row: 1,
        message:
          "productPrice 8 and variantPrice 9 differ: productPrice is the first variant's, so change one of them (or leave productPrice empty)",
      },
    ]);
  });

  it('names the row of each error and changes nothing', async () => {
    const first = await tiered('A');
    const other = await tiered('B');
    const rows = await exported();
    const [firstRow] = rows.filter((r) => r._id === first.id);
    const [otherRow, otherSecond] = rows.filter((r) => r._id === other.id);
    const before = await snapshot();
    const file = csvOf([
      firstRow!,
      { ...firstRow!, variantId: other.variantId, sku: '', option1Value: 'Complete in box' },
      newRow({ productName: 'Twice the same', option1Value: 'Loose', variantPrice: '1', variantStock: '1' }),
      newRow({ productName: 'Twice the same', option1Value: 'Loose', variantPrice: '2', variantStock: '1' }),
      {
        productName: 'Taken SKU',
        productCategory: 'puzzles',
        productDescription: 'D',
        productPrice: '1',
        stockQuantity: '1',
        sku: 'b-c-p',
      },
      newRow({ productName: 'Renamed option', option1Value: 'Loose', variantPrice: '1', variantStock: '1' }),
      newRow({
        productName: 'Renamed option',
        option1Name: 'State',
        option1Value: 'Boxed',
        variantPrice: '1',
        variantStock: '1',
      }),
      otherRow!,
      { ...otherSecond!, productDescription: 'Another description' },
      newRow({
        productName: 'Same SKU',
        sku: 'SAME-1',
        option1Value: 'Loose',
        variantPrice: '1',
        variantStock: '1',
      }),
      newRow({
        productName: 'Same SKU',
        sku: 'same-1',
        option1Value: 'New',
        variantPrice: '1',
        variantStock: '1',
      }),
      newRow({ productName: 'Case', option1Value: 'Loose', variantPrice: '1', variantStock: '1' }),
      newRow({ productName: 'Case', option1Value: 'loose', variantPrice: '1', variantStock: '1' }),
    ]);
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(422);
    expect(result(res).errors).toEqual([
      {
        row: 2,
        message: `Variant ${other.variantId} is not one of this product's (was it removed?): leave variantId empty to add it`,
      },
      { row: 4, message: 'Loose is already in row 3: each combination once' },
      { row: 5, message: 'SKU b-c-p is already used by Super Mario 64' },
      {
        row: 7,
        message:
          "The option names (State) are not those of row 6 (Condition): a product's options are named the same on each of its rows",
      },
      {
        row: 9,
        message:
          "productDescription differs from row 8's: a product's columns are the same on each of its rows",
      },
      { row: 11, message: 'SKU same-1 is already in row 10' },
      { row: 13, message: 'Condition has the value "Loose": write "loose" the same way' },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a header with some of the variant columns, naming the missing ones', async () => {
    const res = await upload(csvOf([newRow()], [...PRODUCT_CSV_COLUMNS, 'variantId', 'sku', 'variantPrice']));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'The variant columns come all together or not at all: missing option1Name, option1Value, option2Name, ' +
        'option2Value, option3Name, option3Value, variantStock (the file has variantId, sku, variantPrice; ' +
        'the products export writes variantId,sku,option1Name,option1Value,option2Name,option2Value,' +
        'option3Name,option3Value,variantPrice,variantStock)',
    );
  });

  it("still reads the product's columns alone: a product with variants gets its default repriced", async () => {
    const game = await tiered();
    const [row] = (await exported()).filter((r) => r._id === game.id);
    const res = await upload(csvOf([{ ...row!, productPrice: '41.50' }], PRODUCT_CSV_COLUMNS));
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes[0]?.fields).toEqual(['productPrice']);
    const answer = await productAnswer(game.id);
    expect(answer.variants.map((v) => v.price)).toEqual([41.5, 35, 140, 125]);
  });

  it("takes the platform from a product's rows, the same on each, with or without the column (issue 33)", async () => {
    const game = await tiered();
    await ctx.db.update(products).set({ platform: 'Nintendo 64' }).where(eq(products.id, game.id));
    const rows = (await exported()).filter((r) => r._id === game.id);
    expect(rows.map((r) => r.platform)).toEqual(Array(4).fill('Nintendo 64'));

    // One row disagreeing with the first is that row's error.
    const differs = await upload(
      csvOf(rows.map((r, i) => (i === 2 ? { ...r, platform: 'PlayStation' } : r))),
    );
    expect(differs.statusCode).toBe(422);
    expect(result(differs).errors).toEqual([
      {
        row: 3,
        message: "platform differs from row 1's: a product's columns are the same on each of its rows",
      },
    ]);

    // Without the column the platform stays; an empty cell on every row clears it.
    const columns = PRODUCTS_EXPORT_COLUMNS.filter((c) => c !== 'platform');
    const kept = await upload(csvOf(rows, columns));
    expect(result(kept)).toMatchObject({ updated: 0, unchanged: 1 });
    const cleared = await upload(csvOf(rows.map((r) => ({ ...r, platform: '' }))));
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(result(cleared).changes[0]).toMatchObject({ action: 'update', fields: ['platform'] });
    expect((await productAnswer(game.id)).platform).toBeNull();
    // A new product's rows give it theirs.
    const created = await upload(
      csvOf([
        newRow({ platform: 'Game Boy', option1Value: 'Loose', variantPrice: '10', variantStock: '1' }),
        newRow({ platform: 'Game Boy', option1Value: 'New', variantPrice: '30', variantStock: '0' }),
      ]),
    );
    expect(created.statusCode, created.body).toBe(200);
    expect((await productAnswer(result(created).changes[0]!._id!)).platform).toBe('Game Boy');
  });

  it("swaps two variants' SKUs within a product", async () => {
    const game = await tiered();
    const rows = (await exported()).filter((r) => r._id === game.id);
    const file = csvOf(
      rows.map((r, i) => (i === 0 ? { ...r, sku: rows[1]!.sku } : i === 1 ? { ...r, sku: rows[0]!.sku } : r)),
    );
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes[0]?.fields).toEqual(['sku']);
    expect((await productAnswer(game.id)).variants.map((v) => v.sku)).toEqual([
      'SM64-L-P',
      'SM64-L-U',
      'SM64-C-U',
      'SM64-C-P',
    ]);
  });

  it(
    'imports 1,000 products of 5 variants, the export back unchanged, then half the variants repriced',
    { timeout: 120_000 },
    async () => {
      const conditions = ['Loose', 'Complete in box', 'New', 'Graded', 'Box only'];
      const rows = Array.from({ length: 5000 }, (_, i) =>
        newRow({
          productName: `Bulk ${Math.floor(i / 5)}`,
          productCategory: ['retro-games', 'board-games', 'puzzles', 'consoles'][Math.floor(i / 5) % 4]!,
          option1Value: conditions[i % 5]!,
          variantPrice: `${(i % 300) + 0.99}`,
          variantStock: String(i % 7),
        }),
      );
      const created = await upload(csvOf(rows));
      expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
      expect(result(created)).toMatchObject({ created: 1000, updated: 0, unchanged: 0 });
      const [count] = await queryRows<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from ${productVariants}`,
      );
      expect(count?.n).toBe(5000);

      const back = await exported();
      expect(back).toHaveLength(5000);
      const same = await upload(csvOf(back));
      expect(result(same)).toMatchObject({ created: 0, updated: 0, unchanged: 1000 });

      const repriced = back.map((r, i) =>
        i % 2 === 0 ? { ...r, variantPrice: (Number(r.variantPrice) + 1).toFixed(2) } : r,
      );
      const updated = await upload(csvOf(repriced));
      expect(updated.statusCode).toBe(200);
      expect(result(updated)).toMatchObject({ created: 0, updated: 1000, unchanged: 0 });
      const [sum] = await queryRows<{ total: number }>(
        ctx.db,
        sql`select sum(price_cents)::int as total from ${productVariants}`,
      );
      const exportedCents = back.reduce((total, r) => total + Math.round(Number(r.variantPrice) * 100), 0);
      expect(sum?.total).toBe(exportedCents + 2500 * 100);
    },
  );
});

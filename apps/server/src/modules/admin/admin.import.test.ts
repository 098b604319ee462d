import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ERRORS_LISTED,
  MAX_IMPORT_ROWS,
  PRODUCTS_IMPORT_PATH,
  PRODUCT_CSV_COLUMNS,
  type ProductsImportResult,
} from '@pixel-vault/shared';
import { queryRows } from '../../db/client.js';
import { auditLog, productImages, productVariants, products } from '../../db/schema/index.js';
import { renderBoxArt } from '../../db/seed/box-art.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  clearProducts,
  insertProduct,
  insertUser,
  setStock,
  stockOf,
  priceOf,
  productRows,
} from '../../test/factories.js';
import { PLACEHOLDER_ART_NAME, parseProductsCsv, unneutralise } from './admin.import.js';
import { lockVariantsFirst } from '../products/products.writes.js';
import { neutralise } from './admin.service.js';

type Row = Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>;

const HEADER = PRODUCT_CSV_COLUMNS.join(',');
/** The columns of a file exported before issue 33: without `platform`. */
const WITHOUT_PLATFORM = PRODUCT_CSV_COLUMNS.filter((c) => c !== 'platform');

/** A CSV of the export's columns, written as a spreadsheet would (RFC 4180, CRLF). */
const csvOf = (rows: Partial<Row>[], columns: readonly string[] = PRODUCT_CSV_COLUMNS) =>
  stringify(
    rows.map((r) => columns.map((c) => (r as Record<string, string>)[c] ?? '')),
    { header: true, columns: [...columns], record_delimiter: 'windows' },
  );

const newRow = (overrides: Partial<Row> = {}): Partial<Row> => ({
  _id: '',
  productName: 'Imported Game',
  productCategory: 'retro-games',
  productDescription: 'Came in from a CSV file.',
  productPrice: '12.50',
  stockQuantity: '4',
  productImage: '',
  ...overrides,
});

describe('POST /api/admin/import/products (issue 15)', () => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let adminId: string;
  let customer: { authorization: string };

  /** The file as the multipart field `file` (as the dashboard's form sends it). */
  async function upload(
    file: string | Uint8Array,
    {
      dryRun,
      headers = admin,
      field = 'file',
    }: { dryRun?: boolean; headers?: Record<string, string>; field?: string } = {},
  ) {
    const form = new FormData();
    form.append(field, new Blob([file], { type: 'text/csv' }), 'products.csv');
    const response = new Response(form);
    return ctx.app.inject({
      method: 'POST',
      url: `${PRODUCTS_IMPORT_PATH}${dryRun === undefined ? '' : `?dryRun=${dryRun}`}`,
      headers: { ...headers, 'content-type': response.headers.get('content-type') ?? '' },
      payload: Buffer.from(await response.arrayBuffer()),
    });
  }
  const result = (res: { json(): unknown }) => res.json() as ProductsImportResult;

  async function exportCsv(): Promise<string> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/export/products.csv',
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    return res.rawPayload.toString('utf8');
  }
  const rowsOf = (text: string) => parse(text, { columns: true }) as Row[];

  /** Every product and image row as PostgreSQL prints it (timestamps to the microsecond). */
  async function snapshot(): Promise<string[]> {
    const rows = await queryRows<{ line: string }>(
      ctx.db,
      sql`select p::text as line from ${products} p
          union all select i::text from ${productImages} i
          order by 1`,
    );
    return rows.map((r) => r.line);
  }
  const storedFiles = () => {
    const dir = path.join(ctx.config.uploadsDir, 'products');
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const importAudits = () =>
    ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'product.import'))
      .orderBy(desc(auditLog.createdAt));

  beforeAll(async () => {
    ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
    const a = await insertUser(ctx.db, { isAdmin: true });
    admin = a.auth;
    adminId = a.user.id;
    customer = (await insertUser(ctx.db)).auth;
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await clearProducts(ctx.db);
  });

  it('changes nothing when an unchanged export comes back, tricky cells included', async () => {
    await insertProduct(ctx.db, {
      name: '=HYPERLINK("http://evil.example","Click")',
      description: 'Line one, with a comma\r\nLine "two" — Pokémon ✓',
      priceCents: 1999,
      stock: 7,
      images: ['/uploads/a.webp', '/uploads/b.webp'],
      platform: 'Nintendo 64',
    });
    await insertProduct(ctx.db, { name: "'= really starts with a quote", description: "'-5 lives, quoted" });
    await insertProduct(ctx.db, { name: "''Tis the season", description: '\tTabbed and   spaced  ' });
    await insertProduct(ctx.db, { name: '-Minus', description: '@mention +1', images: [] });
    await insertProduct(ctx.db, { name: 'Removed', deletedAt: new Date('2026-01-01T00:00:00Z') });
    const before = await snapshot();
    const auditsBefore = (await importAudits()).length;

    const res = await upload(await exportCsv());
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res)).toMatchObject({ dryRun: false, created: 0, updated: 0, unchanged: 4, errors: [] });
    expect(result(res).changes.map((c) => c.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(await snapshot()).toEqual(before);
    // The import itself is still on record, with its counts.
    const audits = await importAudits();
    expect(audits).toHaveLength(auditsBefore + 1);
    expect(audits[0]).toMatchObject({
      actorUserId: adminId,
      targetType: 'product',
      targetId: null,
      after: { rows: 4, created: 0, updated: 0, unchanged: 4 },
    });
  });

  it('undoes exactly the quote the export adds before a formula cell', () => {
    const samples = [
      '=1+1',
      "'=1",
      "''=1",
      "'-5",
      '-5',
      '+44',
      '@a',
      '\t=1',
      '\r=1',
      "'Tis",
      "''",
      "'",
      'plain',
      '',
    ];
    for (const cell of samples) expect(unneutralise(neutralise(cell)), JSON.stringify(cell)).toBe(cell);
    // A quote somebody typed before ordinary text stays.
    expect(unneutralise("'Tis")).toBe("'Tis");
    expect(unneutralise("'=SUM(A1)")).toBe('=SUM(A1)');
  });

  it('creates, updates and counts the unchanged rows, then the file is applied', async () => {
    const kept = await insertProduct(ctx.db, { name: 'Kept', priceCents: 1000, stock: 3 });
    const edited = await insertProduct(ctx.db, { name: 'Edited', priceCents: 1000, stock: 3 });
    const [editedBefore] = await productRows(ctx.db, eq(products.id, edited.id));
    const exported = rowsOf(await exportCsv());
    const keptRow = exported.find((r) => r._id === kept.id)!;
    const editedRow = {
      ...exported.find((r) => r._id === edited.id)!,
      productPrice: '11',
      stockQuantity: '9',
    };
    const file = csvOf([
      keptRow,
      editedRow,
      newRow({ productName: 'Brand New', productImage: kept.images.join(' '), productPrice: '7.5' }),
    ]);

    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    const answer = result(res);
    expect(answer).toMatchObject({ created: 1, updated: 1, unchanged: 1, errors: [] });
    expect(answer.changes).toEqual([
      { row: 1, action: 'unchanged', _id: kept.id, productName: 'Kept', fields: [] },
      {
        row: 2,
        action: 'update',
        _id: edited.id,
        productName: 'Edited',
        fields: ['productPrice', 'stockQuantity'],
      },
      { row: 3, action: 'create', _id: expect.any(String), productName: 'Brand New', fields: [] },
    ]);

    const [editedAfter] = await productRows(ctx.db, eq(products.id, edited.id));
    expect(editedAfter).toMatchObject({ priceCents: 1100, stock: 9, name: 'Edited' });
    expect(editedAfter!.updatedAt.getTime()).toBeGreaterThan(editedBefore!.updatedAt.getTime());
    const created = await ctx.app.inject({ method: 'GET', url: `/api/products/${answer.changes[2]!._id}` });
    expect(created.json()).toMatchObject({
      productName: 'Brand New',
      productPrice: 7.5,
      stockQuantity: 4,
      productCategory: 'retro-games',
      productImage: kept.images,
      productRating: 0,
      reviewCount: 0,
    });
  });

  it('shows the catalogue the file made at once (the cache is dropped)', async () => {
    await insertProduct(ctx.db, { name: 'Already here' });
    const names = async () =>
      (
        (await ctx.app.inject({ method: 'GET', url: '/api/products' })).json() as { productName: string }[]
      ).map((p) => p.productName);
    expect(await names()).toEqual(['Already here']);
    expect((await upload(csvOf([newRow({ productName: 'Just imported' })]))).statusCode).toBe(200);
    expect(await names()).toEqual(['Already here', 'Just imported']);
  });

  it('previews a dry run with the same answer and writes nothing at all', async () => {
    const product = await insertProduct(ctx.db, { name: 'Previewed', priceCents: 500 });
    const [row] = rowsOf(await exportCsv());
    const file = csvOf([{ ...row!, productName: 'Renamed' }, newRow()]);
    const before = await snapshot();
    const auditsBefore = (await importAudits()).length;
    const filesBefore = storedFiles();

    const res = await upload(file, { dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res)).toEqual({
      dryRun: true,
      created: 1,
      updated: 1,
      unchanged: 0,
      errors: [],
      changes: [
        { row: 1, action: 'update', _id: product.id, productName: 'Renamed', fields: ['productName'] },
        { row: 2, action: 'create', _id: null, productName: 'Imported Game', fields: [] },
      ],
    });
    expect(await snapshot()).toEqual(before);
    expect(await importAudits()).toHaveLength(auditsBefore);
    // The placeholder art is not stored either.
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('refuses a file with one bad row with a 422 naming that row, and changes nothing', async () => {
    const product = await insertProduct(ctx.db, { name: 'Untouched', priceCents: 500 });
    const [row] = rowsOf(await exportCsv());
    const before = await snapshot();
    const file = csvOf([
      { ...row!, productPrice: '6.00' },
      newRow({ productName: 'Fine' }),
      newRow({ productName: 'Bad price', productPrice: '1.999' }),
      newRow({ productName: 'Fine too' }),
    ]);
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(422);
    expect(result(res)).toEqual({
      message: '1 row has an error: nothing was imported',
      dryRun: false,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [{ row: 3, message: 'At most two decimals' }],
      changes: [],
    });
    expect(await snapshot()).toEqual(before);
    expect(await priceOf(ctx.db, product.id)).toBe(500);
  });

  describe('the platform column (issue 33)', () => {
    const platforms = async () =>
      Object.fromEntries((await productRows(ctx.db)).map((r) => [r.name, r.platform]));

    it('round-trips the platform, and sets, changes and clears it from its column', async () => {
      const racer = await insertProduct(ctx.db, { name: 'Racer', platform: 'Nintendo 64' });
      const fighter = await insertProduct(ctx.db, { name: 'Fighter', platform: 'Super Nintendo' });
      const board = await insertProduct(ctx.db, { name: 'Board', category: 'board-games' });
      const exported = rowsOf(await exportCsv());
      const rowOf = (id: string) => exported.find((r) => r._id === id)!;
      expect(rowOf(racer.id).platform).toBe('Nintendo 64');
      expect(rowOf(board.id).platform).toBe('');

      const res = await upload(
        csvOf([
          { ...rowOf(racer.id), platform: ' Sega Mega Drive ' },
          { ...rowOf(fighter.id), platform: '' },
          rowOf(board.id),
          newRow({ productName: 'Handheld', platform: '  Game Boy  ' }),
          newRow({ productName: 'No platform', platform: '' }),
        ]),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(result(res).changes.map((c) => [c.action, c.fields])).toEqual([
        ['update', ['platform']],
        ['update', ['platform']],
        ['unchanged', []],
        ['create', []],
        ['create', []],
      ]);
      expect(await platforms()).toEqual({
        Racer: 'Sega Mega Drive',
        Fighter: null,
        Board: null,
        Handheld: 'Game Boy',
        'No platform': null,
      });
      const created = result(res).changes[3]!._id!;
      expect((await ctx.app.inject({ method: 'GET', url: `/api/products/${created}` })).json()).toMatchObject(
        {
          productName: 'Handheld',
          platform: 'Game Boy',
        },
      );

      // Exported again, the file comes back unchanged.
      const before = await snapshot();
      expect(result(await upload(await exportCsv()))).toMatchObject({ updated: 0, unchanged: 5 });
      expect(await snapshot()).toEqual(before);
    });

    it('reads a file without the column exactly as before, leaving every platform as it is', async () => {
      const racer = await insertProduct(ctx.db, { name: 'Racer', platform: 'Nintendo 64', priceCents: 1000 });
      const plain = await insertProduct(ctx.db, { name: 'Plain' });
      const exported = rowsOf(await exportCsv());
      const rowOf = (id: string) => exported.find((r) => r._id === id)!;
      const before = await snapshot();
      const same = await upload(csvOf(exported, WITHOUT_PLATFORM));
      expect(same.statusCode, same.body).toBe(200);
      expect(result(same)).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
      expect(await snapshot()).toEqual(before);

      const res = await upload(
        csvOf(
          [
            { ...rowOf(racer.id), productName: 'Racer Turbo', productPrice: '12.00' },
            rowOf(plain.id),
            newRow({ productName: 'Old-style new' }),
          ],
          WITHOUT_PLATFORM,
        ),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(result(res).changes.map((c) => [c.action, c.fields])).toEqual([
        ['update', ['productName', 'productPrice']],
        ['unchanged', []],
        ['create', []],
      ]);
      expect(await platforms()).toEqual({ 'Racer Turbo': 'Nintendo 64', Plain: null, 'Old-style new': null });
    });

    it('refuses a platform over 60 characters, naming it, and changes nothing', async () => {
      await insertProduct(ctx.db, { name: 'Racer', platform: 'Nintendo 64' });
      const [row] = rowsOf(await exportCsv());
      const before = await snapshot();
      const long = 'P'.repeat(61);
      const res = await upload(
        csvOf([
          { ...row!, platform: long },
          newRow({ platform: long }),
          newRow({ productName: 'Just fits', platform: 'P'.repeat(60) }),
        ]),
      );
      expect(res.statusCode, res.body).toBe(422);
      expect(result(res).errors).toEqual([
        { row: 1, message: 'Platform is at most 60 characters' },
        { row: 2, message: 'Platform is at most 60 characters' },
      ]);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('names every kind of bad row, a malformed or unknown _id never being a 500', async () => {
    const product = await insertProduct(ctx.db, { name: 'Known' });
    const gone = await insertProduct(ctx.db, { name: 'Gone', deletedAt: new Date() });
    const [row] = rowsOf(await exportCsv());
    const file = [
      HEADER,
      stringify([PRODUCT_CSV_COLUMNS.map((c) => row![c])]).trim(),
      `not-a-uuid,Name,retro-games,Desc,1.00,1,,`,
      `${product.id.toUpperCase()},Twice,retro-games,Desc,1.00,1,,`,
      `${gone.id},Removed,retro-games,Desc,1.00,1,,`,
      `${randomUUID()},Unknown,retro-games,Desc,1.00,1,,`,
      `,,gadgets,,-1,1.5,,`,
      `,Too few fields`,
      `,Free,puzzles,Desc,0,0,,`,
    ].join('\r\n');
    const res = await upload(file, { dryRun: true });
    expect(res.statusCode, res.body).toBe(422);
    const { errors, message, dryRun } = result(res);
    expect(dryRun).toBe(true);
    expect(message).toBe('6 rows have errors: nothing was imported');
    expect(errors.map((e) => e.row)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(errors).toHaveLength(6);
    const byRow = new Map(errors.map((e) => [e.row, e.message]));
    expect(byRow.get(2)).toMatch(/^_id "not-a-uuid" is not a product id/);
    expect(byRow.get(3)).toBe(`Product ${product.id} is already in row 1`);
    expect(byRow.get(4)).toMatch(new RegExp(`^No product has the _id ${gone.id}`));
    expect(byRow.get(5)).toMatch(/^No product has the _id /);
    expect(byRow.get(6)).toContain('Name is required');
    expect(byRow.get(6)).toContain('Category must be one of');
    expect(byRow.get(6)).toContain('Price must be 0 or more');
    expect(byRow.get(6)).toContain('Stock must be a whole number');
    expect(byRow.get(7)).toBe('The row has 2 fields where the header has 8');
  });

  it('counts rows with errors beyond the listed ones', async () => {
    const bad = Array.from({ length: MAX_IMPORT_ERRORS_LISTED + 5 }, () => newRow({ productPrice: 'free' }));
    const res = await upload(csvOf(bad));
    expect(res.statusCode).toBe(422);
    expect(result(res).errors).toHaveLength(MAX_IMPORT_ERRORS_LISTED);
    expect(result(res).message).toBe(
      `${MAX_IMPORT_ERRORS_LISTED + 5} rows have errors (the first ${MAX_IMPORT_ERRORS_LISTED} are listed): nothing was imported`,
    );
  });

  it('round-trips formula cells: the export quotes them, the import takes exactly that quote off', async () => {
    const tricky = await insertProduct(ctx.db, {
      name: '=SUM(A1:A9)',
      description: "'= starts with a quote and an equals sign",
      stock: 1,
    });
    const other = await insertProduct(ctx.db, { name: '+Plus', description: "'-dash after a quote" });
    const exported = rowsOf(await exportCsv());
    const trickyRow = exported.find((r) => r._id === tricky.id)!;
    expect(trickyRow).toMatchObject({
      productName: "'=SUM(A1:A9)",
      productDescription: "''= starts with a quote and an equals sign",
    });
    // Edited in a spreadsheet: only the stock moves; the quoted cells come back as they went.
    const file = csvOf([
      { ...trickyRow, stockQuantity: '2' },
      exported.find((r) => r._id === other.id)!,
      newRow({ productName: "'@new formula-looking name", productDescription: "''-kept quote" }),
    ]);
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res)).toMatchObject({ created: 1, updated: 1, unchanged: 1 });
    expect(result(res).changes[0]?.fields).toEqual(['stockQuantity']);
    const rows = await productRows(ctx.db);
    expect(rows.map((r) => [r.name, r.description])).toEqual([
      ['+Plus', "'-dash after a quote"],
      ['=SUM(A1:A9)', "'= starts with a quote and an equals sign"],
      ['@new formula-looking name', "'-kept quote"],
    ]);
  });

  it('takes images the shop already serves, refuses others, and gives the placeholder art to none', async () => {
    const owner = await insertProduct(ctx.db, { name: 'Owner', images: ['/uploads/products/one.webp'] });
    const withImages = await insertProduct(ctx.db, { name: 'Had images', category: 'puzzles' });
    const unknown = await upload(
      csvOf([newRow({ productImage: '/uploads/products/one.webp /uploads/products/nope.webp' })]),
    );
    expect(unknown.statusCode).toBe(422);
    expect(result(unknown).errors).toEqual([
      {
        row: 1,
        message:
          'Image /uploads/products/nope.webp is not one the shop serves: use the URL of an image a product already has',
      },
    ]);
    const tooMany = await upload(csvOf([newRow({ productImage: Array(5).fill(owner.images[0]).join(' ') })]));
    expect(result(tooMany).errors).toEqual([{ row: 1, message: 'At most 4 images' }]);

    const [row] = rowsOf(await exportCsv()).filter((r) => r._id === withImages.id);
    const res = await upload(
      csvOf([
        newRow({ productName: 'Shares', productImage: ` ${owner.images[0]}  ` }),
        newRow({ productName: 'No picture', productCategory: 'consoles' }),
        { ...row!, productImage: '' },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(result(res).changes[2]).toMatchObject({ action: 'update', fields: ['productImage'] });
    const imagesOf = async (name: string) =>
      (
        await queryRows<{ url: string }>(
          ctx.db,
          sql`select i.url from ${productImages} i join ${products} p on p.id = i.product_id
              where p.name = ${name} order by i.position`,
        )
      ).map((r) => r.url);
    expect(await imagesOf('Shares')).toEqual(owner.images);
    // The seed's box art, drawn for the shop, stored once per category like the seed's images.
    const [art] = await imagesOf('No picture');
    expect(art).toMatch(/^\/uploads\/products\/pixel-vault-0-[0-9a-f]{8}\.svg$/);
    const file = path.join(ctx.config.uploadsDir, art!.slice('/uploads/'.length));
    expect(readFileSync(file, 'utf8')).toBe(
      renderBoxArt({ name: PLACEHOLDER_ART_NAME, category: 'consoles' }, 0),
    );
    const [puzzleArt] = await imagesOf('Had images');
    expect(puzzleArt).toMatch(/^\/uploads\/products\/pixel-vault-0-[0-9a-f]{8}\.svg$/);
    expect(puzzleArt).not.toBe(art);

    // Exported again, the placeholder is an image the shop serves: the file round-trips.
    const before = await snapshot();
    const again = await upload(await exportCsv());
    expect(result(again)).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(await snapshot()).toEqual(before);
  });

  it('reads image URLs the API answers with PUBLIC_URL as the stored ones', async () => {
    const app = await ctx.newApp({ config: { ...ctx.config, publicUrl: 'https://shop.example' } });
    const owner = await insertProduct(ctx.db, { images: ['/uploads/products/abs.webp'] });
    const form = new FormData();
    const file = csvOf([newRow({ productImage: 'https://shop.example/uploads/products/abs.webp' })]);
    form.append('file', new Blob([file]), 'p.csv');
    const response = new Response(form);
    const res = await app.inject({
      method: 'POST',
      url: PRODUCTS_IMPORT_PATH,
      headers: { ...admin, 'content-type': response.headers.get('content-type') ?? '' },
      payload: Buffer.from(await response.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = result(res).changes[0]!._id!;
    const rows = await ctx.db.select().from(productImages).where(eq(productImages.productId, id));
    expect(rows.map((r) => r.url)).toEqual(owner.images);
  });

  it('refuses a file without the export columns with a 400 and a message', async () => {
    const missing = await upload('_id,productName,productCategory\r\n,A,puzzles\r\n');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      `The first row must name the columns ${WITHOUT_PLATFORM.join(',')} and may name platform,tradeInCredit ` +
        '(as the products export does): missing productDescription, productPrice, stockQuantity, productImage',
    );
    const unknown = await upload(`${HEADER},Price\r\n`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/: unknown "Price"$/);
    const twice = await upload(`${HEADER},_id\r\n`);
    expect(twice.json().message).toMatch(/: named twice _id$/);
    // No header at all: the first product is read as one and named.
    const headless = await upload(stringify([PRODUCT_CSV_COLUMNS.map((c) => newRow()[c] ?? '')]));
    expect(headless.statusCode).toBe(400);
    expect(headless.json().message).toMatch(/^The first row must name the columns/);
  });

  it('takes the columns in any order, a BOM and LF line ends', async () => {
    const columns = [...PRODUCT_CSV_COLUMNS].reverse();
    const file = `\uFEFF${csvOf([newRow({ productName: 'Reordered' })], columns).replaceAll('\r\n', '\n')}`;
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await productRows(ctx.db);
    expect(row).toMatchObject({ name: 'Reordered', priceCents: 1250, stock: 4 });
  });

  it('refuses what is not a CSV file of products with a 400 and a message', async () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ['', /^The file is empty$/],
      ['\r\n\r\n', /^The file is empty$/],
      [`${HEADER}\r\n`, /^The file has no products: only a header row$/],
      [
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
        /^The file is not a CSV file/,
      ],
      [new Uint8Array([0x5f, 0x69, 0x64, 0xff, 0xfe, 0x2c]), /^The file is not UTF-8 text/],
      [`${HEADER}\r\n,"unclosed,retro-games,d,1,1,\r\n`, /^The file is not valid CSV: /],
    ];
    for (const [file, message] of cases) {
      const res = await upload(file);
      expect(res.statusCode, String(file)).toBe(400);
      expect(res.json().message, String(file)).toMatch(message);
    }
    const noFile = await ctx.app.inject({
      method: 'POST',
      url: PRODUCTS_IMPORT_PATH,
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="dryRun"\r\n\r\ntrue\r\n--x--\r\n',
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Send the CSV file in the field file');
    const json = await ctx.app.inject({
      method: 'POST',
      url: PRODUCTS_IMPORT_PATH,
      headers: admin,
      payload: {},
    });
    expect(json.statusCode).toBe(415);
    const badQuery = await ctx.app.inject({
      method: 'POST',
      url: `${PRODUCTS_IMPORT_PATH}?dryRun=yes`,
      headers: admin,
    });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().message).toBe('dryRun must be true or false');
  });

  it('refuses a file over the size limit (413) or the row limit (400)', async () => {
    const huge = `${HEADER}\r\n${'x'.repeat(MAX_IMPORT_BYTES)}`;
    const big = await upload(huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The file must be at most 10 MB: split it into several files');

    const line = ',A,puzzles,D,1,1,,\r\n';
    const long = await upload(`${HEADER}\r\n${line.repeat(MAX_IMPORT_ROWS + 1)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(
      `The file has more than ${MAX_IMPORT_ROWS} products: split it into several files`,
    );
    expect(await ctx.db.select().from(products)).toEqual([]);
  });

  it('is for admins only: 401 for a visitor, 403 for a customer', async () => {
    const file = csvOf([newRow()]);
    const visitor = await upload(file, { headers: {} });
    expect(visitor.statusCode).toBe(401);
    const shopper = await upload(file, { headers: customer });
    expect(shopper.statusCode).toBe(403);
    expect(await ctx.db.select().from(products)).toEqual([]);
  });

  it('imports 5,000 new products, then 5,000 updates of them', { timeout: 120_000 }, async () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      newRow({
        productName: `Bulk ${i}`,
        productCategory: ['retro-games', 'board-games', 'puzzles', 'consoles'][i % 4]!,
        productDescription: `Bulk product number ${i}, imported with its neighbours.`,
        productPrice: `${(i % 300) + 0.99}`,
        stockQuantity: String(i % 20),
      }),
    );
    const created = await upload(csvOf(rows));
    expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
    expect(result(created)).toMatchObject({ created: 5000, updated: 0, unchanged: 0 });
    const [count] = await queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from ${products}`);
    expect(count?.n).toBe(5000);

    const exported = rowsOf(await exportCsv());
    expect(exported).toHaveLength(5000);
    const edited = exported.map((r, i) =>
      i % 2 === 0 ? { ...r, stockQuantity: String(Number(r.stockQuantity) + 1) } : r,
    );
    const updated = await upload(csvOf(edited));
    expect(updated.statusCode).toBe(200);
    expect(result(updated)).toMatchObject({ created: 0, updated: 2500, unchanged: 2500 });
    const [stock] = await queryRows<{ total: number }>(
      ctx.db,
      sql`select sum(stock)::int as total from ${productVariants}`,
    );
    expect(stock?.total).toBe(exported.reduce((sum, r) => sum + Number(r.stockQuantity), 0) + 2500);
  });

  it("applies the whole file after an admin's edit it waited for, never half of it", async () => {
    const first = await insertProduct(ctx.db, { name: 'First', stock: 5 });
    const second = await insertProduct(ctx.db, { name: 'Second', stock: 5 });
    const exported = rowsOf(await exportCsv());
    const file = csvOf(exported.map((r) => ({ ...r, productName: `${r.productName} (imported)` })));

    let importing: Promise<Awaited<ReturnType<typeof upload>>> | undefined;
    const seenMeanwhile = await ctx.db.transaction(async (tx) => {
      // The admin's edit holds the first product while the import starts, locked as an edit locks it:
      // its variants, then its row (lockVariantsFirst, issue 33).
      await lockVariantsFirst(tx, first.id);
      await tx.execute(sql`select id from ${products} where id = ${first.id} for update`);
      importing = upload(file);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const [other] = await productRows(tx, eq(products.id, second.id));
      await setStock(tx, first.id, 42);
      return other?.name;
    });
    // While the import waited, none of the file showed.
    expect(seenMeanwhile).toBe('Second');
    const res = await importing!;
    expect(res.statusCode, res.body).toBe(200);
    // The file was compared with the product as the admin left it: its stock (5) wins over the edit (42).
    expect(result(res).changes.find((c) => c._id === first.id)?.fields).toEqual([
      'productName',
      'stockQuantity',
    ]);
    const rows = await productRows(ctx.db);
    expect(await Promise.all(rows.map(async (r) => [r.name, await stockOf(ctx.db, r.id)]))).toEqual([
      ['First (imported)', 5],
      ['Second (imported)', 5],
    ]);
  });

  it('parses the export format without the database', async () => {
    const records = await parseProductsCsv(
      new TextEncoder().encode(`${HEADER}\r\n,"a, ""b""",puzzles,"multi\r\nline",1,2,,Game Boy\r\n`),
    );
    expect(records).toEqual([
      {
        row: 1,
        cells: {
          _id: '',
          productName: 'a, "b"',
          productCategory: 'puzzles',
          productDescription: 'multi\r\nline',
          productPrice: '1',
          stockQuantity: '2',
          productImage: '',
          platform: 'Game Boy',
        },
      },
    ]);
    // A file without the platform column (issue 33): the cells have none, not an empty one.
    const older = await parseProductsCsv(
      new TextEncoder().encode(`${WITHOUT_PLATFORM.join(',')}\r\n,Old,puzzles,Desc,1,2,\r\n`),
    );
    expect(older[0]?.cells).not.toHaveProperty('platform');
    // Characters of several bytes across the pieces the parser is fed (64 kB) come out whole.
    const text = 'Pokémon ✓ «ünïcödé» 🎮 '.repeat(150);
    const many = csvOf(Array.from({ length: 60 }, () => newRow({ productDescription: text })));
    const read = await parseProductsCsv(new TextEncoder().encode(many));
    expect(read).toHaveLength(60);
    for (const record of read) expect(record.cells?.productDescription).toBe(text);
  });
});

import { eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PRODUCTS_EXPORT_COLUMNS } from '@pixel-vault/shared';
import { productVariants, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser } from '../../test/factories.js';
import { EXPORT_BATCH } from './admin.service.js';

/** GET /api/admin/export/products.csv (issue 15): one row per live variant since issue 31. */
describe('GET /api/admin/export/products.csv', () => {
  let ctx: TestContext;
  let admin: { authorization: string };
  const now = new Date('2026-05-02T12:00:00Z');

  const exportText = async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/export/products.csv',
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    return res;
  };
  const rowsOf = (body: string) => parse(body, { columns: true, bom: false }) as Record<string, string>[];
  const noVariantColumns = {
    option1Name: '',
    option1Value: '',
    option2Name: '',
    option2Value: '',
    option3Name: '',
    option3Value: '',
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { SHOP_TIMEZONE: 'America/New_York' },
      app: { clock: () => now, limits: NO_RATE_LIMITS },
    });
    admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  });
  afterAll(() => ctx.close());
  beforeEach(() => clearProducts(ctx.db));

  it('exports the products with RFC 4180 quoting, UTF-8 and formulas made text', async () => {
    const tricky = await insertProduct(ctx.db, {
      name: '=HYPERLINK("http://evil.example","Click")',
      description: 'Line one, with a comma\r\nLine "two" — Pokémon ✓',
      priceCents: 1999,
      stock: 7,
      images: ['/uploads/a.webp', '/uploads/b.webp'],
    });
    const plain = await insertProduct(ctx.db, {
      name: 'Plain',
      description: '-5 lives',
      priceCents: 500,
      stock: 0,
    });
    const signs = await insertProduct(ctx.db, {
      name: '@admin +1',
      description: '\tTabbed',
      category: 'puzzles',
    });
    await insertProduct(ctx.db, { name: 'Gone', deletedAt: new Date('2026-01-01T00:00:00Z') });

    const res = await exportText();
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="products-2026-05-02.csv"');
    const text = res.rawPayload.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      '_id,productName,productCategory,productDescription,productPrice,stockQuantity,productImage,platform,' +
        'variantId,sku,option1Name,option1Value,option2Name,option2Value,option3Name,option3Value,' +
        'variantPrice,variantStock,tradeInCredit',
    );
    expect(text).toContain('"\'=HYPERLINK(""http://evil.example"",""Click"")"');
    const rows = rowsOf(text);
    const byId = new Map(rows.map((r) => [r._id, r]));
    expect(rows).toHaveLength(3);
    expect(byId.get(tricky.id)).toEqual({
      _id: tricky.id,
      productName: '\'=HYPERLINK("http://evil.example","Click")',
      productCategory: 'retro-games',
      productDescription: 'Line one, with a comma\r\nLine "two" — Pokémon ✓',
      productPrice: '19.99',
      stockQuantity: '7',
      productImage: '/uploads/a.webp /uploads/b.webp',
      platform: '',
      // Sold in one form: one row, its one variant, no options.
      variantId: tricky.variantId,
      sku: tricky.variants[0]!.sku,
      ...noVariantColumns,
      variantPrice: '19.99',
      variantStock: '7',
      // Issue 35: not bought.
      tradeInCredit: '',
    });
    expect(byId.get(plain.id)).toMatchObject({
      productDescription: "'-5 lives",
      productPrice: '5.00',
      stockQuantity: '0',
      productImage: plain.images.join(' '),
    });
    expect(byId.get(signs.id)).toMatchObject({ productName: "'@admin +1", productDescription: "'\tTabbed" });
  });

  it("writes one row per live variant in order, the product's columns and default price on each", async () => {
    const options = [
      { name: 'Condition', values: ['Loose', 'Complete in box', '-Graded'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ];
    const game = await insertProduct(ctx.db, {
      name: 'Super Mario 64',
      platform: 'Nintendo 64',
      options,
      images: ['/uploads/sm64.webp'],
      variants: [
        { options: { Condition: 'Loose', Region: 'NTSC-U' }, sku: 'SM64-L-U', priceCents: 4000, stock: 3 },
        { options: { Condition: 'Loose', Region: 'PAL' }, sku: 'SM64-L-P', priceCents: 3500, stock: 1 },
        { options: { Condition: '-Graded', Region: 'PAL' }, sku: 'SM64-G-P', priceCents: 90000, stock: 0 },
        {
          options: { Condition: 'Complete in box', Region: 'PAL' },
          sku: 'SM64-C-P',
          priceCents: 12500,
          stock: 0,
        },
      ],
    });
    const threeOptions = await insertProduct(ctx.db, {
      name: 'Console',
      options: [
        { name: 'Edition', values: ['Boxed'] },
        { name: 'Colour', values: ['Grey'] },
        { name: 'Region', values: ['PAL'] },
      ],
      variants: [
        { options: { Edition: 'Boxed', Colour: 'Grey', Region: 'PAL' }, priceCents: 9900, stock: 2 },
      ],
    });
    // The graded copy was removed: archived, it is no longer exported.
    const [, lp, graded, cp] = game.variants;
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now, sku: `SM64-G-P~${graded!.id}` })
      .where(eq(productVariants.id, graded!.id));
    // Issue 35: the shop buys the loose PAL copy for $14.50 in store credit, and the others not.
    await ctx.db
      .update(productVariants)
      .set({ tradeInCreditCents: 1450 })
      .where(eq(productVariants.id, lp!.id));

    const rows = rowsOf((await exportText()).rawPayload.toString('utf8'));
    const ofGame = rows.filter((r) => r._id === game.id);
    const repeated = {
      _id: game.id,
      productName: 'Super Mario 64',
      productCategory: 'retro-games',
      productDescription: game.description,
      productPrice: '40.00',
      stockQuantity: '3',
      productImage: '/uploads/sm64.webp',
      platform: 'Nintendo 64',
      option1Name: 'Condition',
      option2Name: 'Region',
      option3Name: '',
      option3Value: '',
    };
    expect(ofGame).toEqual([
      {
        ...repeated,
        variantId: game.variantId,
        sku: 'SM64-L-U',
        option1Value: 'Loose',
        option2Value: 'NTSC-U',
        variantPrice: '40.00',
        variantStock: '3',
        tradeInCredit: '',
      },
      {
        ...repeated,
        variantId: lp!.id,
        sku: 'SM64-L-P',
        option1Value: 'Loose',
        option2Value: 'PAL',
        variantPrice: '35.00',
        variantStock: '1',
        tradeInCredit: '14.50',
      },
      {
        ...repeated,
        variantId: cp!.id,
        sku: 'SM64-C-P',
        option1Value: 'Complete in box',
        option2Value: 'PAL',
        variantPrice: '125.00',
        variantStock: '0',
        tradeInCredit: '',
      },
    ]);
    expect(rows.find((r) => r._id === threeOptions.id)).toMatchObject({
      platform: '',
      option1Name: 'Edition',
      option1Value: 'Boxed',
      option2Name: 'Colour',
      option2Value: 'Grey',
      option3Name: 'Region',
      option3Value: 'PAL',
      variantPrice: '99.00',
    });
  });

  it('writes the platform after the product columns, empty for none, a formula-looking one quoted (issue 33)', async () => {
    const n64 = await insertProduct(ctx.db, { name: 'Racer', platform: 'Nintendo 64' });
    const none = await insertProduct(ctx.db, { name: 'Board game', category: 'board-games' });
    const odd = await insertProduct(ctx.db, { name: 'Odd', platform: '+Plus System' });
    const text = (await exportText()).rawPayload.toString('utf8');
    const header = text.split('\r\n')[0]!.split(',');
    expect(header.indexOf('platform')).toBe(header.indexOf('productImage') + 1);
    const byId = new Map(rowsOf(text).map((r) => [r._id, r]));
    expect(byId.get(n64.id)?.platform).toBe('Nintendo 64');
    expect(byId.get(none.id)?.platform).toBe('');
    expect(byId.get(odd.id)?.platform).toBe("'+Plus System");
  });

  it('quotes an option value a spreadsheet would run as a formula', async () => {
    await insertProduct(ctx.db, {
      options: [{ name: 'Grade', values: ['=9.8'] }],
      variants: [{ options: { Grade: '=9.8' } }],
    });
    const [row] = rowsOf((await exportText()).rawPayload.toString('utf8'));
    expect(row).toMatchObject({ option1Name: 'Grade', option1Value: "'=9.8" });
  });

  it('streams thousands of variants in batches of products, every one exactly once', async () => {
    const count = EXPORT_BATCH + 150;
    await ctx.db.execute(sql`
      insert into ${products} (name, description, category, options)
      select 'Bulk ' || g, 'Bulk product', 'puzzles', '[{"name":"Size","values":["S","L"]}]'::jsonb
      from generate_series(1, ${count}) g`);
    await ctx.db.execute(sql`
      insert into ${productVariants} (product_id, position, sku, options, price_cents, stock)
      select p.id, s.position, 'BULK-' || p.id || '-' || s.size, jsonb_build_object('Size', s.size), 100, 1
      from ${products} p, (values (0, 'S'), (1, 'L')) as s(position, size)`);

    const rows = rowsOf((await exportText()).rawPayload.toString('utf8'));
    expect(rows).toHaveLength(2 * count);
    expect(new Set(rows.map((r) => r.variantId)).size).toBe(2 * count);
    expect(new Set(rows.map((r) => r._id)).size).toBe(count);
    // A product's rows are consecutive, its default first.
    for (let i = 0; i < rows.length; i += 2) {
      expect([rows[i]!._id, rows[i]!.option1Value, rows[i + 1]!.option1Value]).toEqual([
        rows[i + 1]!._id,
        'S',
        'L',
      ]);
    }
    expect(Object.keys(rows[0]!)).toEqual([...PRODUCTS_EXPORT_COLUMNS]);
  });
});

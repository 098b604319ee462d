import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene, refusedBy } from '../../test/migrations.js';

/**
 * Migrations 0015 and 0016 (issue 31, decision 007) on a shop with products and orders written
 * before them: each product becomes one default variant with its price, its stock and a SKU made of
 * its id (a tie in the id's first 12 hex digits gets a suffix), every past order line points at it,
 * and the product keeps no price or stock of its own; on PGlite and PostgreSQL.
 */
describe('migrations 0015-0016: price and stock move to one default variant per product', () => {
  const scene = migrationScene('0015');

  it('makes each product a default variant, points past lines at it, and drops the product columns', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(15);
    const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0]!;
    const product = (id: string, name: string, priceCents: number, stock: number, deleted = false) =>
      one<{
        id: string;
      }>(sql`insert into products (id, name, description, category, price_cents, stock, deleted_at)
        values (${id}, ${name}, 'Old', 'retro-games', ${priceCents}, ${stock}, ${deleted ? sql`now()` : sql`null`})
        returning id`);
    // Two ids alike in their first 12 hex digits, and a product removed since (its orders stay).
    const a = await product('aaaaaaaa-bbbb-4ccc-8ddd-000000000001', 'Cartridge A', 4000, 3);
    const b = await product('aaaaaaaa-bbbb-4ccc-8ddd-000000000002', 'Cartridge B', 14000, 0);
    const gone = await product('0123abcd-0000-4000-8000-0000000000ff', 'Gone', 999, 7, true);
    const { id: orderId } = await one<{ id: string }>(
      sql`insert into orders (customer_name, customer_email, ship_address, ship_city, ship_postal_code,
          ship_country, items_cents, tax_cents, shipping_cents, total_cents, payment_method, expires_at)
        values ('C', 'c@example.com', '1 St', 'Town', '1', 'Land', 4999, 0, 0, 4999, 'paypal', now())
        returning id`,
    );
    for (const [productId, cents] of [
      [a.id, 4000],
      [gone.id, 999],
      [null, 500],
    ] as const) {
      await db.execute(sql`insert into order_items (order_id, product_id, name, image, unit_price_cents, quantity)
        values (${orderId}, ${productId}, 'Line', '', ${cents}, 1)`);
    }

    expect(await migrate(db, scene.through)).toBe(1);
    const variants = await queryRows<Record<string, unknown>>(
      db,
      sql`select product_id, position, sku, options, price_cents, stock, archived_at from product_variants order by sku`,
    );
    expect(variants).toEqual([
      {
        product_id: gone.id,
        position: 0,
        sku: 'PV-0123ABCD0000',
        options: {},
        price_cents: 999,
        stock: 7,
        archived_at: null,
      },
      {
        product_id: a.id,
        position: 0,
        sku: 'PV-AAAAAAAABBBB',
        options: {},
        price_cents: 4000,
        stock: 3,
        archived_at: null,
      },
      {
        product_id: b.id,
        position: 0,
        sku: 'PV-AAAAAAAABBBB-2',
        options: {},
        price_cents: 14000,
        stock: 0,
        archived_at: null,
      },
    ]);
    const lines = await queryRows<Record<string, unknown>>(
      db,
      sql`select i.product_id, v.product_id as variant_product, i.variant_title from order_items i
          left join product_variants v on v.id = i.variant_id order by i.unit_price_cents`,
    );
    expect(lines).toEqual([
      { product_id: null, variant_product: null, variant_title: '' },
      { product_id: gone.id, variant_product: gone.id, variant_title: '' },
      { product_id: a.id, variant_product: a.id, variant_title: '' },
    ]);

    // The next migration drops the product's own figures: price and stock are the variants' only.
    expect(await migrate(db)).toBeGreaterThanOrEqual(1);
    const columns = await queryRows<{ column_name: string }>(
      db,
      sql`select column_name from information_schema.columns where table_name = 'products' order by column_name`,
    );
    expect(columns.map((c) => c.column_name)).not.toContain('price_cents');
    expect(columns.map((c) => c.column_name)).not.toContain('stock');
    // SKUs are unique whatever their case, and a product has one live variant per position.
    expect(
      await refusedBy(
        db.execute(sql`insert into product_variants (product_id, position, sku, price_cents, stock)
          values (${b.id}, 1, 'pv-aaaaaaaabbbb', 1, 1)`),
      ),
    ).toBe('product_variants_sku_lower_unique');
    expect(
      await refusedBy(
        db.execute(sql`insert into product_variants (product_id, position, sku, price_cents, stock)
          values (${b.id}, 0, 'ANOTHER', 1, 1)`),
      ),
    ).toBe('product_variants_live_position_unique');
    expect(
      await refusedBy(db.execute(sql`update product_variants set stock = -1 where product_id = ${a.id}`)),
    ).toBe('product_variants_stock_non_negative');
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene, refusedBy } from '../../test/migrations.js';

/**
 * Migration 0013 (issue 30) on a shop with orders: they are numbered from 1001 in the order they were
 * placed, whatever order the table keeps them in, and a new order takes the next number, on PGlite
 * and PostgreSQL.
 */
describe('migration 0013: short order numbers', () => {
  const scene = migrationScene('0013');

  it('numbers the orders already placed by date, and the next one after them', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(13);
    const place = (createdAt: string) =>
      queryRows<{ id: string }>(
        db,
        sql`insert into orders (customer_name, customer_email, ship_address, ship_city, ship_postal_code,
            ship_country, items_cents, tax_cents, shipping_cents, total_cents, payment_method, expires_at,
            created_at)
          values ('C', 'c@example.com', '1 St', 'Town', '1', 'Land', 2000, 300, 799, 3099, 'PayPal', now(),
            ${createdAt}::timestamptz)
          returning id`,
      ).then((rows) => rows[0]!.id);
    // Inserted out of date order: the numbers follow the dates, not the table.
    const third = await place('2026-03-03T10:00:00Z');
    const first = await place('2026-01-01T10:00:00Z');
    const second = await place('2026-02-02T10:00:00Z');

    expect(await migrate(db, scene.through)).toBe(1);
    const numbers = await queryRows<{ id: string; number: number }>(db, sql`select id, number from orders`);
    const numberOf = new Map(numbers.map((row) => [row.id, Number(row.number)]));
    expect([numberOf.get(first), numberOf.get(second), numberOf.get(third)]).toEqual([1001, 1002, 1003]);

    const next = await place('2026-04-04T10:00:00Z');
    const [row] = await queryRows<{ number: number }>(db, sql`select number from orders where id = ${next}`);
    expect(Number(row!.number)).toBe(1004);
    expect(await refusedBy(db.execute(sql`update orders set number = 1001 where id = ${next}`))).toBe(
      'orders_number_unique',
    );
    await migrate(db);
  });
});

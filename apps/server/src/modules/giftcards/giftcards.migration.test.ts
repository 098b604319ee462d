import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene, refusedBy } from '../../test/migrations.js';

/**
 * Migration 0011 (issue 28) on a shop whose ledger holds a row of every kind: every row is kept as it
 * was, a card takes any number of top-ups, and each kind keeps its once-only guarantee (a retried
 * debit, release or refund credit cannot move money twice), on PGlite and PostgreSQL.
 */
describe('migration 0011: the gift-card ledger unique per kind', () => {
  const scene = migrationScene('0011');

  it('keeps every ledger row, takes any number of top-ups and still refuses a second debit, release or credit', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(11);
    const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0]!;
    const order = () =>
      one<{ id: string }>(sql`insert into orders (customer_name, customer_email, ship_address, ship_city,
          ship_postal_code, ship_country, items_cents, tax_cents, shipping_cents, total_cents, payment_method,
          expires_at)
        values ('C', 'c@example.com', '1 St', 'Town', '1', 'Land', 2000, 300, 799, 3099, 'Gift Card', now())
        returning id`);
    const refundOf = (orderId: string) =>
      one<{ id: string }>(sql`insert into order_refunds (order_id, kind, amount_cents, reason, plan, status)
        values (${orderId}, 'admin', 500, 'Scratched', '{"giftCards":[],"captures":[]}'::jsonb, 'completed')
        returning id`);
    const { id: card } = await one<{ id: string }>(
      sql`insert into gift_cards (code, balance_cents) values ('OLD-CARD', 10000) returning id`,
    );
    const expired = await order();
    const paid = await order();
    const firstRefund = await refundOf(paid.id);
    const entry = (kind: string, orderId: string | null, refundId: string | null, cents: number) =>
      db.execute(sql`insert into gift_card_ledger (gift_card_id, order_id, kind, amount_cents, balance_after_cents, refund_id)
        values (${card}, ${orderId}, ${kind}, ${cents}, 10000, ${refundId})`);

    // One row of every kind the shop writes, as it wrote them before: the old key allowed one top-up.
    await entry('issue', null, null, 10000);
    await entry('top_up', null, null, 500);
    await entry('order_debit', expired.id, null, -3099);
    await entry('order_refund', expired.id, null, 3099); // released on expiry
    await entry('order_debit', paid.id, null, -3099);
    await entry('order_refund', paid.id, firstRefund.id, 500); // an admin's partial refund
    const ledger = sql`select * from gift_card_ledger order by id`;
    const rowsBefore = await queryRows(db, ledger);
    expect(rowsBefore).toHaveLength(6);

    expect(await migrate(db, scene.through)).toBe(1);
    expect(await queryRows(db, ledger)).toEqual(rowsBefore);

    // Top-ups: any number, each a row of its own.
    await entry('top_up', null, null, 500);
    await entry('top_up', null, null, 500);
    const topUps = await queryRows(db, sql`select id from gift_card_ledger where kind = 'top_up'`);
    expect(topUps).toHaveLength(3);
    // A second refund of the same order may credit the same card again.
    await entry('order_refund', paid.id, (await refundOf(paid.id)).id, 500);

    // Once-only, each kind.
    expect(await refusedBy(entry('issue', null, null, 1))).toBe('gift_card_ledger_issue_unique');
    expect(await refusedBy(entry('order_debit', paid.id, null, -1))).toBe('gift_card_ledger_debit_unique');
    expect(await refusedBy(entry('order_refund', expired.id, null, 1))).toBe(
      'gift_card_ledger_release_unique',
    );
    expect(await refusedBy(entry('order_refund', paid.id, firstRefund.id, 1))).toBe(
      'gift_card_ledger_refund_credit_unique',
    );
    // A row without what its kind names (a debit of no order could repeat) is refused too.
    expect(await refusedBy(entry('order_debit', null, null, -1))).toBe('gift_card_ledger_kind_shape');
    expect(await refusedBy(entry('top_up', paid.id, null, 1))).toBe('gift_card_ledger_kind_shape');
    expect(await refusedBy(entry('order_refund', null, null, 1))).toBe('gift_card_ledger_kind_shape');
    expect(await queryRows(db, ledger)).toHaveLength(9);
    // The later migrations apply on top.
    await migrate(db);
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene, refusedBy } from '../../test/migrations.js';

/**
 * Migration 0014 (issue 30) on a shop whose ledger holds debits, releases and refund credits written
 * before it: every row is kept and becomes application 1, each existing debit and release stays
 * once-only, and a card can now be applied to the same order again as application 2 (with its own
 * once-only debit and release), on PGlite and PostgreSQL.
 */
describe('migration 0014: one debit and one release per gift-card application', () => {
  const scene = migrationScene('0014');

  it('keeps every ledger row as application 1 and takes a second application of a card to an order', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(14);
    const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0]!;
    const order = () =>
      one<{ id: string }>(sql`insert into orders (customer_name, customer_email, ship_address, ship_city,
          ship_postal_code, ship_country, items_cents, tax_cents, shipping_cents, total_cents, payment_method,
          expires_at)
        values ('C', 'c@example.com', '1 St', 'Town', '1', 'Land', 2000, 300, 799, 3099, 'Gift Card', now())
        returning id`);
    const { id: card } = await one<{ id: string }>(
      sql`insert into gift_cards (code, balance_cents) values ('OLD-CARD', 10000) returning id`,
    );
    const released = await order();
    const unpaid = await order();
    const paid = await order();
    const { id: refundId } = await one<{ id: string }>(
      sql`insert into order_refunds (order_id, kind, amount_cents, reason, plan, status)
        values (${paid.id}, 'admin', 500, 'Scratched', '{"giftCards":[],"captures":[]}'::jsonb, 'completed')
        returning id`,
    );
    const entry = (kind: string, orderId: string | null, refund: string | null, cents: number) =>
      db.execute(sql`insert into gift_card_ledger (gift_card_id, order_id, kind, amount_cents, balance_after_cents, refund_id)
        values (${card}, ${orderId}, ${kind}, ${cents}, 10000, ${refund})`);
    const entryOf = (kind: string, orderId: string, cents: number, application: number) =>
      db.execute(sql`insert into gift_card_ledger (gift_card_id, order_id, kind, amount_cents, balance_after_cents, application)
        values (${card}, ${orderId}, ${kind}, ${cents}, 10000, ${application})`);

    // The rows the shop wrote before: a debit released (expiry), a debit still held, a paid order's
    // debit with a refund credit, an issue and a top-up.
    await entry('issue', null, null, 10000);
    await entry('top_up', null, null, 500);
    await entry('order_debit', released.id, null, -1000);
    await entry('order_refund', released.id, null, 1000);
    await entry('order_debit', unpaid.id, null, -2000);
    await entry('order_debit', paid.id, null, -3099);
    await entry('order_refund', paid.id, refundId, 500);
    const ledger = sql`select * from gift_card_ledger order by id`;
    const rowsBefore = await queryRows<Record<string, unknown>>(db, ledger);
    expect(rowsBefore).toHaveLength(7);

    expect(await migrate(db, scene.through)).toBe(1);
    // Every row kept as it was, each now application 1.
    expect(await queryRows(db, ledger)).toEqual(rowsBefore.map((r) => ({ ...r, application: 1 })));

    // The old rows keep their once-only guarantee: no second debit or release of application 1.
    expect(await refusedBy(entry('order_debit', unpaid.id, null, -1))).toBe('gift_card_ledger_debit_unique');
    expect(await refusedBy(entry('order_refund', released.id, null, 1))).toBe(
      'gift_card_ledger_release_unique',
    );
    expect(await refusedBy(entry('order_refund', paid.id, refundId, 1))).toBe(
      'gift_card_ledger_refund_credit_unique',
    );
    // The held debit can still be released (application 1), once.
    await entryOf('order_refund', unpaid.id, 2000, 1);
    expect(await refusedBy(entryOf('order_refund', unpaid.id, 2000, 1))).toBe(
      'gift_card_ledger_release_unique',
    );
    // The same card on the same order again: application 2, its own debit and release, once each.
    await entryOf('order_debit', released.id, -700, 2);
    expect(await refusedBy(entryOf('order_debit', released.id, -700, 2))).toBe(
      'gift_card_ledger_debit_unique',
    );
    await entryOf('order_refund', released.id, 700, 2);
    expect(await refusedBy(entryOf('order_refund', released.id, 700, 2))).toBe(
      'gift_card_ledger_release_unique',
    );
    expect(await refusedBy(entryOf('order_debit', released.id, -1, 0))).toBe(
      'gift_card_ledger_application_positive',
    );

    // What each order holds, read as the shop reads it (debits less releases): unchanged by the migration.
    const held = await queryRows<{ order_id: string; cents: string | number }>(
      db,
      sql`select order_id, -sum(amount_cents) as cents from gift_card_ledger
          where kind in ('order_debit', 'order_refund') and refund_id is null group by order_id`,
    );
    const heldBy = new Map(held.map((h) => [h.order_id, Number(h.cents)]));
    expect([heldBy.get(released.id), heldBy.get(unpaid.id), heldBy.get(paid.id)]).toEqual([0, 0, 3099]);
    expect(await queryRows(db, ledger)).toHaveLength(10);
    // The later migrations apply on top.
    await migrate(db);
  });
});

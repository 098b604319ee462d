import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orderRefunds, orders } from './orders.js';
import { users } from './users.js';

export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    balanceCents: integer('balance_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // The last line of defence against double spend: no transaction can leave a card below 0.
    check('gift_cards_balance_non_negative', sql`${t.balanceCents} >= 0`),
    uniqueIndex('gift_cards_code_lower_unique').on(sql`lower(${t.code})`),
  ],
);

export const GIFT_CARD_LEDGER_KINDS = ['issue', 'top_up', 'order_debit', 'order_refund'] as const;
export type GiftCardLedgerKind = (typeof GIFT_CARD_LEDGER_KINDS)[number];

/** Every balance change, written in the same transaction as the balance update. */
export const giftCardLedger = pgTable(
  'gift_card_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    giftCardId: uuid('gift_card_id')
      .notNull()
      .references(() => giftCards.id),
    orderId: uuid('order_id').references(() => orders.id),
    kind: text('kind').$type<GiftCardLedgerKind>().notNull(),
    /** Signed: debits are negative. */
    amountCents: integer('amount_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The order refund (issue 12) this row gives back; null for a release (expiry, unpaid cancel). */
    refundId: uuid('refund_id').references(() => orderRefunds.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'gift_card_ledger_kind_valid',
      sql`${t.kind} in ('issue', 'top_up', 'order_debit', 'order_refund')`,
    ),
    // A retry can never debit or refund one card twice for one order (Medusa #16347).
    // Each refund of an order credits a card at most once too (NULLS NOT DISTINCT: one release).
    unique('gift_card_ledger_card_order_kind_refund_unique')
      .on(t.giftCardId, t.orderId, t.kind, t.refundId)
      .nullsNotDistinct(),
    index('gift_card_ledger_order_idx').on(t.orderId),
  ],
);

export type GiftCardRow = typeof giftCards.$inferSelect;

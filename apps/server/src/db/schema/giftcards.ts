import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orderRefunds, orders } from './orders.js';
import { tradeIns } from './tradeins.js';
import { users } from './users.js';

/** balance_cents is a 32-bit integer: no credit may take a card above this. */
export const MAX_BALANCE_CENTS = 2_147_483_647;

export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    balanceCents: integer('balance_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Issue 35: the customer whose store credit this card holds (trade-ins credit it). A customer has
     * at most one live store-credit card; it is spent at checkout like any other card. Null once the
     * account is deleted: the card and its balance stay, spendable by its code.
     */
    storeCreditUserId: uuid('store_credit_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The last line of defence against double spend: no transaction can leave a card below 0.
    check('gift_cards_balance_non_negative', sql`${t.balanceCents} >= 0`),
    uniqueIndex('gift_cards_code_lower_unique').on(sql`lower(${t.code})`),
    uniqueIndex('gift_cards_store_credit_user_unique')
      .on(t.storeCreditUserId)
      .where(sql`${t.storeCreditUserId} is not null and ${t.deletedAt} is null`),
  ],
);

export const GIFT_CARD_LEDGER_KINDS = [
  'issue',
  'top_up',
  'order_debit',
  'order_refund',
  'tradein_credit',
] as const;
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
    /**
     * Which application of the card to the order a debit or release belongs to (issue 30): a card may
     * be applied, removed and applied again on one unpaid order, and each application has its own
     * once-only debit and release. 1 for every other row (and for every row written before).
     */
    application: integer('application').notNull().default(1),
    /** Issue 35: the trade-in a 'tradein_credit' row pays (once: the unique index below). */
    tradeInId: uuid('trade_in_id').references(() => tradeIns.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'gift_card_ledger_kind_valid',
      sql`${t.kind} in ('issue', 'top_up', 'order_debit', 'order_refund', 'tradein_credit')`,
    ),
    // What each kind names: an issue or a top-up no order; a debit its order; a credit its order (and
    // its refund, or none for a release). The unique indexes below rely on it (a NULL is never equal).
    check(
      'gift_card_ledger_kind_shape',
      sql`(${t.kind} in ('issue', 'top_up') and ${t.orderId} is null and ${t.refundId} is null and ${t.tradeInId} is null)
        or (${t.kind} = 'order_debit' and ${t.orderId} is not null and ${t.refundId} is null and ${t.tradeInId} is null)
        or (${t.kind} = 'order_refund' and ${t.orderId} is not null and ${t.tradeInId} is null)
        or (${t.kind} = 'tradein_credit' and ${t.tradeInId} is not null and ${t.orderId} is null and ${t.refundId} is null)`,
    ),
    // Once-only, per kind (issue 28; one key over every kind made a second top-up a unique violation):
    // one issue per card; a retry can never debit one card twice for one application to one order
    // (Medusa #16347), nor give that application back twice (a release: Remove at checkout, expiry or an
    // unpaid cancel; no refund); each refund credits a card once. Top-ups are not limited: each is a row
    // of its own (its id). Issue 30: the debit and release keys name the application.
    uniqueIndex('gift_card_ledger_issue_unique')
      .on(t.giftCardId)
      .where(sql`${t.kind} = 'issue'`),
    uniqueIndex('gift_card_ledger_debit_unique')
      .on(t.giftCardId, t.orderId, t.application)
      .where(sql`${t.kind} = 'order_debit'`),
    uniqueIndex('gift_card_ledger_release_unique')
      .on(t.giftCardId, t.orderId, t.application)
      .where(sql`${t.kind} = 'order_refund' and ${t.refundId} is null`),
    uniqueIndex('gift_card_ledger_refund_credit_unique')
      .on(t.giftCardId, t.refundId)
      .where(sql`${t.refundId} is not null`),
    // Issue 35: a trade-in is credited once, whatever retries, double clicks or two admins do.
    uniqueIndex('gift_card_ledger_tradein_unique')
      .on(t.tradeInId)
      .where(sql`${t.kind} = 'tradein_credit'`),
    check('gift_card_ledger_application_positive', sql`${t.application} >= 1`),
    index('gift_card_ledger_order_idx').on(t.orderId),
  ],
);

export type GiftCardRow = typeof giftCards.$inferSelect;

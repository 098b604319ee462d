import { sql } from 'drizzle-orm';
import {
  INSPECTION_OUTCOMES,
  type InspectionOutcome,
  TRADE_IN_EVENT_KINDS,
  TRADE_IN_STATUSES,
  type TradeInEventKind,
  type TradeInStatus,
} from '@pixel-vault/shared';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { productVariants, products } from './products.js';
import { users } from './users.js';

/**
 * Issue 35: trade-ins (docs/trade-ins.md). The statuses and the moves between them are one table in
 * modules/tradeins/tradeins.transitions.ts; the credit is a gift-card ledger row naming the trade-in
 * (gift_card_ledger.trade_in_id, unique), so it is issued once whatever retries.
 */
export const TRADE_IN_ROW_STATUSES = TRADE_IN_STATUSES;
export type TradeInRowStatus = TradeInStatus;

export const tradeIns = pgTable(
  'trade_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The customer; null once their account was deleted (a closed trade-in keeps the snapshot below). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer's name and e-mail when quoted, as orders keep them (the admin's view after deletion). */
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    status: text('status').$type<TradeInRowStatus>().notNull(),
    /** The quote's total: the sum of qty x offered credit, in cents. */
    quotedCents: integer('quoted_cents').notNull(),
    /** The inspected total (qty x inspected credit), in cents; null until inspected. */
    inspectedCents: integer('inspected_cents'),
    /** What was credited on accept, in cents; 0 until then. */
    creditedCents: integer('credited_cents').notNull().default(0),
    trackingNumber: text('tracking_number'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Where the mails' links point (PUBLIC_URL, else the origin the quote came to). */
    linkBase: text('link_base').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'trade_ins_status_valid',
      sql`${t.status} in ('quoted', 'shipped', 'cancelled', 'received', 'inspected', 'accepted', 'returned', 'expired')`,
    ),
    check('trade_ins_quoted_non_negative', sql`${t.quotedCents} >= 0`),
    check('trade_ins_inspected_non_negative', sql`${t.inspectedCents} is null or ${t.inspectedCents} >= 0`),
    check('trade_ins_credited_non_negative', sql`${t.creditedCents} >= 0`),
    index('trade_ins_user_idx').on(t.userId, t.createdAt),
    index('trade_ins_status_idx').on(t.status, t.createdAt),
    // The expiry sweep reads the quotes whose time is up.
    index('trade_ins_quoted_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'quoted'`),
  ],
);

export const TRADE_IN_OUTCOMES = INSPECTION_OUTCOMES;
export type TradeInOutcome = InspectionOutcome;

/** One line of a trade-in: a variant, a quantity, the credit offered per unit and what inspection found. */
export const tradeInItems = pgTable(
  'trade_in_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tradeInId: uuid('trade_in_id')
      .notNull()
      .references(() => tradeIns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id),
    /** What the customer saw when quoted: kept, as the product may be renamed or its variant archived. */
    productName: text('product_name').notNull(),
    options: jsonb('options').$type<Record<string, string>>().notNull().default({}),
    sku: text('sku').notNull(),
    qty: integer('qty').notNull(),
    offeredCents: integer('offered_cents').notNull(),
    outcome: text('outcome').$type<TradeInOutcome>(),
    /** Per unit after inspection: the quote (accepted), lower (lowered) or 0 (rejected). */
    inspectedCents: integer('inspected_cents'),
    reason: text('reason'),
  },
  (t) => [
    check('trade_in_items_qty_positive', sql`${t.qty} between 1 and 50`),
    check('trade_in_items_offered_non_negative', sql`${t.offeredCents} >= 0`),
    check(
      'trade_in_items_outcome_valid',
      sql`${t.outcome} is null or ${t.outcome} in ('accepted', 'lowered', 'rejected')`,
    ),
    // What each outcome means for the credit, so no path can store a contradiction.
    check(
      'trade_in_items_outcome_shape',
      sql`(${t.outcome} is null and ${t.inspectedCents} is null)
        or (${t.outcome} = 'accepted' and ${t.inspectedCents} = ${t.offeredCents})
        or (${t.outcome} = 'lowered' and ${t.inspectedCents} >= 0 and ${t.inspectedCents} < ${t.offeredCents})
        or (${t.outcome} = 'rejected' and ${t.inspectedCents} = 0)`,
    ),
    index('trade_in_items_trade_in_idx').on(t.tradeInId, t.position),
    index('trade_in_items_variant_idx').on(t.variantId),
  ],
);

export const TRADE_IN_EVENT_ROW_KINDS = TRADE_IN_EVENT_KINDS;
export type TradeInEventRowKind = TradeInEventKind;
export type TradeInActor = 'customer' | 'admin' | 'system';

/** The timeline: one row per step, written in the transaction that made it. */
export const tradeInEvents = pgTable(
  'trade_in_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tradeInId: uuid('trade_in_id')
      .notNull()
      .references(() => tradeIns.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TradeInEventRowKind>().notNull(),
    actor: text('actor').$type<TradeInActor>().notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'trade_in_events_kind_valid',
      sql`${t.kind} in ('quoted', 'shipped', 'cancelled', 'received', 'inspected', 'accepted', 'credited', 'returned', 'expired')`,
    ),
    check('trade_in_events_actor_valid', sql`${t.actor} in ('customer', 'admin', 'system')`),
    index('trade_in_events_trade_in_idx').on(t.tradeInId, t.at),
  ],
);

export type TradeInRow = typeof tradeIns.$inferSelect;
export type TradeInItemRow = typeof tradeInItems.$inferSelect;
export type TradeInEventRow = typeof tradeInEvents.$inferSelect;

import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PromotionKind } from '@pixel-vault/shared';
import { orders } from './orders.js';
import { users } from './users.js';

/**
 * Promotions (issue 32): discount codes. A code's uses are counted in `used` (orders that hold one:
 * placed, not expired or cancelled), changed only together with a `promotion_uses` row, under the
 * promotion's row lock, so a rush cannot take more than `usage_limit`.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Upper-case; unique. None for a scheduled sale (`kind = 'sale'`, migration 0019). */
    code: text('code'),
    kind: text('kind').$type<PromotionKind>().notNull(),
    /** Percent (1-100) for `percentage`, cents for `fixed`, 0 for `free_shipping`, percent (1-99) for `sale`. */
    value: integer('value').notNull(),
    minSubtotalCents: integer('min_subtotal_cents'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    /** Category slugs the code applies to; with `products`, the lines it discounts (both empty: all). */
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    products: jsonb('products').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    used: integer('used').notNull().default(0),
    /**
     * Bumped by every admin change: a placement priced with the code as it was read reserves a use
     * only if the code is still that version (else it prices the order again).
     */
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotions_code_unique').on(t.code),
    check('promotions_kind_valid', sql`${t.kind} in ('percentage', 'fixed', 'free_shipping', 'sale')`),
    check(
      'promotions_value_valid',
      sql`(${t.kind} = 'percentage' and ${t.value} between 1 and 100) or (${t.kind} = 'fixed' and ${t.value} > 0) or (${t.kind} = 'free_shipping' and ${t.value} = 0) or (${t.kind} = 'sale' and ${t.value} between 1 and 99)`,
    ),
    // A code has a code; a sale has none, and runs from a start to an end.
    check(
      'promotions_sale_shape',
      sql`(${t.kind} = 'sale') = (${t.code} is null) and (${t.kind} <> 'sale' or (${t.startsAt} is not null and ${t.endsAt} is not null))`,
    ),
    // The catalogue reads the sales that have not ended.
    index('promotions_sales_idx')
      .on(t.endsAt)
      .where(sql`${t.kind} = 'sale'`),
    check('promotions_used_non_negative', sql`${t.used} >= 0`),
    check(
      'promotions_limits_positive',
      sql`coalesce(${t.usageLimit}, 1) >= 1 and coalesce(${t.perCustomerLimit}, 1) >= 1 and coalesce(${t.minSubtotalCents}, 0) >= 0`,
    ),
  ],
);

/**
 * One use of a code by one order: reserved when the order is placed, released (`released_at`) when it
 * expires or is cancelled. One code per order (unique order id), so a retry cannot use a code twice.
 */
export const promotionUses = pgTable(
  'promotion_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promotionId: uuid('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('promotion_uses_order_unique').on(t.orderId),
    index('promotion_uses_customer_idx')
      .on(t.promotionId, t.userId)
      .where(sql`${t.releasedAt} is null`),
  ],
);

export type PromotionRow = typeof promotions.$inferSelect;

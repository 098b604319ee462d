import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, smallint, timestamp, uuid } from 'drizzle-orm/pg-core';
import { productVariants, products } from './products.js';
import { users } from './users.js';

/**
 * Issue 34: a logged-in shopper's cart. The row is what every write to the cart locks first (an
 * upsert, so the first write creates it), and `version` counts those writes: two writes at once run
 * one after the other, and the later one's lines are the cart (never a mix).
 */
export const carts = pgTable(
  'carts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('carts_version_non_negative', sql`${t.version} >= 0`)],
);

/**
 * A cart's lines: one per variant (a variant is one product's), in the order the shopper put them.
 * `added_price_cents` is what the line cost when it was first added (the sale price if one ran), kept
 * while the line stays, so the cart can say the price changed since. A removed product or variant
 * stays until the next write (the answer leaves it out and says so); deleting one for good takes its
 * lines with it.
 */
export const cartItems = pgTable(
  'cart_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => carts.userId, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    qty: smallint('qty').notNull(),
    addedPriceCents: integer('added_price_cents').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'cart_items_pkey', columns: [t.userId, t.variantId] }),
    // MAX_CART_LINES lines of 1 to MAX_LINE_QUANTITY each (packages/shared schemas/cart.ts).
    check('cart_items_qty_range', sql`${t.qty} between 1 and 99`),
    check('cart_items_position_range', sql`${t.position} between 0 and 49`),
    check('cart_items_added_price_non_negative', sql`${t.addedPriceCents} >= 0`),
    // Deleting a product or variant for good finds its cart lines by these.
    index('cart_items_product_idx').on(t.productId),
    index('cart_items_variant_idx').on(t.variantId),
  ],
);

export type CartRow = typeof carts.$inferSelect;
export type CartItemRow = typeof cartItems.$inferSelect;

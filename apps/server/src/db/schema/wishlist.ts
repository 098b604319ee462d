import { index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { products } from './products.js';
import { users } from './users.js';

/**
 * Issue 34: the products a logged-in shopper keeps for later, at most MAX_WISHLIST_ITEMS (packages/shared
 * schemas/wishlist.ts) counted under the user's row lock. A removed product stays (not shown, not
 * counted) until the shopper removes it or the product is deleted for good.
 */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'wishlist_items_pkey', columns: [t.userId, t.productId] }),
    // Deleting a product for good finds its rows by this; so will "most wished" counts.
    index('wishlist_items_product_idx').on(t.productId),
  ],
);

export type WishlistItemRow = typeof wishlistItems.$inferSelect;

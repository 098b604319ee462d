import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    priceCents: integer('price_cents').notNull(),
    stock: integer('stock').notNull(),
    // Tenths of a star (0..50): the spec's rating has one decimal, and integers compare exactly.
    ratingTenths: smallint('rating_tenths').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    // Orders will keep pointing at a removed product, so removal is a soft delete.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'products_category_valid',
      sql`${t.category} in ('retro-games', 'board-games', 'puzzles', 'consoles')`,
    ),
    check('products_price_non_negative', sql`${t.priceCents} >= 0`),
    check('products_stock_non_negative', sql`${t.stock} >= 0`),
    check('products_rating_range', sql`${t.ratingTenths} between 0 and 50`),
    check('products_review_count_non_negative', sql`${t.reviewCount} >= 0`),
    index('products_category_idx').on(t.category),
    index('products_name_lower_idx').on(sql`lower(${t.name})`),
    index('products_name_id_idx').on(t.name, t.id),
    // Issue 13, large catalogues: a category page reads its products in the list's order (name, id)
    // straight from this index, and name search (ILIKE '%q%') uses trigrams instead of reading every row.
    index('products_live_category_name_idx')
      .on(t.category, t.name, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('products_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    url: text('url').notNull(),
  },
  (t) => [
    uniqueIndex('product_images_product_position_unique').on(t.productId, t.position),
    check('product_images_position_range', sql`${t.position} between 0 and 3`),
  ],
);

export const productReviews = pgTable(
  'product_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    authorName: text('author_name').notNull(),
    // Tenths, like products.rating_tenths, so a 4.5-star review is representable.
    ratingTenths: smallint('rating_tenths').notNull(),
    comment: text('comment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('product_reviews_product_idx').on(t.productId),
    check('product_reviews_rating_range', sql`${t.ratingTenths} between 0 and 50`),
  ],
);

export type ProductRow = typeof products.$inferSelect;

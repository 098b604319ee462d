import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

export interface ProductOption {
  name: string;
  values: string[];
}

/** `{ "": [cheapest, cheapestInStock], "Loose": [...] }`, cents; null when no such variant is in stock. */
export type SearchFacts = Record<string, [number, number | null]>;

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    /** Issue 33: what it runs on ("Nintendo 64"), set by the admin; null when none. */
    platform: text('platform'),
    /**
     * Issue 33, what search reads: the name and platform, and the description, folded (lower case,
     * accents off, by pv_fold in migration 0021), kept by PostgreSQL itself on every write.
     */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL => sql`pv_fold(name || coalesce(' ' || platform, ''))`,
    ),
    searchDescription: text('search_description').generatedAlwaysAs((): SQL => sql`pv_fold(description)`),
    /**
     * Issue 33, what filters and sorts read instead of probing the variants of every product: the
     * cheapest price of its live variants and of those in stock (null: none), over all of them (key
     * "") and per value of its Condition option. Kept by PostgreSQL (migration 0022): a trigger on
     * product_variants, deferred to the commit, so it locks the product row after the variants.
     */
    searchFacts: jsonb('search_facts').$type<SearchFacts>().notNull().default({}),
    /** The same facts over all its variants, as columns: what most filters and sorts compare. */
    cheapestCents: integer('cheapest_cents'),
    cheapestInStockCents: integer('cheapest_in_stock_cents'),
    /**
     * The product's options and their values in order (`[{ name: "Condition", values: ["Loose",
     * "Complete in box"] }]`), `[]` for a product sold in one form (issue 31). Price and stock are the
     * variants' (product_variants): a product has no price or stock of its own (decision 007).
     */
    options: jsonb('options').$type<ProductOption[]>().notNull().default([]),
    // Tenths of a star (0..50): the spec's rating has one decimal, and integers compare exactly.
    // Both numbers are computed from the visible reviews (issue 14), never typed in by an admin.
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
    // Issue 33: search by substring or by typo (word similarity) reads trigrams, not every row.
    index('products_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('products_search_description_trgm_idx').using('gin', sql`${t.searchDescription} gin_trgm_ops`),
    index('products_platform_idx').on(sql`lower(${t.platform})`),
    // And products_facts_cover_idx (migration 0024, written by hand: Drizzle has no INCLUDE), what
    // the facets and filtered counts read of every live product, for index-only scans.
  ],
);

/**
 * What is sold (issue 31, decision 007): one combination of the product's option values, with its own
 * SKU, price and stock. Every product has at least one live variant; the live one at position 0 is its
 * default, whose price and stock are the spec's `productPrice` and `stockQuantity`, and which an order
 * line naming only the product buys. A variant that orders point at is archived, never deleted.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    sku: text('sku').notNull(),
    /** Its value of each of the product's options (`{ "Condition": "Loose" }`); `{}` without options. */
    options: jsonb('options').$type<Record<string, string>>().notNull().default({}),
    priceCents: integer('price_cents').notNull(),
    stock: integer('stock').notNull(),
    /** Issue 35: store credit the shop offers per unit in a trade-in, in cents; null = not bought. */
    tradeInCreditCents: integer('trade_in_credit_cents'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('product_variants_price_non_negative', sql`${t.priceCents} >= 0`),
    check('product_variants_stock_non_negative', sql`${t.stock} >= 0`),
    check(
      'product_variants_trade_in_credit_non_negative',
      sql`${t.tradeInCreditCents} is null or ${t.tradeInCreditCents} >= 0`,
    ),
    // 0..99 for at most 100 live variants; 100..199 is where a write parks the variants it reorders
    // (products.variants.ts), as the live positions are unique at every statement, not at commit.
    check('product_variants_position_range', sql`${t.position} between 0 and 199`),
    check('product_variants_sku_length', sql`char_length(${t.sku}) between 1 and 64`),
    // SKUs are unique across the shop, archived ones included (an order's line may still name one).
    uniqueIndex('product_variants_sku_lower_unique').on(sql`lower(${t.sku})`),
    // The live variants of a product in order: the default (position 0) is read by this index.
    uniqueIndex('product_variants_live_position_unique')
      .on(t.productId, t.position)
      .where(sql`${t.archivedAt} is null`),
    uniqueIndex('product_variants_live_options_unique')
      .on(t.productId, t.options)
      .where(sql`${t.archivedAt} is null`),
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

/**
 * Reviews from verified buyers (issue 14): one per customer and product, whole stars. The product's
 * rating_tenths and review_count are computed from the visible (not hidden) rows, in the transaction
 * of every change (modules/reviews). A deleted customer's reviews stay, without an author (user_id
 * NULL, shown as a former customer): their numbers do not move (docs/reviews.md).
 */
export const productReviews = pgTable(
  'product_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    rating: smallint('rating').notNull(),
    title: text('title').notNull(),
    comment: text('comment').notNull(),
    /** The admin's moderation (PUT .../hide): kept apart from the buyer's orders. */
    hiddenByAdmin: boolean('hidden_by_admin').notNull().default(false),
    /**
     * False while the author has no order of the product that counts (paid, delivered or partially
     * refunded): set when their last one is cancelled or refunded in full, true again when they edit it
     * after buying the product again (issue 28, docs/reviews.md).
     */
    verifiedBuyer: boolean('verified_buyer').notNull().default(true),
    /**
     * Not shown to the public: hidden by an admin, or no longer from a verified buyer. Computed by the
     * database, so every public read and count (`not hidden`) follows both.
     */
    hidden: boolean('hidden')
      .notNull()
      .generatedAlwaysAs(sql`"hidden_by_admin" or not "verified_buyer"`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // NULLs are distinct: any number of former customers' reviews, one per current customer.
    uniqueIndex('product_reviews_product_user_unique').on(t.productId, t.userId),
    // A product's reviews newest first (the default sort and the product page's newest five).
    index('product_reviews_product_created_idx').on(t.productId, t.createdAt.desc(), t.id.desc()),
    index('product_reviews_user_idx').on(t.userId),
    check('product_reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('product_reviews_title_length', sql`char_length(${t.title}) between 1 and 120`),
    check('product_reviews_comment_length', sql`char_length(${t.comment}) between 1 and 4000`),
  ],
);

/**
 * `<alias>` is a product's default variant (issue 31): live, at position 0. The one spelling of it in
 * SQL, beside the partial unique index that makes it one row per product.
 */
export function isDefaultVariant(alias: string): SQL {
  const v = sql.identifier(alias);
  return sql`${v}.position = 0 and ${v}.archived_at is null`;
}

export type ProductReviewRow = typeof productReviews.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type ProductVariantRow = typeof productVariants.$inferSelect;

/**
 * The SKU a new product's first variant gets until an admin names one (issue 31): PV- and every hex
 * digit of the product's id, so two products can never be given the same one (SKUs are unique). The
 * products that were there before variants got 12 digits from migration 0015, which settled its own
 * ties; a shorter form here could meet one of those, or another new product's, and fail the write.
 */
export function defaultSku(productId: string): string {
  return `PV-${productId.replace(/-/g, '').toUpperCase()}`;
}

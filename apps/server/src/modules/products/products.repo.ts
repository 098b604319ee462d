import { type SQL, and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type Category,
  PRODUCT_PAGE_REVIEWS,
  type Product,
  type ProductOption,
  type ProductVariant,
  reviewerName,
  toDollars,
} from '@pixel-vault/shared';
import type { Executor } from '../../db/client.js';
import {
  type ProductRow,
  productImages,
  productReviews,
  productVariants,
  products,
  users,
} from '../../db/schema/index.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import { type SaleTerms, priceUnder } from '../promotions/promotions.sales.js';

// The catalogue's queries and the one mapping of a product row to the spec's Product (split from
// products.service.ts, issue 28).

/** A variant as the API answers it (issue 31): dollars, `_id`, the spec's `stockQuantity`. */
function toVariantDto(v: VariantJson, terms?: SaleTerms): ProductVariant {
  return {
    _id: v.id,
    sku: v.sku,
    options: v.options,
    price: toDollars(priceUnder(v.priceCents, terms)),
    stockQuantity: v.stock,
    // Issue 32: while a sale runs, the regular price beside the sale price.
    ...(terms ? { compareAtPrice: toDollars(v.priceCents) } : {}),
    // Issue 35: what the shop pays in store credit for one, never on sale.
    tradeInCredit: v.tradeInCreditCents === null ? null : toDollars(v.tradeInCreditCents),
  };
}

/**
 * What the audit log keeps of a product: the spec's fields (price and stock: its default variant's),
 * and its options and live variants (issue 31).
 */
export async function auditView(tx: Executor, row: ProductRow) {
  const images = await tx
    .select({ url: productImages.url })
    .from(productImages)
    .where(eq(productImages.productId, row.id))
    .orderBy(asc(productImages.position));
  const variants = await tx
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, row.id), isNull(productVariants.archivedAt)))
    .orderBy(asc(productVariants.position));
  const variant = variants[0];
  if (!variant) throw new Error(`Product ${row.id} has no live variant`);
  return {
    productName: row.name,
    productCategory: row.category,
    platform: row.platform,
    productDescription: row.description,
    productPrice: toDollars(variant.priceCents),
    stockQuantity: variant.stock,
    productRating: row.ratingTenths / 10,
    reviewCount: row.reviewCount,
    productImage: images.map((i) => i.url),
    options: row.options,
    variants: variants.map((v) => toVariantDto(v)),
  };
}

/** `%`, `_` and `\` are LIKE syntax; a shopper searching for "100%" means the character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

interface ReviewJson {
  id: string;
  /** The author's full name; null when they deleted their account. */
  name: string | null;
  rating: number;
  title: string;
  comment: string;
  createdAt: string;
  updatedAt: string;
}

// Drizzle leaves columns unqualified in a single-table select, which inside a correlated
// subquery would bind to the inner table; so the subqueries name every column explicitly.
const outerId = sql`${products}.${sql.identifier(products.id.name)}`;

const isoUtc = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A live variant as the product queries read it (issue 31). */
interface VariantJson {
  id: string;
  sku: string;
  options: Record<string, string>;
  priceCents: number;
  stock: number;
  /** Issue 35: null when the shop does not buy it. */
  tradeInCreditCents: number | null;
}

/**
 * True when no live variant of the product has stock: listed after the others (issue 30). Read from the
 * product's search facts (issue 33, kept by a trigger on its variants), not a probe of its variants.
 */
export const SOLD_OUT = sql`${products.cheapestInStockCents} is null`;

/**
 * One row per product with its images aggregated in a correlated subquery, so a page of products
 * costs one query however many products it holds (no N+1). Lists carry no reviews (issue 14: the
 * whole-catalogue answer stays small); the product's own page adds its newest visible ones.
 */
export const productColumns = {
  id: products.id,
  name: products.name,
  description: products.description,
  category: products.category,
  platform: products.platform,
  options: products.options,
  // The live variants by position, read by the index on (product, position): the first is the default.
  variants: sql<VariantJson[]>`(select json_agg(json_build_object(
        'id', v.id, 'sku', v.sku, 'options', v.options, 'priceCents', v.price_cents, 'stock', v.stock,
        'tradeInCreditCents', v.trade_in_credit_cents
      ) order by v.position)
      from ${productVariants} v where v.product_id = ${outerId} and v.archived_at is null)`,
  ratingTenths: products.ratingTenths,
  reviewCount: products.reviewCount,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  images: sql<string[]>`coalesce((
      select json_agg(i.url order by i.position)
      from ${productImages} i where i.product_id = ${outerId}
    ), '[]'::json)`,
};

/** The product page's columns: the newest PRODUCT_PAGE_REVIEWS visible reviews ride along (issue 14). */
export const productPageColumns = {
  ...productColumns,
  reviews: sql<ReviewJson[]>`coalesce((
      select json_agg(json_build_object(
        'id', r.id, 'name', u.name, 'rating', r.rating,
        'title', r.title, 'comment', r.comment,
        'createdAt', ${isoUtc(sql`r.created_at`)}, 'updatedAt', ${isoUtc(sql`r.updated_at`)}
      ) order by r.created_at desc, r.id desc)
      from (
        select * from ${productReviews} r0
        where r0.product_id = ${outerId} and not r0.hidden
        order by r0.created_at desc, r0.id desc
        limit ${sql.raw(String(PRODUCT_PAGE_REVIEWS))}
      ) r left join ${users} u on u.id = r.user_id
    ), '[]'::json)`,
};

export type ProductQueryRow = {
  id: string;
  name: string;
  description: string;
  category: string;
  platform: string | null;
  options: ProductOption[];
  variants: VariantJson[];
  ratingTenths: number;
  reviewCount: number;
  createdAt: Date;
  updatedAt: Date;
  images: string[];
  /** Only on the product page's query; lists answer `reviews: []`. */
  reviews?: ReviewJson[];
};

/**
 * The one place a product row becomes the spec's Product (prices in dollars, `_id`, rating 0..5).
 * `terms`: the sale running on it now (issue 32): every price is the sale price, beside the regular
 * one (`compareAtPrice`).
 */
export function toProductDto(
  row: ProductQueryRow,
  publicUrl: PublicUrlOf = relativeUrls,
  terms?: SaleTerms,
): Product {
  const variants = row.variants;
  const first = variants[0];
  if (!first) throw new Error(`Product ${row.id} has no live variant`);
  let min = first.priceCents;
  let max = first.priceCents;
  for (const v of variants) {
    if (v.priceCents < min) min = v.priceCents;
    if (v.priceCents > max) max = v.priceCents;
  }
  return {
    _id: row.id,
    productName: row.name,
    productDescription: row.description,
    // The spec's price and stock: the default variant's (issue 31).
    productPrice: toDollars(priceUnder(first.priceCents, terms)),
    productCategory: row.category as Category,
    platform: row.platform,
    productImage: row.images.map(publicUrl),
    stockQuantity: first.stock,
    productRating: row.ratingTenths / 10,
    reviewCount: row.reviewCount,
    reviews: (row.reviews ?? []).map((r) => ({
      _id: r.id,
      productId: row.id,
      name: reviewerName(r.name),
      rating: r.rating,
      title: r.title,
      comment: r.comment,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      verifiedBuyer: true,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    options: row.options,
    variants: variants.map((v) => toVariantDto(v, terms)),
    priceRange: { min: toDollars(priceUnder(min, terms)), max: toDollars(priceUnder(max, terms)) },
    ...(terms ? { compareAtPrice: toDollars(first.priceCents), saleEndsAt: terms.endsAt.toISOString() } : {}),
  };
}

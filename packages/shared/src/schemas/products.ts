import { z } from 'zod';
import { CATEGORIES } from '../categories.js';
import { optionalPagingQuery } from './common.js';
import { Review } from './reviews.js';

export const Category = z.enum(CATEGORIES, { message: `Category must be one of ${CATEGORIES.join(', ')}` });
export type Category = z.infer<typeof Category>;

export const PRODUCTS_DEFAULT_LIMIT = 24;
export const PRODUCTS_MAX_LIMIT = 100;

/**
 * GET /api/products?category=&q=&page=&limit=. Without page and limit: every matching product as an
 * array (spec section 7); with either: that page in a ProductListResponse (spec section 3).
 */
export const ProductListQuery = z.object({
  category: Category.optional(),
  q: z.string().trim().max(100, { message: 'Search is at most 100 characters' }).optional(),
  ...optionalPagingQuery(PRODUCTS_MAX_LIMIT),
});
export type ProductListQuery = z.infer<typeof ProductListQuery>;

/** One of a product's options and its values in order (issue 31): `Condition: Loose, Complete in box`. */
export const ProductOption = z.object({ name: z.string(), values: z.array(z.string()) });
export type ProductOption = z.infer<typeof ProductOption>;

/**
 * What is sold (issue 31): one combination of the product's option values (`{ Condition: "Loose" }`;
 * `{}` for a product without options), with its own SKU, price (dollars) and stock.
 */
export const ProductVariant = z.object({
  _id: z.string(),
  sku: z.string(),
  options: z.record(z.string(), z.string()),
  price: z.number(),
  stockQuantity: z.number().int(),
  /** Issue 32: while a sale runs, the regular price (`price` is the sale price); absent otherwise. */
  compareAtPrice: z.number().optional(),
});
export type ProductVariant = z.infer<typeof ProductVariant>;

/**
 * A variant's option values in the order of the product's options, joined: `Complete in box / PAL`;
 * empty for a product without options. What order lines keep as `variantTitle`.
 */
export function variantTitle(options: readonly ProductOption[], values: Readonly<Record<string, string>>) {
  return options
    .map((option) => values[option.name])
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(' / ');
}

/** A line's name as people read it (mails, messages, CSV): the product's, with its variant's title. */
export function nameWithVariant(name: string, title: string): string {
  return title ? `${name} (${title})` : name;
}

/**
 * Product as the API answers it (spec section 3), prices in dollars. `productPrice` and
 * `stockQuantity` are its default variant's (the first of `variants`, issue 31): a client written to
 * the spec sees, and buys, that one.
 */
export const Product = z.object({
  _id: z.string(),
  productName: z.string(),
  productDescription: z.string(),
  productPrice: z.number(),
  productCategory: Category,
  productImage: z.array(z.string()),
  stockQuantity: z.number().int(),
  productRating: z.number(),
  reviewCount: z.number().int(),
  /**
   * GET /api/products/:id: the newest PRODUCT_PAGE_REVIEWS visible reviews (issue 14); product lists: [].
   * The spec's review fields (_id, name, rating, comment, createdAt) keep their meaning.
   */
  reviews: z.array(Review),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Issue 31: the product's options (`[]` without), its live variants by position, their price range. */
  options: z.array(ProductOption),
  variants: z.array(ProductVariant),
  priceRange: z.object({ min: z.number(), max: z.number() }),
  /**
   * Issue 32, only while a scheduled sale runs on the product: its default variant's regular price
   * (`productPrice` and each variant's `price` are then the sale prices), and when the sale ends.
   */
  compareAtPrice: z.number().optional(),
  saleEndsAt: z.string().optional(),
});
export type Product = z.infer<typeof Product>;

/** GET /api/products without paging: every product (spec section 7, "array of products"). */
export const ProductList = z.array(Product);
export type ProductList = z.infer<typeof ProductList>;

/** GET /api/products?page=&limit=: one page (spec section 3, "paged with page and totalPage"). */
export const ProductListResponse = z.object({
  products: z.array(Product),
  page: z.number().int(),
  totalPage: z.number().int(),
  total: z.number().int(),
});
export type ProductListResponse = z.infer<typeof ProductListResponse>;

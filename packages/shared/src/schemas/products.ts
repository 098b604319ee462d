import { z } from 'zod';
import { CATEGORIES } from '../categories.js';
import { optionalPagingQuery } from './common.js';
import { Review } from './reviews.js';

export const Category = z.enum(CATEGORIES, { message: `Category must be one of ${CATEGORIES.join(', ')}` });
export type Category = z.infer<typeof Category>;

export const PRODUCTS_DEFAULT_LIMIT = 24;
export const PRODUCTS_MAX_LIMIT = 100;

/** How a product list may be ordered (issue 33). Ties are broken by id, so pages never repeat or skip. */
export const PRODUCT_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating', 'name'] as const;
export const ProductSort = z.enum(PRODUCT_SORTS, {
  message: `sort must be one of ${PRODUCT_SORTS.join(', ')}`,
});
export type ProductSort = z.infer<typeof ProductSort>;

/** A product's platform (issue 33): "Nintendo 64", "Sega Mega Drive"; free text the admin sets. */
export const PLATFORM_MAX = 60;
export const Platform = z
  .string({ message: 'Send one platform' })
  .trim()
  .min(1, { message: 'Platform cannot be empty' })
  .max(PLATFORM_MAX, { message: `Platform is at most ${PLATFORM_MAX} characters` });

/** The search text: the spec's category search box and the shop-wide search (issue 33). */
export const SEARCH_MAX = 100;
/** Spaces inside are collapsed: "star  fox" is "star fox" (its ranking, its cache entry). */
const SearchText = z
  .string({ message: 'Send the search text once' })
  .trim()
  .max(SEARCH_MAX, { message: `Search is at most ${SEARCH_MAX} characters` })
  .transform((text) => text.replace(/\s+/g, ' '));

/** A filter sent empty or blank (a form's untouched field) is a filter not sent. */
const unlessEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

/** A price bound in dollars, as a query string: 0 or more, at most two decimals. */
const priceBound = (name: string) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .finite({ message: `${name} must be a number` })
    .min(0, { message: `${name} cannot be negative` })
    .max(1_000_000, { message: `${name} is at most 1000000` });

/**
 * The filters of a product list and of its facets (issue 33), all optional and combinable: none sent
 * is the spec's list. `inStock` is the query string `true` (or `false`, the same as leaving it out).
 */
export const productFilterFields = {
  category: unlessEmpty(Category),
  q: SearchText.optional(),
  platform: unlessEmpty(Platform),
  /** A value of the variants' option named Condition (issue 31): "Loose", "Complete in box". */
  condition: unlessEmpty(z.string({ message: 'Send one condition' }).trim().min(1).max(60)),
  inStock: unlessEmpty(
    z.enum(['true', 'false'], { message: 'inStock must be true or false' }).transform((v) => v === 'true'),
  ),
  minPrice: unlessEmpty(priceBound('minPrice')),
  maxPrice: unlessEmpty(priceBound('maxPrice')),
};

const boundsInOrder = (query: { minPrice?: number | undefined; maxPrice?: number | undefined }) =>
  query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice;
const BOUNDS_MESSAGE = { message: 'minPrice cannot be more than maxPrice', path: ['minPrice'] };

/**
 * GET /api/products?category=&q=&page=&limit= (spec) and, beside them (issue 33), platform, condition,
 * inStock, minPrice, maxPrice and sort. Without page and limit: every matching product as an array
 * (spec section 7); with either: that page in a ProductListResponse (spec section 3).
 */
export const ProductListQuery = z
  .object({
    ...productFilterFields,
    sort: unlessEmpty(ProductSort),
    ...optionalPagingQuery(PRODUCTS_MAX_LIMIT),
  })
  .refine(boundsInOrder, BOUNDS_MESSAGE);
export type ProductListQuery = z.infer<typeof ProductListQuery>;
/** What a caller may send (the query string's form: inStock as text). */
export type ProductListQueryInput = z.input<typeof ProductListQuery>;

/** GET /api/products/facets: the list's filters (issue 33). */
export const ProductFacetsQuery = z.object(productFilterFields).refine(boundsInOrder, BOUNDS_MESSAGE);
export type ProductFacetsQuery = z.infer<typeof ProductFacetsQuery>;

/** One value of a facet and how many products the list would hold with it chosen, the other filters kept. */
export const FacetCount = z.object({ value: z.string(), count: z.number().int() });
export type FacetCount = z.infer<typeof FacetCount>;

/**
 * GET /api/products/facets (issue 33). `total`: the products the filters match. Each facet's counts
 * are what the list would hold with that value chosen instead, the other filters kept; `price`: the
 * cheapest and dearest matching price with the price bounds left out (null when nothing matches);
 * `inStock`: how many would match with inStock=true.
 */
export const ProductFacets = z.object({
  total: z.number().int(),
  categories: z.array(FacetCount),
  platforms: z.array(FacetCount),
  conditions: z.array(FacetCount),
  price: z.object({ min: z.number(), max: z.number() }).nullable(),
  inStock: z.number().int(),
});
export type ProductFacets = z.infer<typeof ProductFacets>;

/** GET /api/products/suggest?q=: at most SUGGEST_MAX products for a search box (issue 33). */
export const SUGGEST_MAX = 8;
/** Suggestions start at the second character; a shorter text answers []. */
export const SUGGEST_MIN_CHARS = 2;
export const ProductSuggestQuery = z.object({ q: SearchText.default('') });
export type ProductSuggestQuery = z.infer<typeof ProductSuggestQuery>;
export const ProductSuggestion = z.object({
  _id: z.string(),
  productName: z.string(),
  productCategory: Category,
  platform: z.string().nullable(),
  image: z.string().nullable(),
  /** Dollars: the default variant's price, the sale price while a sale runs. */
  price: z.number(),
});
export type ProductSuggestion = z.infer<typeof ProductSuggestion>;
export const ProductSuggestions = z.array(ProductSuggestion);

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
  /** Issue 35: the store credit offered per unit in a trade-in, dollars; null when the shop does not buy it. */
  tradeInCredit: z.number().nullable(),
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
  /** Issue 33: the platform it runs on ("Nintendo 64"); null when none is set. */
  platform: z.string().nullable(),
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

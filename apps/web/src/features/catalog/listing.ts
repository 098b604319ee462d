import {
  PRODUCT_SORTS,
  categoryTitle,
  formatDollars,
  isCategory,
  type Category,
  type FacetCount,
  type Product,
  type ProductSort,
} from '@pixel-vault/shared';
import { filterParams, type ProductFilters, type ProductListArgs } from './api';

/**
 * Issue 33: what a product list shows (a category page, the search page), as its URL holds it, so a
 * shared link, a reload and Back show the same list. One reader (`readListing`) and one writer
 * (`listingSearch`, in `filterParams()`'s order) keep the same list at the same URL.
 */
export interface Listing {
  category?: Category | undefined;
  /** The search text, trimmed ('' for none). */
  q: string;
  platform?: string | undefined;
  condition?: string | undefined;
  inStock: boolean;
  /** Dollars. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  /** Undefined: the server's default (relevance with a search text, name without). */
  sort?: ProductSort | undefined;
  page: number;
}

/** The filters a shopper chooses (and removes as chips); the search text and the sort are not. */
export type FilterKey = 'category' | 'platform' | 'condition' | 'inStock' | 'price';

export const LISTING_PAGE_SIZE = 24;
/** The largest price bound the API takes (ProductListQuery). */
export const PRICE_MAX = 1_000_000;

/** "1 product", "12 products". */
export const productCount = (count: number) => (count === 1 ? '1 product' : `${count} products`);

/** The page number in `?page=` (1 when absent or not a whole number above 0). */
export function pageParam(value: string | null): number {
  return Math.max(1, Math.trunc(Number(value)) || 1);
}

/** The order a list gets when none is chosen (the server's rule, products.search.ts `sortOf`). */
export function defaultSort(q: string): ProductSort {
  return q ? 'relevance' : 'name';
}

/** The order shown in the sort menu. */
export function shownSort(listing: Pick<Listing, 'q' | 'sort'>): ProductSort {
  return listing.sort ?? defaultSort(listing.q);
}

/** A chosen sort as kept: undefined when it is the default, or relevance without a search text. */
function keptSort(sort: ProductSort | undefined, q: string): ProductSort | undefined {
  if (sort === undefined || sort === defaultSort(q) || (sort === 'relevance' && !q)) return undefined;
  return sort;
}

const isSort = (value: string | null): value is ProductSort =>
  value !== null && (PRODUCT_SORTS as readonly string[]).includes(value);

function textParam(value: string | null): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

function priceParam(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const price = Number(value);
  return Number.isFinite(price) && price >= 0 && price <= PRICE_MAX ? price : undefined;
}

/**
 * The list a URL's query asks for. `category`: the page's own (a category page's path), which the
 * query cannot change; without it, `?category=` is one more filter (the search page). What the API
 * would refuse is left out (an unknown sort, a price that is no number, bounds the wrong way round).
 */
export function readListing(params: URLSearchParams, category?: Category): Listing {
  const asked = params.get('category') ?? '';
  const q = textParam(params.get('q')) ?? '';
  let minPrice = priceParam(params.get('minPrice'));
  let maxPrice = priceParam(params.get('maxPrice'));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    minPrice = undefined;
    maxPrice = undefined;
  }
  const sort = params.get('sort');
  return {
    category: category ?? (isCategory(asked) ? asked : undefined),
    q,
    platform: textParam(params.get('platform')),
    condition: textParam(params.get('condition')),
    inStock: params.get('inStock') === 'true',
    minPrice,
    maxPrice,
    sort: keptSort(isSort(sort) ? sort : undefined, q),
    page: pageParam(params.get('page')),
  };
}

/**
 * The query string of a list: the filters in `filterParams()`'s order, then the sort (when not the
 * default) and the page (after the first). `categoryInPath`: a category page's category is its path.
 */
export function listingSearch(listing: Listing, { categoryInPath }: { categoryInPath: boolean }): string {
  const search = new URLSearchParams();
  const filters = filterParams({
    ...filtersOf(listing),
    category: categoryInPath ? undefined : listing.category,
  });
  for (const [name, value] of Object.entries(filters)) search.append(name, String(value));
  const sort = keptSort(listing.sort, listing.q);
  if (sort) search.append('sort', sort);
  if (listing.page > 1) search.append('page', String(listing.page));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The list's filters, as the API takes them (the facets' argument). */
export function filtersOf(listing: Listing): ProductFilters {
  return {
    category: listing.category,
    q: listing.q || undefined,
    platform: listing.platform,
    condition: listing.condition,
    inStock: listing.inStock || undefined,
    minPrice: listing.minPrice,
    maxPrice: listing.maxPrice,
  };
}

/** The list call of a page: the server's render makes the same one, so the browser finds it cached. */
export function listQuery(listing: Listing): ProductListArgs {
  return { ...filtersOf(listing), sort: listing.sort, page: listing.page, limit: LISTING_PAGE_SIZE };
}

/**
 * What a page's facet values are read from when nothing is chosen: the category of a category page,
 * the search text of the search page. A value the chosen filters leave out is still offered from it,
 * with a count of 0 (and disabled). Without filters, the same call as `filtersOf` (one request).
 */
export function scopeFilters(listing: Listing, categoryPage: boolean): ProductFilters {
  return categoryPage ? { category: listing.category } : { q: listing.q || undefined };
}

/** A facet's values: those of the page's scope and of the current filters, with the current counts. */
export function facetValues(
  scope: readonly FacetCount[] | undefined,
  current: readonly FacetCount[] | undefined,
  chosen?: string,
): FacetCount[] {
  const counts = new Map((current ?? []).map((facet) => [facet.value, facet.count]));
  const values = new Set([...(scope ?? []).map((facet) => facet.value), ...counts.keys()]);
  if (chosen) values.add(chosen);
  return [...values]
    .sort((a, b) => a.localeCompare(b, 'en'))
    .map((value) => ({ value, count: counts.get(value) ?? 0 }));
}

/** The option whose values the condition filter chooses (the server's `condition`, issue 31's tiers). */
export const CONDITION_OPTION = 'Condition';

/**
 * A product as a list filtered by condition or stock shows it: priced, as the server sorts and bounds
 * it, by its variants of that condition (in stock when asked), not by every variant: with "Complete in
 * box" chosen, a card's "from $24.49" of a loose copy would be out of the list's price order.
 */
export function asListed(product: Product, listing: Pick<Listing, 'condition' | 'inStock'>): Product {
  if (!listing.condition && !listing.inStock) return product;
  const variants = product.variants.filter(
    (variant) =>
      (!listing.condition || variant.options[CONDITION_OPTION] === listing.condition) &&
      (!listing.inStock || variant.stockQuantity > 0),
  );
  if (variants.length === 0 || variants.length === product.variants.length) return product;
  const cheapest = variants.reduce((low, variant) => (variant.price < low.price ? variant : low));
  const prices = variants.map((variant) => variant.price);
  return {
    ...product,
    variants,
    productPrice: cheapest.price,
    stockQuantity: cheapest.stockQuantity,
    priceRange: { min: Math.min(...prices), max: Math.max(...prices) },
    // During a sale: the regular price of the one now shown.
    ...(product.compareAtPrice !== undefined && {
      compareAtPrice: cheapest.compareAtPrice ?? cheapest.price,
    }),
  };
}

/** How a price filter reads: "$10.00 – $50.00", "from $10.00", "up to $50.00". */
export function priceText(minPrice: number | undefined, maxPrice: number | undefined): string {
  if (minPrice !== undefined && maxPrice !== undefined)
    return `${formatDollars(minPrice)} – ${formatDollars(maxPrice)}`;
  if (minPrice !== undefined) return `from ${formatDollars(minPrice)}`;
  return `up to ${formatDollars(maxPrice ?? 0)}`;
}

export interface FilterChip {
  key: FilterKey;
  /** "Platform: Nintendo 64". */
  label: string;
  /** The listing's fields without this filter. */
  without: Partial<Listing>;
}

/** The chosen filters, one chip each, in the panel's order. `categoryPage`: the category is the page's. */
export function filterChips(listing: Listing, { categoryPage }: { categoryPage: boolean }): FilterChip[] {
  const chips: FilterChip[] = [];
  if (listing.category && !categoryPage)
    chips.push({
      key: 'category',
      label: `Category: ${categoryTitle(listing.category)}`,
      without: { category: undefined },
    });
  if (listing.platform)
    chips.push({ key: 'platform', label: `Platform: ${listing.platform}`, without: { platform: undefined } });
  if (listing.condition)
    chips.push({
      key: 'condition',
      label: `Condition: ${listing.condition}`,
      without: { condition: undefined },
    });
  if (listing.minPrice !== undefined || listing.maxPrice !== undefined)
    chips.push({
      key: 'price',
      label: `Price: ${priceText(listing.minPrice, listing.maxPrice)}`,
      without: { minPrice: undefined, maxPrice: undefined },
    });
  if (listing.inStock) chips.push({ key: 'inStock', label: 'In stock only', without: { inStock: false } });
  return chips;
}

/** The listing without any filter chosen (the search text and the sort stay). */
export function withoutFilters(listing: Listing, { categoryPage }: { categoryPage: boolean }): Listing {
  return {
    ...listing,
    category: categoryPage ? listing.category : undefined,
    platform: undefined,
    condition: undefined,
    inStock: false,
    minPrice: undefined,
    maxPrice: undefined,
    page: 1,
  };
}

/** Whether the list is narrowed or ordered by the shopper: then it is no page of its own (noindex). */
export function isRefined(listing: Listing, { categoryPage }: { categoryPage: boolean }): boolean {
  return listing.q !== '' || listing.sort !== undefined || filterChips(listing, { categoryPage }).length > 0;
}

export type PriceCheck =
  | { ok: true; minPrice: number | undefined; maxPrice: number | undefined }
  | { ok: false; field: 'min' | 'max'; message: string };

const DOLLARS = /^\d+(\.\d{1,2})?$|^\.\d{1,2}$/;

function readBound(text: string, name: string): { value: number | undefined } | { message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  if (trimmed.startsWith('-')) return { message: `${name} cannot be negative` };
  if (!DOLLARS.test(trimmed)) return { message: `${name} must be an amount in dollars, like 19.99` };
  const value = Number(trimmed);
  if (value > PRICE_MAX) return { message: `${name} is at most ${formatDollars(PRICE_MAX)}` };
  return { value };
}

/** The price inputs' text checked, as the shopper is told (issue 33): each a dollar amount, min ≤ max. */
export function checkPrice(minText: string, maxText: string): PriceCheck {
  const min = readBound(minText, 'Min price');
  if ('message' in min) return { ok: false, field: 'min', message: min.message };
  const max = readBound(maxText, 'Max price');
  if ('message' in max) return { ok: false, field: 'max', message: max.message };
  if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
    return {
      ok: false,
      field: 'min',
      message: `Min price (${formatDollars(min.value)}) is more than max price (${formatDollars(max.value)}): lower the min or raise the max`,
    };
  }
  return { ok: true, minPrice: min.value, maxPrice: max.value };
}

/** A price bound as its input shows it. */
export const priceInputText = (value: number | undefined) => (value === undefined ? '' : String(value));

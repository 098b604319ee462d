import {
  Id,
  PRODUCTS_DEFAULT_LIMIT,
  ProductFacetsQuery,
  ProductListQuery,
  ProductSuggestQuery,
  requestedPage,
} from '@pixel-vault/shared';
import { parseQuery } from '../../lib/querystring.js';
import type { Filters } from './products.search.js';

/** A catalogue GET the cache answers, as its route would read it after validation. */
export type CatalogueUrl =
  | { kind: 'list'; query: ProductListQuery }
  | { kind: 'product'; id: string }
  | { kind: 'facets'; query: ProductFacetsQuery }
  | { kind: 'suggest'; q: string };

const LIST_PATH = '/api/products';
const PRODUCT_PATH = '/api/products/';
const FACETS_PATH = '/api/products/facets';
const SUGGEST_PATH = '/api/products/suggest';

/** Distinct URLs whose reading is kept (each a few hundred bytes): then the oldest half goes. */
const READ_URLS_MAX = 10_000;
const readUrls = new Map<string, CatalogueUrl | null>();

/**
 * What `GET url` asks of the catalogue (path and query as sent), read exactly as the route reads it:
 * the same parser and the same shared schemas. Undefined for anything else, and for anything the
 * route would refuse (its 400 is the route's to give): the caller hands those to fastify.
 *
 * A URL's reading is kept (issue 33): a repeat of any catalogue GET costs a map lookup, not a parse
 * and a validation, however many parameters it has.
 */
export function catalogueUrl(url: string): CatalogueUrl | undefined {
  let read = readUrls.get(url);
  if (read === undefined) {
    read = readUrl(url) ?? null;
    if (readUrls.size >= READ_URLS_MAX) {
      let drop = READ_URLS_MAX / 2;
      for (const key of readUrls.keys()) {
        readUrls.delete(key);
        if (--drop === 0) break;
      }
    }
    readUrls.set(url, read);
  }
  return read ?? undefined;
}

function readUrl(url: string): CatalogueUrl | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? {} : parseQuery(url.slice(queryAt + 1));
  if (path === LIST_PATH) {
    const parsed = ProductListQuery.safeParse(query);
    return parsed.success ? { kind: 'list', query: parsed.data } : undefined;
  }
  if (path === FACETS_PATH) {
    const parsed = ProductFacetsQuery.safeParse(query);
    return parsed.success ? { kind: 'facets', query: parsed.data } : undefined;
  }
  if (path === SUGGEST_PATH) {
    const parsed = ProductSuggestQuery.safeParse(query);
    return parsed.success ? { kind: 'suggest', q: parsed.data.q } : undefined;
  }
  if (queryAt >= 0 || !path.startsWith(PRODUCT_PATH)) return undefined;
  const id = path.slice(PRODUCT_PATH.length);
  return Id.safeParse(id).success ? { kind: 'product', id } : undefined;
}

/** The filters in one fixed order: two queries asking the same thing get one key. */
function filtersKey(f: Filters): string {
  return [
    f.category,
    f.q?.toLowerCase(),
    f.platform?.toLowerCase(),
    f.condition,
    f.inStock,
    f.minPrice,
    f.maxPrice,
  ]
    .map((v) => (v === undefined ? '' : String(v)))
    .join('\u0000');
}

/** The ordered ids of a list, whatever its page: kept per list (products.listing.ts). */
export function idsKey(query: ProductListQuery): string {
  return `${filtersKey(query)}\u0000${query.sort ?? ''}`;
}

/** The cache key of whether a search text matches any product word by word (products.listing.ts). */
export function wordsKey(q: string): string {
  return `words\u0000${q.toLowerCase()}`;
}

/** The cache key of a catalogue answer: what it asks, normalised, never the URL as sent. */
export function answerKey(asked: CatalogueUrl): string {
  switch (asked.kind) {
    case 'product':
      return `id\u0000${asked.id.toLowerCase()}`;
    case 'facets':
      return `facets\u0000${filtersKey(asked.query)}`;
    case 'suggest':
      return `suggest\u0000${asked.q.toLowerCase()}`;
    case 'list': {
      const paging = requestedPage(asked.query, PRODUCTS_DEFAULT_LIMIT);
      const pageKey = paging ? `${paging.page}\u0000${paging.limit}` : 'all';
      return `list\u0000${idsKey(asked.query)}\u0000${pageKey}`;
    }
  }
}

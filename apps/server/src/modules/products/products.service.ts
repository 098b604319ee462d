import { and, eq, isNull } from 'drizzle-orm';
import type {
  Product,
  ProductFacets,
  ProductFacetsQuery,
  ProductList,
  ProductListQuery,
  ProductListResponse,
  ProductSuggestion,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { products } from '../../db/schema/index.js';
import type { MaybeAnswer } from '../../lib/cached-answer.js';
import { notFound } from '../../lib/errors.js';
import type { Signals } from '../../lib/signals.js';
import type { Storage } from '../../lib/storage.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import { NO_SALES, type Sales } from '../promotions/promotions.sales.js';
import type { StockedAnswer } from './products.answers.js';
import {
  type CatalogueChange,
  type CatalogueMessage,
  type Loaded,
  createCatalogueCache,
} from './products.cache.js';
import { type Moment, createListing } from './products.listing.js';
import { createSearchIndexes } from './products.search-index.js';
import { createMemorySearch } from './products.search-memory.js';
import { type CatalogueUrl, answerKey, catalogueUrl } from './products.lookup.js';
import { productPageColumns, toProductDto } from './products.repo.js';
import type { StockChange } from './products.stock.js';
import { type ProductWrites, createProductWrites } from './products.writes.js';

/** A shop without sales (tests that build the products service alone). */
const noSales: Sales = { book: () => NO_SALES, clear() {}, now: () => Date.now() };

export type { CatalogueChange };
export { escapeLike, toProductDto } from './products.repo.js';

export interface ProductsService extends ProductWrites {
  /**
   * `GET /api/products` answer from the cache, serialized with its ETag: the hot path sends it as is.
   * A cached answer comes back as it is, not in a promise: a hit costs no microtask (issue 10).
   */
  listAnswer(query: ProductListQuery): MaybeAnswer;
  /** `GET /api/products/facets` (issue 33) from the cache. */
  facetsAnswer(query: ProductFacetsQuery): MaybeAnswer;
  /** `GET /api/products/suggest` (issue 33) from the cache. */
  suggestAnswer(q: string): MaybeAnswer;
  /** `GET /api/products/:id` answer from the cache; 404 `Product not found` for unknown or removed. */
  getAnswer(id: string): MaybeAnswer;
  /** Every matching product (no page asked for, spec section 7), or the page asked for. */
  list(query: ProductListQuery): Promise<ProductList | ProductListResponse>;
  get(id: string): Promise<Product>;
  facets(query: ProductFacetsQuery): Promise<ProductFacets>;
  suggest(q: string): Promise<ProductSuggestion[]>;
  /** The answer of a catalogue URL the browser's pages call (products.lookup.ts), with its stock. */
  stockedAnswer(url: string): StockedAnswer | Promise<StockedAnswer> | undefined;
  /**
   * Drops every cached answer, here and (through `tell`) on every other instance. Every write that
   * changes what the catalogue answers besides stock must call it, saying what changed.
   */
  invalidate(change?: CatalogueChange): void;
  /** Drops this instance's cached answers only: another instance said the catalogue changed. */
  invalidateLocal(change?: CatalogueChange): void;
  /**
   * Committed stock writes (an order placed, an order's items back on the shelf): the cached answers
   * show the new figures from now on, here and on every other instance; nothing is read again.
   */
  stockMoved(changes: readonly StockChange[]): void;
  /** Another instance's stock writes. */
  stockMovedLocal(changes: readonly StockChange[]): void;
  /** The stock of `id` if it changed after `since` (a stockSeq): pages check what they show. */
  stockSince(id: string, since: number): number | undefined;
  /** Moves with every stock change this instance takes. */
  stockSeq(): number;
  /**
   * Counts the catalogue changes besides stock this instance has seen (its own writes, other
   * instances' messages): what is kept under a key holding it (a page) is not found after one.
   */
  version(): number;
}

export interface ProductsServiceOptions {
  db: Database;
  /**
   * How long a cached answer is fresh. A busy answer is served for one TTL more while it is refreshed,
   * so a write on another instance whose message is lost is seen within two.
   */
  cacheTtlMs?: number;
  /** Bounds memory: every distinct search text is a key. */
  cacheMaxEntries?: number;
  now?: () => number;
  /** Where uploaded images go; needed by create() only. */
  storage?: Storage;
  /** Makes stored image paths absolute when PUBLIC_URL is set. */
  publicUrl?: PublicUrlOf;
  /** Tells the other instances of a change (products.sync.ts, issue 13). */
  tell?: (message: CatalogueMessage) => void;
  /** Scheduled sales (issue 32): the prices shown while one runs, and when that changes. */
  sales?: Sales;
  /** Told of the cache's hits and misses (issue 37: metrics). */
  signals?: Pick<Signals, 'catalogueCacheHit' | 'catalogueCacheMiss'>;
  /** Told when the search index could not be read (the database answers searches meanwhile). */
  onError?: (error: unknown) => void;
  /** Issue 33: searches answered from memory (the default), or by the database alone. */
  searchInMemory?: boolean;
}

/** How long the catalogue's cached answers are fresh by default (see cacheTtlMs). */
export const CATALOGUE_TTL_MS = 2000;
/**
 * The Condition values in use are read again after a catalogue write, or after this many of its TTLs
 * (a minute by default): reading them scans every product (products.listing.ts).
 */
const CONDITIONS_TTLS = 30;

export function createProductsService({
  db,
  cacheTtlMs = CATALOGUE_TTL_MS,
  cacheMaxEntries = 1000,
  now = Date.now,
  storage,
  publicUrl = relativeUrls,
  tell,
  sales = noSales,
  signals,
  onError = () => {},
  searchInMemory = true,
}: ProductsServiceOptions): ProductsService {
  const cache = createCatalogueCache({
    ttlMs: cacheTtlMs,
    maxEntries: cacheMaxEntries,
    now,
    tell,
    clock: sales.now,
    ...(signals ? { signals } : {}),
  });

  // Issue 33: searches answered from memory, read again after a catalogue change (its version).
  const indexes = createSearchIndexes({
    db,
    version: cache.version,
    maxAgeMs: cacheTtlMs * CONDITIONS_TTLS,
    now,
    onError,
  });
  const listing = createListing({
    db,
    cache,
    publicUrl,
    conditionsMaxAgeMs: cacheTtlMs * CONDITIONS_TTLS,
    now,
    memory: createMemorySearch({
      db,
      indexes: searchInMemory ? indexes : { current: async () => undefined },
    }),
  });

  /** What a load read, and until when it is true (the next time a sale starts or ends). */
  async function timed(read: (at: Moment) => Promise<unknown>): Promise<Loaded> {
    const book = await sales.book();
    const now = sales.now();
    const termsFor = (product: { id: string; category: string }) => book.termsFor(product, now);
    const at: Moment = {
      toDto: (row) => toProductDto(row, publicUrl, termsFor(row)),
      termsFor,
      running: book.runningAt(now),
    };
    return { value: await read(at), validUntil: book.nextChangeAfter(now) };
  }

  async function getWith(id: string, at: Moment): Promise<Product> {
    const [row] = await db
      .select(productPageColumns)
      .from(products)
      .where(and(eq(products.id, id), isNull(products.deletedAt)))
      .limit(1);
    if (!row) throw notFound('Product not found');
    return at.toDto(row);
  }

  /** The load of what a catalogue URL asks. */
  function loadOf(asked: CatalogueUrl): () => Promise<Loaded> {
    switch (asked.kind) {
      case 'product':
        return () => timed((at) => getWith(asked.id, at));
      case 'list':
        return () => timed((at) => listing.list(asked.query, at));
      case 'facets':
        return () => timed((at) => listing.facets(asked.query, at));
      case 'suggest':
        return () => timed((at) => listing.suggest(asked.q, at));
    }
  }
  const answerOf = (asked: CatalogueUrl) => cache.answer(answerKey(asked), loadOf(asked));
  const valueOf = async <T>(asked: CatalogueUrl) => (await loadOf(asked)()).value as T;
  const invalidate = cache.invalidate;

  return {
    list: (query) => valueOf({ kind: 'list', query }),
    get: (id) => valueOf({ kind: 'product', id }),
    facets: (query) => valueOf({ kind: 'facets', query }),
    suggest: (q) => valueOf({ kind: 'suggest', q }),
    listAnswer: (query) => answerOf({ kind: 'list', query }),
    getAnswer: (id) => answerOf({ kind: 'product', id }),
    facetsAnswer: (query) => answerOf({ kind: 'facets', query }),
    suggestAnswer: (q) => answerOf({ kind: 'suggest', q }),
    stockedAnswer(url) {
      const asked = catalogueUrl(url);
      if (asked === undefined) return undefined;
      return cache.stocked(answerKey(asked), loadOf(asked));
    },
    invalidate(change) {
      sales.clear();
      invalidate(change);
    },
    invalidateLocal(change) {
      sales.clear();
      cache.invalidateLocal(change);
    },
    stockMoved: cache.stockMoved,
    stockMovedLocal: cache.stockMovedLocal,
    stockSince: cache.stockSince,
    stockSeq: cache.stockSeq,
    version: cache.version,

    ...createProductWrites({ db, storage, invalidate, get: (id) => valueOf({ kind: 'product', id }) }),
  };
}

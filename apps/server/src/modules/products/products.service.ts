import { type SQL, and, asc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import {
  PRODUCTS_DEFAULT_LIMIT,
  type Product,
  type ProductList,
  type ProductListQuery,
  type ProductListResponse,
  requestedPage,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { products } from '../../db/schema/index.js';
import type { MaybeAnswer } from '../../lib/cached-answer.js';
import { notFound } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import type { StockedAnswer } from './products.answers.js';
import {
  type CatalogueChange,
  type CatalogueMessage,
  type Loaded,
  UUID_CHARS,
  createCatalogueCache,
} from './products.cache.js';
import {
  type ProductQueryRow,
  SOLD_OUT,
  escapeLike,
  productColumns,
  productPageColumns,
  toProductDto,
} from './products.repo.js';
import { catalogueUrl } from './products.lookup.js';
import type { StockChange } from './products.stock.js';
import { NO_SALES, type Sales } from '../promotions/promotions.sales.js';

type ToDto = (row: ProductQueryRow) => Product;

/** A shop without sales (tests that build the products service alone). */
const noSales: Sales = { book: () => NO_SALES, clear() {}, now: () => Date.now() };
import { type ProductWrites, createProductWrites } from './products.writes.js';

export type { CatalogueChange };
export { escapeLike, toProductDto } from './products.repo.js';

export interface ProductsService extends ProductWrites {
  /**
   * `GET /api/products` answer from the cache, serialized with its ETag: the hot path sends it as is.
   * A cached answer comes back as it is, not in a promise: a hit costs no microtask (issue 10).
   */
  listAnswer(query: ProductListQuery): MaybeAnswer;
  /** `GET /api/products/:id` answer from the cache; 404 `Product not found` for unknown or removed. */
  getAnswer(id: string): MaybeAnswer;
  /** Every matching product (no page asked for, spec section 7), or the page asked for. */
  list(query: ProductListQuery): Promise<ProductList | ProductListResponse>;
  get(id: string): Promise<Product>;
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
}

/** The key listAnswer's template below gives the unfiltered, unpaged list. */
const WHOLE_LIST_KEY = 'list\u0000\u0000all\u0000';

/** How long the catalogue's cached answers are fresh by default (see cacheTtlMs). */
export const CATALOGUE_TTL_MS = 2000;

export function createProductsService({
  db,
  cacheTtlMs = CATALOGUE_TTL_MS,
  cacheMaxEntries = 1000,
  now = Date.now,
  storage,
  publicUrl = relativeUrls,
  tell,
  sales = noSales,
}: ProductsServiceOptions): ProductsService {
  const cache = createCatalogueCache({
    ttlMs: cacheTtlMs,
    maxEntries: cacheMaxEntries,
    now,
    tell,
    clock: sales.now,
  });

  /** What a load read, and until when it is true (the next time a sale starts or ends). */
  async function timed(read: (dto: ToDto) => Promise<unknown>): Promise<Loaded> {
    const book = await sales.book();
    const at = sales.now();
    const toDto: ToDto = (row) =>
      toProductDto(row, publicUrl, book.termsFor({ id: row.id, category: row.category }, at));
    return { value: await read(toDto), validUntil: book.nextChangeAfter(at) };
  }

  async function list(query: ProductListQuery): Promise<ProductList | ProductListResponse> {
    return (await timed((toDto) => listWith(query, toDto))).value as ProductList | ProductListResponse;
  }

  async function listWith(query: ProductListQuery, toDto: ToDto): Promise<ProductList | ProductListResponse> {
    const conditions: SQL[] = [isNull(products.deletedAt)];
    if (query.category) conditions.push(eq(products.category, query.category));
    if (query.q) conditions.push(ilike(products.name, `%${escapeLike(query.q)}%`));
    const where = and(...conditions);
    // Sold-out products after the others (issue 30): the shopper chose no order here.
    const order = [asc(SOLD_OUT), asc(products.name), asc(products.id)];

    const paging = requestedPage(query, PRODUCTS_DEFAULT_LIMIT);
    if (!paging) {
      const all = await db
        .select(productColumns)
        .from(products)
        .where(where)
        .orderBy(...order);
      return all.map(toDto);
    }
    const { page, limit } = paging;
    const ids = await orderedIds(query, where);
    const total = ids.length / UUID_CHARS;
    const pageIds: string[] = [];
    for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i += 1) {
      pageIds.push(ids.slice(i * UUID_CHARS, (i + 1) * UUID_CHARS));
    }
    // The page's rows by primary key; `where` again, so a row that stopped matching since the list
    // was read is left out rather than shown (a write drops the list, but a read may be under way).
    const rows = pageIds.length
      ? await db
          .select(productColumns)
          .from(products)
          .where(and(where, inArray(products.id, pageIds)))
          .orderBy(...order)
      : [];
    return { products: rows.map(toDto), page, totalPage: Math.max(1, Math.ceil(total / limit)), total };
  }

  /**
   * The ids of a category's or search's products in the list's order (in stock first, then name and
   * id), as one string of 36-character ids, kept like the answers (same TTL, dropped with them) per
   * category and search rather than per page (issue 13). A page is then a slice of it and 24 rows by primary key, where
   * OFFSET made the database walk every row before the page (page 900 of a 25,000-product category
   * read 21,600 index entries), and the count is its length, so page and total always agree.
   */
  function orderedIds(query: ProductListQuery, where: SQL | undefined): Promise<string> | string {
    const key = `${query.category ?? ''}\u0000${query.q ?? ''}`;
    return cache.ids(key, async () => {
      const [row] = await db
        .select({
          ids: sql<string>`coalesce(string_agg(${products.id}::text, '' order by ${SOLD_OUT}, ${products.name}, ${products.id}), '')`,
        })
        .from(products)
        .where(where);
      return row?.ids ?? '';
    });
  }

  async function get(id: string): Promise<Product> {
    return (await timed((toDto) => getWith(id, toDto))).value as Product;
  }

  async function getWith(id: string, toDto: ToDto): Promise<Product> {
    const [row] = await db
      .select(productPageColumns)
      .from(products)
      .where(and(eq(products.id, id), isNull(products.deletedAt)))
      .limit(1);
    if (!row) throw notFound('Product not found');
    return toDto(row);
  }

  const invalidate = cache.invalidate;
  const listKey = (query: ProductListQuery) => {
    const paging = requestedPage(query, PRODUCTS_DEFAULT_LIMIT);
    // The whole catalogue, as the shop's pages and the spec's clients ask for it: a key made once.
    if (!paging && !query.category && !query.q) return WHOLE_LIST_KEY;
    const pageKey = paging ? `${paging.page}\u0000${paging.limit}` : 'all';
    return `list\u0000${query.category ?? ''}\u0000${pageKey}\u0000${query.q ?? ''}`;
  };
  const productKey = (id: string) => `id\u0000${id.toLowerCase()}`;

  return {
    list,
    get,
    listAnswer: (query) => cache.answer(listKey(query), () => timed((toDto) => listWith(query, toDto))),
    getAnswer: (id) => cache.answer(productKey(id), () => timed((toDto) => getWith(id, toDto))),
    stockedAnswer(url) {
      const asked = catalogueUrl(url);
      if (asked === undefined) return undefined;
      if (asked.kind === 'product') {
        return cache.stocked(productKey(asked.id), () => timed((toDto) => getWith(asked.id, toDto)));
      }
      return cache.stocked(listKey(asked.query), () => timed((toDto) => listWith(asked.query, toDto)));
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

    ...createProductWrites({ db, storage, invalidate, get }),
  };
}

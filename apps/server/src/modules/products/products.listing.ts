import { type SQL, and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  PRODUCTS_DEFAULT_LIMIT,
  type Product,
  type ProductFacets,
  type ProductList,
  type ProductListQuery,
  type ProductListResponse,
  SUGGEST_MAX,
  SUGGEST_MIN_CHARS,
  type PageRequest,
  type ProductSuggestion,
  requestedPage,
  toDollars,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { productImages, productVariants, products } from '../../db/schema/index.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type Sale, type SaleTerms, priceUnder } from '../promotions/promotions.sales.js';
import { type CatalogueCache, UUID_CHARS } from './products.cache.js';
import { type ProductQueryRow, SOLD_OUT, productColumns } from './products.repo.js';
import {
  type Filters,
  facetsSql,
  orderOf,
  phraseRetry,
  productId,
  usesSearch,
  whereOf,
} from './products.search.js';
import { idsKey, wordsKey } from './products.lookup.js';
import type { MemorySearch } from './products.search-memory.js';

/** What a load knows of the moment it reads at: the products' DTOs and the sales running then. */
export interface Moment {
  toDto: (row: ProductQueryRow) => Product;
  termsFor: (product: { id: string; category: string }) => SaleTerms | undefined;
  running: readonly Sale[];
}

export interface ListingOptions {
  db: Database;
  cache: CatalogueCache;
  publicUrl: PublicUrlOf;
  /** How long the Condition values in use are kept when no write came (see conditionsInUse). */
  conditionsMaxAgeMs: number;
  now: () => number;
  /** Searches answered from memory (issue 33), the SQL below when it cannot. */
  memory: MemorySearch;
}

/**
 * The catalogue's lists (spec section 7, issue 33): the spec's list and category pages, searched,
 * filtered and sorted lists, their facets, and a search box's suggestions.
 */
export function createListing({ db, cache, publicUrl, conditionsMaxAgeMs, now, memory }: ListingOptions) {
  /** A raw statement's rows (both engines answer `{ rows }`). */
  async function rowsFrom<T>(statement: SQL): Promise<T[]> {
    return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
  }

  /**
   * The filters, their text to be matched as a phrase when word by word it matches no product at all
   * (whatever the other filters): "neon drfit" finds "Neon Drift 64". Decided by the text alone, so a
   * list, its facets and the list with any facet value chosen all match it the same way.
   */
  async function matchedAs<T extends Filters>(filters: T): Promise<T> {
    const phrase = phraseRetry(filters);
    if (!phrase) return filters;
    // Kept like the answers (dropped by a write, or after the TTL): one probe per text, not per search.
    const found = await cache.ids(wordsKey(filters.q!), async () => {
      // Through a CTE, planned as the whole match is: asked for one row, PostgreSQL read the products in
      // order for the first match, computing the word similarity of all 100,000 when none did (308 ms,
      // where the trigram indexes answer in 5).
      const [row] = await rowsFrom<{ any: boolean }>(
        sql`with matched as materialized (select 1 from ${products} where ${whereOf({ q: filters.q }, [])})
          select exists (select 1 from matched) as any`,
      );
      return row?.any ? 'words' : '';
    });
    return found ? filters : phrase;
  }

  /** The spec's list: by category and name (`q` is issue 33's search, below). */
  const specOrder = [asc(SOLD_OUT), asc(products.name), asc(products.id)];

  async function list(query: ProductListQuery, at: Moment): Promise<ProductList | ProductListResponse> {
    const paging = requestedPage(query, PRODUCTS_DEFAULT_LIMIT);
    if (usesSearch(query)) {
      const fast = paging ? await memory.page(query, paging, at.running) : undefined;
      if (fast && paging) return pageOf(fast.ids, fast.total, paging, at);
      return search(await matchedAs(query), paging, at);
    }
    if (!paging) {
      // Every product of the shop or a category, as the spec's clients ask for it: one query.
      const where = and(
        isNull(products.deletedAt),
        query.category ? eq(products.category, query.category) : undefined,
      );
      const all = await db
        .select(productColumns)
        .from(products)
        .where(where)
        .orderBy(...specOrder);
      return all.map(at.toDto);
    }
    const ids = await orderedIds(query);
    const total = ids.length / UUID_CHARS;
    const { page, limit } = paging;
    const pageIds: string[] = [];
    for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i += 1) {
      pageIds.push(ids.slice(i * UUID_CHARS, (i + 1) * UUID_CHARS));
    }
    return pageOf(pageIds, total, paging, at);
  }

  /** A page of the list: the products of `ids` (in that order) and how many the list holds. */
  async function pageOf(
    ids: readonly string[],
    total: number,
    { page, limit }: PageRequest,
    at: Moment,
  ): Promise<ProductListResponse> {
    const found = (await rowsOf(ids)).map(at.toDto);
    return { products: found, page, totalPage: Math.max(1, Math.ceil(total / limit)), total };
  }

  /**
   * A search, filtered or sorted list (issue 33). A page is its rows in the list's order with LIMIT
   * and OFFSET, the count beside them: the database keeps the page's rows while it reads the matches
   * (a top-N sort), where the whole ordered list sorted 100,000 products to disk for each search. Its
   * order depends on prices and ratings too, so nothing of it is kept past the answer, which is kept
   * and dropped like every catalogue answer (and read again when a sale starts or ends).
   */
  async function search(
    query: ProductListQuery & Filters,
    paging: PageRequest | null,
    at: Moment,
  ): Promise<ProductList | ProductListResponse> {
    const where = whereOf(query, at.running);
    const order = orderOf(query, at.running);
    if (!paging) {
      const all = await db.select(productColumns).from(products).where(where).orderBy(order);
      return all.map(at.toDto);
    }
    const { page, limit } = paging;
    const offset = (page - 1) * limit;
    let found: { id: string }[];
    let total: number;
    if (query.q) {
      // The matches are few next to the catalogue: counted as they are read, beside the page.
      const counted = await rowsFrom<{ id: string; total: number }>(
        sql`select ${productId} as id, count(*) over () as total from ${products} where ${where}
          order by ${order} limit ${limit} offset ${offset}`,
      );
      found = counted;
      total = Number(counted[0]?.total ?? 0);
      if (counted.length === 0 && page > 1) total = await countOf(where); // past the end
    } else {
      // Filters alone keep much of the catalogue: counting beside the page made the database sort all
      // of it (to disk at 100,000 products) where the page alone is a top-N sort, and the count an
      // index-only scan (migration 0024). 112 -> 60 ms for a page of every product sorted by name.
      [found, total] = await Promise.all([
        rowsFrom<{ id: string }>(
          sql`select ${productId} as id from ${products} where ${where}
            order by ${order} limit ${limit} offset ${offset}`,
        ),
        countOf(where),
      ]);
    }
    return pageOf(
      found.map((r) => r.id),
      total,
      paging,
      at,
    );
  }

  async function countOf(where: SQL): Promise<number> {
    const [counted] = await rowsFrom<{ n: number }>(
      sql`select count(*)::int as n from ${products} where ${where}`,
    );
    return counted?.n ?? 0;
  }

  /**
   * The rows of `ids`, in that order. A product removed since the ids were read is left out rather
   * than shown (a write drops the ids, but a read may be under way).
   */
  async function rowsOf(ids: readonly string[]): Promise<ProductQueryRow[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select(productColumns)
      .from(products)
      .where(and(isNull(products.deletedAt), inArray(products.id, ids as string[])));
    const position = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  }

  /**
   * The ids of a category's products (or the shop's) in the spec's order, as one string of
   * 36-character ids, kept like the answers (same TTL, dropped with them) per list rather than per page
   * (issue 13). A page is then a slice of it and its rows by primary key, where OFFSET made the
   * database walk every row before the page (page 900 of a 25,000-product category read 21,600 index
   * entries), and the count is its length, so page and total always agree, and pages never repeat or
   * skip. The order is stock and name only: a price or a review leaves it as it is.
   */
  function orderedIds(query: ProductListQuery): Promise<string> | string {
    return cache.ids(idsKey(query), async () => {
      const [row] = await db
        .select({
          ids: sql<string>`coalesce(string_agg(${products.id}::text, '' order by ${SOLD_OUT}, ${products.name}, ${products.id}), '')`,
        })
        .from(products)
        .where(
          and(isNull(products.deletedAt), query.category ? eq(products.category, query.category) : undefined),
        );
      return row?.ids ?? '';
    });
  }

  /**
   * The Condition values the catalogue's live variants use, in order: read again after a change of
   * the catalogue (its version; only a product's write adds or removes one), or when older than
   * `conditionsMaxAgeMs`, not with every answer: reading them scans every product.
   */
  let conditionNames: { version: number; readAt: number; names: Promise<string[]> } | undefined;
  function conditionsInUse(): Promise<string[]> {
    const version = cache.version();
    const at = now();
    if (conditionNames?.version !== version || at - conditionNames.readAt >= conditionsMaxAgeMs) {
      const names = rowsFrom<{ names: string[] }>(
        sql`select coalesce(json_agg(k order by k), '[]'::json) as names from (select distinct k
          from ${products} cross join lateral jsonb_object_keys(${products.searchFacts}) k
          where ${products.deletedAt} is null and k <> '') keys`,
      ).then(([row]) => row?.names ?? []);
      conditionNames = { version, readAt: at, names };
      // A failed read is not kept.
      names.catch(() => {
        if (conditionNames?.names === names) conditionNames = undefined;
      });
    }
    return conditionNames.names;
  }

  async function facets(filters: Filters, at: Moment): Promise<ProductFacets> {
    const names = await conditionsInUse();
    const row =
      (await memory.facets(filters, at.running, names)) ??
      (await rowsFrom<ProductFacets>(facetsSql(await matchedAs(filters), at.running, names)))[0];
    if (!row) throw new Error('facets: no row');
    return {
      total: row.total,
      categories: row.categories,
      platforms: row.platforms,
      conditions: row.conditions.filter((c) => c.count > 0),
      price: row.price ? { min: toDollars(row.price.min), max: toDollars(row.price.max) } : null,
      inStock: row.inStock,
    };
  }

  /**
   * At most SUGGEST_MAX products for a search box, best match first: the list's relevance order, but
   * only what a line of suggestions shows (name, category, platform, first image, price).
   */
  async function suggest(q: string, at: Moment): Promise<ProductSuggestion[]> {
    if (q.length < SUGGEST_MIN_CHARS) return [];
    const query = await matchedAs<ProductListQuery & Filters>({ q, sort: 'relevance' });
    const rows = await rowsFrom<{
      id: string;
      name: string;
      category: string;
      platform: string | null;
      image: string | null;
      price_cents: number;
    }>(sql`select ${productId} as id, ${products.name} as name, ${products.category} as category,
        ${products.platform} as platform,
        (select i.url from ${productImages} i where i.product_id = ${productId}
          order by i.position limit 1) as image,
        (select v.price_cents from ${productVariants} v where v.product_id = ${productId}
          and v.archived_at is null order by v.position limit 1) as price_cents
      from ${products} where ${whereOf(query, at.running)}
      order by ${orderOf(query, at.running)} limit ${SUGGEST_MAX}`);
    return rows.map((row) => ({
      _id: row.id,
      productName: row.name,
      productCategory: row.category as ProductSuggestion['productCategory'],
      platform: row.platform,
      image: row.image === null ? null : publicUrl(row.image),
      price: toDollars(priceUnder(row.price_cents, at.termsFor(row))),
    }));
  }

  return { list, facets, suggest };
}

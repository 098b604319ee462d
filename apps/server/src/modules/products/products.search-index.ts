import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { SearchFacts } from '../../db/schema/index.js';
import { type TokenIndex, createTokenIndex } from './products.tokens.js';
import {
  type PreparedText,
  TrigramDictionary,
  type TrigramRules,
  trigramRulesOf,
} from './products.trigram.js';

/**
 * Issue 33: the catalogue's live products as search reads them, held in memory, so a search, a
 * filtered list and its facets are answered by reading arrays rather than by the database reading
 * trigram indexes and every product's facts (at 100,000 products its p95 was 233 ms for a list and
 * 289 ms for facets, against 30 and 60). What the database decides that JavaScript would decide
 * otherwise is read from it, not redone: the folded texts, the orders of names, platforms, categories,
 * dates and ratings (its collation), the lower-cased platform. Typos are pg_trgm's word similarity,
 * ported exactly (products.trigram.ts). products.search-memory.ts answers from it; products.search.ts
 * keeps the same answers in SQL, used while an index is built.
 *
 * Product i is the i-th in the spec's name order (name, then id).
 */
export interface SearchIndex {
  /** The catalogue version it was read at (cache.version()) and when (ms). */
  version: number;
  builtAt: number;
  size: number;
  ids: string[];
  position: Map<string, number>;
  /** Ties of price sorts end on the id: its rank among the ids. */
  idRank: Int32Array;
  /** Category id of each product; `categories` their values, `categoryOrder` their collation rank. */
  category: Uint8Array;
  categories: string[];
  categoryIds: Map<string, number>;
  categoryOrder: Int32Array;
  /** lower(platform) id of each product (-1: none); `platformKeys` by lower(platform). */
  platformKey: Int32Array;
  platformKeys: Map<string, number>;
  /** The platform as written (its collation rank, -1: none); `platformByOrder` the value of a rank. */
  platformOrder: Int32Array;
  platformByOrder: string[];
  /** Cents, -1 for none (SQL null): the cheapest live variant, and the cheapest in stock. */
  cheapest: Int32Array;
  cheapestInStock: Int32Array;
  /** Per Condition value: the cheapest of that condition, and in stock (the search facts). */
  facts: Map<string, { all: Int32Array; inStock: Int32Array }>;
  /** Positions in the newest and rating orders (ties on the id). */
  newestRank: Int32Array;
  ratingRank: Int32Array;
  /** The folded name and platform (search_text), and the folded name alone. */
  searchText: string[];
  foldedName: string[];
  names: TokenIndex;
  /** The distinct trigram ids of each token of the names (token t's in tokenTrigrams[starts[t]..]). */
  tokenTrigramStarts: Int32Array;
  tokenTrigrams: Int32Array;
  descriptions: TokenIndex;
  trigrams: TrigramDictionary;
  prepared: PreparedText[];
  /** The products holding each trigram of search_text (its range in trigramStarts). */
  trigramStarts: Int32Array;
  trigramPostings: Int32Array;
}

interface IndexRow {
  id: string;
  name: string;
  category: string;
  platform: string | null;
  platform_key: string | null;
  search_text: string;
  search_description: string;
  folded_name: string;
  search_facts: SearchFacts;
  cheapest_cents: number | null;
  cheapest_in_stock_cents: number | null;
  /** created_at in microseconds since 1970, as text (a bigint). */
  created_us: string;
  rating_tenths: number;
  review_count: number;
}

const NONE = -1;
/** Products read per statement, and prepared between two turns of the event loop. */
const CHUNK = 2_000;
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The live products in name order (name, id), a chunk per statement along products_name_id_idx: PGlite
 * runs one statement at a time, and a read of 100,000 products in one (seconds, with the orders
 * computed by window functions) held every other request's statements behind it. A write between two
 * chunks moves the catalogue's version, and an index read across it is not used (createSearchIndexes).
 */
async function readRows(db: Database): Promise<IndexRow[]> {
  const rows: IndexRow[] = [];
  let after: IndexRow | undefined;
  for (;;) {
    const from = after ? sql`and (p.name, p.id) > (${after.name}, ${after.id}::uuid)` : sql``;
    const result = await db.execute(sql`select p.id, p.name, p.category, p.platform,
        lower(p.platform) as platform_key, p.search_text, p.search_description,
        pv_fold(p.name) as folded_name, p.search_facts, p.cheapest_cents, p.cheapest_in_stock_cents,
        (extract(epoch from p.created_at) * 1000000)::bigint::text as created_us,
        p.rating_tenths, p.review_count
      from products p where p.deleted_at is null ${from} order by p.name, p.id limit ${CHUNK}`);
    const chunk = (result as unknown as { rows: IndexRow[] }).rows;
    rows.push(...chunk);
    if (chunk.length < CHUNK) return rows;
    after = chunk[chunk.length - 1];
  }
}

/** The distinct values of a column in the collation's order (the facets list them so). */
async function collated(db: Database, column: 'platform' | 'category'): Promise<Map<string, number>> {
  const result = await db.execute(sql`select distinct ${sql.identifier(column)} as value from products
    where deleted_at is null and ${sql.identifier(column)} is not null order by 1`);
  const values = (result as unknown as { rows: { value: string }[] }).rows;
  return new Map(values.map((row, k) => [row.value, k]));
}

/** Each product's position in the order `compare` gives (product i at rank[i]). */
function ranksBy(size: number, compare: (a: number, b: number) => number): Int32Array {
  const order = Array.from({ length: size }, (_, i) => i).sort(compare);
  const rank = new Int32Array(size);
  order.forEach((i, position) => (rank[i] = position));
  return rank;
}

export async function buildSearchIndex(
  db: Database,
  rules: TrigramRules,
  version: number,
  builtAt: number,
): Promise<SearchIndex> {
  const [platformOrders, categoryOrders] = [await collated(db, 'platform'), await collated(db, 'category')];
  const rows = await readRows(db);
  const size = rows.length;
  const ids = rows.map((r) => r.id);
  // A uuid's text in lower-case hex compares as its bytes do (PostgreSQL's order of uuids).
  const idRank = ranksBy(size, (a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));

  const categoryIds = new Map<string, number>();
  const categories: string[] = [];
  const categoryRank: number[] = [];
  const platformKeys = new Map<string, number>();
  const platformByOrder: string[] = [];
  const category = new Uint8Array(size);
  const platformKey = new Int32Array(size).fill(NONE);
  const platformOrder = new Int32Array(size).fill(NONE);
  const cheapest = new Int32Array(size).fill(NONE);
  const cheapestInStock = new Int32Array(size).fill(NONE);
  const facts = new Map<string, { all: Int32Array; inStock: Int32Array }>();
  const factsOf = (name: string) => {
    let columns = facts.get(name);
    if (!columns) {
      columns = { all: new Int32Array(size).fill(NONE), inStock: new Int32Array(size).fill(NONE) };
      facts.set(name, columns);
    }
    return columns;
  };
  rows.forEach((row, i) => {
    let c = categoryIds.get(row.category);
    if (c === undefined) {
      c = categories.length;
      categoryIds.set(row.category, c);
      categories.push(row.category);
      categoryRank.push(categoryOrders.get(row.category) ?? NONE);
    }
    category[i] = c;
    const order = row.platform === null ? undefined : platformOrders.get(row.platform);
    if (row.platform !== null && row.platform_key !== null && order !== undefined) {
      let p = platformKeys.get(row.platform_key);
      if (p === undefined) platformKeys.set(row.platform_key, (p = platformKeys.size));
      platformKey[i] = p;
      platformOrder[i] = order;
      platformByOrder[order] = row.platform;
    }
    if (row.cheapest_cents !== null) cheapest[i] = row.cheapest_cents;
    if (row.cheapest_in_stock_cents !== null) cheapestInStock[i] = row.cheapest_in_stock_cents;
    for (const [name, pair] of Object.entries(row.search_facts ?? {})) {
      const columns = factsOf(name);
      if (typeof pair?.[0] === 'number') columns.all[i] = pair[0];
      if (typeof pair?.[1] === 'number') columns.inStock[i] = pair[1];
    }
  });
  // Newest first, and the best rated (tenths, then how many reviews) first; ties on the id.
  const created = rows.map((row) => BigInt(row.created_us));
  const byId = (a: number, b: number) => idRank[a]! - idRank[b]!;
  const newest = ranksBy(size, (a, b) =>
    created[a]! > created[b]! ? -1 : created[a]! < created[b]! ? 1 : byId(a, b),
  );
  const rating = ranksBy(
    size,
    (a, b) =>
      rows[b]!.rating_tenths - rows[a]!.rating_tenths ||
      rows[b]!.review_count - rows[a]!.review_count ||
      byId(a, b),
  );

  const searchText = rows.map((r) => r.search_text);
  const trigrams = new TrigramDictionary(rules);
  const prepared: PreparedText[] = [];
  for (let start = 0; start < size; start += CHUNK) {
    for (let i = start; i < Math.min(size, start + CHUNK); i += 1)
      prepared.push(trigrams.prepare(searchText[i]!));
    await yieldTurn();
  }
  const names = createTokenIndex(searchText);
  await yieldTurn();
  const tokenTrigramStarts = new Int32Array(names.vocabulary.length + 1);
  const tokenTrigramList: number[] = [];
  names.vocabulary.forEach((token, t) => {
    for (const id of trigrams.prepare(token).uniqueIds) tokenTrigramList.push(id);
    tokenTrigramStarts[t + 1] = tokenTrigramList.length;
  });
  await yieldTurn();
  const descriptions = createTokenIndex(rows.map((r) => r.search_description));
  await yieldTurn();
  const { starts: trigramStarts, postings: trigramPostings } = postingsOf(prepared, trigrams.size);

  return {
    version,
    builtAt,
    size,
    ids,
    position: new Map(ids.map((id, i) => [id, i])),
    idRank,
    category,
    categories,
    categoryIds,
    categoryOrder: Int32Array.from(categoryRank),
    platformKey,
    platformKeys,
    platformOrder,
    platformByOrder,
    cheapest,
    cheapestInStock,
    facts,
    newestRank: newest,
    ratingRank: rating,
    searchText,
    foldedName: rows.map((r) => r.folded_name),
    names,
    tokenTrigramStarts,
    tokenTrigrams: Int32Array.from(tokenTrigramList),
    descriptions,
    trigrams,
    prepared,
    trigramStarts,
    trigramPostings,
  };
}

/** The products of each trigram, in product order (compressed rows: one array of all). */
function postingsOf(prepared: readonly PreparedText[], trigramCount: number) {
  const starts = new Int32Array(trigramCount + 1);
  for (const text of prepared) for (const id of text.uniqueIds) starts[id + 1]! += 1;
  for (let t = 0; t < trigramCount; t += 1) starts[t + 1]! += starts[t]!;
  const postings = new Int32Array(starts[trigramCount]!);
  const filled = starts.slice(0, trigramCount);
  prepared.forEach((text, i) => {
    for (const id of text.uniqueIds) postings[filled[id]!++] = i;
  });
  return { starts, postings };
}

export interface SearchIndexes {
  /** The index to answer from now, or undefined: answer from the database (being built, or failed). */
  current(): Promise<SearchIndex | undefined>;
}

/** A request waits this long for an index being built (a small catalogue's), then asks the database. */
const WAIT_FOR_BUILD_MS = 50;

/**
 * After a build, the next waits this many times its duration: a busy sale sells products out (each a
 * catalogue change) faster than a large catalogue's index is read, and back-to-back builds would take
 * the thread the shop answers on. Meanwhile the database answers searches, as before the index.
 */
const REST_FACTOR = 3;

/** `promise`'s value if it settles within `ms`, else undefined. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The index, read again when the catalogue changed (its version: every write here or on another
 * instance moves it, and a product selling out or coming back) or when older than `maxAgeMs` (a
 * change made outside the shop). A request waits `waitMs` for an index being built, then the
 * database answers it, as it did before the index (a large catalogue's takes seconds to read); an
 * index only aged keeps answering meanwhile. One build at a time.
 */
export function createSearchIndexes({
  db,
  version,
  maxAgeMs,
  now = Date.now,
  waitMs = WAIT_FOR_BUILD_MS,
  restFactor = REST_FACTOR,
  onError,
}: {
  db: Database;
  version: () => number;
  maxAgeMs: number;
  now?: () => number;
  waitMs?: number;
  /** After a build, none starts for this many times its duration. */
  restFactor?: number;
  onError: (error: unknown) => void;
}): SearchIndexes {
  let index: SearchIndex | undefined;
  let building: Promise<SearchIndex | undefined> | undefined;
  let rules: Promise<TrigramRules> | undefined;
  let restUntil = 0;

  function build(): Promise<SearchIndex | undefined> | undefined {
    if (building) return building;
    const started = performance.now();
    if (started < restUntil) return undefined;
    const at = version();
    rules ??= trigramRulesOf(db);
    building = rules
      .then((found) => buildSearchIndex(db, found, at, now()))
      .then((built) => (index = built))
      .catch((error: unknown) => {
        // Asked again at the next build (a failed read is not kept).
        rules = undefined;
        onError(error);
        return undefined;
      })
      .finally(() => {
        building = undefined;
        const ended = performance.now();
        restUntil = ended + restFactor * (ended - started);
      });
    return building;
  }

  return {
    async current() {
      const at = version();
      const same = index !== undefined && index.version === at;
      if (same && maxAgeMs > 0 && now() - index!.builtAt < maxAgeMs) return index;
      const pending = build();
      // Only aged: answers on while its successor is read.
      if (same && maxAgeMs > 0) return index;
      if (pending === undefined) return undefined;
      const built = await within(pending, waitMs);
      return built !== undefined && built.version === version() ? built : undefined;
    },
  };
}

import { sql } from 'drizzle-orm';
import type { PageRequest, ProductListQuery } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import type { Sale } from '../promotions/promotions.sales.js';
import type { SearchIndex, SearchIndexes } from './products.search-index.js';
import { type Filters, cents, phraseRetry, sortOf, wordsOf } from './products.search.js';
import { catalogueOrderPage, orderedPage, shown } from './products.search-order.js';
import { type Matched, type SearchText, matching, searchText } from './products.search-text.js';

/**
 * Issue 33: a searched, filtered, sorted page and its facets answered from the in-memory index
 * (products.search-index.ts), the same answers as products.search.ts's SQL, which answers whenever
 * this cannot (undefined): no index yet (a large catalogue's is being read), or a word it cannot look
 * up. The search text is folded by the database (pv_fold, remembered per text).
 */

/** The facets' row, as facetsSql answers it. */
export interface FacetsRow {
  total: number;
  categories: { value: string; count: number }[];
  platforms: { value: string; count: number }[];
  conditions: { value: string; count: number }[];
  price: { min: number; max: number } | null;
  inStock: number;
}

/** A request read against an index: what the text matched (all products without one), the filters' ids. */
interface Plan {
  ix: SearchIndex;
  text: SearchText | undefined;
  matched: Matched | undefined;
  /** The category's and platform's ids: -1 not asked, -2 asked and none has it. */
  category: number;
  platform: number;
  percent: Uint8Array | undefined;
}

/** Folded texts kept (pv_fold is immutable): a shop's searches repeat their words. */
const FOLDS_MAX = 20_000;
const NULL = -1;
/** Pages ending past this many products are read by the database (a deep page sorts most matches). */
const DEEP_PAGE = 5_000;

export function createMemorySearch({ db, indexes }: { db: Database; indexes: SearchIndexes }) {
  const folds = new Map<string, string>();
  const lowered = new Map<string, string>();

  /**
   * pv_fold of each text and lower() of the platform, by the database (one statement for those not
   * remembered). Answered from what this call read: the memory may be cleared meanwhile.
   */
  async function folded(texts: readonly string[], platform: string | undefined) {
    const known = new Map<string, string>();
    const asked: string[] = [];
    for (const text of texts) {
      const found = folds.get(text);
      if (found !== undefined) known.set(text, found);
      else if (!asked.includes(text)) asked.push(text);
    }
    let platformKey = platform === undefined ? undefined : lowered.get(platform);
    if (asked.length > 0 || (platform !== undefined && platformKey === undefined)) {
      const columns = asked.map((text, k) => sql`pv_fold(${text}) as ${sql.identifier(`f${k}`)}`);
      if (platform !== undefined) columns.push(sql`lower(${platform}) as "platform"`);
      const result = await db.execute(sql`select ${sql.join(columns, sql`, `)}`);
      const [row] = (result as unknown as { rows: Record<string, string>[] }).rows;
      if (folds.size + asked.length > FOLDS_MAX) folds.clear();
      asked.forEach((text, k) => {
        known.set(text, row![`f${k}`]!);
        folds.set(text, row![`f${k}`]!);
      });
      if (platform !== undefined) {
        platformKey = row!.platform!;
        if (lowered.size >= FOLDS_MAX) lowered.clear();
        lowered.set(platform, platformKey);
      }
    }
    return { fold: (text: string) => known.get(text)!, platform: platformKey };
  }

  /** What the filters ask, read against the index; undefined when it cannot answer them. */
  async function planOf(filters: Filters, running: readonly Sale[]): Promise<Plan | undefined> {
    const ix = await indexes.current();
    if (!ix) return undefined;
    const raw = filters.q ? wordsOf(filters.q) : [];
    const { fold, platform } = await folded(filters.q ? [filters.q, ...raw] : [], filters.platform);
    let text: SearchText | undefined;
    let matched: Matched | undefined;
    if (filters.q) {
      text = searchText(ix, fold(filters.q), raw, raw.map(fold), filters.phrase ?? false);
      if (!text) return undefined;
      matched = matching(ix, text);
      // Nothing word by word: the text as a phrase (products.listing.ts matchedAs).
      if (matched.ids.length === 0 && phraseRetry(filters)) {
        text = { ...text, phrase: true };
        matched = matching(ix, text);
      }
    }
    const idOf = (ids: Map<string, number>, value: string | undefined) =>
      value === undefined ? -1 : (ids.get(value) ?? -2);
    return {
      ix,
      text,
      matched,
      category: idOf(ix.categoryIds, filters.category),
      platform: idOf(ix.platformKeys, platform),
      percent: percentsOf(ix, running),
    };
  }

  /** A page of the list's ids in its order, and how many match. */
  async function page(
    query: ProductListQuery & Filters,
    paging: PageRequest,
    running: readonly Sale[],
  ): Promise<{ ids: string[]; total: number } | undefined> {
    const offset = (paging.page - 1) * paging.limit;
    // Deep pages sort most of what matched: the database's work, not the thread that answers.
    if (offset + paging.limit > DEEP_PAGE) return undefined;
    const plan = await planOf(query, running);
    if (!plan) return undefined;
    const { ix } = plan;
    const cheapest = cheapestOf(ix, query);
    const sold = query.condition !== undefined || query.inStock ? cheapest : undefined;
    const bounds = boundsOf(query);
    const kept = (i: number) =>
      (plan.category < 0 ? plan.category === -1 : ix.category[i] === plan.category) &&
      (plan.platform < 0 ? plan.platform === -1 : ix.platformKey[i] === plan.platform) &&
      (sold === undefined || sold[i]! >= 0) &&
      bounds(shown(cheapest[i]!, plan.percent, i));
    const k = offset + paging.limit;
    if (!plan.matched) {
      // No text: the catalogue's own orders are read until the page is full, and the rest only counted.
      const inOrder = catalogueOrderPage(ix, sortOf(query), kept, k);
      if (inOrder) {
        let total = 0;
        for (let i = 0; i < ix.size; i += 1) if (kept(i)) total += 1;
        return { ids: inOrder.slice(offset).map((i) => ix.ids[i]!), total };
      }
    }
    const found: number[] = [];
    const ranks: number[] = [];
    if (plan.matched) {
      const { ids, ranks: matchedRanks } = plan.matched;
      ids.forEach((i, k) => {
        if (!kept(i)) return;
        found.push(i);
        ranks.push(matchedRanks[k]!);
      });
    } else for (let i = 0; i < ix.size; i += 1) if (kept(i)) found.push(i);
    const ordered = orderedPage(plan, query, found, ranks, cheapest, k);
    return { ids: ordered.slice(offset).map((i) => ix.ids[i]!), total: found.length };
  }

  /**
   * The facets (products.search.ts facetsSql): each count with its own filter left out and the others
   * kept, in one pass over the products the text matches (or all of them).
   */
  async function facets(
    filters: Filters,
    running: readonly Sale[],
    conditionNames: readonly string[],
  ): Promise<FacetsRow | undefined> {
    const plan = await planOf(filters, running);
    if (!plan) return undefined;
    const { ix, percent } = plan;
    const cheapest = cheapestOf(ix, filters);
    const sold = filters.condition !== undefined || filters.inStock ? cheapest : undefined;
    const inStockColumn = cheapestOf(ix, { ...filters, inStock: true });
    const bounds = boundsOf(filters);
    const byCategory = new Int32Array(ix.categories.length);
    const byPlatform = new Int32Array(ix.platformKeys.size);
    // Each platform's name shown: the first in the collation among the products read (SQL's min()).
    const platformName = new Int32Array(ix.platformKeys.size).fill(0x7fffffff);
    const conditions = conditionNames.map((name) => {
      const columns = ix.facts.get(name);
      return {
        name,
        column: columns ? (filters.inStock ? columns.inStock : columns.all) : nothing(ix),
      };
    });
    let total = 0;
    let inStock = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    // The arrays and the asked values in locals: this runs for every product of an unsearched shop.
    const { category: categoryOf, platformKey, platformOrder } = ix;
    const askedCategory = plan.category;
    const askedPlatform = plan.platform;
    const columns = conditions.map((c) => c.column);
    const counted = new Int32Array(conditions.length);
    const visit = (i: number) => {
      const platform = platformKey[i]!;
      if (platform >= 0 && platformOrder[i]! < platformName[platform]!)
        platformName[platform] = platformOrder[i]!;
      const categoryOk = askedCategory < 0 ? askedCategory === -1 : categoryOf[i] === askedCategory;
      const platformOk = askedPlatform < 0 ? askedPlatform === -1 : platform === askedPlatform;
      const soldOk = sold === undefined || sold[i]! >= 0;
      const price = shown(cheapest[i]!, percent, i);
      const priceOk = bounds(price);
      if (platformOk && soldOk && priceOk) byCategory[categoryOf[i]!]! += 1;
      if (categoryOk && soldOk && priceOk && platform >= 0) byPlatform[platform]! += 1;
      if (!(categoryOk && platformOk)) return;
      if (soldOk && priceOk) total += 1;
      const stocked = inStockColumn[i]!;
      if (stocked >= 0 && bounds(shown(stocked, percent, i))) inStock += 1;
      if (soldOk && price >= 0) {
        if (price < min) min = price;
        if (price > max) max = price;
      }
      for (let c = 0; c < columns.length; c += 1) {
        const own = shown(columns[c]![i]!, percent, i);
        if (own >= 0 && bounds(own)) counted[c]! += 1;
      }
    };
    if (plan.matched) for (const i of plan.matched.ids) visit(i);
    else for (let i = 0; i < ix.size; i += 1) visit(i);

    const categories = ix.categories
      .map((value, c) => ({ value, count: byCategory[c]!, order: ix.categoryOrder[c]! }))
      .filter((c) => c.count > 0)
      .sort((a, b) => a.order - b.order)
      .map(({ value, count }) => ({ value, count }));
    const platforms = [...ix.platformKeys.values()]
      .filter((p) => byPlatform[p]! > 0)
      .sort((a, b) => platformName[a]! - platformName[b]!)
      .map((p) => ({ value: ix.platformByOrder[platformName[p]!]!, count: byPlatform[p]! }));
    return {
      total,
      categories,
      platforms,
      conditions: conditions.map(({ name }, c) => ({ value: name, count: counted[c]! })),
      price: min === Number.POSITIVE_INFINITY ? null : { min, max },
      inStock,
    };
  }

  return { page, facets };
}

export type MemorySearch = ReturnType<typeof createMemorySearch>;

/** The column of cheapestOf(filters) (products.search.ts): -1 where SQL has null. */
function cheapestOf(ix: SearchIndex, filters: Filters): Int32Array {
  if (filters.condition === undefined) return filters.inStock ? ix.cheapestInStock : ix.cheapest;
  const columns = ix.facts.get(filters.condition);
  if (!columns) return nothing(ix);
  return filters.inStock ? columns.inStock : columns.all;
}

const nothingOf = new WeakMap<SearchIndex, Int32Array>();
function nothing(ix: SearchIndex): Int32Array {
  let found = nothingOf.get(ix);
  if (!found) nothingOf.set(ix, (found = new Int32Array(ix.size).fill(NULL)));
  return found;
}

/** Each product's percent off under the running sales (the largest covering it), or undefined: none. */
function percentsOf(ix: SearchIndex, running: readonly Sale[]): Uint8Array | undefined {
  if (running.length === 0) return undefined;
  const percent = new Uint8Array(ix.size);
  for (const sale of running) {
    const whole = sale.categories.length === 0 && sale.products.length === 0;
    const categories = new Set(sale.categories.map((c) => ix.categoryIds.get(c)));
    for (let i = 0; i < ix.size; i += 1) {
      if ((whole || categories.has(ix.category[i]!)) && percent[i]! < sale.percent) percent[i] = sale.percent;
    }
    for (const id of sale.products) {
      const i = ix.position.get(id);
      if (i !== undefined && percent[i]! < sale.percent) percent[i] = sale.percent;
    }
  }
  return percent;
}

/** The price bounds (SQL's null fails any bound). */
function boundsOf(filters: Filters): (price: number) => boolean {
  const min = filters.minPrice === undefined ? undefined : cents(filters.minPrice);
  const max = filters.maxPrice === undefined ? undefined : cents(filters.maxPrice);
  if (min === undefined && max === undefined) return () => true;
  return (price) => price >= 0 && (min === undefined || price >= min) && (max === undefined || price <= max);
}

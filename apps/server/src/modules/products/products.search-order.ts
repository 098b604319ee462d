import { type ProductListQuery, type ProductSort, salePriceCents } from '@pixel-vault/shared';
import type { SearchIndex } from './products.search-index.js';
import { type SearchText, rankOf, similarityOf } from './products.search-text.js';
import { type Filters, sortOf } from './products.search.js';

// Issue 33: the order of a page answered from the in-memory index (products.search-memory.ts), as
// products.search.ts's orderOf gives it in SQL.

/** The price shown for `cheapest` cents (-1: none) under product i's sale (shared pricing). */
export function shown(cheapest: number, percent: Uint8Array | undefined, i: number): number {
  if (cheapest < 0 || percent === undefined) return cheapest;
  return salePriceCents(cheapest, percent[i]!);
}

/**
 * The first `k` of `found` in the list's order (products.search.ts orderOf): sold-out products last
 * but in relevance, where the rank comes first; ties on the name (the index's order) or the id.
 */
export function orderedPage(
  plan: { ix: SearchIndex; text: SearchText | undefined; percent: Uint8Array | undefined },
  query: ProductListQuery & Filters,
  found: number[],
  ranks: number[],
  cheapest: Int32Array,
  k: number,
): number[] {
  const { ix } = plan;
  const soldOut = (i: number) => (ix.cheapestInStock[i]! < 0 ? 1 : 0);
  switch (sortOf(query)) {
    case 'relevance':
      return byRelevance(ix, plan.text!, found, ranks, soldOut, k);
    case 'price_asc':
    case 'price_desc': {
      const sign = sortOf(query) === 'price_asc' ? 1 : -1;
      // Null is last ascending and first descending, as PostgreSQL orders it.
      const key = (i: number) => {
        const p = shown(cheapest[i]!, plan.percent, i);
        return p < 0 ? Number.POSITIVE_INFINITY : p;
      };
      return topK(
        found,
        k,
        (a, b) => soldOut(a) - soldOut(b) || sign * (key(a) - key(b)) || ix.idRank[a]! - ix.idRank[b]!,
      );
    }
    case 'newest':
      return inOrder(ix.newestRank, found, soldOut, k);
    case 'rating':
      return inOrder(ix.ratingRank, found, soldOut, k);
    case 'name':
      return firstInStock(found, soldOut, k);
  }
}

/** The first k of `found` (in its order) with those in stock first. */
function firstInStock(found: readonly number[], soldOut: (i: number) => number, k: number): number[] {
  const stocked: number[] = [];
  const gone: number[] = [];
  for (const i of found) {
    if (soldOut(i) === 0) {
      stocked.push(i);
      if (stocked.length >= k) break;
    } else if (gone.length < k) gone.push(i);
  }
  return [...stocked, ...gone].slice(0, k);
}

/** The first k of `found` by `rank` (a position in an order of the whole catalogue), in stock first. */
function inOrder(rank: Int32Array, found: number[], soldOut: (i: number) => number, k: number): number[] {
  if (found.length < 4 * k) {
    return topK(found, k, (a, b) => soldOut(a) - soldOut(b) || rank[a]! - rank[b]!);
  }
  // Many: read the order itself, for the products found.
  const order = orderOf(rank);
  const isFound = new Uint8Array(rank.length);
  for (const i of found) isFound[i] = 1;
  const inTheirOrder: number[] = [];
  for (const i of order) if (isFound[i] === 1) inTheirOrder.push(i);
  return firstInStock(inTheirOrder, soldOut, k);
}

/**
 * The first k products `kept` in a catalogue-wide order (name, newest, rating), in stock first, read
 * along the order until the page is full; undefined for the other sorts (their order depends on the
 * filters and sales).
 */
export function catalogueOrderPage(
  ix: SearchIndex,
  sort: ProductSort,
  kept: (i: number) => boolean,
  k: number,
): number[] | undefined {
  if (sort !== 'name' && sort !== 'newest' && sort !== 'rating') return undefined;
  const order = sort === 'name' ? undefined : orderOf(sort === 'newest' ? ix.newestRank : ix.ratingRank);
  const stocked: number[] = [];
  const gone: number[] = [];
  for (let at = 0; at < ix.size && stocked.length < k; at += 1) {
    const i = order ? order[at]! : at;
    if (!kept(i)) continue;
    if (ix.cheapestInStock[i]! >= 0) stocked.push(i);
    else if (gone.length < k) gone.push(i);
  }
  return [...stocked, ...gone].slice(0, k);
}

/** The products in the order of `rank` (kept per index: built once). */
const orders = new WeakMap<Int32Array, Int32Array>();
function orderOf(rank: Int32Array): Int32Array {
  let order = orders.get(rank);
  if (!order) {
    order = new Int32Array(rank.length);
    for (let i = 0; i < rank.length; i += 1) order[rank[i]!] = i;
    orders.set(rank, order);
  }
  return order;
}

/**
 * Relevance: the rank and stock decide most of the order; the similarity (the costly part) is only
 * computed for the groups of equal rank and stock that the page reaches.
 */
function byRelevance(
  ix: SearchIndex,
  text: SearchText,
  found: number[],
  ranks: number[],
  soldOut: (i: number) => number,
  k: number,
): number[] {
  const groups: number[][] = Array.from({ length: 10 }, () => []);
  found.forEach((i, at) => groups[rankOf(ix, text, i, ranks[at]!) * 2 + soldOut(i)]!.push(i));
  const out: number[] = [];
  for (const group of groups) {
    if (out.length >= k) break;
    const need = k - out.length;
    // In name order, so once `need` of them are as similar as any can be (1), none after can come
    // before them: an exact name or word search reads a few similarities, not thousands.
    const similarity = new Map<number, number>();
    let best = 0;
    for (const i of group) {
      const value = similarityOf(ix, text, i);
      similarity.set(i, value);
      if (value >= 1 && (best += 1) >= need) break;
    }
    const read = [...similarity.keys()];
    out.push(...topK(read, need, (a, b) => similarity.get(b)! - similarity.get(a)! || a - b));
  }
  return out;
}

/** The first `k` of `items` by `compare`, in order. */
function topK(items: number[], k: number, compare: (a: number, b: number) => number): number[] {
  if (k <= 0) return [];
  if (k * 8 >= items.length) return [...items].sort(compare).slice(0, k);
  // A bounded max-heap of the k best seen.
  const heap: number[] = [];
  const up = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (compare(heap[at]!, heap[parent]!) <= 0) return;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  };
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let worst = at;
      if (l < heap.length && compare(heap[l]!, heap[worst]!) > 0) worst = l;
      if (r < heap.length && compare(heap[r]!, heap[worst]!) > 0) worst = r;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
      at = worst;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}

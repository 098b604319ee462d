import type { MaybeAnswer } from '../../lib/cached-answer.js';
import { keptValues } from '../../lib/kept.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { type StockedAnswer, currentOf, stockedAnswer } from './products.answers.js';
import { type StockChange, createStockBook } from './products.stock.js';

/**
 * What a catalogue write changed. `products`: which products there are, their names or categories
 * (any admin write). `details`: what products show besides their stock, their rating or reviews (a
 * review): the lists of which products a category or search holds, in which order, stay right and
 * are kept (issue 13). A stock change is neither: it is told with its figures (stockMoved), and what
 * is cached stays (issue 28).
 */
export type CatalogueChange = 'products' | 'details';

/** What one instance tells the others (products.sync.ts). */
export type CatalogueMessage = { kind: CatalogueChange } | { kind: 'stock'; changes: StockChange[] };

/** A product id as PostgreSQL writes a uuid: 8-4-4-4-12 hex digits. */
export const UUID_CHARS = 36;
/** At most 500,000 ids (18 MB) in the ordered-id lists of all categories and searches together. */
const ID_CHARS_MAX = UUID_CHARS * 500_000;
/** Distinct categories and searches whose id lists are kept (an empty result counts too). */
const ID_LISTS_MAX = 2_000;
/** The catalogue's answers together: the whole list of a large catalogue is megabytes. */
const ANSWER_BYTES_MAX = 64 * 1024 * 1024;
/** A stock change is kept at least this long (see StockBook), and longer than two cache lifetimes. */
const STOCK_KEEP_MS = 60_000;

/**
 * What a load answers: the value, and (issue 32) the moment it stops being true whatever is written, a
 * scheduled sale starting or ending: the answer is not served from then on, on any instance.
 */
export interface Loaded {
  value: unknown;
  validUntil?: number;
}

export interface CatalogueCache {
  /** The answer under `key`, loaded (and then kept) by `load` when it is not kept or too old. */
  answer(key: string, load: () => Promise<Loaded>): MaybeAnswer;
  /** The same, with the products it holds and their stock (pages rendered from it, issue 28). */
  stocked(key: string, load: () => Promise<Loaded>): StockedAnswer | Promise<StockedAnswer>;
  /** A category's or search's ordered ids (see products.service.ts), kept like the answers. */
  ids(key: string, load: () => Promise<string>): string | Promise<string>;
  /** The stock of `id` if it changed after `since` (a stockSeq). */
  stockSince(id: string, since: number): number | undefined;
  /** Moves with every stock change this instance takes. */
  stockSeq(): number;
  /**
   * Counts the changes of what the catalogue shows besides stock that this instance has seen: what is
   * kept under a key holding it (a page rendered from the catalogue) is not found after one.
   */
  version(): number;
  /** A write here: dropped here, and told to the other instances. */
  invalidate(change?: CatalogueChange): void;
  /** Another instance's write, or the message channel lost a while (everything is dropped). */
  invalidateLocal(change?: CatalogueChange): void;
  /** Committed stock writes here: taken here, and told to the other instances. */
  stockMoved(changes: readonly StockChange[]): void;
  /** Another instance's stock writes. */
  stockMovedLocal(changes: readonly StockChange[]): void;
}

export interface CatalogueCacheOptions {
  ttlMs: number;
  /** Bounds memory: every distinct search text is a key. */
  maxEntries: number;
  now?: () => number;
  /** Tells the other instances (products.sync.ts). */
  tell?: (message: CatalogueMessage) => void;
  /** The clock answers' `validUntil` is read on (the shop's clock: tests move it). */
  clock?: () => number;
  /** Told of every answer served from memory and every load (issue 37: metrics). */
  signals?: Pick<Signals, 'catalogueCacheHit' | 'catalogueCacheMiss'>;
}

export function createCatalogueCache({
  ttlMs,
  maxEntries,
  now = Date.now,
  tell,
  clock = Date.now,
  signals = NO_SIGNALS,
}: CatalogueCacheOptions) {
  // Serialized answers and the ordered ids of each category and search: kept, dropped at once on a
  // write, refreshed while served past their TTL (lib/kept.ts).
  const answers = keptValues<StockedAnswer & { validUntil: number }>({
    ttlMs,
    now,
    maxEntries,
    // Its JSON with the stock cut out, and as last put together (compressed forms come on top).
    sizeOf: (answer) => 2 * answer.current().body.length,
    maxSize: ANSWER_BYTES_MAX,
  });
  const idLists = keptValues<string>({
    ttlMs,
    now,
    maxEntries: ID_LISTS_MAX,
    sizeOf: (ids) => ids.length,
    maxSize: ID_CHARS_MAX,
  });
  let changes = 0;
  function invalidateLocal(change: CatalogueChange = 'products') {
    changes += 1;
    answers.clear();
    if (change === 'products') idLists.clear();
  }
  const book = createStockBook({
    keepMs: Math.max(STOCK_KEEP_MS, 4 * ttlMs),
    now,
    // Changes forgotten too soon: answers read before them could show older figures again.
    onOverflow: () => invalidateLocal('details'),
  });

  // Every cached hit asks; most answers are true until a write (no sale ahead): no clock read for them.
  const stillTrue = (answer: { validUntil: number }) =>
    answer.validUntil === Number.POSITIVE_INFINITY || clock() < answer.validUntil;

  function stocked(key: string, load: () => Promise<Loaded>) {
    const found = answers.get(
      key,
      async (previous) => {
        signals.catalogueCacheMiss();
        const builtAt = book.seq();
        const loaded = await load();
        const answer = stockedAnswer(loaded.value, book, builtAt, previous);
        return Object.assign(answer, { validUntil: loaded.validUntil ?? Number.POSITIVE_INFINITY });
      },
      stillTrue,
    );
    // A promise: loading (counted as the miss above when this call started it), or joining a load.
    if (!(found instanceof Promise)) signals.catalogueCacheHit();
    return found;
  }

  const cache: CatalogueCache = {
    answer: (key, load) => currentOf(stocked(key, load)),
    stocked,
    ids: (key, load) => idLists.get(key, load),
    stockSince: (id, since) => book.since(id, since),
    stockSeq: () => book.seq(),
    version: () => changes,
    invalidate(change = 'products') {
      invalidateLocal(change);
      tell?.({ kind: change });
    },
    invalidateLocal,
    stockMoved(moved) {
      // A product sold out or back: the lists' order changed (sold-out products come last), here and
      // on every instance. Rare beside the orders that only move a figure.
      const taken = book.apply(moved);
      if (moved.some((change) => change.soldOutChanged)) cache.invalidate('products');
      else if (taken.length > 0) tell?.({ kind: 'stock', changes: taken });
    },
    stockMovedLocal(moved) {
      book.apply(moved);
    },
  };
  return cache;
}

import { createHash, randomBytes } from 'node:crypto';
import { type CachedAnswer, type MaybeAnswer, cachedAnswer } from '../../lib/cached-answer.js';
import type { StockBook } from './products.stock.js';

/**
 * A catalogue answer (a product, a list) kept as its JSON with the stock left out: what changes with
 * every order apart from what changes when an admin edits (issue 28). `current()` puts in the stock
 * known now (the stock book's newer figure where there is one, else the figure it was read with), and
 * keeps the result, with its ETag and compressed forms, until a product in it changes again: an order
 * costs the answers that show its products one string join each, not a database read and a render.
 */
export interface StockedAnswer {
  /**
   * Names what the answer shows besides stock: two answers with the same `content` differ in stock
   * figures at most (a page made from one is still right for the other, but for those).
   */
  readonly content: string;
  current(): CachedAnswer;
  /**
   * The stock figures in it, in order, by the variant they are of (a product's own figure is its
   * default variant's, issue 31), with the figure `current()` answers for each.
   */
  stock(): { ids: readonly string[]; stocks: readonly number[] };
}

/**
 * Stands in for a stock figure while the answer is serialized: a random string (no product text can
 * hold it by chance), quoted as JSON writes a string.
 */
const HOLE = `"pv-stock-${randomBytes(16).toString('hex')}"`;
const HOLE_TEXT = HOLE.slice(1, -1);

/** The answer as it is now, of a kept StockedAnswer or of one being loaded. */
export function currentOf(found: StockedAnswer | Promise<StockedAnswer>): MaybeAnswer {
  return found instanceof Promise ? found.then((answer) => answer.current()) : found.current();
}

function assemble(parts: readonly string[], stocks: readonly number[]): string {
  let text = parts[0]!;
  for (let i = 0; i < stocks.length; i += 1) text += String(stocks[i]) + parts[i + 1]!;
  return text;
}

/** What holds a stock figure: a product (whose figure is its default variant's), or a variant. */
interface Stocked {
  _id?: unknown;
  variants?: { _id?: unknown }[];
}

/**
 * Serializes `value` (a Product, a list of them, or a page of them) with every stock figure cut out. `builtAt` is the stock book's seq when the rows were read: a change the book took after it
 * may be newer than the rows. `previous` is the answer this one replaces: when the bytes come out the
 * same, its ETag and compressed forms are kept.
 */
export function stockedAnswer(
  value: unknown,
  book: StockBook,
  builtAt: number,
  previous?: StockedAnswer,
): StockedAnswer {
  const ids: string[] = [];
  const read: number[] = [];
  const text = JSON.stringify(value, function (this: Stocked, key, field: unknown) {
    if (key === 'stockQuantity' && typeof field === 'number') {
      // Stock is the variants' (issue 31): a product's own figure is its default variant's.
      const id = typeof this.variants?.[0]?._id === 'string' ? this.variants[0]._id : this._id;
      if (typeof id !== 'string') return field;
      ids.push(id);
      read.push(field);
      return HOLE_TEXT;
    }
    return field;
  });
  const parts = text.split(HOLE);

  let stocks = read;
  let answer: CachedAnswer | undefined;
  let seenAt = -1;
  function refresh() {
    const at = book.seq();
    if (answer !== undefined && at === seenAt) return;
    let next: number[] | undefined;
    for (let i = 0; i < ids.length; i += 1) {
      const newer = book.since(ids[i]!, builtAt) ?? read[i]!;
      if (newer !== stocks[i]) (next ??= stocks.slice())[i] = newer;
    }
    if (next) stocks = next;
    if (answer === undefined) answer = cachedAnswer(assemble(parts, stocks), previous?.current());
    else if (next) answer = cachedAnswer(assemble(parts, stocks), undefined, { quick: true });
    seenAt = at;
  }

  return {
    content: createHash('sha1').update(text).digest('base64url'),
    current() {
      refresh();
      return answer!;
    },
    stock() {
      refresh();
      return { ids, stocks };
    },
  };
}

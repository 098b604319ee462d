import { SEARCH_WORD_SIMILARITY } from '../../db/pglite-options.js';
import type { SearchIndex } from './products.search-index.js';
import { typoTolerant } from './products.search.js';
import { lookupable } from './products.tokens.js';
import { type TrigramQuery, wordSimilar, wordSimilarity } from './products.trigram.js';

/**
 * Issue 33: what a search text matches, and how well, read from the in-memory index
 * (products.search-index.ts) exactly as products.search.ts asks the database: every word in the name
 * and platform as it is or (four letters or more) a typo of one of their words, or the whole text as
 * a phrase; or every word in the description. Texts arrive folded by the database (pv_fold).
 */

export interface SearchWord {
  folded: string;
  typo: TrigramQuery | undefined;
}

export interface SearchText {
  /** The whole text folded, and as a trigram query (the phrase, and the relevance's similarity). */
  folded: string;
  whole: TrigramQuery;
  words: SearchWord[];
  phrase: boolean;
}

/** `words` (raw) and their folded forms, for index `ix`: undefined when a word cannot be looked up. */
export function searchText(
  ix: SearchIndex,
  folded: string,
  raw: readonly string[],
  foldedWords: readonly string[],
  phrase: boolean,
): SearchText | undefined {
  if (!foldedWords.every(lookupable)) return undefined;
  return {
    folded,
    whole: ix.trigrams.query(folded),
    words: foldedWords.map((word, k) => ({
      folded: word,
      typo: typoTolerant(raw[k]!) ? ix.trigrams.query(word) : undefined,
    })),
    phrase,
  };
}

/** Scratch arrays of an index's size, zeroed, reused (an answer is computed without a turn between). */
const scratch = new WeakMap<SearchIndex, { free: Uint8Array[]; counts: Uint8Array }>();
function scratchOf(ix: SearchIndex) {
  let found = scratch.get(ix);
  if (!found) scratch.set(ix, (found = { free: [], counts: new Uint8Array(ix.size) }));
  return found;
}
function borrow(ix: SearchIndex): Uint8Array {
  return scratchOf(ix).free.pop() ?? new Uint8Array(ix.size);
}
function giveBack(ix: SearchIndex, marks: Uint8Array): void {
  marks.fill(0);
  scratchOf(ix).free.push(marks);
}

/** The marked products, ascending: read four marks at a time (most are 0). */
function marked(marks: Uint8Array): number[] {
  const taken: number[] = [];
  const words = new Uint32Array(marks.buffer, marks.byteOffset, marks.length >> 2);
  for (let w = 0; w < words.length; w += 1) {
    if (words[w] === 0) continue;
    for (let i = w << 2; i < (w << 2) + 4; i += 1) if (marks[i] !== 0) taken.push(i);
  }
  for (let i = words.length << 2; i < marks.length; i += 1) if (marks[i] !== 0) taken.push(i);
  return taken;
}

/** How many product postings a trigram query reads. */
function trigramWeight(ix: SearchIndex, query: TrigramQuery): number {
  let sum = 0;
  for (const id of query.ids) sum += ix.trigramStarts[id + 1]! - ix.trigramStarts[id]!;
  return sum;
}

/** Marks: the product holds the word as it is (in its name or platform), or may hold a typo of it. */
const HOLDS = 1;
const MAYBE = 2;

/**
 * Marks MAYBE the products not marked yet whose search text may be similar enough to `query`
 * (`query <% search_text`): those sharing enough of its trigrams to reach the threshold, as pg_trgm's
 * index finds them (a word similarity is at most the share of the query's trigrams the text holds).
 * The caller checks them.
 */
function markSharing(ix: SearchIndex, query: TrigramQuery, marks: Uint8Array): void {
  const { counts } = scratchOf(ix);
  const starts = ix.trigramStarts;
  const postings = ix.trigramPostings;
  // Float rounding (float4 in pg_trgm) may lift a share a hair under the threshold to it: kept.
  const needed = Math.ceil(query.size * (SEARCH_WORD_SIMILARITY - 1e-6));
  // Marked as a count reaches what is needed; a second walk clears the counts (no list of them).
  for (const id of query.ids) {
    for (let k = starts[id]!, end = starts[id + 1]!; k < end; k += 1) {
      const i = postings[k]!;
      const count = counts[i]! + 1;
      counts[i] = count;
      if (count === needed && marks[i] === 0) marks[i] = MAYBE;
    }
  }
  for (const id of query.ids) {
    for (let k = starts[id]!, end = starts[id + 1]!; k < end; k += 1) counts[postings[k]!] = 0;
  }
}

/**
 * What decides `query`'s word similarity to product i's search text: its tokens from the first to the
 * last holding one of the query's trigrams. pg_trgm reads nothing before the first trigram found and
 * computes nothing after the last, and a text's trigrams are its tokens' one after the other (a
 * trigram never spans whitespace). Products of equal spans have equal similarities: computed once a
 * request ("gaem boy": 8,334 Game Boy products, one span). A number for one token, else the ids
 * joined; '' when no token holds one (similarity 0).
 */
function spanOf(ix: SearchIndex, query: TrigramQuery, i: number): number | string {
  const marks = ix.trigrams.marksFor(query);
  const { sequenceStarts, sequence } = ix.names;
  const starts = ix.tokenTrigramStarts;
  const trigrams = ix.tokenTrigrams;
  let first = -1;
  let last = -1;
  for (let at = sequenceStarts[i]!, end = sequenceStarts[i + 1]!; at < end; at += 1) {
    const token = sequence[at]!;
    for (let k = starts[token]!, stop = starts[token + 1]!; k < stop; k += 1) {
      if (marks[trigrams[k]!] === 1) {
        if (first < 0) first = at;
        last = at;
        break;
      }
    }
  }
  if (first < 0) return '';
  if (first === last) return sequence[first]!;
  let key = String(sequence[first]);
  for (let at = first + 1; at <= last; at += 1) key += `,${sequence[at]}`;
  return key;
}

/** Per query (made per request): the answers already computed, by span. */
const similarMemo = new WeakMap<TrigramQuery, Map<number | string, boolean>>();
const similarityMemo = new WeakMap<TrigramQuery, Map<number | string, number>>();

function memoOf<T>(memos: WeakMap<TrigramQuery, Map<number | string, T>>, query: TrigramQuery) {
  let memo = memos.get(query);
  if (!memo) memos.set(query, (memo = new Map()));
  return memo;
}

/** `query <% search_text` of product i (pg_trgm's operator, at the shop's threshold). */
function similar(ix: SearchIndex, query: TrigramQuery, i: number): boolean {
  const span = spanOf(ix, query, i);
  // Spans of several tokens seldom repeat (a product's own words in them): computed as they come.
  if (typeof span === 'string' && span !== '') {
    return wordSimilar(ix.trigrams, query, ix.prepared[i]!, SEARCH_WORD_SIMILARITY);
  }
  const memo = memoOf(similarMemo, query);
  let answer = memo.get(span);
  if (answer === undefined) {
    answer = wordSimilar(ix.trigrams, query, ix.prepared[i]!, SEARCH_WORD_SIMILARITY);
    memo.set(span, answer);
  }
  return answer;
}

/** What a search text matched: products ascending, each with its rank but for the name's (0, 1). */
export interface Matched {
  ids: number[];
  /** 2: its name and platform hold every word; 3: through a typo (or the phrase); 4: its description. */
  ranks: number[];
}

/**
 * The products whose name and platform hold every word (as it is or a typo), ascending, with rank 2
 * or 3: the products each word may be in, narrowed word by word (postings: cheap), and only those
 * left checked exactly, a word at a time (the word similarity is the costly part).
 */
function namedByWords(ix: SearchIndex, words: readonly SearchWord[]): Matched {
  const plans = words
    .map((word) => {
      const tokens = ix.names.tokensHolding(word.folded);
      const weight = ix.names.weight(tokens) + (word.typo ? trigramWeight(ix, word.typo) : 0);
      return { word, tokens, weight, marks: undefined as Uint8Array | undefined };
    })
    .sort((a, b) => a.weight - b.weight);
  let found: number[] | undefined;
  for (const plan of plans) {
    const marks = (plan.marks = borrow(ix));
    ix.names.markProducts(plan.tokens, marks, HOLDS);
    if (plan.word.typo) markSharing(ix, plan.word.typo, marks);
    found = found === undefined ? marked(marks) : found.filter((i) => marks[i] !== 0);
    if (found.length === 0) break;
  }
  let ids = found!;
  for (const { word, marks } of plans) {
    if (ids.length > 0 && word.typo)
      ids = ids.filter((i) => marks![i] === HOLDS || similar(ix, word.typo!, i));
  }
  const ranks = ids.map((i) => (plans.every(({ marks }) => marks![i] === HOLDS) ? 2 : 3));
  for (const { marks } of plans) if (marks) giveBack(ix, marks);
  return { ids, ranks };
}

/** The products whose name and platform are similar enough to the whole text, ascending (rank 3). */
function namedByPhrase(ix: SearchIndex, text: SearchText): Matched {
  const marks = borrow(ix);
  markSharing(ix, text.whole, marks);
  const ids = marked(marks).filter((i) => similar(ix, text.whole, i));
  giveBack(ix, marks);
  // Rank 2 is every word held, whichever way it matched (none can be, when a phrase is tried).
  const ranks = ids.map((i) => (text.words.every((w) => ix.searchText[i]!.includes(w.folded)) ? 2 : 3));
  return { ids, ranks };
}

/** The products whose description holds every word, ascending. */
function described(ix: SearchIndex, words: readonly SearchWord[]): number[] {
  const plans = words
    .map((word) => {
      const tokens = ix.descriptions.tokensHolding(word.folded);
      return { tokens, weight: ix.descriptions.weight(tokens) };
    })
    .sort((a, b) => a.weight - b.weight);
  const [first, ...rest] = plans;
  const marks = borrow(ix);
  ix.descriptions.markProducts(first!.tokens, marks, 1);
  let found = marked(marks);
  giveBack(ix, marks);
  for (const { tokens } of rest) {
    const tokenMarks = ix.descriptions.mark(tokens);
    found = found.filter((i) => ix.descriptions.holds(i, tokenMarks));
    ix.descriptions.unmark(tokens);
  }
  return found;
}

/**
 * The products `text` matches, ascending (products.search.ts `matches`): the name's or the
 * description's; the name's first where both match (its rank is the better).
 */
export function matching(ix: SearchIndex, text: SearchText): Matched {
  const named = text.phrase ? namedByPhrase(ix, text) : namedByWords(ix, text.words);
  const other = described(ix, text.words);
  const ids: number[] = [];
  const ranks: number[] = [];
  let j = 0;
  named.ids.forEach((x, k) => {
    while (j < other.length && other[j]! < x) {
      ids.push(other[j++]!);
      ranks.push(4);
    }
    if (j < other.length && other[j] === x) j += 1;
    ids.push(x);
    ranks.push(named.ranks[k]!);
  });
  for (; j < other.length; j += 1) {
    ids.push(other[j]!);
    ranks.push(4);
  }
  return { ids, ranks };
}

/**
 * How well product i matches (products.search.ts `relevance`): 0 the exact name, 1 a name starting
 * with the text, else its rank as matched (2 to 4).
 */
export function rankOf(ix: SearchIndex, text: SearchText, i: number, matchedRank: number): number {
  if (ix.searchText[i]!.startsWith(text.folded)) {
    const name = ix.foldedName[i]!;
    if (name === text.folded) return 0;
    if (name.startsWith(text.folded)) return 1;
  }
  return matchedRank;
}

/** Within a rank, the closer to the whole text first: word_similarity(text, search_text). */
export function similarityOf(ix: SearchIndex, text: SearchText, i: number): number {
  const memo = memoOf(similarityMemo, text.whole);
  const span = spanOf(ix, text.whole, i);
  let value = memo.get(span);
  if (value === undefined) {
    value = wordSimilarity(ix.trigrams, text.whole, ix.prepared[i]!);
    memo.set(span, value);
  }
  return value;
}

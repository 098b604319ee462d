import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

/**
 * pg_trgm's `word_similarity(a, b)` and `a <% b` (contrib/pg_trgm/trgm_op.c, the same in PostgreSQL
 * 15 and PGlite's 18), ported exactly so an in-memory search index (issue 33) answers what the
 * database would, without asking it: a text is prepared once at build, a query once per request,
 * and each comparison then allocates nothing.
 *
 * What pg_trgm does, and this file with it:
 * - A word is a maximal run of word characters (`ISWORDCHR`: alphanumeric in the database's
 *   LC_CTYPE, which `trigramRulesOf` asks the database about). It is padded to "  word " and cut
 *   into every three consecutive characters; a string's trigrams are its words', in order.
 * - Nothing is lower-cased here: pg_trgm lower-cases each word, but the shop's texts and searches are
 *   folded by the database first (pv_fold, migration 0021), so they are lower case already.
 * - pg_trgm stores a trigram of multibyte characters as 3 bytes of a CRC of them, so two different
 *   ones may (once in ~16 million pairs) collide and count as one there. Here a trigram is its three
 *   characters, which never collide: the one place the port can differ, accepted as negligible.
 */

/** Which characters are word characters for pg_trgm on this database (its locale decides). */
export interface TrigramRules {
  isWordChar(codePoint: number): boolean;
}

/** Inclusive ranges of code points, ascending and apart. */
export type CodePointRanges = readonly (readonly [number, number])[];

/** Rules read from ranges; `ranges` kept so a report or test can show them. */
export interface RangeTrigramRules extends TrigramRules {
  readonly ranges: CodePointRanges;
}

const BMP_SIZE = 0x10000;

/** Word characters as ranges: a table for the Basic Multilingual Plane, a binary search above it. */
export function trigramRulesFromRanges(ranges: CodePointRanges): RangeTrigramRules {
  const bmp = new Uint8Array(BMP_SIZE);
  const astral: (readonly [number, number])[] = [];
  for (const [lo, hi] of ranges) {
    for (let cp = lo; cp <= Math.min(hi, BMP_SIZE - 1); cp += 1) bmp[cp] = 1;
    if (hi >= BMP_SIZE) astral.push([Math.max(lo, BMP_SIZE), hi]);
  }
  const isAstralWordChar = (cp: number) => {
    let low = 0;
    let high = astral.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const [lo, hi] = astral[mid]!;
      if (cp < lo) high = mid - 1;
      else if (cp > hi) low = mid + 1;
      else return true;
    }
    return false;
  };
  return {
    ranges,
    isWordChar: (cp) => (cp < BMP_SIZE ? bmp[cp] === 1 : isAstralWordChar(cp)),
  };
}

/**
 * One character is a word of its own when it is a word character, so show_trgm of it is not empty.
 * Every code point is asked (the engines disagree on thousands of them: their Unicode tables are
 * of different years), but not surrogates, which are no characters in UTF-8 (chr() refuses them).
 * Consecutive ones come back as ranges. About 0.3 s on PostgreSQL, 0.5 s on PGlite, once.
 */
const WORD_CHAR_RANGES_SQL = sql`
  with word as (
    select cp from generate_series(1, 1114111) as cp
    where cp not between 55296 and 57343 and cardinality(show_trgm(chr(cp))) > 0
  )
  select min(cp) as lo, max(cp) as hi
  from (select cp, cp - row_number() over (order by cp) as run from word) as runs
  group by run
  order by lo`;

const rulesByDatabase = new WeakMap<Database, Promise<RangeTrigramRules>>();

/**
 * The rules of the database `db`, found by asking it (its LC_CTYPE, through pg_trgm itself): under
 * C, pg_trgm tests only ASCII letters and digits; under C.UTF-8 or en_US.UTF-8, iswalnum of the
 * C library it was built with. Asked once per database object.
 */
export function trigramRulesOf(db: Database): Promise<RangeTrigramRules> {
  let rules = rulesByDatabase.get(db);
  if (!rules) {
    rules = queryRows<{ lo: number | string; hi: number | string }>(db, WORD_CHAR_RANGES_SQL).then((rows) =>
      trigramRulesFromRanges(rows.map((row) => [Number(row.lo), Number(row.hi)] as const)),
    );
    // A failed probe (a connection lost) is asked again next time, not remembered.
    rules.catch(() => rulesByDatabase.delete(db));
    rulesByDatabase.set(db, rules);
  }
  return rules;
}

/** Appends the trigrams of one word, padded as pg_trgm pads it (LPADDING 2, RPADDING 1). */
function addWordTrigrams(word: string, hasSurrogates: boolean, into: string[]): void {
  const padded = `  ${word} `;
  if (!hasSurrogates) {
    for (let i = 0; i + 3 <= padded.length; i += 1) into.push(padded.slice(i, i + 3));
    return;
  }
  // Characters, not UTF-16 units: a character above U+FFFF is one of the three.
  const chars = Array.from(padded);
  for (let i = 0; i + 3 <= chars.length; i += 1) into.push(chars[i]! + chars[i + 1]! + chars[i + 2]!);
}

/**
 * pg_trgm's generate_trgm_only: every trigram of `text`, in order, repeats kept. A lone surrogate
 * (no character: the database would have received U+FFFD) separates words.
 */
export function trigramsOf(rules: TrigramRules, text: string): string[] {
  const trigrams: string[] = [];
  let i = 0;
  while (i < text.length) {
    const first = text.codePointAt(i)!;
    if (!rules.isWordChar(first)) {
      i += first > 0xffff ? 2 : 1;
      continue;
    }
    let end = i;
    let hasSurrogates = false;
    while (end < text.length) {
      const cp = text.codePointAt(end)!;
      if (!rules.isWordChar(cp)) break;
      if (cp > 0xffff) {
        hasSurrogates = true;
        end += 2;
      } else {
        end += 1;
      }
    }
    addWordTrigrams(text.slice(i, end), hasSurrogates, trigrams);
    i = end;
  }
  return trigrams;
}

/** A text prepared once: what word_similarity needs of it, as small integers. */
export interface PreparedText {
  /** The text's distinct trigram ids (for an inverted index), in order of first appearance. */
  readonly uniqueIds: Int32Array;
  /** The text's trigrams in order, repeats kept, each as its index in `uniqueIds`. */
  readonly sequence: Uint16Array | Int32Array;
}

export interface TrigramQuery {
  /** Distinct trigram ids of the query that were in the dictionary when it was made. */
  readonly ids: Int32Array;
  /** Number of distinct trigrams of the query (ulen1 in pg_trgm), known or not. */
  readonly size: number;
}

/** A query as the dictionary made it: the trigrams it did not know are kept, should it learn them. */
class Query implements TrigramQuery {
  constructor(
    readonly dictionary: TrigramDictionary,
    readonly ids: Int32Array,
    readonly size: number,
    readonly unknown: readonly string[],
  ) {}
}

/** A dictionary of trigrams seen at index build: each distinct trigram gets a small integer id. */
export class TrigramDictionary {
  private readonly idOf = new Map<string, number>();
  /** Per trigram id: 1 when the marked query holds it (see `marksFor`). */
  private marks = new Uint8Array(1024);
  private markedQuery: Query | undefined;
  /** The ids set in `marks`, to clear them when another query comes. */
  private markedIds: number[] = [];
  private markedAtSize = 0;
  /** Scratch for `prepare`, per trigram id: its local index in the text being prepared, plus one. */
  private localOf = new Int32Array(1024);

  constructor(readonly rules: TrigramRules) {}

  /** Number of distinct trigrams. */
  get size(): number {
    return this.idOf.size;
  }

  /** A text prepared once (at build): its trigrams added to the dictionary. */
  prepare(text: string): PreparedText {
    const trigrams = trigramsOf(this.rules, text);
    const uniqueIds: number[] = [];
    const sequence = new Int32Array(trigrams.length);
    for (let i = 0; i < trigrams.length; i += 1) {
      const id = this.idFor(trigrams[i]!);
      let local = this.localOf[id]! - 1;
      if (local < 0) {
        local = uniqueIds.length;
        uniqueIds.push(id);
        this.localOf[id] = local + 1;
      }
      sequence[i] = local;
    }
    for (const id of uniqueIds) this.localOf[id] = 0;
    // Two bytes an index while they fit: a product's text has a few dozen distinct trigrams.
    return {
      uniqueIds: Int32Array.from(uniqueIds),
      sequence: uniqueIds.length <= 0xffff ? Uint16Array.from(sequence) : sequence,
    };
  }

  /** A query prepared (per request): unknown trigrams match nothing but count in its size. */
  query(text: string): TrigramQuery {
    const distinct = new Set(trigramsOf(this.rules, text));
    const ids: number[] = [];
    const unknown: string[] = [];
    for (const trigram of distinct) {
      const id = this.idOf.get(trigram);
      if (id === undefined) unknown.push(trigram);
      else ids.push(id);
    }
    return new Query(this, Int32Array.from(ids), distinct.size, unknown);
  }

  /**
   * Internal (wordSimilarity's): per trigram id, 1 when `query` holds it. Marked again only when
   * another query comes, or the dictionary grew (a trigram the query did not know may be known now:
   * it must then match the texts that brought it).
   */
  marksFor(query: TrigramQuery): Uint8Array {
    if (query === this.markedQuery && this.size === this.markedAtSize) return this.marks;
    if (!(query instanceof Query) || query.dictionary !== this) {
      throw new Error('A trigram query is compared only with texts of the dictionary that made it');
    }
    for (const id of this.markedIds) this.marks[id] = 0;
    if (this.marks.length < this.size) this.marks = grown(this.marks, this.size);
    const ids = Array.from(query.ids);
    for (const trigram of query.unknown) {
      const id = this.idOf.get(trigram);
      if (id !== undefined) ids.push(id);
    }
    for (const id of ids) this.marks[id] = 1;
    this.markedIds = ids;
    this.markedQuery = query;
    this.markedAtSize = this.size;
    return this.marks;
  }

  private idFor(trigram: string): number {
    let id = this.idOf.get(trigram);
    if (id === undefined) {
      id = this.idOf.size;
      this.idOf.set(trigram, id);
      if (this.localOf.length <= id) this.localOf = grown(this.localOf, id + 1);
    }
    return id;
  }
}

/** A copy of `array` at least `needed` long (doubling, so growing one at a time stays linear). */
function grown<T extends Uint8Array | Int32Array>(array: T, needed: number): T {
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

// Per comparison, indexed by the text's local trigram index: reused, so a comparison allocates nothing.
let foundScratch = new Uint8Array(256);
let lastposScratch = new Int32Array(256);

/** pg_trgm's CALCSML, in float4 as C computes it (a quotient of two ints, rounded once to float). */
const calcsml = (count: number, len1: number, len2: number) => Math.fround(count / (len1 + len2 - count));

/**
 * pg_trgm's iterate_word_similarity (not strict): the greatest similarity of the query's trigrams
 * to a run of the text's, found by moving the run's upper bound to each trigram of the query and
 * trying every lower bound up to it. It stops once it reaches `threshold`, as the operator's
 * WORD_SIMILARITY_CHECK_ONLY does (Infinity: the function, which never stops early).
 *
 * The C code, statement for statement, with three shortcuts that change no answer: a similarity is
 * computed only where a trigram left the run (elsewhere it is the one before, which cannot beat
 * itself); the lower bounds stop being tried once none can win (the run's count can only fall, and
 * count / (ulen1 + ulen2 - count) <= count / ulen1); and the text stops being read once the maximum
 * reaches `ceiling`, the most any run can give.
 */
function iterateWordSimilarity(
  sequence: Uint16Array | Int32Array,
  ulen1: number,
  threshold: number,
  ceiling: number,
): number {
  const len2 = sequence.length;
  const found = foundScratch;
  const lastpos = lastposScratch;
  let ulen2 = 0;
  let count = 0;
  let upper = -1;
  let lower = -1;
  let smlrMax = 0;
  for (let i = 0; i < len2; i += 1) {
    const trgindex = sequence[i]!;
    const isFound = found[trgindex] === 1;
    // Update last position of this trigram.
    if (lower >= 0 || isFound) {
      if (lastpos[trgindex]! < 0) {
        ulen2 += 1;
        if (isFound) count += 1;
      }
      lastpos[trgindex] = i;
    }
    if (!isFound) continue;
    // The trigram is the query's: it is the run's upper bound now.
    upper = i;
    if (lower === -1) {
      lower = i;
      ulen2 = 1;
    }
    let smlrCur = calcsml(count, ulen1, ulen2);
    // Also try to raise the lower bound for a greater similarity.
    let tmpCount = count;
    let tmpUlen2 = ulen2;
    const prevLower = lower;
    let moved = true;
    for (let tmpLower = lower; tmpLower <= upper; tmpLower += 1) {
      if (moved) {
        const smlrTmp = calcsml(tmpCount, ulen1, tmpUlen2);
        if (smlrTmp > smlrCur) {
          smlrCur = smlrTmp;
          ulen2 = tmpUlen2;
          lower = tmpLower;
          count = tmpCount;
        }
        if (smlrCur >= threshold) break;
        // fround is monotonic: below this, so is every similarity still to come.
        if (tmpCount / ulen1 <= smlrCur) break;
        moved = false;
      }
      const tmpTrgindex = sequence[tmpLower]!;
      if (lastpos[tmpTrgindex] === tmpLower) {
        tmpUlen2 -= 1;
        if (found[tmpTrgindex] === 1) tmpCount -= 1;
        moved = true;
      }
    }
    if (smlrCur > smlrMax) smlrMax = smlrCur;
    if (smlrMax >= threshold || smlrMax >= ceiling) break;
    // The trigrams left below the new lower bound are no longer in the run.
    for (let tmpLower = prevLower; tmpLower < lower; tmpLower += 1) {
      const tmpTrgindex = sequence[tmpLower]!;
      if (lastpos[tmpTrgindex] === tmpLower) lastpos[tmpTrgindex] = -1;
    }
  }
  return smlrMax;
}

/**
 * Fills `found` and `lastpos` for `text` (pg_trgm's calc_word_similarity, with the text's own
 * numbering in place of its sort of both strings' trigrams: only which trigrams are equal matters).
 * Answers how many of the text's distinct trigrams the query holds.
 */
function loadText(dict: TrigramDictionary, query: TrigramQuery, text: PreparedText): number {
  const marks = dict.marksFor(query);
  const ids = text.uniqueIds;
  const n = ids.length;
  if (foundScratch.length < n) {
    foundScratch = grown(foundScratch, n);
    lastposScratch = grown(lastposScratch, n);
  }
  const found = foundScratch;
  const lastpos = lastposScratch;
  let shared = 0;
  for (let k = 0; k < n; k += 1) {
    const mark = marks[ids[k]!]!;
    found[k] = mark;
    shared += mark;
    lastpos[k] = -1;
  }
  return shared;
}

/** word_similarity(query, text) exactly as PostgreSQL returns it (a float4). */
export function wordSimilarity(dict: TrigramDictionary, query: TrigramQuery, text: PreparedText): number {
  const shared = loadText(dict, query, text);
  if (shared === 0) return 0;
  return iterateWordSimilarity(text.sequence, query.size, Infinity, calcsml(shared, query.size, shared));
}

/**
 * `query <% text` under pg_trgm.word_similarity_threshold = `threshold` (a float8, to which C compares
 * the float4 similarity). Stopping at the threshold gives the same answer as computing it all.
 */
export function wordSimilar(
  dict: TrigramDictionary,
  query: TrigramQuery,
  text: PreparedText,
  threshold: number,
): boolean {
  const shared = loadText(dict, query, text);
  if (shared === 0) return 0 >= threshold;
  // No run of the text holds more of the query than the whole text: count / (ulen1 + ulen2 - count)
  // is at most shared / ulen1, so below the threshold there the answer is no without the search.
  const ceiling = calcsml(shared, query.size, shared);
  if (ceiling < threshold) return false;
  return iterateWordSimilarity(text.sequence, query.size, threshold, ceiling) >= threshold;
}

/** word_similarity(a, b) through a dictionary of its own: for tests and one-off comparisons. */
export function wordSimilarityOf(rules: TrigramRules, a: string, b: string): number {
  const dict = new TrigramDictionary(rules);
  const text = dict.prepare(b);
  return wordSimilarity(dict, dict.query(a), text);
}

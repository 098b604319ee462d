/**
 * Which products' texts hold a string (the search's `like '%word%'`), answered without reading the
 * texts (issue 33, products.search-index.ts).
 *
 * A text is cut at whitespace into tokens, and each distinct token knows the products holding it. A
 * search word has no whitespace, so it lies within one token of a text when the text holds it: the
 * products holding the word are exactly those of the tokens that hold it. A shop's vocabulary is small
 * beside its texts (the 100,000 generated products use a few hundred tokens), so looking through it
 * is cheap where reading every text was not.
 */

const WHITESPACE = /\s+/;

/** True when `word` can be looked up here: no whitespace in it (else a token cannot hold it). */
export const lookupable = (word: string) => word.length > 0 && !/\s/.test(word);

export interface TokenIndex {
  /** The ids of the tokens holding `word` (lookupable). */
  tokensHolding(word: string): Int32Array;
  /** The products of these tokens, summed (an upper bound of how many hold any of them). */
  weight(tokens: Int32Array): number;
  /** Marks (`mark`) in `into` the products holding one of `tokens`. */
  markProducts(tokens: Int32Array, into: Uint8Array, mark: number): void;
  /** True when product `i` holds one of `tokens` (marked in `marks`, a vocabulary-sized array). */
  holds(i: number, marks: Uint8Array): boolean;
  /** Marks `tokens` in a vocabulary-sized array (cleared by `unmark`), for `holds`. */
  mark(tokens: Int32Array): Uint8Array;
  unmark(tokens: Int32Array): void;
  /** The tokens, by id. */
  readonly vocabulary: readonly string[];
  /** Each product's tokens in order, repeats kept: product i's are sequence[sequenceStarts[i]..]. */
  readonly sequenceStarts: Int32Array;
  readonly sequence: Int32Array;
}

const NO_TOKENS = new Int32Array(0);
/** Pieces of tokens indexed: every piece of one to three characters of each token. */
const GRAM_MAX = 3;

/**
 * The tokens holding each piece of one to GRAM_MAX characters: a word that long is looked up as it is,
 * a longer one through its rarest piece. The vocabulary is large where names carry numbers (100,000
 * generated names: "#1" to "#100000"), and reading all of it for each word took a quarter of a
 * search's time.
 */
function gramsOf(vocabulary: readonly string[]): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  vocabulary.forEach((token, t) => {
    const seen = new Set<string>();
    for (let n = 1; n <= GRAM_MAX; n += 1) {
      for (let k = 0; k + n <= token.length; k += 1) {
        const gram = token.slice(k, k + n);
        if (seen.has(gram)) continue;
        seen.add(gram);
        const list = lists.get(gram);
        if (list) list.push(t);
        else lists.set(gram, [t]);
      }
    }
  });
  return new Map([...lists].map(([gram, list]) => [gram, Int32Array.from(list)]));
}

/** Builds the index of `texts` (product i's text at i). */
export function createTokenIndex(texts: readonly string[]): TokenIndex {
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  // Each product's distinct tokens, one after the other (its range in `starts`).
  const starts = new Int32Array(texts.length + 1);
  const own: number[] = [];
  const sequenceStarts = new Int32Array(texts.length + 1);
  const inOrder: number[] = [];
  for (let i = 0; i < texts.length; i += 1) {
    const seen = new Set<number>();
    for (const token of texts[i]!.split(WHITESPACE)) {
      if (token === '') continue;
      let id = ids.get(token);
      if (id === undefined) {
        id = vocabulary.length;
        ids.set(token, id);
        vocabulary.push(token);
      }
      inOrder.push(id);
      if (!seen.has(id)) {
        seen.add(id);
        own.push(id);
      }
    }
    starts[i + 1] = own.length;
    sequenceStarts[i + 1] = inOrder.length;
  }
  const tokensOf = Int32Array.from(own);
  // The products of each token (its range in `postingStarts`), in product order.
  const postingStarts = new Int32Array(vocabulary.length + 1);
  for (const id of tokensOf) postingStarts[id + 1]! += 1;
  for (let t = 0; t < vocabulary.length; t += 1) postingStarts[t + 1]! += postingStarts[t]!;
  const postings = new Int32Array(tokensOf.length);
  const filled = postingStarts.slice(0, vocabulary.length);
  for (let i = 0; i < texts.length; i += 1) {
    for (let k = starts[i]!; k < starts[i + 1]!; k += 1) postings[filled[tokensOf[k]!]!++] = i;
  }
  const marks = new Uint8Array(vocabulary.length);
  const grams = gramsOf(vocabulary);

  return {
    vocabulary,
    sequenceStarts,
    sequence: Int32Array.from(inOrder),
    tokensHolding(word) {
      if (word.length <= GRAM_MAX) return grams.get(word) ?? NO_TOKENS;
      // The tokens holding its rarest piece, then those holding it whole.
      let fewest: Int32Array | undefined;
      for (let k = 0; k + GRAM_MAX <= word.length; k += 1) {
        const tokens = grams.get(word.slice(k, k + GRAM_MAX)) ?? NO_TOKENS;
        if (fewest === undefined || tokens.length < fewest.length) fewest = tokens;
      }
      return fewest!.filter((t) => vocabulary[t]!.includes(word));
    },
    weight(tokens) {
      let sum = 0;
      for (const t of tokens) sum += postingStarts[t + 1]! - postingStarts[t]!;
      return sum;
    },
    markProducts(tokens, into, mark) {
      for (const t of tokens) {
        for (let k = postingStarts[t]!; k < postingStarts[t + 1]!; k += 1) into[postings[k]!] = mark;
      }
    },
    holds(i, tokenMarks) {
      for (let k = starts[i]!; k < starts[i + 1]!; k += 1) if (tokenMarks[tokensOf[k]!] === 1) return true;
      return false;
    },
    mark(tokens) {
      for (const t of tokens) marks[t] = 1;
      return marks;
    },
    unmark(tokens) {
      for (const t of tokens) marks[t] = 0;
    },
  };
}

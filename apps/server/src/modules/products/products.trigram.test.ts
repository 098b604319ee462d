import { sql } from 'drizzle-orm';
import { mulberry32 } from '@pixel-vault/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { SEARCH_WORD_SIMILARITY } from '../../db/pglite-options.js';
import { SEED_PRODUCTS } from '../../db/seed/catalogue.js';
import { GENERATED_ADJECTIVES, GENERATED_NOUNS, GENERATED_PLATFORMS } from '../../db/seed/generated.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  type RangeTrigramRules,
  TrigramDictionary,
  trigramRulesOf,
  trigramsOf,
  wordSimilar,
  wordSimilarity,
  wordSimilarityOf,
} from './products.trigram.js';

/**
 * The port of pg_trgm's word_similarity and `<%` (products.trigram.ts) against the database's own
 * answers, on whichever engine runs the tests: thousands of (search, text) pairs like the shop's,
 * folded by the database as the shop folds them, and the edges (punctuation, repeats, empty strings,
 * letters beyond ASCII).
 */
let ctx: TestContext;
let rules: RangeTrigramRules;

const random = mulberry32(33_2026);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

/** One typo: two letters swapped, one dropped, changed or added (letters, not UTF-16 units). */
function typo(word: string): string {
  const chars = Array.from(word);
  const at = Math.floor(random() * chars.length);
  const kind = chars.length < 2 ? 3 : Math.floor(random() * 4);
  if (kind === 0 && at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  else if (kind === 1) chars.splice(at, 1);
  else if (kind === 2) chars[at] = pick(LETTERS);
  else chars.splice(at, 0, pick(LETTERS));
  return chars.join('');
}

/** The first 1 to `most` letters of `text`. */
const prefix = (text: string, most: number) => {
  const chars = Array.from(text);
  return chars.slice(0, 1 + Math.floor(random() * Math.min(most, chars.length))).join('');
};

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/** What a customer might type looking for `text`: its words, typos of them, phrases, fragments. */
function searchesFor(text: string): string[] {
  const words = wordsOf(text);
  if (words.length === 0) return [];
  const at = Math.floor(random() * words.length);
  const word = words[at]!;
  const next = words[at + 1] ?? pick(GENERATED_NOUNS);
  return [
    word,
    typo(word),
    typo(typo(word)),
    `${word} ${next}`,
    `${typo(word)} ${next}`,
    text,
    words.map((w) => (random() < 0.3 ? typo(w) : w)).join(' '),
    prefix(text, Infinity),
    prefix(word, 3),
    `${word} ${word}`,
    words.join('   '),
    `${pick(GENERATED_ADJECTIVES)} ${word}`,
    pick(GENERATED_NOUNS),
  ];
}

/** Texts as products' search texts are made: name, then platform (migration 0021). */
function productTexts(): string[] {
  const generated = Array.from({ length: 220 }, () => {
    const edition = pick([
      '',
      ' Deluxe',
      ' Classic',
      ' II',
      ' III',
      ' Collector Edition',
      ' Junior',
      ' Pocket',
    ]);
    return `${pick(GENERATED_ADJECTIVES)} ${pick(GENERATED_NOUNS)}${edition} ${pick(GENERATED_PLATFORMS)}`;
  });
  const seeded = SEED_PRODUCTS.map((p) => (p.platform ? `${p.name} ${p.platform}` : p.name));
  return [...generated, ...seeded];
}

/** Texts at the edges: repeated words and trigrams, punctuation, blanks, nothing, and beyond ASCII. */
const EDGE_TEXTS = [
  'Banana Bandana',
  'Mario Mario Kart 64',
  'Super Mario 64 Nintendo 64',
  'The Legend of Zelda: Ocarina of Time Nintendo 64',
  "Rock'n'Roll Racing Super Nintendo",
  'X-Men: Mutant Apocalypse',
  'A&B Puzzle __init__ snake_case',
  'Neo   Geo    Pocket  ',
  '',
  '   ',
  '!?',
  'x',
  '64',
  'Atari 2600',
  'a b c d e f',
  'aaa aaaa aaaaa',
  'abababab abab ab',
  'Supercalifragilisticexpialidocious Quest',
  'Straße Fighter Æon Flux Øresund Œuvre',
  'ポケモン スタジアム Nintendo 64',
  'ぽけもん ポケモン金',
  'Ζέλντα Μάριο Тетрис Война',
  '𠀀𠀁𠀂 𝔘𝔫𝔦 🎮 Game',
  'Café Crème Brûlée Señor',
];

/** Searches at the edges, each compared with every edge text. */
const EDGE_SEARCHES = [
  '',
  ' ',
  '64',
  '2600',
  'a',
  'ab',
  'x',
  'zelda:',
  'zelda ocarnia',
  'maro',
  'metriod',
  "rock'n'roll",
  'x-men',
  'a&b',
  '__',
  '_',
  'mario mario',
  'mario mario mario',
  'bandana',
  'nana',
  'anab',
  'aaaa',
  'abab',
  'neo  geo',
  'supercalifragilistic',
  'supercalifragilisticexpialidociousquest',
  'ß',
  'straße',
  'strasse',
  'æ',
  'ø',
  'œuvre',
  'ポケモン',
  'ぽけもん',
  'ポケ',
  'ζελντα',
  'тетрис',
  '𠀀𠀁',
  '𝔘𝔫𝔦',
  '🎮',
  'cafe creme',
  'señor',
];

/** `values` folded as the shop folds texts and searches (pv_fold: lower case, no accents). */
async function fold(values: string[]): Promise<string[]> {
  const rows = await queryRows<{ folded: string }>(
    ctx.db,
    sql`select pv_fold(v) as folded
        from json_array_elements_text(${JSON.stringify(values)}::json) with ordinality as e(v, n)
        order by n`,
  );
  return rows.map((row) => row.folded);
}

type Pair = readonly [search: string, text: string];
let pairs: Pair[];

async function buildPairs(): Promise<Pair[]> {
  const texts = [...productTexts(), ...EDGE_TEXTS];
  const searches = texts.map(searchesFor);
  const flat = [...texts, ...searches.flat(), ...EDGE_SEARCHES];
  const folded = await fold(flat);
  const foldedTexts = folded.slice(0, texts.length);
  let next = texts.length;
  const built: Pair[] = [];
  texts.forEach((_, i) => {
    for (let k = 0; k < searches[i]!.length; k += 1) built.push([folded[next++]!, foldedTexts[i]!]);
  });
  const edgeSearches = folded.slice(next);
  const edgeTexts = foldedTexts.slice(-EDGE_TEXTS.length);
  for (const search of edgeSearches) for (const text of edgeTexts) built.push([search, text]);
  // And searches for one product against another's text, as most comparisons of a search are.
  const ownSearches = built.map((pair) => pair[0]);
  for (let k = 0; k < 600; k += 1) built.push([pick(ownSearches), pick(foldedTexts)]);
  return built;
}

interface Answer {
  similarity: number;
  similar: boolean;
  atLeast: boolean;
  threshold: string;
}

/**
 * The database's answers for every pair, in one statement, in a transaction whose threshold is
 * `threshold` (unset: the connection's own, which the shop sets as it connects).
 */
function databaseAnswers(threshold?: number): Promise<Answer[]> {
  return ctx.db.transaction(async (tx) => {
    if (threshold !== undefined) {
      await tx.execute(
        sql`select set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true)`,
      );
    }
    // float4 to float8 is exact, and float8 is printed to round-trip, whatever extra_float_digits is.
    return queryRows<Answer>(
      tx,
      sql`select word_similarity(e->>0, e->>1)::float8 as similarity,
                 (e->>0) <% (e->>1) as similar,
                 word_similarity(e->>0, e->>1)
                   >= current_setting('pg_trgm.word_similarity_threshold')::float8 as "atLeast",
                 current_setting('pg_trgm.word_similarity_threshold') as threshold
          from json_array_elements(${JSON.stringify(pairs)}::json) with ordinality as p(e, n)
          order by n`,
    );
  });
}

/** One dictionary of every text, then the searches, as the search index uses them. */
function prepareAll() {
  const dict = new TrigramDictionary(rules);
  const texts = new Map<string, ReturnType<TrigramDictionary['prepare']>>();
  for (const [, text] of pairs) if (!texts.has(text)) texts.set(text, dict.prepare(text));
  const queries = new Map<string, ReturnType<TrigramDictionary['query']>>();
  for (const [search] of pairs) if (!queries.has(search)) queries.set(search, dict.query(search));
  return { dict, text: (t: string) => texts.get(t)!, query: (q: string) => queries.get(q)! };
}

const show = (pair: Pair) => `${JSON.stringify(pair[0])} vs ${JSON.stringify(pair[1])}`;

/** The first mismatches, readable, or none. */
const firstOf = (mismatches: string[]) => mismatches.slice(0, 20);

beforeAll(async () => {
  ctx = await createTestContext();
  rules = await trigramRulesOf(ctx.db);
  pairs = await buildPairs();
});
afterAll(() => ctx.close());

describe("pg_trgm's word characters", () => {
  it('are ASCII letters and digits, and not _ or punctuation, on every engine', () => {
    for (const c of 'az09AZ') expect(rules.isWordChar(c.codePointAt(0)!), c).toBe(true);
    for (const c of " _'-:&!?.,/\t") expect(rules.isWordChar(c.codePointAt(0)!), c).toBe(false);
  });

  it('are, beyond ASCII, what show_trgm says of each character', async () => {
    const sample = [
      0x80, 0xdf, 0xe6, 0xf8, 0x3b6, 0x442, 0x30dd, 0x3042, 0xd7ff, 0xe000, 0xfffd, 0x20000, 0x1d518,
    ];
    for (let k = 0; k < 1500; k += 1) sample.push(0x80 + Math.floor(random() * (0x10ffff - 0x80)));
    const probed = sample.filter((cp) => cp < 0xd800 || cp > 0xdfff);
    const rows = await queryRows<{ cp: number; word: boolean }>(
      ctx.db,
      sql`select v::int as cp, cardinality(show_trgm(chr(v::int))) > 0 as word
          from json_array_elements_text(${JSON.stringify(probed)}::json) as e(v)`,
    );
    const wrong = rows.filter((row) => rules.isWordChar(row.cp) !== row.word);
    expect(wrong).toEqual([]);
  });
});

describe("pg_trgm's word_similarity, ported", () => {
  it('cuts texts into the trigrams show_trgm shows', async () => {
    const texts = [...new Set(pairs.map((pair) => pair[1]))];
    const rows = await queryRows<{ trigrams: string[] }>(
      ctx.db,
      sql`select show_trgm(t) as trigrams
          from json_array_elements_text(${JSON.stringify(texts)}::json) with ordinality as e(t, n)
          order by n`,
    );
    const wrong: string[] = [];
    texts.forEach((text, i) => {
      const ours = [...new Set(trigramsOf(rules, text))].sort();
      const theirs = rows[i]!.trigrams;
      // Beyond ASCII show_trgm shows a trigram's CRC (products.trigram.ts): only counted, then.
      const same = /^[\x20-\x7e]*$/.test(text)
        ? JSON.stringify(ours) === JSON.stringify([...theirs].sort())
        : ours.length === theirs.length;
      if (!same) wrong.push(`${JSON.stringify(text)}: ${ours.join('|')} / ${theirs.join('|')}`);
    });
    expect(firstOf(wrong)).toEqual([]);
  });

  it('answers word_similarity(search, text) exactly as the database does', async () => {
    expect(pairs.length).toBeGreaterThan(3000);
    const answers = await databaseAnswers();
    const { dict, text, query } = prepareAll();
    const wrong: string[] = [];
    pairs.forEach((pair, i) => {
      const expected = answers[i]!.similarity;
      const ported = wordSimilarity(dict, query(pair[0]), text(pair[1]));
      if (ported !== Math.fround(expected)) wrong.push(`${show(pair)}: database ${expected}, port ${ported}`);
    });
    expect(firstOf(wrong), `${wrong.length} of ${pairs.length} pairs differ`).toEqual([]);
    // The pairs are worth comparing: most share trigrams, many are alike, many are not.
    const sharing = answers.filter((a) => a.similarity > 0).length;
    const alike = answers.filter((a) => a.similar).length;
    expect(sharing).toBeGreaterThan(pairs.length / 2);
    expect(alike).toBeGreaterThan(pairs.length / 3);
    expect(alike).toBeLessThan(pairs.length * 0.8);
    expect(new Set(answers.map((a) => a.similarity)).size).toBeGreaterThan(100);
  });

  // 0.5 and 1 are floats exactly, so a similarity can equal them: >= and > differ there only.
  it.each([undefined, 0.3, 0.4, 0.5, 0.6, 0.7, 1, 0])(
    'answers search <% text as the database does (threshold %s)',
    async (threshold) => {
      const answers = await databaseAnswers(threshold);
      const inForce = Number(answers[0]!.threshold);
      // Unset: the shop's own, set on every connection it opens.
      expect(inForce).toBe(threshold ?? SEARCH_WORD_SIMILARITY);
      const { dict, text, query } = prepareAll();
      const wrong: string[] = [];
      pairs.forEach((pair, i) => {
        const { similar, atLeast } = answers[i]!;
        // The operator stops once it reaches the threshold: the same answer as the whole computation.
        if (similar !== atLeast) wrong.push(`${show(pair)}: <% says ${similar}, word_similarity ${atLeast}`);
        const ported = wordSimilar(dict, query(pair[0]), text(pair[1]), inForce);
        if (ported !== similar)
          wrong.push(`${show(pair)} <% at ${inForce}: database ${similar}, port ${ported}`);
      });
      expect(firstOf(wrong), `${wrong.length} of ${pairs.length} pairs differ`).toEqual([]);
    },
  );

  it('gives the values the shop was tuned with (pglite-options.ts)', () => {
    expect(wordSimilarityOf(rules, 'metriod', 'metroid')).toBe(0.5);
    expect(wordSimilarityOf(rules, 'zelda ocarnia', 'the legend of zelda: ocarina of time')).toBe(
      Math.fround(5 / 7),
    );
    expect(wordSimilarityOf(rules, 'maro', 'super mario 64 nintendo 64')).toBe(Math.fround(0.6));
    const dict = new TrigramDictionary(rules);
    const text = dict.prepare('super mario 64 nintendo 64');
    expect(wordSimilar(dict, dict.query('maro'), text, SEARCH_WORD_SIMILARITY)).toBe(true);
    expect(wordSimilar(dict, dict.query('maro'), text, 0.6)).toBe(true);
    expect(wordSimilar(dict, dict.query('maro'), text, 0.61)).toBe(false);
    expect(wordSimilarityOf(rules, '', 'mario')).toBe(0);
    expect(wordSimilarityOf(rules, 'mario', '')).toBe(0);
  });

  it('counts unknown trigrams in a search, and matches those a later text brings', () => {
    const dict = new TrigramDictionary(rules);
    const mario = dict.prepare('super mario');
    const search = dict.query('mario kart');
    expect(search.size).toBe(trigramsOf(rules, 'mario kart').length);
    expect(search.ids.length).toBe(6);
    const kart = dict.prepare('mario kart 64');
    expect(wordSimilarity(dict, search, mario)).toBe(wordSimilarityOf(rules, 'mario kart', 'super mario'));
    expect(wordSimilarity(dict, search, kart)).toBe(1);
    expect(() => wordSimilarity(new TrigramDictionary(rules), search, kart)).toThrow(/dictionary/);
  });
});

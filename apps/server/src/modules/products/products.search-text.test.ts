import { sql } from 'drizzle-orm';
import { mulberry32 } from '@pixel-vault/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_WORD_SIMILARITY } from '../../db/pglite-options.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct } from '../../test/factories.js';
import { type SearchIndex, buildSearchIndex } from './products.search-index.js';
import { matching, rankOf, searchText, similarityOf } from './products.search-text.js';
import { wordsOf } from './products.search.js';
import { trigramRulesOf, wordSimilar, wordSimilarity } from './products.trigram.js';

/**
 * Issue 33: the index's text matching (token postings, trigram candidates, and similarities computed
 * once per span of the tokens that decide them) against the plain definition, product by product:
 * every word held or (four letters or more) similar, or the phrase similar; or every word in the
 * description. Names are drawn from a few tokens with repeats and punctuation, so many products
 * share spans and differ around them.
 */
let ctx: TestContext;
let ix: SearchIndex;
let descriptions: string[];

const TOKENS = ['super', 'mario', 'maro', '64', 'zelda:', 'ocarina', 'of', 'time', 'game', 'boy', 'gaem'];
const MORE = ['boy-advance', "rock'n'roll", 'x', 'ii', 'pokémon', 'pokemon', 'advance', 'mario64', '#12'];

beforeAll(async () => {
  ctx = await createTestContext();
  await clearProducts(ctx.db);
  const rand = mulberry32(64);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  for (let n = 0; n < 160; n += 1) {
    const length = 1 + Math.floor(rand() * 6);
    const name = Array.from({ length }, () => (rand() < 0.75 ? pick(TOKENS) : pick(MORE))).join(' ');
    await insertProduct(ctx.db, {
      name,
      description: `${pick(TOKENS)} ${pick(MORE)} and ${pick(TOKENS)}`,
      platform: rand() < 0.3 ? pick(['Game Boy', 'Nintendo 64']) : null,
    });
  }
  ix = await buildSearchIndex(ctx.db, await trigramRulesOf(ctx.db), 1, Date.now());
  const rows = await ctx.db.execute(sql`select search_description as d from products
    where deleted_at is null order by name, id`);
  descriptions = (rows as unknown as { rows: { d: string }[] }).rows.map((r) => r.d);
});
afterAll(() => ctx.close());

async function folded(texts: string[]): Promise<string[]> {
  const rows = await ctx.db.execute(
    sql`select ${sql.join(
      texts.map((t, k) => sql`pv_fold(${t}) as ${sql.identifier(`f${k}`)}`),
      sql`, `,
    )}`,
  );
  const row = (rows as unknown as { rows: Record<string, string>[] }).rows[0]!;
  return texts.map((_, k) => row[`f${k}`]!);
}

describe('matching a search text in the index (issue 33)', () => {
  it('finds, ranks and scores every product as the plain definition does', async () => {
    const rand = mulberry32(3);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const typo = (w: string) => {
      const at = Math.floor(rand() * Math.max(1, w.length - 1));
      return rand() < 0.5
        ? w.slice(0, at) + w.slice(at + 1)
        : w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
    };
    let compared = 0;
    for (let n = 0; n < 150; n += 1) {
      const words = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const w = pick([...TOKENS, ...MORE, 'Mario', 'ZELDA', 'advence', 'pokmon']);
        return rand() < 0.4 ? typo(w) : w;
      });
      const q = words.join(' ');
      const raw = wordsOf(q);
      const [whole, ...foldedWords] = await folded([q, ...raw]);
      for (const phrase of [false, true]) {
        const text = searchText(ix, whole!, raw, foldedWords, phrase)!;
        const found = matching(ix, text);
        const expected: number[] = [];
        const expectedRanks: number[] = [];
        for (let i = 0; i < ix.size; i += 1) {
          const own = ix.prepared[i]!;
          const named = phrase
            ? wordSimilar(ix.trigrams, text.whole, own, SEARCH_WORD_SIMILARITY)
            : text.words.every(
                (w) =>
                  ix.searchText[i]!.includes(w.folded) ||
                  (w.typo !== undefined && wordSimilar(ix.trigrams, w.typo, own, SEARCH_WORD_SIMILARITY)),
              );
          const described = text.words.every((w) => descriptions[i]!.includes(w.folded));
          if (!named && !described) continue;
          expected.push(i);
          const holdsAll = text.words.every((w) => ix.searchText[i]!.includes(w.folded));
          expectedRanks.push(named ? (holdsAll ? 2 : 3) : 4);
        }
        expect(found.ids, `${q} (phrase ${phrase})`).toEqual(expected);
        expect(found.ranks, `${q} (phrase ${phrase})`).toEqual(expectedRanks);
        for (const [k, i] of found.ids.entries()) {
          expect(rankOf(ix, text, i, found.ranks[k]!)).toBeLessThanOrEqual(found.ranks[k]!);
          expect(similarityOf(ix, text, i), `${q} / ${ix.searchText[i]}`).toBe(
            wordSimilarity(ix.trigrams, text.whole, ix.prepared[i]!),
          );
          compared += 1;
        }
      }
    }
    // The searches find things: the comparison is not of empty lists.
    expect(compared).toBeGreaterThan(2_000);
  });
});

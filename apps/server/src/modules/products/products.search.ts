import { type SQL, sql } from 'drizzle-orm';
import type { ProductFacetsQuery, ProductListQuery, ProductSort } from '@pixel-vault/shared';
import { products } from '../../db/schema/index.js';
import { CUSTOM_PLAN } from '../../db/statement-cache.js';
import type { Sale } from '../promotions/promotions.sales.js';
import { escapeLike } from './products.repo.js';

/**
 * Issue 33: the SQL of a filtered, searched, sorted product list and of its facets, in one place, for
 * both engines (pg_trgm and unaccent ship with PostgreSQL and with PGlite; decision 010).
 *
 * - `q` is folded as the columns are (pv_fold: lower case, accents off) and matches the name and
 *   platform (`search_text`) holding every word, or a word of them within the word similarity set
 *   per connection (a typo, db/client.ts), or the description holding every word. Each arm is
 *   answered by a trigram index.
 * - `condition` and `inStock` are the variants': a product matches through a live variant of that
 *   Condition option value, in stock when both are asked. They, its price and whether it is sold out
 *   are read from the product's search facts (kept by a trigger, migration 0022), not its variants.
 * - A product's price is its cheapest matching variant's, as shown: under the sale running on it.
 */

/** The filters (and the search text) as the queries read them; the list's sort beside. */
export type Filters = ProductFacetsQuery & {
  /**
   * The text matched as a phrase (by the word similarity of the whole of it) rather than word by word:
   * the second try when words found nothing ("neon drfit": "drfit" is too far from "drift" alone, the
   * phrase is close to "Neon Drift 64"). See `phraseRetry`.
   */
  phrase?: boolean;
};

/** A search that found nothing word by word is tried again as a phrase, when a typo may be in it. */
export function phraseRetry<T extends Filters>(filters: T): T | undefined {
  return filters.q && !filters.phrase && typoTolerant(filters.q) ? { ...filters, phrase: true } : undefined;
}

/** Search words used for the name and the description: more add nothing but work. */
const MAX_WORDS = 8;

/** The search text's words, as LIKE patterns (escaped), folded by the database as the columns are. */
export function wordsOf(q: string): string[] {
  return q.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
}

const searchText = sql`${products.searchText}`;
const foldedName = sql`pv_fold(${products.name})`;

/** Every word within `column`, folded: `column like '%w1%' and column like '%w2%'`. */
function holdsEvery(column: SQL, words: readonly string[]): SQL {
  return sql.join(
    words.map((w) => sql`${column} like '%' || pv_fold(${escapeLike(w)}) || '%'`),
    sql` and `,
  );
}

/**
 * Whether a typo of `word` is looked for: only for four letters or digits or more. Shorter words have
 * too few trigrams to tell a typo from another word ("100" is "1000"'s, "e_c" anything's).
 */
export const typoTolerant = (word: string) => /[\p{L}\p{N}]{4}/u.test(word);

/** `word` in the name or platform: as it is, or (long enough) a typo of one of their words. */
function wordIn(word: string): SQL {
  const exact = sql`${searchText} like '%' || pv_fold(${escapeLike(word)}) || '%'`;
  return typoTolerant(word) ? sql`(${exact} or pv_fold(${word}) <% ${searchText})` : exact;
}

/**
 * What `q` matches: every word in the name and platform, each as it is or a typo of one of theirs
 * ("super maro 64"); or every word in the description. Each word is a trigram index condition, so
 * the database reads the products holding them all, not every product whose text is like the phrase.
 */
function matches(q: string, phrase = false): SQL {
  const words = wordsOf(q);
  const named = phrase ? sql`pv_fold(${q}) <% ${searchText}` : sql.join(words.map(wordIn), sql` and `);
  return sql`((${named}) or (${holdsEvery(sql`${products.searchDescription}`, words)}))`;
}

/**
 * How well `q` matches, best first: 0 the exact name, 1 a name starting with it, 2 name and platform
 * holding every word as it is, 3 through a typo, 4 only the description; within a rank, the closer
 * to the phrase first (words together, in its order).
 */
function relevance(q: string, phrase = false): { rank: SQL; similarity: SQL } {
  const words = wordsOf(q);
  const typo = phrase
    ? sql`pv_fold(${q}) <% ${searchText}`
    : sql`(${sql.join(words.map(wordIn), sql` and `)})`;
  // The name's folding is the costly part (unaccent: 10 of 30 ms for 5,000 matches at 100,000
  // products), and the name starts the search text: only a text starting with `q` can name it.
  const startsWithQ = sql`starts_with(${searchText}, pv_fold(${q}))`;
  return {
    rank: sql`case
      when ${startsWithQ} and ${foldedName} = pv_fold(${q}) then 0
      when ${startsWithQ} and ${foldedName} like pv_fold(${escapeLike(q)}) || '%' then 1
      when ${holdsEvery(searchText, words)} then 2
      when ${typo} then 3
      else 4 end`,
    similarity: sql`word_similarity(pv_fold(${q}), ${searchText})`,
  };
}

/** The product's id, qualified: Drizzle leaves a single-table select's columns bare (products.repo.ts). */
export const productId = sql`${products}.${sql.identifier(products.id.name)}`;

/**
 * The cheapest price of the product's live variants that a list with these filters sells (of the
 * condition, in stock when asked; null when none), read from its search facts (schema/products.ts):
 * no probe of its variants per product. Without a condition, from the facts' own columns.
 */
function cheapestOf(filters: Filters): SQL {
  if (filters.condition === undefined) {
    return filters.inStock ? sql`${products.cheapestInStockCents}` : sql`${products.cheapestCents}`;
  }
  // The key and index typed: an untyped parameter after ->> would be taken as an object's key.
  return sql`(${products.searchFacts} -> ${filters.condition}::text ->> ${filters.inStock ? 1 : 0}::int)::int`;
}

/** True when a live variant of the product is in stock (its search facts). */
const stocked = sql`${products.cheapestInStockCents} is not null`;

/** The percent off the product's prices now: the largest running sale covering it (0 without). */
function percentOff(running: readonly Sale[]): SQL | undefined {
  if (running.length === 0) return undefined;
  const cases = running.map((sale) => {
    if (sale.categories.length === 0 && sale.products.length === 0) return sql`${sale.percent}::int`;
    const covers: SQL[] = [];
    if (sale.categories.length > 0) {
      covers.push(
        sql`${products.category} in (${sql.join(
          sale.categories.map((c) => sql`${c}`),
          sql`, `,
        )})`,
      );
    }
    if (sale.products.length > 0) {
      covers.push(
        sql`${productId} in (${sql.join(
          sale.products.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    }
    return sql`case when ${sql.join(covers, sql` or `)} then ${sale.percent}::int else 0 end`;
  });
  return sql`greatest(${sql.join(cases, sql`, `)})`;
}

/** `cents` as shown under `percent` off: salePriceCents (shared pricing) in SQL. */
function underSale(cents: SQL, percent: SQL | undefined): SQL {
  if (!percent) return cents;
  return sql`(${cents} - round(${cents} * ${percent} / 100.0))::int`;
}

/** The cheapest price shown of the variants the filters keep: a sale's percent is the product's. */
function shownPrice(filters: Filters, running: readonly Sale[]): SQL {
  return underSale(cheapestOf(filters), percentOff(running));
}

/** Dollars to cents, as the bounds are compared with prices shown in cents. */
export const cents = (dollars: number) => Math.round(dollars * 100);

/** The price bounds on `price`. */
function within(filters: Filters, price: SQL): SQL[] {
  const parts: SQL[] = [];
  if (filters.minPrice !== undefined) parts.push(sql`${price} >= ${cents(filters.minPrice)}`);
  if (filters.maxPrice !== undefined) parts.push(sql`${price} <= ${cents(filters.maxPrice)}`);
  return parts;
}

/** What a product itself must be: live, of the category and platform, matching `q`. */
function productWhere(filters: Filters): SQL[] {
  const parts: SQL[] = [sql`${products.deletedAt} is null`];
  if (filters.category !== undefined) parts.push(sql`${products.category} = ${filters.category}`);
  if (filters.platform !== undefined) {
    parts.push(sql`lower(${products.platform}) = lower(${filters.platform})`);
  }
  if (filters.q) parts.push(matches(filters.q, filters.phrase));
  return parts;
}

/**
 * Marks a search's statement to be planned for its values each time (statement-cache.ts): how many
 * products a word, a platform or a price range keeps decides the plan.
 */
const customPlan = sql.raw(CUSTOM_PLAN);

/**
 * The conditions of these filters: live, of the category and platform, matching `q`, with a variant
 * of the condition (in stock when asked), its price within the bounds.
 */
export function whereOf(filters: Filters, running: readonly Sale[]): SQL {
  const parts = productWhere(filters);
  if (filters.condition !== undefined || filters.inStock) parts.push(sql`${cheapestOf(filters)} is not null`);
  parts.push(...within(filters, shownPrice(filters, running)));
  return sql`${customPlan} ${sql.join(parts, sql` and `)}`;
}

/** The sort a list gets: relevance when a search text is given, the spec's name order otherwise. */
export function sortOf(query: Pick<ProductListQuery, 'q' | 'sort'>): ProductSort {
  const sort = query.sort ?? (query.q ? 'relevance' : 'name');
  return sort === 'relevance' && !query.q ? 'name' : sort;
}

/**
 * The list's order: sold-out products after the others (issue 30) in every sort but relevance, where
 * how well a product matches comes first; ties end on the id, so pages never repeat or skip.
 */
export function orderOf(query: ProductListQuery & Filters, running: readonly Sale[]): SQL {
  const id = productId;
  const soldOut = sql`not ${stocked}`;
  switch (sortOf(query)) {
    case 'relevance': {
      const { rank, similarity } = relevance(query.q!, query.phrase);
      return sql`${rank}, ${soldOut}, ${similarity} desc, ${products.name}, ${id}`;
    }
    case 'price_asc':
      return sql`${soldOut}, ${shownPrice(query, running)} asc, ${id}`;
    case 'price_desc':
      return sql`${soldOut}, ${shownPrice(query, running)} desc, ${id}`;
    case 'newest':
      return sql`${soldOut}, ${products.createdAt} desc, ${id}`;
    case 'rating':
      return sql`${soldOut}, ${products.ratingTenths} desc, ${products.reviewCount} desc, ${id}`;
    case 'name':
      return sql`${soldOut}, ${products.name}, ${id}`;
  }
}

/** Whether a list asks anything of issue 33 (a spec client's never does: it keeps its queries). */
export function usesSearch(query: ProductListQuery): boolean {
  return (
    query.q !== undefined ||
    query.platform !== undefined ||
    query.condition !== undefined ||
    query.inStock !== undefined ||
    query.minPrice !== undefined ||
    query.maxPrice !== undefined ||
    query.sort !== undefined
  );
}

/**
 * GET /api/products/facets in one statement: each facet counts with its own filter left out and the
 * others kept (a shopper choosing that value would see that many). The products are read once: one
 * pass counts the categories, the platforms, the total, the in-stock count and the price range, by
 * grouping sets with a filter per count; the conditions (a product has several) are counted apart,
 * one count per name in `conditionNames` (those of zero are the caller's to leave out).
 */
export function facetsSql(asked: Filters, running: readonly Sale[], conditionNames: readonly string[]): SQL {
  // The products the search text matches are found once, into a CTE named as the table (so every
  // facet's conditions read it as they would the table): only what the facets read. Without a text,
  // the table is read as it is (a copy of every product would spill to disk).
  const { q, phrase, ...filters } = asked;
  const ctes: SQL[] = [];
  if (q) {
    ctes.push(sql`${products} as materialized (
      select ${productId}, ${products.category}, ${products.platform}, ${products.searchFacts},
        ${products.cheapestCents}, ${products.cheapestInStockCents}, ${products.deletedAt}
      from ${products} where ${sql.join(productWhere({ q, phrase }), sql` and `)})`);
  }
  // Each filter's condition on a product; `true` when not asked.
  const both = (parts: SQL[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);
  const category = filters.category !== undefined ? [sql`${products.category} = ${filters.category}`] : [];
  const platform =
    filters.platform !== undefined ? [sql`lower(${products.platform}) = lower(${filters.platform})`] : [];
  const sold = (f: Filters) =>
    f.condition !== undefined || f.inStock ? [sql`${cheapestOf(f)} is not null`] : [];
  const inStock = { ...filters, inStock: true };
  const price = shownPrice(filters, running);
  const all = [...category, ...platform, ...sold(filters)];
  ctes.push(sql`facet_counts as (
      select grouping(${products.category}) as by_category, grouping(lower(${products.platform})) as by_platform,
        ${products.category} as category, min(${products.platform}) as platform,
        count(*) filter (where ${both([...platform, ...sold(filters), ...within(filters, price)])})::int as n_category,
        count(*) filter (where ${both([...category, ...sold(filters), ...within(filters, price)])}
          and ${products.platform} is not null)::int as n_platform,
        count(*) filter (where ${both([...all, ...within(filters, price)])})::int as n_total,
        count(*) filter (where ${both([...category, ...platform, ...sold(inStock), ...within(filters, shownPrice(inStock, running))])})::int as n_in_stock,
        min(${price}) filter (where ${both(all)}) as min_price,
        max(${price}) filter (where ${both(all)}) as max_price
      from ${products} where ${products.deletedAt} is null
      group by grouping sets ((${products.category}), (lower(${products.platform})), ()))`);
  // Per condition (each name the catalogue uses, `conditionNames`): the products with a live variant
  // of it (in stock when asked), priced by those variants, within the bounds: the list with that
  // condition chosen. A count per name in one pass, where expanding every product's facts into rows
  // (jsonb_each) took 120 of a 200 ms answer at 100,000 products.
  const conditions =
    conditionNames.length === 0
      ? sql`'[]'::json`
      : sql`(select json_build_array(${sql.join(
          conditionNames.map((name) => {
            const conditionPrice = underSale(
              sql`(${products.searchFacts} -> ${name}::text ->> ${filters.inStock ? 1 : 0}::int)::int`,
              percentOff(running),
            );
            const kept = both([sql`${conditionPrice} is not null`, ...within(filters, conditionPrice)]);
            return sql`json_build_object('value', ${name}::text, 'count', count(*) filter (where ${kept})::int)`;
          }),
          sql`, `,
        )}) from ${products} where ${both([sql`${products.deletedAt} is null`, ...category, ...platform])})`;
  const whole = sql`from facet_counts where by_category = 1 and by_platform = 1`;
  return sql`${customPlan} with ${sql.join(ctes, sql`, `)} select
      (select n_total ${whole}) as "total",
      (select coalesce(json_agg(json_build_object('value', category, 'count', n_category) order by category), '[]'::json)
         from facet_counts where by_category = 0 and n_category > 0) as "categories",
      (select coalesce(json_agg(json_build_object('value', platform, 'count', n_platform) order by platform), '[]'::json)
         from facet_counts where by_platform = 0 and n_platform > 0) as "platforms",
      ${conditions} as "conditions",
      (select case when min_price is null then null
         else json_build_object('min', min_price, 'max', max_price) end ${whole}) as "price",
      (select n_in_stock ${whole}) as "inStock"`;
}

import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

/**
 * Issue 33: a search word within this word similarity (pg_trgm, 0..1) of a word of a product's name
 * is a typo of it: "metriod" is 0.5 of "Metroid", "zelda ocarnia" 0.71 of "The Legend of Zelda:
 * Ocarina of Time". pg_trgm's default, 0.6, misses the first. The `<%` operator, which the trigram
 * indexes answer, reads it from the session, so every connection sets it when it opens.
 */
export const SEARCH_WORD_SIMILARITY = 0.4;

/** PGlite's one session, set as every PostgreSQL connection is (client.ts). */
export const SEARCH_SESSION_SQL = `SET pg_trgm.word_similarity_threshold = ${SEARCH_WORD_SIMILARITY}`;

/** Every PGlite this app opens: trigram indexes for name search (issue 13), as PostgreSQL's contrib has. */
export const PGLITE_OPTIONS = { extensions: { pg_trgm, unaccent } } as const;

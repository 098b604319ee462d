import pg from 'pg';
import { hasPostgresCode } from '../lib/errors.js';

/**
 * Server-side prepared statements for node-postgres (issue 13). Drizzle sends every query unnamed, so
 * PostgreSQL parses, analyses and plans its text again on each execution; for the shop's short
 * statements that is most of the database's work (measured: the four statements of a placement run
 * 1.7x as many transactions a second once prepared). A text sent a second time is given a name, and
 * node-postgres then parses it once per connection and afterwards only binds and executes it; after
 * five executions PostgreSQL may keep a generic plan (plan_cache_mode auto). The same policy as
 * pgjdbc's prepareThreshold, and the default of postgres.js, pgx and asyncpg. Measured on the shop
 * (`npm run bench`, same machine, back to back): checkout 136 -> 171 paid orders/s with PostgreSQL's
 * CPU 4.3 -> 2.4 ms per order; the 100,000-product catalogue's uncached category pages 1,357 -> 1,562
 * and searches 840 -> 1,001 req/s (generic plans did not slow the pattern searches).
 *
 * Bounded: a text longer than `maxLength` is never named (bulk inserts), at most `maxNamed` texts are
 * (each connection keeps each one it uses), and at most `maxTracked` texts are remembered at all.
 * A pooler in front of PostgreSQL must keep prepared statements per connection: PgBouncer in session
 * mode, or in transaction mode from 1.21 with max_prepared_statements set (docs/deploy.md).
 */
export interface StatementCacheLimits {
  maxNamed: number;
  maxTracked: number;
  maxLength: number;
}

const DEFAULT_LIMITS: StatementCacheLimits = { maxNamed: 500, maxTracked: 5_000, maxLength: 8_192 };

/**
 * A statement whose text holds this comment is never named, so PostgreSQL plans it for its values on
 * every execution. For the searches (issue 33): a generic plan of a trigram search cannot know how
 * rare its words are, and took a sequential scan computing the word similarity of all 100,000 products
 * (575 ms) for a word that the trigram index answers in 19 ms.
 */
export const CUSTOM_PLAN = '/* custom plan */';

export interface StatementNamer {
  /** The name to send `text` under, or undefined to send it unnamed (first time, too long, caps reached). */
  nameOf(text: string): string | undefined;
  /** Never name `text` again (its prepared form went stale). */
  forget(text: string): void;
}

export function createStatementNamer(limits: Partial<StatementCacheLimits> = {}): StatementNamer {
  const { maxNamed, maxTracked, maxLength } = { ...DEFAULT_LIMITS, ...limits };
  /** A text seen once maps to null, a named one to its name, a forgotten one to false. */
  const seen = new Map<string, string | null | false>();
  let named = 0;
  return {
    nameOf(text) {
      if (text.length > maxLength || text.includes(CUSTOM_PLAN)) return undefined;
      const known = seen.get(text);
      if (known) return known;
      if (known === false) return undefined;
      if (known === undefined) {
        if (seen.size < maxTracked) seen.set(text, null);
        return undefined;
      }
      if (named >= maxNamed) return undefined;
      named += 1;
      // One name per text for the process's life: node-postgres refuses a name reused for other text.
      const name = `pv_${named}`;
      seen.set(text, name);
      return name;
    },
    forget(text) {
      seen.set(text, false);
    },
  };
}

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed type since it was
 * prepared (a migration run by a newer instance), on every later call on that connection.
 */
export function isStalePlan(error: unknown): boolean {
  return (
    hasPostgresCode(error, '0A000') &&
    error instanceof Error &&
    error.message.includes('cached plan must not change result type')
  );
}

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  submit?: unknown;
}

/**
 * A node-postgres Client (for the Pool's `Client` option) that sends query configs (what Drizzle
 * passes) under the namer's names. Strings, submittable queries (cursors, streams) and configs that
 * already carry a name go through as they are.
 */
export function namingClient(namer: StatementNamer): typeof pg.Client {
  // Typed by the one method it changes: node-postgres overloads `query` a dozen ways.
  const Client = pg.Client as unknown as new (config?: pg.ClientConfig) => {
    query(...args: unknown[]): unknown;
  };
  return class NamingClient extends Client {
    override query(...args: unknown[]): unknown {
      const [config, ...rest] = args;
      if (typeof config !== 'object' || config === null) return super.query(...args);
      const { text, name, submit } = config as QueryConfigLike;
      if (typeof text !== 'string' || name !== undefined || submit !== undefined) return super.query(...args);
      const given = namer.nameOf(text);
      if (given === undefined) return super.query(...args);
      const result = super.query({ ...config, name: given }, ...rest);
      // A stale statement fails this call (the caller sees the error, a transaction rolls back); the
      // text is sent unnamed from then on, so the next call works on every connection.
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          if (isStalePlan(error)) namer.forget(text);
          throw error;
        });
      }
      return result;
    }
  } as unknown as typeof pg.Client;
}

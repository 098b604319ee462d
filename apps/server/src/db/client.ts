import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { type SQL, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.js';
import { prepareRepeatedStatements } from './pglite-statements.js';
import { createStatementNamer, namingClient } from './statement-cache.js';

export type Schema = typeof schema;
/** One type for both engines: services never know which one they talk to. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * LISTENs on `channel` (issue 13: instances tell each other the catalogue changed) and calls
   * `onMessage` with each NOTIFY's payload. On PostgreSQL it holds a connection of its own, and
   * reconnects when it breaks, calling `onMessage(undefined)` then: messages may have been missed.
   * Answers the function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string | undefined) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A channel name is an identifier: ours are fixed, lower-case words (it is written into LISTEN). */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
}

/** LISTEN on a connection of its own, reconnecting (after a pause) whenever it breaks. */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  onMessage: (payload: string | undefined) => void,
  onError: (error: Error) => void,
): Promise<() => Promise<void>> {
  assertChannel(channel);
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  /** Once per break: the next attempt a second later, and again after every failed one. */
  const reconnectSoon = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect(true).catch((error: unknown) => {
        onError(error instanceof Error ? error : new Error(String(error)));
        reconnectSoon();
      });
    }, 1000);
  };
  const connect = async (afterGap: boolean) => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload);
    });
    const broken = (error?: Error) => {
      if (error) onError(error);
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      reconnectSoon();
    };
    next.on('error', broken);
    next.on('end', () => broken());
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      void next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
    if (afterGap) onMessage(undefined);
  };
  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

/**
 * Issue 33: a search word within this word similarity (pg_trgm, 0..1) of a word of a product's name
 * is a typo of it: "metriod" is 0.5 of "Metroid", "zelda ocarnia" 0.71 of "The Legend of Zelda:
 * Ocarina of Time". pg_trgm's default, 0.6, misses the first. The `<%` operator, which the trigram
 * indexes answer, reads it from the session, so every connection sets it when it opens.
 */
export const SEARCH_WORD_SIMILARITY = 0.4;
/**
 * And no JIT: PostgreSQL compiles a plan whose estimated cost is high, and a search over 100,000
 * products is estimated at millions: it spent 600 ms compiling a query that ran in 3 s (bench/search.ts).
 * The shop's statements are short; compiling never pays back. PGlite is built without JIT.
 * And no parallel workers per statement: the shop's load is many short statements at once, and a
 * statement split over workers took their cores from the others' (and was slower even alone here: a
 * sorted page of all 100,000 products ran in 147 ms with two workers, 86 ms without).
 */
const SEARCH_SESSION_OPTIONS = `-c pg_trgm.word_similarity_threshold=${SEARCH_WORD_SIMILARITY} -c jit=off -c max_parallel_workers_per_gather=0`;
const SEARCH_SESSION_SQL = `SET pg_trgm.word_similarity_threshold = ${SEARCH_WORD_SIMILARITY}`;

export interface OpenDatabaseOptions {
  /** postgres:// URL; unset = embedded PGlite in `dataDir/db`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Tests start PGlite from a migrated dump instead of running initdb (~4 s) per file. */
  pgliteLoadDataDir?: Blob;
  /** PGlite in memory (tests): nothing is written under dataDir. */
  inMemory?: boolean;
  poolMax?: number;
  /** An idle PostgreSQL connection broke (database restart, network): worth a log line, not a crash. */
  onIdleError?: (error: Error) => void;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Statements sent more than once are prepared on each connection (statement-cache.ts).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      // Issue 33: how alike a search and a name must be (every connection, before its first query).
      // An `options` of the operator's own in the URL is kept, before ours.
      options: [new URL(options.databaseUrl).searchParams.get('options'), SEARCH_SESSION_OPTIONS]
        .filter(Boolean)
        .join(' '),
      max: options.poolMax ?? 10,
      Client: namingClient(createStatementNamer()),
    });
    // Without a listener, an idle client losing its connection would crash the process; the pool
    // replaces the client by itself.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema });
    const databaseUrl = options.databaseUrl;
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      listen: (channel, onMessage) =>
        listenOnPostgres(databaseUrl, channel, onMessage, (error) => options.onIdleError?.(error)),
      close: () => pool.end(),
    };
  }

  let dataDir: string | undefined;
  if (!options.inMemory) {
    dataDir = path.join(options.dataDir, 'db');
    // PGlite does not create missing parents itself.
    mkdirSync(options.dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir, {
    ...PGLITE_OPTIONS,
    ...(options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {}),
  });
  await client.exec(SEARCH_SESSION_SQL);
  prepareRepeatedStatements(client);
  takeTurns(client);
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    listen: async (channel, onMessage) => {
      assertChannel(channel);
      const unlisten = await client.listen(channel, (payload) => onMessage(payload));
      return async () => {
        // Closing PGlite first ends its listeners too.
        if (!client.closed) await unlisten();
      };
    },
    close: () => client.close(),
  };
}

/**
 * PGlite runs each statement in the process, synchronously, and answers it with a resolved promise:
 * a transaction of twenty statements runs from its first to its last without the event loop turning
 * once, and every request that arrived meanwhile waits for all of it (issue 28: with ten customers
 * checking out, a cached catalogue answer waited about 35 ms, and browsing fell to 5% of its rate).
 * So the database works in slices: once it has had the thread for PGLITE_SLICE_MS, its next statement
 * waits one turn of the event loop, and whoever is waiting is answered first. Not before every
 * statement: PGlite runs one transaction at a time, so a turn per statement made every checkout wait
 * for twenty turns (browsing 70%, checkout 27% of their rates alone). The slice shares the thread
 * between the two (bench/mixed.ts, ten checkouts beside 40 browsing connections, share of each alone):
 * 2 ms gave browsing 38% and checkout 62%, 1.5 ms 44% / 56%, 1.25 ms 46-49% / 48-55%, 1 ms 49-54% /
 * 44-50%. A millisecond: what a request waits at most for the database before it is answered.
 */
export const PGLITE_SLICE_MS = 1;

function takeTurns(client: PGlite) {
  const exclusive = client as unknown as { _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T> };
  const runExclusive = exclusive._runExclusiveQuery.bind(client);
  let sliceStart = performance.now();
  exclusive._runExclusiveQuery = async (work) => {
    if (performance.now() - sliceStart >= PGLITE_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    return runExclusive(work);
  };
}

/** Every PGlite this app opens: trigram indexes for name search (issue 13), as PostgreSQL's contrib has. */
export const PGLITE_OPTIONS = { extensions: { pg_trgm, unaccent } } as const;

/** Raw SQL rows; both drivers answer `{ rows }`, which the engine-neutral type cannot promise. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** src/db/migrations, from src/db/client.ts and from dist/db/client.js alike (same depth). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

/** Any fixed number: it only has to be the same in every instance of this app. */
const MIGRATION_LOCK_KEY = 7_302_614_201;

/**
 * Applies drizzle-kit's SQL migrations, bookkept in drizzle's own table so drizzle-kit tooling
 * stays compatible. Unlike drizzle's migrator it holds an advisory lock for the whole run, so
 * several instances starting at once against one PostgreSQL cannot apply a migration twice.
 */
export async function migrate(db: Database, migrationsFolder = MIGRATIONS_DIR): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder });
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`
      create table if not exists drizzle.__drizzle_migrations (
        id serial primary key,
        hash text not null,
        created_at bigint
      )`);
    const [last] = await queryRows<{ created_at: string | number | null }>(
      tx,
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const lastAt = Number(last?.created_at ?? -1);
    let applied = 0;
    for (const migration of migrations) {
      if (migration.folderMillis <= lastAt) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      applied += 1;
    }
    return applied;
  });
}

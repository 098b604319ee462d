import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { DEFAULT_POOL_SIZE } from '../config.js';
import * as schema from './schema/index.js';
import { PGLITE_OPTIONS, SEARCH_WORD_SIMILARITY } from './pglite-options.js';
import { PGliteRemote } from './pglite-remote.js';
import { createStatementNamer, namingClient } from './statement-cache.js';

export { PGLITE_OPTIONS, SEARCH_WORD_SIMILARITY };

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
  /**
   * PGlite: handles the database thread's answers that have arrived, now (PGliteRemote.takeReplies),
   * so that an open transaction's next statement does not wait behind a batch of requests. Called
   * as each request arrives. PostgreSQL has no such queue: unset.
   */
  takeReplies?: () => void;
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
 * Every PostgreSQL connection gets the search's word similarity (pglite-options.ts), and no JIT:
 * PostgreSQL compiles a plan whose estimated cost is high, and a search over 100,000 products is
 * estimated at millions: it spent 600 ms compiling a query that ran in 3 s (bench/search.ts).
 * The shop's statements are short; compiling never pays back. PGlite is built without JIT.
 * And no parallel workers per statement: the shop's load is many short statements at once, and a
 * statement split over workers took their cores from the others' (and was slower even alone here: a
 * sorted page of all 100,000 products ran in 147 ms with two workers, 86 ms without).
 */
const SEARCH_SESSION_OPTIONS = `-c pg_trgm.word_similarity_threshold=${SEARCH_WORD_SIMILARITY} -c jit=off -c max_parallel_workers_per_gather=0`;

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
  /** PGlite's thread died: every query fails from now on (the server exits, to be restarted). */
  onDatabaseExit?: (error: Error) => void;
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
      max: options.poolMax ?? DEFAULT_POOL_SIZE,
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
  // PGlite runs on a thread of its own (pglite-remote.ts): the event loop answers requests while it works.
  const client = await PGliteRemote.open({
    dataDir,
    loadDataDir: options.pgliteLoadDataDir,
    onExit: options.onDatabaseExit,
  });
  const db = drizzlePglite(client as unknown as PGlite, { schema });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    listen: async (channel, onMessage) => {
      assertChannel(channel);
      // Its unlisten asks nothing of a closed or dead thread (closing PGlite ends its listeners).
      return client.listen(channel, (payload) => onMessage(payload));
    },
    takeReplies: () => client.takeReplies(),
    close: () => client.close(),
  };
}

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

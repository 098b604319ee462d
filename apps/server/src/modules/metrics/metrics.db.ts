import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import { type Database, queryRows } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/index.js';

/**
 * What the database side looks like when Prometheus scrapes (issue 37): the mail outbox (how many
 * mails wait, and how long the oldest has waited) and the connection pool (in use, waiting).
 */
export interface DatabaseMetrics {
  /** Reads the outbox (one query) and the pool; called before the registry is written out. */
  refresh(): Promise<void>;
}

/** What node-postgres's Pool exposes about itself. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

type PoolReading = () => { inUse: number; waiting: number; size: number };

/** The driver's handle behind drizzle (`$client`): a pg Pool, or PGlite on its thread. */
function poolReading(db: Database): PoolReading | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client && typeof client === 'object' && 'waitingCount' in client && 'idleCount' in client) {
    const pool = client as PgPool;
    return () => ({
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
      size: pool.options?.max ?? pool.totalCount,
    });
  }
  if (client && typeof client === 'object' && 'poolState' in client) {
    // PGlite on its thread (db/pglite-remote.ts) counts its own calls: one connection, the rest wait.
    const remote = client as { poolState(): { inUse: number; waiting: number } };
    return () => ({ ...remote.poolState(), size: 1 });
  }
  return undefined;
}

export function createDatabaseMetrics(
  registry: Registry,
  prefix: string,
  db: Database,
  onError: (error: unknown) => void,
): DatabaseMetrics {
  const gauge = (name: string, help: string, read?: () => number) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      registers: [registry],
      // Read at scrape by prom-client itself: no query, no await.
      ...(read
        ? {
            collect() {
              this.set(read());
            },
          }
        : {}),
    });
  const pending = gauge('mail_outbox_pending', 'Mails waiting in the outbox to be sent (status pending).');
  const oldest = gauge(
    'mail_outbox_oldest_pending_age_seconds',
    'How long the oldest pending mail has waited, in seconds (0 when none waits).',
  );
  const reading = poolReading(db);
  if (reading) {
    gauge(
      'db_pool_connections_in_use',
      'Database connections running a query or transaction.',
      () => reading().inUse,
    );
    gauge(
      'db_pool_waiting',
      'Queries and transactions waiting for a database connection.',
      () => reading().waiting,
    );
    gauge(
      'db_pool_connections_max',
      'The most connections the pool opens (1 for PGlite).',
      () => reading().size,
    );
  }

  return {
    async refresh() {
      try {
        // The partial index of the mail worker's query (status = 'pending') finds the rows; the
        // database's clock, as the rows' created_at default is.
        const [row] = await queryRows<{ pending: number | string; age: number | string | null }>(
          db,
          sql`select count(*)::int as pending,
                coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8 as age
              from ${mailOutbox} where ${mailOutbox.status} = 'pending'`,
        );
        pending.set(Number(row?.pending ?? 0));
        oldest.set(Math.max(0, Number(row?.age ?? 0)));
      } catch (error) {
        // The scrape still answers (with the last figures): the process metrics matter most then.
        onError(error);
      }
    },
  };
}

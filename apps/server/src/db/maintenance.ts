import { sql } from 'drizzle-orm';
import { type Periodic, periodic } from '../lib/periodic.js';
import type { Database } from './client.js';

/** How often the embedded database is vacuumed and analyzed (it has no autovacuum). */
export const PGLITE_VACUUM_INTERVAL_MS = 60 * 60_000;
/** How often, between those, it is vacuumed alone: the dead rows that busy checkouts leave. */
export const PGLITE_SWEEP_INTERVAL_MS = 15_000;

export interface MaintenanceLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
}

/**
 * PGlite runs PostgreSQL in this process with no autovacuum and no statistics collector, so nothing
 * ever vacuums or analyzes the embedded database on its own: every stock update leaves a dead row
 * behind, the planner's statistics go stale, and without a vacuum's visibility map it never chooses
 * an index-only scan (issue 13: a deep page of a 25,000-product category took 130 ms on a bitmap scan
 * and a sort, 20 ms on the category-and-name index once vacuumed; a rare name search went from 36 to
 * 2 ms). So the server runs `VACUUM (ANALYZE)` at start and every hour. It holds the one connection
 * while it runs: a few milliseconds for the demo shop, about 1.5 s at 100,000 products.
 *
 * And a plain `VACUUM` every 15 s between (issue 28). Each paid order leaves dead rows behind (the
 * order's row as it was unpaid, the variant's stock, the gift card's balance, the cart, the limits'
 * counters), and reads that go through them slow down as they pile up: in a sale, checkout on PGlite
 * fell from 85 to 54 paid orders/s over 90 s, while on PostgreSQL, vacuumed by autovacuum, it held
 * steady. Vacuumed every 15 s it held at 127-141 a second. A VACUUM without ANALYZE skips the pages
 * that nothing changed (the visibility map), but still visits every table and index: measured 10-34 ms
 * for the demo shop and 42-49 ms at 100,000 products with nothing changed (85 ms after 2,000 stock
 * changes), the one connection held meanwhile: at most a third of a percent of the time.
 * PostgreSQL servers have autovacuum and do not need this.
 */
export function createPgliteMaintenance({
  db,
  log,
  intervalMs = PGLITE_VACUUM_INTERVAL_MS,
  sweepMs = PGLITE_SWEEP_INTERVAL_MS,
}: {
  db: Database;
  log: MaintenanceLog;
  intervalMs?: number;
  sweepMs?: number;
}): Periodic {
  let analyzedAt: number | undefined;
  return periodic(
    async () => {
      const started = performance.now();
      if (analyzedAt !== undefined && started - analyzedAt < intervalMs) {
        await db.execute(sql`vacuum`);
        return;
      }
      await db.execute(sql`vacuum (analyze)`);
      analyzedAt = started;
      log.info({ ms: Math.round(performance.now() - started) }, 'embedded database vacuumed and analyzed');
    },
    Math.min(sweepMs, intervalMs),
    (error) => log.warn({ err: error }, 'embedded database maintenance failed'),
  );
}

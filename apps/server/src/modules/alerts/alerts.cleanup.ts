import { ALERT_CONFIRM_HOURS } from '@pixel-vault/shared';
import { and, eq, inArray, isNotNull, lt, or, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { stockAlerts } from '../../db/schema/index.js';
import { type Periodic, periodic } from '../../lib/periodic.js';

/**
 * A visitor's alert that was never confirmed holds an address its owner may never have typed: once
 * its link has expired, and a day more (a shopper who asks about it can still be answered), it is
 * deleted. Confirmed, mailed and cancelled rows stay: they are what the shopper agreed to.
 */
export const UNCONFIRMED_ALERT_RETENTION_MS = (ALERT_CONFIRM_HOURS + 24) * 60 * 60_000;

/** How often the cleanup runs (and once at start). */
export const ALERT_CLEANUP_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes the visitors' unconfirmed alerts whose last confirmation mail (or, with none, the row) is
 * older than UNCONFIRMED_ALERT_RETENTION_MS before `now`, in one statement, and answers how many.
 * Rows another transaction holds (a confirmation, a new subscribe) are skipped, not waited on.
 */
export async function deleteUnconfirmedAlerts(db: Executor, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNCONFIRMED_ALERT_RETENTION_MS);
  const stale = db
    .select({ id: stockAlerts.id })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.status, 'pending'),
        isNotNull(stockAlerts.email),
        or(
          lt(stockAlerts.confirmSentAt, cutoff),
          and(isNull(stockAlerts.confirmSentAt), lt(stockAlerts.createdAt, cutoff)),
        ),
      ),
    )
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(stockAlerts)
    .where(inArray(stockAlerts.id, stale))
    .returning({ id: stockAlerts.id });
  return deleted.length;
}

export interface AlertCleanupLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
}

/** deleteUnconfirmedAlerts at start and every hour. */
export function createAlertCleanup({
  db,
  log,
  clock = () => new Date(),
  intervalMs = ALERT_CLEANUP_INTERVAL_MS,
}: {
  db: Executor;
  log: AlertCleanupLog;
  clock?: () => Date;
  intervalMs?: number;
}): Periodic {
  return periodic(
    async () => {
      const deleted = await deleteUnconfirmedAlerts(db, clock());
      if (deleted > 0) log.info({ deleted }, 'unconfirmed back-in-stock alerts deleted');
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'unconfirmed alert cleanup failed'),
  );
}

import type { Executor } from '../../db/client.js';
import { type Periodic, periodic } from '../../lib/periodic.js';
import { deleteDeadSessions } from './sessions.repo.js';
import { SESSION_LIFETIME_MS } from './sessions.service.js';

/** How often the cleanup runs (and once at start). */
export const SESSION_CLEANUP_INTERVAL_MS = 60 * 60_000;

export interface SessionCleanupLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
}

/**
 * Deletes the sessions that can never be used again (revoked, or unused for longer than a token
 * lives) at start and every hour. A deleted session's token is refused as a revoked one's is.
 */
export function createSessionCleanup({
  db,
  log,
  clock = () => new Date(),
  intervalMs = SESSION_CLEANUP_INTERVAL_MS,
}: {
  db: Executor;
  log: SessionCleanupLog;
  clock?: () => Date;
  intervalMs?: number;
}): Periodic {
  return periodic(
    async () => {
      const deleted = await deleteDeadSessions(db, clock(), SESSION_LIFETIME_MS);
      if (deleted > 0) log.info({ deleted }, 'ended sessions deleted');
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'session cleanup failed'),
  );
}

import { and, asc, eq, getTableColumns, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/index.js';
import { type DrainLoop, drainLoop } from '../../lib/drain-loop.js';
import type { MailTransport } from './mail.transport.js';

/** When a mail was queued, to the microsecond, as text that sorts (UTC, fixed width). */
const QUEUED_AT = sql<string>`to_char(${mailOutbox.createdAt} at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`;

export const MAIL_BATCH_SIZE = 10;
export const MAIL_MAX_ATTEMPTS = 8;
/**
 * A claimed mail is hidden from other workers this long. A live worker renews the lease of the mails
 * it still holds every third of it while it sends, however slow a send is; a worker that dies
 * mid-batch (kill -9) stops renewing, so its mails are retried within a minute (issue 9, hole 6).
 */
export const MAIL_LEASE_MS = 60_000;
const RENEW_EVERY_MS = MAIL_LEASE_MS / 3;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 60 * 60_000;

/** Wait before attempt n+1 after n failures: 30 s, 1 min, 2 min, ... capped at an hour. */
export function backoffMs(failedAttempts: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
}

export interface DrainResult {
  sent: number;
  retrying: number;
  failed: number;
}

/** `kick()`: a mail was just queued, send now instead of at the next poll (no-op unless started). */
export interface MailWorker extends DrainLoop {
  /** Claims and sends one batch of due mails (tests call it directly). */
  drainOnce(): Promise<DrainResult>;
}

/** What the routes need from the worker. */
export type Mailer = Pick<MailWorker, 'kick'>;

export interface MailWorkerOptions {
  db: Database;
  transport: MailTransport;
  log: FastifyBaseLogger;
  pollMs?: number;
  now?: () => Date;
  /** How often a batch in progress renews its lease (tests shorten it). */
  renewEveryMs?: number;
}

export function createMailWorker({
  db,
  transport,
  log,
  pollMs = 5000,
  now = () => new Date(),
  renewEveryMs = RENEW_EVERY_MS,
}: MailWorkerOptions): MailWorker {
  /**
   * Claims due mails in one statement: SKIP LOCKED lets several instances claim side by side without
   * waiting on or double-claiming each other's rows, and pushing next_attempt_at past the lease keeps
   * a claimed row out of every other claim after the statement commits (one round trip instead of a
   * four-statement transaction, issue 13). Sending happens outside any transaction so a slow SMTP
   * server never holds a database connection (with PGlite, the whole database) hostage.
   */
  async function claim() {
    const at = now();
    // The database keeps microseconds, a Date whole milliseconds: a mail due within the millisecond the
    // clock reads (queued, then kicked, in the same millisecond) is due, not left for the next poll.
    const endOfMillisecond = new Date(at.getTime() + 1);
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lt(mailOutbox.nextAttemptAt, endOfMillisecond)))
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(MAIL_BATCH_SIZE)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(at.getTime() + MAIL_LEASE_MS) })
      .where(inArray(mailOutbox.id, due))
      .returning({ ...getTableColumns(mailOutbox), queuedAt: QUEUED_AT });
    // RETURNING keeps no order: oldest first, as they were queued, to the microsecond (two mails queued
    // in one millisecond have the same Date).
    return claimed
      .sort((a, b) => (a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : a.id < b.id ? -1 : 1))
      .map(({ queuedAt: _queuedAt, ...row }) => row);
  }

  /**
   * Keeps the lease of the mails in `held` while the batch runs, on a timer of its own so that one
   * slow send (SMTP may take minutes within its timeouts) cannot outlive the lease. Only pending rows
   * are touched, and a mail leaves `held` before its outcome is written (after `settled()`), so a
   * renewal never overwrites a back-off or a row another worker has since sent.
   */
  function keepLease(held: Set<string>) {
    let renewing: Promise<void> = Promise.resolve();
    const renew = async () => {
      if (held.size === 0) return;
      try {
        await db
          .update(mailOutbox)
          .set({ nextAttemptAt: new Date(now().getTime() + MAIL_LEASE_MS) })
          .where(and(inArray(mailOutbox.id, [...held]), eq(mailOutbox.status, 'pending')));
      } catch (error) {
        // The next tick tries again; two of three can fail before the lease runs out.
        log.warn({ err: error }, 'mail worker could not renew its lease');
      }
    };
    const timer = setInterval(() => {
      renewing = renewing.then(renew);
    }, renewEveryMs);
    timer.unref();
    return {
      /** Waits for a renewal in flight, which may still name a mail just removed from `held`. */
      settled: () => renewing,
      stop: () => clearInterval(timer),
    };
  }

  async function drainOnce(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
    const claimed = await claim();
    if (claimed.length === 0) return result;
    const held = new Set(claimed.map((row) => row.id));
    const lease = keepLease(held);
    try {
      for (const row of claimed) {
        let failure: { error: unknown } | undefined;
        try {
          await transport.send({
            id: row.id,
            to: row.toAddress,
            subject: row.subject,
            text: row.textBody,
            html: row.htmlBody,
            replyTo: row.replyTo,
            headers: row.headers,
          });
        } catch (error) {
          failure = { error };
        }
        held.delete(row.id);
        await lease.settled();
        if (failure === undefined) {
          // Marked at once: a crash between the server's acceptance and this update is the one way
          // left to deliver a mail twice, with the same Message-ID (docs/ARCHITECTURE.md, Mail).
          await db
            .update(mailOutbox)
            .set({ status: 'sent', sentAt: now(), attempts: row.attempts + 1, lastError: null })
            .where(eq(mailOutbox.id, row.id));
          result.sent += 1;
          continue;
        }
        const attempts = row.attempts + 1;
        const gaveUp = attempts >= MAIL_MAX_ATTEMPTS;
        const { error } = failure;
        const message = error instanceof Error ? error.message : String(error);
        await db
          .update(mailOutbox)
          .set({
            attempts,
            lastError: message.slice(0, 2000),
            status: gaveUp ? 'failed' : 'pending',
            nextAttemptAt: new Date(now().getTime() + backoffMs(attempts)),
          })
          // Still pending: a worker that lost its lease (paused, cut off) must not undo a later send.
          .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'pending')));
        log.warn(
          { mailId: row.id, attempts, err: error },
          gaveUp ? 'mail failed for good' : 'mail send failed',
        );
        if (gaveUp) result.failed += 1;
        else result.retrying += 1;
      }
    } finally {
      lease.stop();
      await lease.settled();
    }
    return result;
  }

  const loop = drainLoop({
    drainOnce: async () => {
      const { sent, retrying, failed } = await drainOnce();
      return sent + retrying + failed === MAIL_BATCH_SIZE;
    },
    pollMs,
    onError: (error) => log.error({ err: error }, 'mail worker could not read the outbox'),
  });

  return {
    ...loop,
    drainOnce,
  };
}

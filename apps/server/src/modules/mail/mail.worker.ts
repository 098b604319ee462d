import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/index.js';
import type { MailTransport } from './mail.transport.js';

export const MAIL_BATCH_SIZE = 10;
export const MAIL_MAX_ATTEMPTS = 8;
/**
 * A claimed mail is hidden from other workers this long. A worker starts no send after half of it
 * (and one send is bounded by the SMTP timeouts, a minute or two), so it is done before the lease
 * ends; a worker that dies mid-batch releases its mails when the lease runs out, so they are
 * retried rather than lost.
 */
export const MAIL_LEASE_MS = 10 * 60_000;
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

export interface MailWorker {
  start(): void;
  /** Stops polling and waits for the batch being sent, if any. */
  stop(): Promise<void>;
  /** A mail was just queued: send now instead of at the next poll. No-op unless started. */
  kick(): void;
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
}

export function createMailWorker({
  db,
  transport,
  log,
  pollMs = 5000,
  now = () => new Date(),
}: MailWorkerOptions): MailWorker {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  /**
   * Claims due mails in a short transaction: SKIP LOCKED lets several instances claim side by
   * side without waiting on or double-claiming each other's rows, and pushing next_attempt_at
   * past the lease keeps a claimed row out of every other claim after the commit. Sending
   * happens outside the transaction so a slow SMTP server never holds a database connection
   * (with PGlite, the whole database) hostage.
   */
  async function claim() {
    const at = now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, at)))
        .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
        .limit(MAIL_BATCH_SIZE)
        .for('update', { skipLocked: true });
      if (due.length > 0) {
        await tx
          .update(mailOutbox)
          .set({ nextAttemptAt: new Date(at.getTime() + MAIL_LEASE_MS) })
          .where(
            inArray(
              mailOutbox.id,
              due.map((row) => row.id),
            ),
          );
      }
      return due;
    });
  }

  async function drainOnce(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
    const claimed = await claim();
    const claimedAt = performance.now();
    for (const [index, row] of claimed.entries()) {
      // A batch of slow sends could outlive the lease, and another worker would then claim (and
      // send) the rest while this one still holds them. Hand the rest back while it is still ours.
      if (performance.now() - claimedAt > MAIL_LEASE_MS / 2) {
        const rest = claimed.slice(index).map((r) => r.id);
        await db.update(mailOutbox).set({ nextAttemptAt: now() }).where(inArray(mailOutbox.id, rest));
        break;
      }
      try {
        await transport.send({
          id: row.id,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody,
          replyTo: row.replyTo,
        });
      } catch (error) {
        const attempts = row.attempts + 1;
        const gaveUp = attempts >= MAIL_MAX_ATTEMPTS;
        const message = error instanceof Error ? error.message : String(error);
        await db
          .update(mailOutbox)
          .set({
            attempts,
            lastError: message.slice(0, 2000),
            status: gaveUp ? 'failed' : 'pending',
            nextAttemptAt: new Date(now().getTime() + backoffMs(attempts)),
          })
          .where(eq(mailOutbox.id, row.id));
        log.warn(
          { mailId: row.id, attempts, err: error },
          gaveUp ? 'mail failed for good' : 'mail send failed',
        );
        if (gaveUp) result.failed += 1;
        else result.retrying += 1;
        continue;
      }
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: now(), attempts: row.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      result.sent += 1;
    }
    return result;
  }

  function schedule(delayMs: number) {
    if (!started) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        let full = true;
        while (started && (full || again)) {
          again = false;
          const { sent, retrying, failed } = await drainOnce();
          full = sent + retrying + failed === MAIL_BATCH_SIZE;
        }
      } catch (error) {
        log.error({ err: error }, 'mail worker could not read the outbox');
      } finally {
        running = undefined;
        schedule(pollMs);
      }
    })();
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await running;
    },
    kick() {
      if (started) schedule(0);
    },
    drainOnce,
  };
}

import { WEBHOOK_TEST_EVENT } from '@pixel-vault/shared';
import { and, asc, eq, getTableColumns, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.js';
import { type DrainLoop, drainLoop } from '../../lib/drain-loop.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { Resolve } from './webhooks.address.js';
import { type OutcomeDeps, type Settled, settleAttempt } from './webhooks.outcome.js';
import { buildPayload, eventData } from './webhooks.payload.js';
import { sendWebhook } from './webhooks.send.js';

/**
 * Sends the webhook outbox (issue 37), as the mail worker sends mail (mail.worker.ts): claims due
 * deliveries with FOR UPDATE SKIP LOCKED and a lease, sends with no transaction open, writes each
 * result at once. Every instance runs one while it listens; a dead one's rows come back to the others
 * when its lease ends.
 */

export const WEBHOOK_BATCH_SIZE = 20;
/** Sends at once per worker: one slow receiver (10 s) holds one slot, not the batch. */
export const WEBHOOK_CONCURRENCY = 4;
/**
 * A claimed row is hidden from other workers this long: longer than a batch can take (20 rows, 4 at a
 * time, 10 s each at worst: 50 s), so a live worker never loses its rows; a dead one's come back then.
 */
export const WEBHOOK_LEASE_MS = 2 * 60_000;
/** How long the delivery log keeps settled events (the admin's log; the receivers have theirs). */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1000;

export interface WebhookDrainResult {
  succeeded: number;
  retrying: number;
  failed: number;
}

/** `kick()`: something is due now (a test event, a retry), send it without waiting for the poll. */
export interface WebhookWorker extends DrainLoop {
  /** Claims and sends one batch of due deliveries (tests call it directly). */
  drainOnce(): Promise<WebhookDrainResult>;
  /**
   * Deletes (a batch of) events older than 30 days with no delivery left pending, and their
   * deliveries; answers how many events. Run hourly while polling.
   */
  pruneOnce(): Promise<number>;
}

export interface WebhookWorkerOptions extends Omit<OutcomeDeps, 'clock'> {
  box: SecretBox;
  publicUrl: PublicUrlOf;
  allowLocal: boolean;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  clock?: () => Date;
  pollMs?: number;
  /** The whole exchange's limit (10 s); tests shorten it. */
  timeoutMs?: number;
  /** Name resolution (tests point names at addresses). */
  resolve?: Resolve;
}

type Claimed = Awaited<ReturnType<ReturnType<typeof claimer>>>[number];

function claimer(db: Database, clock: () => Date) {
  return async () => {
    const at = clock();
    // Microseconds in the database, milliseconds in a Date: due within this millisecond is due.
    const endOfMillisecond = new Date(at.getTime() + 1);
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.nextAttemptAt, endOfMillisecond)),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(WEBHOOK_BATCH_SIZE)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(at.getTime() + WEBHOOK_LEASE_MS) })
      .where(inArray(webhookDeliveries.id, due))
      .returning(getTableColumns(webhookDeliveries));
    if (claimed.length === 0) return [];
    const details = await db
      .select({
        id: webhookDeliveries.id,
        eventType: webhookEvents.type,
        subject: webhookEvents.subject,
        payload: webhookEvents.payload,
        eventCreatedAt: webhookEvents.createdAt,
        url: webhookEndpoints.url,
        secretBox: webhookEndpoints.secretBox,
        enabled: webhookEndpoints.enabled,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        inArray(
          webhookDeliveries.id,
          claimed.map((c) => c.id),
        ),
      );
    const byId = new Map(details.map((d) => [d.id, d]));
    return claimed
      .flatMap((row) => {
        const detail = byId.get(row.id);
        return detail ? [{ ...row, ...detail }] : [];
      })
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, box, log } = options;
  const clock = options.clock ?? (() => new Date());
  const pollMs = options.pollMs ?? 2000;
  const claim = claimer(db, clock);
  const outcome: OutcomeDeps = { ...options, clock };
  /** The event's body: built once by whichever worker comes first, then read by every other. */
  async function payloadOf(row: Claimed): Promise<string> {
    if (row.payload !== null) return row.payload;
    const data = await eventData(db, { type: row.eventType, subject: row.subject }, options.publicUrl);
    const built = buildPayload(row.eventType, row.eventCreatedAt, data);
    const [kept] = await db
      .update(webhookEvents)
      .set({ payload: built })
      .where(and(eq(webhookEvents.id, row.eventId), isNull(webhookEvents.payload)))
      .returning({ payload: webhookEvents.payload });
    if (kept?.payload) return kept.payload;
    const [other] = await db
      .select({ payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(eq(webhookEvents.id, row.eventId));
    return other?.payload ?? built;
  }

  async function deliver(row: Claimed): Promise<Settled> {
    // Turned off since it was queued (a test event is sent anyway: that is how an admin checks it).
    if (!row.enabled && row.eventType !== WEBHOOK_TEST_EVENT) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'The endpoint is turned off' })
        .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'pending')));
      return 'failed';
    }
    const body = await payloadOf(row);
    const at = clock();
    let secret: string;
    try {
      secret = box.open(row.secretBox);
    } catch {
      // Sealed under another JWT_SECRET: retrying cannot help until an admin rotates the secret.
      const error = 'The signing secret cannot be read (JWT_SECRET changed?): rotate the secret';
      return settleAttempt(outcome, row, { ok: false, status: null, error }, at);
    }
    const result = await sendWebhook(
      { url: row.url, secret, eventId: row.eventId, body, at },
      {
        allowLocal: options.allowLocal,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
      },
    );
    // The result's time: a slow receiver's failure counts when it ended.
    return settleAttempt(outcome, row, result, result.ok ? at : clock());
  }

  async function drainOnce(): Promise<WebhookDrainResult> {
    const result: WebhookDrainResult = { succeeded: 0, retrying: 0, failed: 0 };
    const claimed = await claim();
    await pool(claimed, WEBHOOK_CONCURRENCY, async (row) => {
      try {
        const settled = await deliver(row);
        if (settled !== 'lost') result[settled] += 1;
      } catch (error) {
        log.error({ err: error, deliveryId: row.id }, 'webhook delivery not settled');
        // Counted as a failed attempt, so its 24 hours apply (a delivery that always throws must not
        // come back every lease for ever); if even that fails, its lease ends and it is tried again.
        const failure = {
          ok: false as const,
          status: null,
          error: 'The shop could not prepare this delivery',
        };
        await settleAttempt(outcome, row, failure, clock()).then(
          (settled) => {
            if (settled !== 'lost') result[settled] += 1;
          },
          () => {},
        );
      }
    });
    return result;
  }

  async function pruneOnce(): Promise<number> {
    const cutoff = new Date(clock().getTime() - WEBHOOK_RETENTION_MS);
    const old = db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(
        and(
          lt(webhookEvents.createdAt, cutoff),
          sql`not exists (select 1 from ${webhookDeliveries} d where d.event_id = ${webhookEvents.id} and d.status = 'pending')`,
        ),
      )
      .limit(PRUNE_BATCH);
    const gone = await db
      .delete(webhookEvents)
      .where(inArray(webhookEvents.id, old))
      .returning({ id: webhookEvents.id });
    return gone.length;
  }

  let prunedAt = 0;
  async function pruneNow() {
    if (clock().getTime() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = clock().getTime();
    try {
      await pruneOnce();
    } catch (error) {
      log.warn({ err: error }, 'webhook log not pruned');
    }
  }

  const loop = drainLoop({
    drainOnce: async () => {
      const { succeeded, retrying, failed } = await drainOnce();
      return succeeded + retrying + failed >= WEBHOOK_BATCH_SIZE;
    },
    afterDrain: pruneNow,
    pollMs,
    onError: (error) => log.error({ err: error }, 'webhook worker could not read its outbox'),
  });

  return {
    ...loop,
    drainOnce,
    pruneOnce,
  };
}

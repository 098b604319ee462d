import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { AttemptResult } from './webhooks.send.js';
import { failPending } from './webhooks.service.js';

/**
 * What an attempt's result does to its delivery and its endpoint (issue 37, docs/integrations.md,
 * "Retries"): success at once, else a retry after a growing wait for 24 hours after the delivery was
 * made, then failed for good; an endpoint failing for 24 hours is turned off and the owner mailed.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** How long after its creation a delivery is retried, and how long an endpoint may fail. */
export const RETRY_WINDOW_MS = 24 * HOUR;
/** The wait after the nth failed attempt (the last repeats): the docs' table. */
export const BACKOFF_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;
export const DISABLED_REASON = 'Failed for 24 hours';

export function backoffMs(failedAttempts: number): number {
  return BACKOFF_MS[Math.min(failedAttempts, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0];
}

/**
 * When the next try of a delivery made at `createdAt` is due after `attempts` failures at `at`, or
 * null when its window is over (failed for good). The last try is at the end of the window itself.
 */
export function nextTry(createdAt: Date, attempts: number, at: Date): Date | null {
  const end = createdAt.getTime() + RETRY_WINDOW_MS;
  if (at.getTime() >= end) return null;
  return new Date(Math.min(at.getTime() + backoffMs(attempts), end));
}

export interface OutcomeDeps {
  db: Database;
  clock: () => Date;
  /** CONTACT_TO: who is told that an endpoint was turned off. */
  ownerEmail: string;
  /** Where the admin pages are (PUBLIC_URL), for the mail's link; none: the mail names the page. */
  adminUrl: string | undefined;
  mailQueued: () => void;
}

export type Settled = 'succeeded' | 'retrying' | 'failed' | 'lost';

/** Whether any delivery to the endpoint succeeded at or after `since`. */
async function deliveredSince(executor: Executor, endpointId: string, since: Date): Promise<boolean> {
  const [found] = await executor
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), gte(webhookDeliveries.succeededAt, since)))
    .limit(1);
  return found !== undefined;
}

/**
 * Writes an attempt's result. Every write is guarded by `status = 'pending'`: a worker whose lease ran
 * out while it sent (and whose row another worker sent since) cannot undo that, and of two workers
 * that both sent a row only the first success counts (at most one per event per endpoint).
 */
export async function settleAttempt(
  deps: OutcomeDeps,
  delivery: { id: string; endpointId: string; attempts: number; createdAt: Date },
  result: AttemptResult,
  at: Date,
): Promise<Settled> {
  const { db } = deps;
  const attempts = delivery.attempts + 1;
  if (result.ok) {
    const marked = await db
      .update(webhookDeliveries)
      .set({
        status: 'succeeded',
        attempts,
        responseStatus: result.status,
        lastError: null,
        lastAttemptAt: at,
        succeededAt: at,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    if (marked.length === 0) return 'lost';
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(eq(webhookEndpoints.id, delivery.endpointId), isNotNull(webhookEndpoints.failingSince)));
    return 'succeeded';
  }
  const next = nextTry(delivery.createdAt, attempts, at);
  const marked = await db
    .update(webhookDeliveries)
    .set({
      attempts,
      responseStatus: result.status,
      lastError: result.error.slice(0, 500),
      lastAttemptAt: at,
      ...(next === null ? { status: 'failed' as const } : { nextAttemptAt: next }),
    })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  if (marked.length === 0) return 'lost';
  await endpointFailed(deps, delivery.endpointId, at, next === null ? delivery.createdAt : undefined);
  return next === null ? 'failed' : 'retrying';
}

/**
 * The endpoint's failure window: started by its first failure since a success, and once it is 24 hours
 * old the endpoint is turned off, its waiting deliveries failed, and the owner mailed, in one
 * transaction guarded by `enabled`, so of several workers failing at once one mail is queued.
 *
 * A delivery that gave up (`gaveUpOn`: when it was made) also turns the endpoint off when nothing was
 * delivered to it since: it failed for the delivery's whole 24 hours. Without this, a quiet shop's
 * endpoint whose one event failed all day was never turned off (its window is measured from the first
 * failed attempt, a moment after the event, so the last try at 24 hours fell just short), and nobody
 * was mailed until another event came.
 */
async function endpointFailed(
  deps: OutcomeDeps,
  endpointId: string,
  at: Date,
  gaveUpOn: Date | undefined,
): Promise<void> {
  const mailed = await deps.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`,
      })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
    if (!endpoint?.enabled || !endpoint.failingSince) return false;
    const windowOver = at.getTime() - endpoint.failingSince.getTime() >= RETRY_WINDOW_MS;
    if (!windowOver && (gaveUpOn === undefined || (await deliveredSince(tx, endpointId, gaveUpOn)))) {
      return false;
    }
    const [off] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: DISABLED_REASON, updatedAt: at })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
      .returning({ url: webhookEndpoints.url, since: webhookEndpoints.failingSince });
    if (!off) return false;
    await failPending(tx, endpointId, 'The endpoint was turned off after failing for 24 hours');
    const where = deps.adminUrl ? `${deps.adminUrl}/admin/webhooks` : 'Manage → Webhooks';
    await enqueueMail(tx, {
      to: deps.ownerEmail,
      subject: 'A webhook endpoint was turned off',
      text: [
        'Hello,',
        '',
        `Pixel Vault could not deliver events to ${off.url} since ${off.since?.toISOString() ?? 'a day'}, so it turned this webhook endpoint off.`,
        'Its waiting deliveries were marked failed. Once the receiver works again, turn the endpoint back on and retry the deliveries you need:',
        where,
        '',
        'Pixel Vault',
      ].join('\n'),
    });
    return true;
  });
  if (mailed) deps.mailQueued();
}

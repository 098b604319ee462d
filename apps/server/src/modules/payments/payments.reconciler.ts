import { and, asc, eq, exists, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import {
  type OrderRefundRow,
  type PaymentRow,
  orderRefunds,
  orders,
  payments,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { periodic } from '../../lib/periodic.js';
import type { PaymentsService, ReconcileOutcome } from './payments.service.js';
import type { RefundsService } from './refunds.service.js';

export interface ReconcileReport {
  recorded: number;
  refunded: number;
  failed: number;
  /** Left as they were (a checkout still open, a capture still clearing); looked at again next run. */
  waiting: number;
  /** Could not be settled this run (provider unreachable, refund refused); retried next run. */
  errors: number;
}

export interface PaymentReconciler {
  start(): void;
  stop(): Promise<void>;
  /**
   * One pass: every payment left `created` is asked about at the provider and recorded, refunded or
   * failed (PaymentsService.reconcile); every payment `captured` for an `expired` order is refunded.
   */
  reconcileOnce(): Promise<ReconcileReport>;
}

export interface PaymentReconcilerOptions {
  db: Database;
  payments: Pick<PaymentsService, 'reconcile' | 'refundExpired'>;
  /** Completes order refunds left pending (issue 12: the provider did not answer, or the server died). */
  refunds?: Pick<RefundsService, 'resume'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  clock?: () => Date;
  intervalMs?: number;
  /**
   * A payment is looked at once untouched this long (default: 5/6 of `intervalMs`, 50 s for a minute).
   * Claiming it touches it (updated_at), which is the lease: another instance skips it, and the next
   * run takes it up again.
   */
  idleMs?: number;
}

const BATCH = 20;

/**
 * Issue 9 (hole 5): the server can die between the provider's capture and our record of it. This
 * worker, at start and then every minute, brings such payments in line with the provider, and gives
 * back captures recorded for orders that expired. Several instances can run it on one PostgreSQL:
 * rows are claimed with FOR UPDATE SKIP LOCKED in a short transaction, the provider is called
 * with no lock held, and results are recorded under the order's row lock (payments.service.ts).
 */
export function createPaymentReconciler({
  db,
  payments: service,
  refunds,
  log,
  clock = () => new Date(),
  intervalMs = 60_000,
  idleMs = Math.round((intervalMs * 5) / 6),
}: PaymentReconcilerOptions): PaymentReconciler {
  const expiredOrder = exists(
    db
      .select({ one: sql`1` })
      .from(orders)
      .where(
        and(
          eq(orders.id, payments.orderId),
          // Expired, or cancelled before it was paid (issue 12): nothing captured for it is kept.
          inArray(orders.status, ['expired', 'cancelled']),
          sql`${orders.paidAt} is null`,
        ),
      ),
  );

  /** Claims up to BATCH idle payments of this kind by touching them; answers them. */
  async function claim(kind: 'created' | 'captured', idleSince: Date): Promise<PaymentRow[]> {
    const idle = db
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.status, kind),
          lt(payments.updatedAt, idleSince),
          kind === 'captured' ? expiredOrder : undefined,
        ),
      )
      .orderBy(asc(payments.updatedAt))
      .limit(BATCH)
      .for('update', { of: payments, skipLocked: true });
    return db
      .update(payments)
      .set({ updatedAt: clock() })
      .where(and(inArray(payments.id, idle), eq(payments.status, kind)))
      .returning();
  }

  /** Claims up to BATCH idle pending refunds by touching them (the same lease as payments). */
  async function claimRefunds(idleSince: Date): Promise<OrderRefundRow[]> {
    const idle = db
      .select({ id: orderRefunds.id })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.status, 'pending'), lt(orderRefunds.updatedAt, idleSince)))
      .orderBy(asc(orderRefunds.updatedAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(orderRefunds)
      .set({ updatedAt: clock() })
      .where(and(inArray(orderRefunds.id, idle), eq(orderRefunds.status, 'pending')))
      .returning();
  }

  async function resumeRefunds(idleSince: Date, report: ReconcileReport): Promise<void> {
    if (!refunds) return;
    for (;;) {
      const batch = await claimRefunds(idleSince);
      for (const refund of batch) {
        try {
          const outcome = await refunds.resume(refund);
          report[outcome === 'completed' ? 'refunded' : outcome] += 1;
          if (outcome === 'waiting') return; // the provider is still not answering: next run
        } catch (error) {
          report.errors += 1;
          log.error({ err: error, refundId: refund.id }, 'refund not completed: retried next run');
        }
      }
      if (batch.length < BATCH) return;
    }
  }

  async function reconcileOnce(): Promise<ReconcileReport> {
    const report: ReconcileReport = { recorded: 0, refunded: 0, failed: 0, waiting: 0, errors: 0 };
    // Rows touched from here on (claimed by this run) are not idle before it ends: each is seen once.
    const idleSince = new Date(clock().getTime() - idleMs);
    const steps: [kind: 'created' | 'captured', step: (p: PaymentRow) => Promise<ReconcileOutcome>][] = [
      ['created', (p) => service.reconcile(p)],
      ['captured', (p) => service.refundExpired(p)],
    ];
    pass: for (const [kind, step] of steps) {
      for (;;) {
        const batch = await claim(kind, idleSince);
        for (const payment of batch) {
          try {
            report[await step(payment)] += 1;
          } catch (error) {
            report.errors += 1;
            if (error instanceof AppError && error.code === 'PAYPAL_UNREACHABLE') {
              // Left as they were; what this pass claimed is idle again by the next run.
              log.warn(
                { err: error, paymentId: payment.id },
                'payment provider unreachable: retried next run',
              );
              break pass;
            }
            log.error(
              { err: error, paymentId: payment.id, kind },
              'payment not reconciled: retried next run',
            );
          }
        }
        if (batch.length < BATCH) break;
      }
    }
    await resumeRefunds(idleSince, report);
    if (report.recorded + report.refunded + report.failed + report.errors > 0) {
      log.info({ ...report }, 'payments reconciled');
    }
    return report;
  }

  return {
    ...periodic(reconcileOnce, intervalMs, (error) =>
      log.error({ err: error }, 'payment reconciliation failed'),
    ),
    reconcileOnce,
  };
}

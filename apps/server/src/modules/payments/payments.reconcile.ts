import { and, eq } from 'drizzle-orm';
import { type PaymentRow, payments } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { isOverdue } from '../orders/orders.expiry.js';
import { closedUnpaid } from '../orders/orders.lifecycle.js';
import { type Captures, type PaymentsContext, completedCapture } from './payments.capture.js';
import type { ProviderPayment, ProviderRefund } from './payment.provider.js';

/** What reconciling one payment did (issue 9). `waiting`: nothing to do yet, looked at again next run. */
export type ReconcileOutcome = 'recorded' | 'refunded' | 'failed' | 'waiting';

/**
 * The payment reconciler's steps (issue 9): a payment left `created` is asked about at the provider
 * and recorded, captured or failed; a capture for an expired order is given back.
 */
export function createReconciliation(
  { orders, provider, log, reportOutcome }: PaymentsContext,
  { storeCapture, captureAtProvider, stillOwes }: Captures,
) {
  async function reconcile(payment: PaymentRow): Promise<ReconcileOutcome> {
    // Outside any transaction: no row lock is held while the provider answers.
    let result: ProviderPayment | null = await provider
      .getOrder(payment.providerOrderId)
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'PAYPAL_ORDER_NOT_FOUND') return null;
        throw error;
      });
    if (result?.status === 'APPROVED') {
      // As the webhook: capture only what the order still owes (a gift card may have lowered it since).
      if (await stillOwes(payment)) {
        result = await captureAtProvider(payment).catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'PAYMENT_DECLINED') return null;
          throw error;
        });
      }
    }

    if (result && completedCapture(result)) {
      let stored: Awaited<ReturnType<typeof storeCapture>>;
      try {
        stored = await storeCapture(payment, result);
      } catch (error) {
        // Another amount than ours: storeCapture marked it failed and logged it for a person.
        if (error instanceof AppError && error.code === 'PAYMENT_AMOUNT_MISMATCH') return 'failed';
        throw error;
      }
      if (stored.expired) return refundExpired(payment);
      log.warn(
        { paymentId: payment.id, orderId: payment.orderId, captureId: result.captureId },
        'payment captured but never recorded: recorded now and the order settled',
      );
      return 'recorded';
    }
    // A capture the provider is still clearing may yet bring money: the order stays held.
    if (result?.captureStatus === 'PENDING') return 'waiting';

    // No money was taken: never approved, declined, unknown to the provider, or approved for an
    // amount the order no longer owes. Once the hold ran out (or the order is closed) it has failed,
    // and the order may expire.
    const failed = await orders.withLockedOrder(
      payment.orderId,
      { ownerId: null, expireOverdue: false },
      async (tx, order) => {
        if (order.status === 'unpaid' && !isOverdue(order, orders.now())) return false;
        const marked = await tx
          .update(payments)
          .set({ status: 'failed', raw: result ?? payment.raw, updatedAt: orders.now() })
          .where(and(eq(payments.id, payment.id), eq(payments.status, 'created')))
          .returning({ id: payments.id });
        return marked.length > 0;
      },
    );
    if (!failed) return 'waiting';
    reportOutcome('failed');
    log.info(
      { paymentId: payment.id, orderId: payment.orderId, providerStatus: result?.status ?? 'NOT_FOUND' },
      'payment never completed at the provider: failed, so its order can expire',
    );
    return 'failed';
  }

  async function refundExpired(payment: PaymentRow): Promise<ReconcileOutcome> {
    // Read again (it may have changed since it was claimed); the lock is released before the provider call.
    const due = await orders.withLockedOrder(
      payment.orderId,
      { ownerId: null, expireOverdue: false },
      async (tx, order) => {
        const [current] = await tx.select().from(payments).where(eq(payments.id, payment.id));
        return closedUnpaid(order) && current?.status === 'captured' && current.refundedCents === 0
          ? current
          : undefined;
      },
    );
    if (!due?.captureId) return 'waiting';
    const captureId = due.captureId;
    let refund: ProviderRefund | null = null;
    try {
      refund = await provider.refundCapture({
        captureId,
        amountCents: due.amountCents,
        currency: due.currency,
        // Derived from the payment: every retry (and every instance) names the same refund.
        requestId: `refund-${due.id}`,
      });
    } catch (error) {
      // Refunded in full already (by hand in PayPal, say): nothing is left to give back.
      if (!(error instanceof AppError && error.code === 'PAYPAL_ALREADY_REFUNDED')) throw error;
    }
    if (refund && refund.status !== 'COMPLETED' && refund.status !== 'PENDING') {
      throw new AppError(502, `The payment provider did not refund (${refund.status})`, 'REFUND_FAILED');
    }
    await orders.withLockedOrder(payment.orderId, { ownerId: null, expireOverdue: false }, async (tx) => {
      await tx
        .update(payments)
        .set({ status: 'refunded', refundId: refund?.id ?? null, updatedAt: orders.now() })
        .where(and(eq(payments.id, due.id), eq(payments.status, 'captured')));
    });
    log.warn(
      {
        paymentId: due.id,
        orderId: due.orderId,
        captureId,
        amountCents: due.amountCents,
        refundId: refund?.id ?? null,
        refundStatus: refund?.status ?? 'ALREADY_REFUNDED',
      },
      'payment captured for an expired order: refunded',
    );
    return 'refunded';
  }

  return { reconcile, refundExpired };
}

import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { type OrderRefundRow, orderRefunds } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { recordEvent } from '../orders/orders.lifecycle.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { PaymentProvider, ProviderRefund } from './payment.provider.js';
import { refundDeclined, refundPending } from './refunds.errors.js';

/**
 * The provider's half of a refund, asked with no lock held: each capture part once, under a
 * PayPal-Request-Id derived from the refund, so a retry names the same refund.
 */
export function createProviderRefunds({
  db,
  orders,
  provider,
  log,
}: {
  db: Database;
  orders: OrdersService;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}) {
  /** Asks the provider for every capture part not refunded yet; throws when it must stop. */
  async function refundAtProvider(refund: OrderRefundRow): Promise<OrderRefundRow['providerRefunds']> {
    const results = { ...(refund.providerRefunds ?? {}) };
    for (const part of refund.plan.captures) {
      if (results[part.paymentId]) continue;
      let answer: ProviderRefund;
      try {
        answer = await provider.refundCapture({
          captureId: part.captureId,
          amountCents: part.cents,
          currency: part.currency,
          // Derived from the refund and the capture: every retry (and every instance) names this one.
          requestId: `order-refund-${refund.id}-${part.paymentId}`,
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'PAYPAL_ALREADY_REFUNDED') {
          // Given back in full already (by hand in PayPal, say): nothing is left to send.
          answer = { id: '', status: 'ALREADY_REFUNDED' };
        } else if (
          error instanceof AppError &&
          (error.code === 'PAYMENT_DECLINED' || error.code === 'PAYPAL_CAPTURE_NOT_FOUND')
        ) {
          await fail(refund, error.message);
          throw refundDeclined(error.message);
        } else {
          log.warn({ err: error, refundId: refund.id }, 'refund not answered by the provider: stays pending');
          throw refundPending();
        }
      }
      if (!['COMPLETED', 'PENDING', 'ALREADY_REFUNDED'].includes(answer.status)) {
        await fail(refund, `status ${answer.status}`);
        throw refundDeclined(`status ${answer.status}`);
      }
      results[part.paymentId] = { id: answer.id || null, status: answer.status };
      // Kept as it comes, so a retry after a crash asks only for what is left (the ids make it safe anyway).
      await db
        .update(orderRefunds)
        .set({ providerRefunds: results, updatedAt: orders.now() })
        .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'pending')));
    }
    return results;
  }

  /** pending -> failed, with a timeline line saying why. Nothing was given back. */
  async function fail(refund: OrderRefundRow, reason: string): Promise<void> {
    await orders.withLockedOrder(refund.orderId, { ownerId: null, expireOverdue: false }, async (tx) => {
      const now = orders.now();
      const [failed] = await tx
        .update(orderRefunds)
        .set({ status: 'failed', failure: reason, updatedAt: now })
        .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'pending')))
        .returning({ id: orderRefunds.id });
      if (!failed) return;
      await recordEvent(tx, {
        orderId: refund.orderId,
        kind: 'refund_failed',
        actor: 'system',
        amountCents: refund.amountCents,
        note: reason,
        at: now,
      });
    });
    log.error({ refundId: refund.id, orderId: refund.orderId, reason }, 'refund refused by the provider');
  }

  return refundAtProvider;
}

import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Order } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type PaymentRow, payments } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { Signals } from '../../lib/signals.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { closedUnpaid } from '../orders/orders.lifecycle.js';
import type { OrdersService } from '../orders/orders.service.js';
import { amountMismatch } from './payments.errors.js';
import { type PaymentProvider, type ProviderPayment, paymentDeclined } from './payment.provider.js';

/** What each of the payments' use cases works with (payments.service.ts builds it once). */
export interface PaymentsContext {
  db: Database;
  orders: OrdersService;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Tells the metrics (issue 37) what a provider's answer came to. */
  reportOutcome: (what: Parameters<Signals['paymentOutcome']>[1]) => void;
}

/** The provider order is completed by a completed capture: the money was taken. */
export const completedCapture = (
  result: ProviderPayment,
): result is ProviderPayment & { captureId: string } =>
  result.status === 'COMPLETED' && result.captureStatus === 'COMPLETED' && Boolean(result.captureId);

/**
 * What capturing at the provider and recording it takes: shared by the buyer's capture, the webhook
 * and the reconciler.
 */
export type Captures = ReturnType<typeof createCaptures>;

export function createCaptures({ db, orders, provider, log, reportOutcome }: PaymentsContext) {
  async function findPayment(providerOrderId: string): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.providerOrderId, providerOrderId));
    return row;
  }

  /**
   * Records a capture the provider reported and settles the order, under the order's row lock: of a
   * browser and a webhook completing the same order, the second finds it paid (Saleor #12652). For
   * an expired order the capture is recorded all the same, so the reconciler refunds it.
   */
  async function storeCapture(
    payment: PaymentRow,
    result: ProviderPayment,
  ): Promise<{ expired: true } | { expired: false; order: Order }> {
    if (result.status !== 'COMPLETED') {
      reportOutcome('declined');
      throw paymentDeclined();
    }
    if (result.currency !== 'USD' || result.amountCents !== payment.amountCents) {
      reportOutcome('failed');
      await db
        .update(payments)
        .set({ status: 'failed', raw: result, updatedAt: orders.now() })
        .where(and(eq(payments.id, payment.id), sql`${payments.status} <> 'captured'`));
      log.error(
        {
          paymentId: payment.id,
          expected: payment.amountCents,
          got: result.amountCents,
          currency: result.currency,
        },
        'captured amount does not match the payment',
      );
      throw amountMismatch();
    }
    const stored = await orders.withLockedOrder(
      payment.orderId,
      // Money was taken: an order whose hold ran out but was not swept yet is still paid.
      { ownerId: null, expireOverdue: false },
      async (tx, order, effects) => {
        await tx
          .update(payments)
          .set({
            status: 'captured',
            captureId: result.captureId,
            payerEmail: result.payerEmail,
            raw: result,
            updatedAt: orders.now(),
          })
          // A refunded payment (its order had expired) stays refunded.
          .where(and(eq(payments.id, payment.id), sql`${payments.status} <> 'refunded'`));
        // Expired, or cancelled before it was paid: the capture is given back, never used.
        if (closedUnpaid(order)) return { expired: true as const };
        await orders.settle(tx, order, effects);
        return { expired: false as const, order: await orders.dto(tx, order.id) };
      },
    );
    // Recorded (on a closed order too: the reconciler gives that money back).
    reportOutcome('captured');
    return stored;
  }

  /** storeCapture for a caller who answers the buyer: an expired order is a 409. */
  async function recordCapture(payment: PaymentRow, result: ProviderPayment): Promise<Order> {
    const outcome = await storeCapture(payment, result);
    if (outcome.expired) {
      log.warn(
        { paymentId: payment.id, orderId: payment.orderId },
        'payment captured for a closed order: the reconciler refunds it',
      );
      throw orderExpired();
    }
    return outcome.order;
  }

  /**
   * Captures our provider order with its stored PayPal-Request-Id. A refusal (declined, not
   * approved) took no money: the buyer may approve again (another card), and PayPal would replay the
   * refusal for the old id. Only a refusal rotates the id; after a timeout or 5xx the same id is
   * kept, so a retry cannot capture twice.
   */
  async function captureAtProvider(payment: PaymentRow): Promise<ProviderPayment> {
    try {
      return await provider.captureOrder({
        providerOrderId: payment.providerOrderId,
        requestId: payment.requestId,
      });
    } catch (error) {
      const declined = error instanceof AppError && error.code === 'PAYMENT_DECLINED';
      reportOutcome(declined ? 'declined' : 'error');
      if (declined) {
        await db
          .update(payments)
          .set({ requestId: randomUUID(), updatedAt: orders.now() })
          .where(and(eq(payments.id, payment.id), eq(payments.status, 'created')));
      }
      throw error;
    }
  }

  /** The payment's order is unpaid and still owes exactly this payment's amount (read under its lock). */
  function stillOwes(payment: PaymentRow): Promise<boolean> {
    return orders.withLockedOrder(
      payment.orderId,
      { ownerId: null, expireOverdue: false },
      async (tx, order) =>
        order.status === 'unpaid' && (await orders.remainderCents(tx, order)) === payment.amountCents,
    );
  }

  return { findPayment, storeCapture, recordCapture, captureAtProvider, stillOwes };
}

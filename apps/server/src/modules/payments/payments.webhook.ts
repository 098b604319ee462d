import { AppError, notFound } from '../../lib/errors.js';
import type { Captures, PaymentsContext } from './payments.capture.js';

interface WebhookEvent {
  event_type?: unknown;
  resource?: { id?: unknown; supplementary_data?: { related_ids?: { order_id?: unknown } } };
}

export interface WebhookInput {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** PayPal's webhook: settles orders whose browser vanished after approval. */
export function createWebhook(
  { orders, provider, log }: PaymentsContext,
  { findPayment, stillOwes, recordCapture }: Captures,
) {
  return async function webhook({ headers, rawBody }: WebhookInput): Promise<void> {
    if (provider.mode !== 'paypal') throw notFound();
    if (!(await provider.verifyWebhook({ headers, rawBody }))) {
      throw new AppError(400, 'Invalid webhook signature', 'INVALID_SIGNATURE');
    }
    let event: WebhookEvent;
    try {
      event = JSON.parse(rawBody) as WebhookEvent;
    } catch {
      return;
    }
    let providerOrderId: unknown;
    if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED') {
      providerOrderId = event.resource?.supplementary_data?.related_ids?.order_id;
    } else if (event.event_type === 'CHECKOUT.ORDER.APPROVED') {
      providerOrderId = event.resource?.id;
    }
    if (typeof providerOrderId !== 'string') return;
    const payment = await findPayment(providerOrderId);
    if (!payment || payment.status === 'failed' || payment.status === 'refunded') return;
    if (payment.status === 'captured') {
      await orders
        .withLockedOrder(
          payment.orderId,
          { ownerId: null, expireOverdue: false },
          async (tx, order, effects) => {
            if (order.status === 'unpaid') await orders.settle(tx, order, effects);
          },
        )
        .catch((error: unknown) =>
          log.warn({ err: error, paymentId: payment.id }, 'webhook could not settle'),
        );
      return;
    }
    try {
      // Never trust the event's amounts: ask PayPal, capture if only approved, then check.
      let result = await provider.getOrder(providerOrderId);
      if (result.status === 'APPROVED') {
        // Capture only what the order still owes (a gift card may have lowered it since).
        if (!(await stillOwes(payment))) return;
        result = await provider.captureOrder({ providerOrderId, requestId: payment.requestId });
      }
      if (result.status !== 'COMPLETED') return;
      await recordCapture(payment, result);
      log.info({ paymentId: payment.id, orderId: payment.orderId }, 'order settled by webhook');
    } catch (error) {
      // Declined, mismatched, expired: handled for good, so PayPal must not retry it forever.
      // PayPal unreachable (502) is not: the error answer makes PayPal deliver it again later.
      if (error instanceof AppError && error.statusCode < 500) {
        log.warn({ err: error, paymentId: payment.id }, 'webhook payment not settled');
        return;
      }
      throw error;
    }
  };
}

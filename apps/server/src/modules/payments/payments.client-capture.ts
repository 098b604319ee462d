import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type Order, formatCents } from '@pixel-vault/shared';
import { payments } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { closedUnpaid } from '../orders/orders.lifecycle.js';
import { orderAlreadyPaid, paymentIncomplete } from '../orders/orders.service.js';
import { type Captures, type PaymentsContext, completedCapture } from './payments.capture.js';
import { amountMismatch, paymentUsedElsewhere } from './payments.errors.js';

/** A shop order id is a UUID; PayPal's own default reference is `default`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createClientCapture(
  { orders, provider, log, reportOutcome }: PaymentsContext,
  { findPayment }: Captures,
) {
  /**
   * The spec's PayPal sequence: the client created and captured the PayPal order itself, then names
   * it. Nothing it says is taken on trust: the server reads the order back from the provider and
   * records it only if it is COMPLETED, with a COMPLETED capture in USD for no more than the order
   * still owes, and never recorded for another order (unique provider order and capture ids).
   * A capture below what is due stays on the order and answers 402 with the rest (docs/decisions/004).
   */
  async function recordClientCapture(
    user: AuthUser,
    orderId: string,
    providerOrderId: string,
  ): Promise<Order> {
    // Whose order is it, and is it still open? Asked before PayPal is called on the client's behalf.
    const paid = await orders.withLockedOrder(
      orderId,
      { ownerId: user.id, expireOverdue: false },
      async (_tx, order) => order.paidAt !== null,
    );
    const known = await findPayment(providerOrderId);
    if (known && known.orderId !== orderId) throw paymentUsedElsewhere();
    // A replay of a recorded payment: settle what is verified, move nothing.
    if (known?.status === 'captured') return orders.confirmPayment(user, orderId);
    if (known?.status === 'failed') throw amountMismatch();
    // Captured after this order expired, and given back by the reconciler.
    if (known?.status === 'refunded') throw orderExpired();
    if (paid) {
      log.warn({ orderId, providerOrderId }, 'PayPal payment offered for a paid order: not recorded');
      throw orderAlreadyPaid();
    }

    // Outside any transaction: no row lock is held while PayPal answers.
    const result = await provider.getOrder(providerOrderId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'PAYPAL_ORDER_NOT_FOUND') {
        throw new AppError(402, 'PayPal has no payment with this id', 'PAYMENT_NOT_FOUND');
      }
      throw error;
    });
    if (!completedCapture(result)) {
      throw new AppError(402, 'PayPal has not completed this payment', 'PAYMENT_NOT_COMPLETED');
    }
    if (result.currency !== 'USD') {
      throw new AppError(409, 'PayPal payments must be in USD', 'PAYMENT_CURRENCY_MISMATCH');
    }
    if (!Number.isSafeInteger(result.amountCents) || result.amountCents <= 0) throw amountMismatch();
    // Made by this shop for another of its orders: it pays that order, not this one.
    if (result.referenceId && UUID.test(result.referenceId) && result.referenceId.toLowerCase() !== orderId) {
      throw paymentUsedElsewhere();
    }
    const captureId = result.captureId;
    let recorded: { order: Order } | { dueCents: number } | { expired: true };
    try {
      recorded = await orders.withLockedOrder(
        orderId,
        // Money was taken: an order whose hold ran out but was not swept yet is still paid.
        { ownerId: user.id, expireOverdue: false },
        async (tx, order, effects) => {
          if (order.paidAt !== null) throw orderAlreadyPaid();
          const dueCents = order.status === 'unpaid' ? await orders.remainderCents(tx, order) : 0;
          if (order.status === 'unpaid' && result.amountCents > dueCents) {
            throw new AppError(
              409,
              `The PayPal payment of ${formatCents(result.amountCents)} is more than the ${formatCents(dueCents)} due on this order`,
              'PAYMENT_AMOUNT_MISMATCH',
            );
          }
          // Recorded even on an expired order, so the captured money can be found and refunded.
          const captured = {
            amountCents: result.amountCents,
            currency: result.currency,
            status: 'captured' as const,
            captureId,
            payerEmail: result.payerEmail,
            raw: result,
            updatedAt: orders.now(),
          };
          if (known) {
            // Our own PayPal order for this order, captured in the browser by PayPal's script.
            await tx.update(payments).set(captured).where(eq(payments.id, known.id));
          } else {
            await tx.insert(payments).values({
              ...captured,
              orderId: order.id,
              provider: provider.mode,
              providerOrderId,
              requestId: randomUUID(),
            });
          }
          if (closedUnpaid(order)) return { expired: true as const };
          const settled = await orders.settle(tx, order, effects);
          if (!settled.paid) return { dueCents: settled.dueCents };
          return { order: await orders.dto(tx, order.id) };
        },
      );
    } catch (error) {
      const raced = isUniqueViolation(error) || (error instanceof AppError && error.code === 'ORDER_PAID');
      if (!raced) throw error;
      // Recorded meanwhile: by a concurrent replay for this order (answer it), or for another order.
      const winner = await findPayment(providerOrderId);
      if (winner?.orderId === orderId && winner.status === 'captured' && winner.captureId === captureId) {
        return orders.confirmPayment(user, orderId);
      }
      throw isUniqueViolation(error) ? paymentUsedElsewhere() : error;
    }
    reportOutcome('captured');
    if ('expired' in recorded) {
      log.warn(
        { orderId, providerOrderId, captureId },
        'payment captured for an expired order: the reconciler refunds it',
      );
      throw orderExpired();
    }
    if ('dueCents' in recorded) throw paymentIncomplete(recorded.dueCents);
    log.info({ orderId, providerOrderId, captureId }, 'order paid by a client-side PayPal capture');
    return recorded.order;
  }

  return recordClientCapture;
}

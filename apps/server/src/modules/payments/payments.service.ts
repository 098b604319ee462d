import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Order, PayPalConfigResponse, PayPalOrderResponse } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type PaymentRow, payments } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { type OrdersService, orderAlreadyPaid } from '../orders/orders.service.js';
import { type PaymentProvider, type ProviderPayment, paymentDeclined } from './payment.provider.js';

export const paymentNotFound = () => notFound('Payment not found');
export const amountMismatch = () =>
  new AppError(409, 'Payment amount does not match the order', 'PAYMENT_AMOUNT_MISMATCH');

export interface PaymentsService {
  config(): PayPalConfigResponse;
  /** Creates (or reuses the open) provider order for the order's remainder after gift cards. */
  createProviderOrder(user: AuthUser, orderId: string): Promise<PayPalOrderResponse>;
  /** Captures an approved provider order of this order, checks it, and settles the order. */
  capture(user: AuthUser, orderId: string, providerOrderId: string): Promise<Order>;
  /** PayPal's webhook: settles orders whose browser vanished after approval. */
  webhook(input: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<void>;
}

export interface PaymentsServiceOptions {
  db: Database;
  orders: OrdersService;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

interface WebhookEvent {
  event_type?: unknown;
  resource?: { id?: unknown; supplementary_data?: { related_ids?: { order_id?: unknown } } };
}

export function createPaymentsService({
  db,
  orders,
  provider,
  log,
}: PaymentsServiceOptions): PaymentsService {
  async function findPayment(providerOrderId: string): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.providerOrderId, providerOrderId));
    return row;
  }

  /**
   * Records a capture the provider reported and settles the order, under the order's row lock: of a
   * browser and a webhook completing the same order, the second finds it paid (Saleor #12652).
   */
  async function recordCapture(payment: PaymentRow, result: ProviderPayment): Promise<Order> {
    if (result.status !== 'COMPLETED') throw paymentDeclined();
    if (result.currency !== 'USD' || result.amountCents !== payment.amountCents) {
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
    const outcome = await orders.withLockedOrder(
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
          .where(eq(payments.id, payment.id));
        if (order.status === 'expired') return { expired: true as const };
        await orders.settle(tx, order, effects);
        return { expired: false as const, order: await orders.dto(tx, order.id) };
      },
    );
    if (outcome.expired) {
      log.error(
        { paymentId: payment.id, orderId: payment.orderId },
        'payment captured for an expired order: refund it',
      );
      throw orderExpired();
    }
    return outcome.order;
  }

  return {
    config() {
      return { clientId: provider.clientId, mode: provider.mode, currency: 'USD' };
    },

    async createProviderOrder(user, orderId) {
      const plan = await orders.withLockedOrder(orderId, { ownerId: user.id }, async (tx, order) => {
        if (order.status === 'paid') throw orderAlreadyPaid();
        if (order.status === 'expired') throw orderExpired();
        const remainder = await orders.remainderCents(tx, order);
        if (remainder <= 0) throw new AppError(409, 'Nothing is left to pay on this order', 'NOTHING_DUE');
        const [open] = await tx
          .select()
          .from(payments)
          .where(
            and(
              eq(payments.orderId, order.id),
              eq(payments.status, 'created'),
              eq(payments.provider, provider.mode),
              eq(payments.amountCents, remainder),
            ),
          )
          .orderBy(desc(payments.createdAt))
          .limit(1);
        return { remainder, open };
      });
      if (plan.open) return { id: plan.open.providerOrderId, status: 'CREATED' };

      const created = await provider.createOrder({
        amountCents: plan.remainder,
        currency: 'USD',
        referenceId: orderId,
        requestId: randomUUID(),
      });
      await db.insert(payments).values({
        orderId,
        provider: provider.mode,
        providerOrderId: created.id,
        amountCents: plan.remainder,
        currency: 'USD',
        // The capture's PayPal-Request-Id: fixed now, reused on every retry of the capture.
        requestId: randomUUID(),
        raw: created,
      });
      return { id: created.id, status: created.status };
    },

    async capture(user, orderId, providerOrderId) {
      const payment = await findPayment(providerOrderId);
      if (!payment || payment.orderId !== orderId) throw paymentNotFound();
      const state = await orders.withLockedOrder(
        orderId,
        { ownerId: user.id },
        async (tx, order, effects) => {
          const [current] = await tx.select().from(payments).where(eq(payments.id, payment.id));
          if (current?.status === 'captured') {
            // Already captured (a retry, or the webhook was first): answer the order, no second capture.
            await orders.settle(tx, order, effects);
            return { order: await orders.dto(tx, order.id), stale: false };
          }
          if (order.status === 'paid') throw orderAlreadyPaid();
          if (order.status === 'expired') throw orderExpired();
          if (current?.status === 'failed') throw amountMismatch();
          // A gift card applied after this PayPal order was made: capturing it would overcharge.
          // Refused before any money moves; the browser asks for a new PayPal order.
          if (current && current.amountCents !== (await orders.remainderCents(tx, order))) {
            await tx
              .update(payments)
              .set({ status: 'failed', updatedAt: orders.now() })
              .where(eq(payments.id, current.id));
            return { order: null, stale: true };
          }
          return { order: null, stale: false };
        },
      );
      if (state.order) return state.order;
      if (state.stale) {
        throw new AppError(
          409,
          'The amount to pay has changed. Please start the PayPal payment again.',
          'PAYMENT_AMOUNT_CHANGED',
        );
      }
      let result: ProviderPayment;
      try {
        result = await provider.captureOrder({ providerOrderId, requestId: payment.requestId });
      } catch (error) {
        // A refusal (declined, not approved) took no money: the buyer may approve again (another
        // card), and PayPal would replay the refusal for the old id. Only a refusal rotates the id;
        // after a timeout or 5xx the same id is kept, so a retry cannot capture twice.
        if (error instanceof AppError && error.code === 'PAYMENT_DECLINED') {
          await db
            .update(payments)
            .set({ requestId: randomUUID(), updatedAt: orders.now() })
            .where(and(eq(payments.id, payment.id), eq(payments.status, 'created')));
        }
        throw error;
      }
      return recordCapture(payment, result);
    },

    async webhook({ headers, rawBody }) {
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
      if (!payment || payment.status === 'failed') return;
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
          const stillOwed = await orders.withLockedOrder(
            payment.orderId,
            { ownerId: null, expireOverdue: false },
            async (tx, order) =>
              order.status === 'unpaid' && (await orders.remainderCents(tx, order)) === payment.amountCents,
          );
          if (!stillOwed) return;
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
    },
  };
}

import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import {
  type Order,
  type PaymentUpdateBody,
  type PayPalOrderResponse,
  ProviderOrderId,
  type ShopConfigResponse,
} from '@pixel-vault/shared';
import { type PaymentRow, payments } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import type { CodeCaller, GiftCardsService } from '../giftcards/giftcards.service.js';
import { orderClosed } from '../orders/orders.lifecycle.js';
import { nothingDue, orderAlreadyPaid, paymentIncomplete } from '../orders/orders.service.js';
import { type PaymentsContext, createCaptures } from './payments.capture.js';
import { createClientCapture } from './payments.client-capture.js';
import { amountMismatch, paymentNotFound } from './payments.errors.js';
import { type ReconcileOutcome, createReconciliation } from './payments.reconcile.js';
import { type WebhookInput, createWebhook } from './payments.webhook.js';

export type { ReconcileOutcome };

/**
 * Payments: the spec's payment update, PayPal's orders and captures, its webhook and the reconciler's
 * steps. Each use case is a file of its own (payments.capture, .client-capture, .webhook, .reconcile),
 * built here once over one context.
 */
export interface PaymentsService {
  /** The payment half of GET /api/config (the route adds the shop's country). */
  config(): Omit<ShopConfigResponse, 'shopCountry'>;
  /**
   * PUT /api/orders/:id/payment (the spec's payment update). Gift Card + code: the card pays what it
   * can (giftcards.payOrder). PayPal + a PayPal order id: the server reads that order from the
   * provider and records its capture (recordClientCapture). Otherwise: settles from what is verified.
   * Answers the paid order, or 402 with what is still due.
   */
  updatePayment(caller: CodeCaller, orderId: string, body: PaymentUpdateBody): Promise<Order>;
  /** Creates (or reuses the open) provider order for the order's remainder after gift cards. */
  createProviderOrder(user: AuthUser, orderId: string): Promise<PayPalOrderResponse>;
  /** Captures an approved provider order of this order, checks it, and settles the order. */
  capture(user: AuthUser, orderId: string, providerOrderId: string): Promise<Order>;
  /** PayPal's webhook: settles orders whose browser vanished after approval. */
  webhook(input: WebhookInput): Promise<void>;
  /**
   * The payment reconciler's step for a payment left `created` (issue 9: the server died between
   * the provider's capture and our record). Asks the provider, holding no lock meanwhile. Completed:
   * recorded and the order settled, or refunded if the order expired. Approved: captured if the
   * order is unpaid and still owes exactly that. Nothing taken and the hold ran out (or the order is
   * closed): `failed`, so the order can expire. Throws when the provider cannot be asked.
   */
  reconcile(payment: PaymentRow): Promise<ReconcileOutcome>;
  /** A payment `captured` for an order that is `expired`: refunded through the provider, then `refunded`. */
  refundExpired(payment: PaymentRow): Promise<ReconcileOutcome>;
}

export interface PaymentsServiceOptions extends Omit<PaymentsContext, 'reportOutcome'> {
  giftCards: GiftCardsService;
  /** Told of the providers' answers (issue 37: metrics). */
  signals?: Signals;
}

export function createPaymentsService({
  giftCards,
  signals = NO_SIGNALS,
  ...rest
}: PaymentsServiceOptions): PaymentsService {
  const context: PaymentsContext = {
    ...rest,
    reportOutcome: (what) => signals.paymentOutcome(rest.provider.mode, what),
  };
  const { db, orders, provider } = context;
  const captures = createCaptures(context);
  const { findPayment, recordCapture, captureAtProvider } = captures;
  const recordClientCapture = createClientCapture(context, captures);
  const { reconcile, refundExpired } = createReconciliation(context, captures);

  return {
    config() {
      return { clientId: provider.clientId, mode: provider.mode, currency: 'USD' };
    },

    async updatePayment(caller, orderId, body) {
      const { user } = caller;
      if (body.payment_method === 'Gift Card') {
        if (!body.gift_card_code) return orders.confirmPayment(user, orderId);
        const { order, dueCents } = await giftCards.payOrder(caller, orderId, body.gift_card_code);
        if (dueCents > 0) throw paymentIncomplete(dueCents);
        return order;
      }
      // PayPal. No PayPal order named (or our own order id, as some clients send): what is verified.
      const named = body.order_id;
      if (!named || named.toLowerCase() === orderId) return orders.confirmPayment(user, orderId);
      const providerOrderId = ProviderOrderId.safeParse(named);
      if (!providerOrderId.success) {
        throw new AppError(400, providerOrderId.error.issues[0]?.message ?? 'Invalid PayPal order id');
      }
      return recordClientCapture(user, orderId, providerOrderId.data);
    },

    async createProviderOrder(user, orderId) {
      const plan = await orders.withLockedOrder(orderId, { ownerId: user.id }, async (tx, order) => {
        if (order.paidAt !== null) throw orderAlreadyPaid();
        if (order.status !== 'unpaid') throw orderClosed(order);
        const remainder = await orders.remainderCents(tx, order);
        if (remainder <= 0) throw nothingDue();
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
          if (order.paidAt !== null) throw orderAlreadyPaid();
          if (order.status !== 'unpaid') throw orderClosed(order);
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
      return recordCapture(payment, await captureAtProvider(payment));
    },

    webhook: createWebhook(context, captures),
    reconcile,
    refundExpired,
  };
}

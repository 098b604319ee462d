import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type Order,
  type PaymentUpdateBody,
  type PayPalOrderResponse,
  ProviderOrderId,
  type ShopConfigResponse,
  formatCents,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type PaymentRow, payments } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import type { CodeCaller, GiftCardsService } from '../giftcards/giftcards.service.js';
import { isOverdue, orderExpired } from '../orders/orders.expiry.js';
import { closedUnpaid, orderClosed } from '../orders/orders.lifecycle.js';
import {
  type OrdersService,
  nothingDue,
  orderAlreadyPaid,
  paymentIncomplete,
} from '../orders/orders.service.js';
import {
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRefund,
  paymentDeclined,
} from './payment.provider.js';

export const paymentNotFound = () => notFound('Payment not found');
export const amountMismatch = () =>
  new AppError(409, 'Payment amount does not match the order', 'PAYMENT_AMOUNT_MISMATCH');
export const paymentUsedElsewhere = () =>
  new AppError(409, 'This PayPal payment was already used for another order', 'PAYMENT_USED');

/** What reconciling one payment did (issue 9). `waiting`: nothing to do yet, looked at again next run. */
export type ReconcileOutcome = 'recorded' | 'refunded' | 'failed' | 'waiting';

/** The provider order is completed by a completed capture: the money was taken. */
const completedCapture = (result: ProviderPayment): result is ProviderPayment & { captureId: string } =>
  result.status === 'COMPLETED' && result.captureStatus === 'COMPLETED' && Boolean(result.captureId);

/** A shop order id is a UUID; PayPal's own default reference is `default`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  webhook(input: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<void>;
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

export interface PaymentsServiceOptions {
  db: Database;
  orders: OrdersService;
  giftCards: GiftCardsService;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Told of the providers' answers (issue 37: metrics). */
  signals?: Signals;
}

interface WebhookEvent {
  event_type?: unknown;
  resource?: { id?: unknown; supplementary_data?: { related_ids?: { order_id?: unknown } } };
}

export function createPaymentsService({
  db,
  orders,
  giftCards,
  provider,
  log,
  signals = NO_SIGNALS,
}: PaymentsServiceOptions): PaymentsService {
  const reportOutcome = (what: Parameters<Signals['paymentOutcome']>[1]) =>
    signals.paymentOutcome(provider.mode, what);

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
    },

    reconcile,
    refundExpired,
  };
}

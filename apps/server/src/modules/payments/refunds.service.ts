import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Order, type RefundBody, formatCents, toCents } from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import {
  type OrderRefundRow,
  type OrderRow,
  type RefundKind,
  type RefundPlan,
  giftCardLedger,
  giftCards,
  orderRefunds,
  orders as ordersTable,
  payments,
} from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMail } from '../mail/mail.service.js';
import { releaseLocked, returnStock } from '../orders/orders.expiry.js';
import { checkTransition, recordEvent } from '../orders/orders.lifecycle.js';
import { payingLedgerRows } from '../orders/orders.repo.js';
import { type RefundDestinations, cancelledMail, refundMail } from '../orders/orders.mail.js';
import type { OrderEffects, OrdersService } from '../orders/orders.service.js';
import { reviewsAfterOrderClosed } from '../reviews/reviews.service.js';
import type { PaymentProvider, ProviderRefund } from './payment.provider.js';
import { releaseUse } from '../promotions/promotions.repo.js';

/**
 * Cancellations and refunds (issue 12): money goes back exactly once.
 *
 * A refund is planned under the order's row lock and recorded `pending` (one per order: a unique
 * index), so a second admin, a customer's cancel or a retry finds it instead of planning another. The
 * provider is then asked with no lock held, with one PayPal-Request-Id per capture derived from the
 * refund's id: a retry after a lost answer names the same refund, and PayPal answers it again instead
 * of refunding twice. The gift cards, stock, order and mail change last, under the lock, in the one
 * transaction that moves the refund from `pending` to `completed`. A refund left pending (the provider
 * did not answer, or the server died) is completed by a retry or by the payment reconciler.
 *
 * Where the money goes: gift cards first, then PayPal. A partial refund never turns gift-card money
 * (store credit, which can be bought with a stolen card) into cash; a full refund returns every
 * payment to where it came from.
 */
export interface RefundsService {
  /** POST /api/orders/:id/cancel (the order's customer). */
  cancel(user: AuthUser, orderId: string): Promise<Order>;
  /** POST /api/orders/:id/refund (admin). */
  refund(admin: AuthUser, orderId: string, body: RefundBody): Promise<Order>;
  /** The reconciler's step for a refund left pending: 'waiting' when the provider still cannot be asked. */
  resume(refund: OrderRefundRow): Promise<'completed' | 'failed' | 'waiting'>;
}

export interface RefundsServiceOptions {
  db: Database;
  orders: OrdersService;
  provider: PaymentProvider;
  /** Stock (or a product's review numbers) changed: the catalogue's cached answers are stale. */
  onRestock: () => void;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Told of cancellations and refunds, after the commit (issue 37: metrics). */
  signals?: Signals;
}

export const refundInProgress = () =>
  new AppError(
    409,
    'A refund for this order is already in progress. Please try again in a minute.',
    'REFUND_IN_PROGRESS',
  );
const refundPending = () =>
  new AppError(
    502,
    'PayPal did not answer. The refund is recorded and will be completed automatically; nothing more is needed.',
    'REFUND_PENDING',
  );
const refundDeclined = (reason: string) =>
  new AppError(502, `PayPal refused the refund: ${reason}`, 'REFUND_DECLINED');

/** What a planned refund needs besides the plan itself. */
interface RefundRequest {
  kind: RefundKind;
  amountCents: number;
  reason: string;
  restock: boolean;
  actorUserId: string;
}

const CUSTOMER_CANCEL_REASON = 'Cancelled by the customer';

/** "....4F2K": enough for the customer to know the card, never the whole code in a mail. */
const cardEnding = (code: string) => code.replace(/-/g, '').slice(-4).toUpperCase();
/** One line of a mail's "where the money went": "$10.00 back to gift card ending 4F2K". */
const backToCard = (cents: number, code: string) =>
  `${formatCents(cents)} back to gift card ending ${cardEnding(code)}`;

export function createRefundsService({
  db,
  orders,
  provider,
  onRestock,
  log,
  signals = NO_SIGNALS,
}: RefundsServiceOptions): RefundsService {
  async function pendingRefundOf(tx: Transaction, orderId: string): Promise<OrderRefundRow | undefined> {
    const [row] = await tx
      .select()
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.status, 'pending')));
    return row;
  }

  /**
   * Plans where `amountCents` goes (gift cards first, in card-id order; then captures, oldest first)
   * and records the refund `pending`. The caller holds the order's row lock.
   */
  async function planRefund(
    tx: Transaction,
    order: OrderRow,
    request: RefundRequest,
  ): Promise<OrderRefundRow> {
    const refundable = order.totalCents - order.refundedCents;
    if (request.amountCents > refundable) {
      throw new AppError(
        409,
        `At most ${formatCents(refundable)} can be refunded on this order`,
        'REFUND_TOO_LARGE',
      );
    }
    // What each card still holds of this order: its debits less everything given back to it so far
    // (a Remove at checkout, issue 30, or an earlier refund).
    const cards = await tx
      .select({
        giftCardId: giftCardLedger.giftCardId,
        cents: sql<number>`-sum(${giftCardLedger.amountCents})`.mapWith(Number),
      })
      .from(giftCardLedger)
      .where(
        and(
          eq(giftCardLedger.orderId, order.id),
          inArray(giftCardLedger.kind, ['order_debit', 'order_refund']),
        ),
      )
      .groupBy(giftCardLedger.giftCardId)
      .orderBy(asc(giftCardLedger.giftCardId));
    const captures = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), eq(payments.status, 'captured')))
      .orderBy(asc(payments.createdAt), asc(payments.id));

    let left = request.amountCents;
    const plan: RefundPlan = { giftCards: [], captures: [] };
    for (const card of cards) {
      const cents = Math.min(left, card.cents);
      if (cents <= 0) continue;
      plan.giftCards.push({ giftCardId: card.giftCardId, cents });
      left -= cents;
    }
    for (const payment of captures) {
      const cents = Math.min(left, payment.amountCents - payment.refundedCents);
      if (cents <= 0 || !payment.captureId) continue;
      plan.captures.push({
        paymentId: payment.id,
        captureId: payment.captureId,
        currency: payment.currency,
        cents,
      });
      left -= cents;
    }
    if (left > 0) {
      // The order's payments do not add up to its total (money kept outside the shop's records).
      log.error({ orderId: order.id, missingCents: left }, 'refund plan cannot cover the amount');
      throw new AppError(
        409,
        `Only ${formatCents(request.amountCents - left)} of this order's payments can be refunded here`,
        'REFUND_NOT_COVERED',
      );
    }
    const now = orders.now();
    const [row] = await tx
      .insert(orderRefunds)
      .values({
        orderId: order.id,
        kind: request.kind,
        amountCents: request.amountCents,
        reason: request.reason,
        restock: request.restock,
        plan,
        actorUserId: request.actorUserId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('Refund insert returned no row');
    return row;
  }

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

  /** Puts the order's items back on the shelf (once per order). */
  async function restock(tx: Transaction, order: OrderRow): Promise<boolean> {
    if (order.restocked) return false;
    await returnStock(tx, order.id);
    order.restocked = true;
    return true;
  }

  /**
   * pending -> completed under the order's lock: gift cards credited (ledger rows naming the refund),
   * captures marked refunded by their part, stock back if asked, the order's refunded total and status,
   * its timeline, the mail; a cancel or full refund may also unverify the customer's reviews (issue 28).
   * Answers completed: false when another caller completed it first.
   */
  async function complete(
    tx: Transaction,
    order: OrderRow,
    refund: OrderRefundRow,
    results: OrderRefundRow['providerRefunds'],
    effects: OrderEffects,
  ): Promise<{ completed: boolean; catalogueChanged: boolean }> {
    const now = orders.now();
    const [claimed] = await tx
      .update(orderRefunds)
      .set({ status: 'completed', providerRefunds: results, updatedAt: now })
      .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'pending')))
      .returning({ id: orderRefunds.id });
    if (!claimed) return { completed: false, catalogueChanged: false };

    const destinations: RefundDestinations = [];
    for (const part of refund.plan.giftCards) {
      const [card] = await tx
        .update(giftCards)
        .set({ balanceCents: sql`${giftCards.balanceCents} + ${part.cents}`, updatedAt: now })
        .where(eq(giftCards.id, part.giftCardId))
        .returning({ balanceCents: giftCards.balanceCents, code: giftCards.code });
      if (!card) continue;
      await tx.insert(giftCardLedger).values({
        giftCardId: part.giftCardId,
        orderId: order.id,
        kind: 'order_refund',
        amountCents: part.cents,
        balanceAfterCents: card.balanceCents,
        actorUserId: refund.actorUserId,
        refundId: refund.id,
        createdAt: now,
      });
      destinations.push(backToCard(part.cents, card.code));
    }
    for (const part of refund.plan.captures) {
      await tx
        .update(payments)
        .set({ refundedCents: sql`${payments.refundedCents} + ${part.cents}`, updatedAt: now })
        .where(eq(payments.id, part.paymentId));
      destinations.push(
        `${formatCents(part.cents)} back to your ${part.captureId.startsWith('DEMO') ? 'demo payment' : 'PayPal account'}`,
      );
    }
    const restocked = refund.restock ? await restock(tx, order) : false;
    const refundedCents = order.refundedCents + refund.amountCents;
    let status = order.status;
    if (refund.kind === 'cancel') status = 'cancelled';
    else if (refundedCents === order.totalCents) status = 'refunded';
    // A cancelled order gives its discount code's use back (issue 32); a refund alone does not.
    if (refund.kind === 'cancel' && order.discountCode !== null) await releaseUse(tx, order.id, now);
    await tx
      .update(ordersTable)
      .set({ refundedCents, status, restocked: order.restocked, updatedAt: now })
      .where(eq(ordersTable.id, order.id));
    Object.assign(order, { refundedCents, status });
    // No longer paid: its customer's reviews of its products may stop counting (issue 28).
    const reviewsChanged = status === 'paid' ? false : await reviewsAfterOrderClosed(tx, order);

    const byCustomer = refund.kind === 'cancel';
    await recordEvent(tx, {
      orderId: order.id,
      kind: 'refunded',
      actor: byCustomer ? 'customer' : 'admin',
      actorUserId: refund.actorUserId,
      amountCents: refund.amountCents,
      note: [refund.reason, ...destinations].join('; '),
      at: now,
    });
    if (byCustomer) {
      await recordEvent(tx, {
        orderId: order.id,
        kind: 'cancelled',
        actor: 'customer',
        actorUserId: refund.actorUserId,
        at: now,
      });
      await enqueueMail(tx, cancelledMail(order, refund.amountCents, destinations, now));
    } else {
      await enqueueMail(tx, refundMail(order, refund.amountCents, destinations, refund.reason, now));
      await recordAudit(tx, {
        actor: refund.actorUserId,
        action: 'order.refund',
        targetType: 'order',
        targetId: order.id,
        before: { refundedCents: order.refundedCents - refund.amountCents },
        after: {
          refundedCents,
          status,
          amountCents: refund.amountCents,
          reason: refund.reason,
          restock: refund.restock,
          refundId: refund.id,
        },
      });
    }
    effects.mailQueued = true;
    return { completed: true, catalogueChanged: restocked || reviewsChanged };
  }

  /** Sends a pending refund to the provider, then completes it; answers the order as it is then. */
  async function carryOut(refund: OrderRefundRow, ownerId: string | null): Promise<Order> {
    const results = await refundAtProvider(refund);
    let catalogueChanged = false;
    let completed = false;
    const order = await orders.withLockedOrder(
      refund.orderId,
      { ownerId, expireOverdue: false },
      async (tx, locked, effects) => {
        const [current] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refund.id));
        if (current?.status === 'pending') {
          ({ catalogueChanged, completed } = await complete(tx, locked, current, results, effects));
        }
        return orders.dto(tx, locked.id);
      },
    );
    if (catalogueChanged) onRestock();
    // Committed; a caller who found it completed by another counts nothing.
    if (completed) {
      if (refund.kind === 'cancel') signals.orderCancelled();
      else signals.orderRefunded();
    }
    log.info(
      { refundId: refund.id, orderId: refund.orderId, amountCents: refund.amountCents, kind: refund.kind },
      'order refunded',
    );
    return order;
  }

  return {
    async cancel(user, orderId) {
      const step = await orders.withLockedOrder(
        orderId,
        { ownerId: user.id },
        async (
          tx,
          order,
          effects,
        ): Promise<{ order: Order; restocked: boolean } | { refund: OrderRefundRow }> => {
          const pending = await pendingRefundOf(tx, order.id);
          // This customer's own cancel, cut short (PayPal did not answer): take it up again.
          if (pending?.kind === 'cancel') return { refund: pending };
          if (pending) throw refundInProgress();
          if (checkTransition('cancel', order) === 'done') {
            return { order: await orders.dto(tx, order.id), restocked: false };
          }
          if (order.status === 'unpaid') {
            const now = orders.now();
            const held = await tx
              .select({
                code: giftCards.code,
                cents: sql<number>`-sum(${giftCardLedger.amountCents})`.mapWith(Number),
              })
              .from(giftCardLedger)
              .innerJoin(giftCards, eq(giftCards.id, giftCardLedger.giftCardId))
              // Net per card (issue 30): a card removed at checkout was given its money back then.
              .where(and(eq(giftCardLedger.orderId, order.id), payingLedgerRows))
              .groupBy(giftCards.code)
              .having(sql`sum(${giftCardLedger.amountCents}) < 0`)
              .orderBy(asc(giftCards.code));
            await releaseLocked(tx, order, now, 'cancelled');
            const released = held.map((h) => backToCard(h.cents, h.code));
            await recordEvent(tx, {
              orderId: order.id,
              kind: 'cancelled',
              actor: 'customer',
              actorUserId: user.id,
              note: released.length > 0 ? released.join('; ') : null,
              at: now,
            });
            await enqueueMail(tx, cancelledMail(order, 0, released, now));
            effects.mailQueued = true;
            return { order: await orders.dto(tx, order.id), restocked: true };
          }
          // Paid, not delivered: everything paid goes back, and the items go back on the shelf.
          return {
            refund: await planRefund(tx, order, {
              kind: 'cancel',
              amountCents: order.totalCents - order.refundedCents,
              reason: CUSTOMER_CANCEL_REASON,
              restock: true,
              actorUserId: user.id,
            }),
          };
        },
      );
      if ('order' in step) {
        // Restocked: cancelled just now (not found cancelled already).
        if (step.restocked) {
          onRestock();
          signals.orderCancelled();
        }
        return step.order;
      }
      return carryOut(step.refund, user.id);
    },

    async refund(admin, orderId, body) {
      const refund = await orders.withLockedOrder(
        orderId,
        { ownerId: null, expireOverdue: false },
        async (tx, order) => {
          const amountCents =
            body.amount === undefined ? order.totalCents - order.refundedCents : toCents(body.amount);
          const pending = await pendingRefundOf(tx, order.id);
          if (pending) {
            // The same refund asked again (its answer was lost): take it up, never plan a second.
            const same =
              pending.kind === 'admin' &&
              pending.amountCents === amountCents &&
              pending.restock === body.restock &&
              pending.reason === body.reason;
            if (same) return pending;
            throw refundInProgress();
          }
          checkTransition('refund', order);
          if (amountCents <= 0) {
            throw new AppError(409, 'Nothing is left to refund on this order', 'REFUND_TOO_LARGE');
          }
          return planRefund(tx, order, {
            kind: 'admin',
            amountCents,
            reason: body.reason,
            restock: body.restock,
            actorUserId: admin.id,
          });
        },
      );
      return carryOut(refund, null);
    },

    async resume(refund) {
      try {
        await carryOut(refund, null);
        return 'completed';
      } catch (error) {
        if (error instanceof AppError && error.code === 'REFUND_DECLINED') return 'failed';
        if (error instanceof AppError && error.code === 'REFUND_PENDING') return 'waiting';
        throw error;
      }
    },
  };
}

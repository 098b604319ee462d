import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Order, type RefundBody, toCents } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type OrderRefundRow, giftCardLedger, giftCards, orderRefunds } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { enqueueMail } from '../mail/mail.service.js';
import { releaseLocked } from '../orders/orders.expiry.js';
import { checkTransition, recordEvent } from '../orders/orders.lifecycle.js';
import { payingLedgerRows } from '../orders/orders.repo.js';
import { cancelledMail } from '../orders/orders.mail.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { PaymentProvider } from './payment.provider.js';
import { backToCard, completeRefund } from './refunds.complete.js';
import { refundInProgress } from './refunds.errors.js';
import { pendingRefundOf, planRefund } from './refunds.plan.js';
import { createProviderRefunds } from './refunds.provider.js';

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

const CUSTOMER_CANCEL_REASON = 'Cancelled by the customer';

export function createRefundsService({
  db,
  orders,
  provider,
  onRestock,
  log,
  signals = NO_SIGNALS,
}: RefundsServiceOptions): RefundsService {
  const refundAtProvider = createProviderRefunds({ db, orders, provider, log });

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
          ({ catalogueChanged, completed } = await completeRefund(
            tx,
            locked,
            current,
            results,
            effects,
            orders.now(),
          ));
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
            refund: await planRefund(
              tx,
              order,
              {
                kind: 'cancel',
                amountCents: order.totalCents - order.refundedCents,
                reason: CUSTOMER_CANCEL_REASON,
                restock: true,
                actorUserId: user.id,
              },
              { now: orders.now(), log },
            ),
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
          return planRefund(
            tx,
            order,
            {
              kind: 'admin',
              amountCents,
              reason: body.reason,
              restock: body.restock,
              actorUserId: admin.id,
            },
            { now: orders.now(), log },
          );
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

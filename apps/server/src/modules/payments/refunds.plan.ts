import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCents } from '@pixel-vault/shared';
import type { Transaction } from '../../db/client.js';
import {
  type OrderRefundRow,
  type OrderRow,
  type RefundKind,
  type RefundPlan,
  giftCardLedger,
  orderRefunds,
  payments,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';

/** What a planned refund needs besides the plan itself. */
export interface RefundRequest {
  kind: RefundKind;
  amountCents: number;
  reason: string;
  restock: boolean;
  actorUserId: string;
}

/** The order's refund still pending, if any (at most one: a unique index). */
export async function pendingRefundOf(tx: Transaction, orderId: string): Promise<OrderRefundRow | undefined> {
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
export async function planRefund(
  tx: Transaction,
  order: OrderRow,
  request: RefundRequest,
  { now, log }: { now: Date; log: Pick<FastifyBaseLogger, 'error'> },
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

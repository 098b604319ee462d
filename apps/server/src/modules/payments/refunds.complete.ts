import { and, eq, sql } from 'drizzle-orm';
import { formatCents } from '@pixel-vault/shared';
import type { Transaction } from '../../db/client.js';
import {
  type OrderRefundRow,
  type OrderRow,
  giftCardLedger,
  giftCards,
  orderRefunds,
  orders as ordersTable,
  payments,
} from '../../db/schema/index.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMail } from '../mail/mail.service.js';
import { returnStock } from '../orders/orders.expiry.js';
import { recordEvent } from '../orders/orders.lifecycle.js';
import { type RefundDestinations, cancelledMail, refundMail } from '../orders/orders.mail.js';
import type { OrderEffects } from '../orders/orders.service.js';
import { releaseUse } from '../promotions/promotions.repo.js';
import { reviewsAfterOrderClosed } from '../reviews/reviews.service.js';

/** "....4F2K": enough for the customer to know the card, never the whole code in a mail. */
const cardEnding = (code: string) => code.replace(/-/g, '').slice(-4).toUpperCase();
/** One line of a mail's "where the money went": "$10.00 back to gift card ending 4F2K". */
export const backToCard = (cents: number, code: string) =>
  `${formatCents(cents)} back to gift card ending ${cardEnding(code)}`;

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
export async function completeRefund(
  tx: Transaction,
  order: OrderRow,
  refund: OrderRefundRow,
  results: OrderRefundRow['providerRefunds'],
  effects: OrderEffects,
  now: Date,
): Promise<{ completed: boolean; catalogueChanged: boolean }> {
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

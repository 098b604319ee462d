import { randomUUID } from 'node:crypto';
import { type WithSubquery, desc, getTableColumns, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import {
  type OrderItemRow,
  type OrderRow,
  mailOutbox,
  orderEvents,
  orders,
  payments,
} from '../../db/schema/index.js';
import { outboxInsert } from '../mail/mail.service.js';
import { eventInsert, orderClosed } from './orders.lifecycle.js';
import { confirmationMail } from './orders.mail.js';
import { type MoneyOnOrder, itemsFor, moneyOn } from './orders.repo.js';

/** What a transaction on an order did that needs doing after it commits. */
export interface OrderEffects {
  mailQueued: boolean;
  /** The order became paid (told to lib/signals.ts once the transaction committed). */
  paid?: boolean;
}

export interface SettleResult {
  paid: boolean;
  /** Still to pay, in cents (0 once paid). */
  dueCents: number;
}

/**
 * Told in the transaction that marks an order paid (issue 34: its lines leave the buyer's server cart).
 * `alongside` is a write that runs in the statement that marks the order paid, as a `with` clause of it
 * (issue 28: no round trip of its own); `after` runs next, told whether that write found any row. What
 * either writes commits or rolls back with the payment.
 */
export interface OrderPaidHook {
  alongside(tx: Transaction, order: OrderRow, items: readonly OrderItemRow[]): WithSubquery | undefined;
  after(tx: Transaction, order: OrderRow, items: readonly OrderItemRow[], found: boolean): Promise<void>;
}

/**
 * unpaid -> paid, the one way every payment path marks an order paid (gift cards, PayPal, the demo
 * provider, the reconciler): when the gift cards and captured payments on it cover its total, the
 * order, its timeline's line and its confirmation mail change in one statement, and the cart's hook
 * (issue 34) runs in the same transaction.
 */
export function createSettlement({ clock, onPaid }: { clock: () => Date; onPaid?: OrderPaidHook }) {
  async function remainderCents(tx: Transaction, order: OrderRow): Promise<number> {
    const { giftCents, capturedCents } = await moneyOn(tx, order.id);
    return Math.max(0, order.totalCents - giftCents - capturedCents);
  }

  async function settle(
    tx: Transaction,
    order: OrderRow,
    effects: OrderEffects,
    /** What the caller read already under the order's lock: the money on it, perhaps its lines. */
    known?: MoneyOnOrder & { items?: OrderItemRow[] },
  ): Promise<SettleResult> {
    // Paid once (and perhaps refunded or cancelled since): nothing more to settle.
    if (order.paidAt !== null) return { paid: true, dueCents: 0 };
    if (order.status !== 'unpaid') throw orderClosed(order);

    const { giftCents, capturedCents } = known ?? (await moneyOn(tx, order.id));
    const dueCents = order.totalCents - giftCents - capturedCents;
    if (dueCents > 0) return { paid: false, dueCents };
    // The newest captured payment names the method and the provider's id (none: gift cards alone).
    const captured =
      capturedCents === 0
        ? []
        : await tx
            .select()
            .from(payments)
            .where(sql`${payments.orderId} = ${order.id} and ${payments.status} = 'captured'`)
            .orderBy(desc(payments.updatedAt))
            .limit(1);

    const now = clock();
    const last = captured[0];
    let method = 'Gift Card';
    if (last) {
      const provider = last.provider === 'paypal' ? 'PayPal' : 'demo';
      method = giftCents > 0 ? `Gift Card + ${provider}` : last.provider;
    }
    const items = known?.items ?? (await itemsFor(tx, [order.id]));
    // The confirmation mail, the timeline's line and the order's change go in one statement (issue 13:
    // two round trips fewer per paid order); the mail's id is chosen here so the order can name it.
    // A `with` clause's insert runs whatever the update finds; it finds the order (the caller holds
    // its lock), and if not, the error below rolls all three back.
    const mailId = randomUUID();
    const mail = tx
      .$with('confirmation_mail')
      .as(outboxInsert(tx, confirmationMail(order, items, now), mailId).returning({ id: mailOutbox.id }));
    const event = tx.$with('paid_event').as(
      eventInsert(tx, {
        orderId: order.id,
        kind: 'paid',
        actor: 'customer',
        actorUserId: order.userId,
        amountCents: order.totalCents,
        note: method,
        at: now,
      }).returning({ id: orderEvents.id }),
    );
    const alongside = onPaid?.alongside(tx, order, items);
    const [updated] = await tx
      .with(mail, event, ...(alongside ? [alongside] : []))
      .update(orders)
      .set({
        status: 'paid',
        paidAt: now,
        paymentResultMethod: method,
        paymentResultProviderId: last ? (last.captureId ?? last.providerOrderId) : null,
        paymentResultStatus: 'COMPLETED',
        paymentResultPayerEmail: last?.payerEmail ?? order.customerEmail,
        paymentResultUpdateTime: now,
        confirmationMailId: mailId,
        updatedAt: now,
      })
      .where(sql`${orders.id} = ${order.id} and ${orders.status} = 'unpaid'`)
      .returning({
        ...getTableColumns(orders),
        alongsideFound: alongside ? sql<boolean>`exists (select 1 from ${alongside})` : sql<boolean>`false`,
      });
    // The caller holds the row lock, so the order is still unpaid here; guard anyway.
    if (!updated) throw new Error('Order changed under its row lock');
    const { alongsideFound, ...row } = updated;
    Object.assign(order, row);
    if (onPaid) await onPaid.after(tx, order, items, alongsideFound === true);
    effects.mailQueued = true;
    effects.paid = true;
    return { paid: true, dueCents: 0 };
  }

  return { settle, remainderCents };
}

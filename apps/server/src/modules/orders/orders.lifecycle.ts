import type { OrderStatus } from '@pixel-vault/shared';
import type { Executor } from '../../db/client.js';
import { type OrderActor, type OrderEventKind, type OrderRow, orderEvents } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';

export const orderExpired = () =>
  new AppError(409, 'This order has expired. Please place it again.', 'ORDER_EXPIRED');

/**
 * An order's life (issue 12), in one place: the status the API shows, the moves allowed between
 * statuses, and the timeline that records them.
 *
 * The row stores `unpaid | paid | expired | cancelled | refunded` and `is_delivered`; the API's status
 * is derived from both by `statusOf`.
 */
export function statusOf(row: Pick<OrderRow, 'status' | 'isDelivered'>): OrderStatus {
  switch (row.status) {
    case 'unpaid':
      return 'awaiting_payment';
    case 'paid':
      return row.isDelivered ? 'delivered' : 'paid';
    default:
      return row.status;
  }
}

/** Closed before any money was kept: a capture that still arrives for it is given back. */
export const closedUnpaid = (row: Pick<OrderRow, 'status' | 'paidAt'>) =>
  row.paidAt === null && (row.status === 'expired' || row.status === 'cancelled');

export type OrderAction = 'pay' | 'deliver' | 'cancel' | 'refund' | 'expire';

/**
 * The transition table. `from`: the statuses the action may start from. `done`: where it has already
 * happened, so repeating it changes nothing and answers the order as it is (idempotent). Anything else
 * is a 409 with the message below.
 */
const TRANSITIONS: Record<OrderAction, { from: readonly OrderStatus[]; done: readonly OrderStatus[] }> = {
  pay: { from: ['awaiting_payment'], done: ['paid', 'delivered'] },
  deliver: { from: ['paid'], done: ['delivered'] },
  cancel: { from: ['awaiting_payment', 'paid'], done: ['cancelled'] },
  // A partial refund leaves a paid or delivered order where it is; a full one makes it `refunded`.
  refund: { from: ['paid', 'delivered'], done: [] },
  expire: { from: ['awaiting_payment'], done: ['expired'] },
};

/** Why `action` cannot happen to an order in `status`, as the customer or admin reads it. */
function refusal(action: OrderAction, status: OrderStatus): AppError {
  if (action === 'cancel' && status === 'delivered') {
    return new AppError(
      409,
      'This order was delivered, so it can no longer be cancelled here. Please contact us to return it.',
      'ORDER_DELIVERED',
    );
  }
  if (status === 'expired') return orderExpired();
  if (status === 'cancelled') return new AppError(409, 'This order was cancelled', 'ORDER_CANCELLED');
  if (status === 'refunded') {
    return new AppError(409, 'This order was refunded in full', 'ORDER_REFUNDED');
  }
  if (action === 'deliver' || action === 'refund') {
    return new AppError(
      409,
      `Only a paid order can be ${action === 'deliver' ? 'delivered' : 'refunded'}`,
      'ORDER_NOT_PAID',
    );
  }
  return new AppError(
    409,
    `This order cannot be ${action === 'cancel' ? 'cancelled' : 'changed'} now`,
    'ORDER_STATE',
  );
}

/**
 * 'proceed' when `action` may happen to the order now, 'done' when it already has (answer the order as
 * it is); throws the 409 otherwise.
 */
export function checkTransition(
  action: OrderAction,
  row: Pick<OrderRow, 'status' | 'isDelivered'>,
): 'proceed' | 'done' {
  const status = statusOf(row);
  const rule = TRANSITIONS[action];
  if (rule.done.includes(status)) return 'done';
  if (rule.from.includes(status)) return 'proceed';
  throw refusal(action, status);
}

/** The 409 for paying (or otherwise settling) an order that is closed. */
export const orderClosed = (row: Pick<OrderRow, 'status' | 'isDelivered'>) => refusal('pay', statusOf(row));

export interface NewOrderEvent {
  orderId: string;
  kind: OrderEventKind;
  actor: OrderActor;
  actorUserId?: string | null;
  amountCents?: number | null;
  note?: string | null;
  at: Date;
}

/** One line of the timeline, in the caller's transaction (the one that made the change). */
export async function recordEvent(tx: Executor, event: NewOrderEvent): Promise<void> {
  await eventInsert(tx, event);
}

/** recordEvent's insert, not yet run: for a caller that sends it in a `with` clause (issue 13). */
export function eventInsert(tx: Executor, event: NewOrderEvent) {
  return tx.insert(orderEvents).values({
    orderId: event.orderId,
    kind: event.kind,
    actor: event.actor,
    actorUserId: event.actorUserId ?? null,
    amountCents: event.amountCents ?? null,
    note: event.note ?? null,
    at: event.at,
  });
}

import type { OrderStatus } from '@pixel-vault/shared';

/**
 * An order's status as people read it (issue 12), shared by the customer's pages and the admin's:
 * `awaiting_payment` reads 'Awaiting payment'. In the order of the order's life, for lists of choices.
 */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  paid: 'Paid',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  expired: 'Expired',
};

/**
 * Closed: cancelled, refunded or expired. The same rule as the shared `isClosedStatus`, written here
 * because that one lives beside the zod schemas, whose module would bring zod to every order page.
 */
export const isClosed = (status: OrderStatus) =>
  status === 'cancelled' || status === 'refunded' || status === 'expired';

import { formatCents, toCents, type Cents, type Order, type OrderItem } from '@pixel-vault/shared';

/** Spec section 9: a line's quantity defaults to 1 when missing. */
export function lineQuantity(item: Pick<OrderItem, 'itemQuantity'>): number {
  const qty = item.itemQuantity as number | null | undefined;
  return typeof qty === 'number' && Number.isInteger(qty) && qty > 0 ? qty : 1;
}

export function lineTotalCents(item: Pick<OrderItem, 'itemQuantity' | 'itemPrice'>): Cents {
  return toCents(item.itemPrice) * lineQuantity(item);
}

/** Spec section 9: order pages recompute the items total as the sum of price times quantity, in cents. */
export function itemsTotalCents(items: readonly Pick<OrderItem, 'itemQuantity' | 'itemPrice'>[]): Cents {
  return items.reduce((sum, item) => sum + lineTotalCents(item), 0);
}

/**
 * Issue 32: an order's discount as a line of its totals, `Discount (RETRO10)` with `−$4.52`, or with
 * `Free shipping` for a code that took nothing off the items (a free-shipping code). Null without a
 * code: such an order's totals read as before. `price` stays the subtotal before the discount.
 */
export function discountLine(
  order: Partial<Pick<Order, 'discountCode' | 'discountPrice'>>,
): { label: string; value: string } | null {
  if (!order.discountCode) return null;
  const cents = toCents(order.discountPrice ?? 0);
  return {
    label: `Discount (${order.discountCode})`,
    value: cents > 0 ? `−${formatCents(cents)}` : 'Free shipping',
  };
}

/** The customer's e-mail when the order was read in full (the admin list only carries an id). */
export function customerEmail(order: Pick<Order, 'user'>): string | null {
  const user = order.user;
  return user && typeof user === 'object' && user.email ? user.email : null;
}

/** The customer's id: `user` is the customer read in full, or just the id (admin list). */
export function customerId(order: Pick<Order, 'user'>): string | null {
  const user = order.user;
  if (!user) return null;
  return typeof user === 'string' ? user : user._id;
}

/**
 * Unpaid and still holding its stock when it was read (`readAt`, epoch ms): the customer can pay it
 * (issue 9: a customer may hold only a few unpaid orders, so a refused checkout sends them here).
 */
export function isOpenOrder(order: Pick<Order, 'status' | 'expiresAt'>, readAt: number): boolean {
  return (
    order.status === 'awaiting_payment' && order.expiresAt != null && Date.parse(order.expiresAt) > readAt
  );
}

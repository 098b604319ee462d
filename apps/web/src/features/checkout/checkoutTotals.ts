import { priceOrder, toCents, type OrderTotals } from '@pixel-vault/shared';
import type { CartItem } from '../../app/cartSlice';

/**
 * The cart's totals with the shared pricing rules, in cents (display only: the server prices the
 * order). Kept here rather than reusing the cart's helper so the cart and checkout chunks share no
 * module that would be split off the first download.
 */
export function checkoutTotals(items: readonly CartItem[]): OrderTotals {
  return priceOrder(items.map((i) => ({ priceCents: toCents(i.price), qty: i.qty })));
}

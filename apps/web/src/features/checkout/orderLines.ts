import type { OrderItemInput } from '@pixel-vault/shared';
import type { CartItem } from '../../app/cartSlice';

/**
 * The cart's lines as the server reads them: the order sends them (with names and prices for the
 * record) and so does a discount code's check (issue 32), so both are priced from the same lines.
 */
export function orderLines(items: readonly CartItem[]): OrderItemInput[] {
  return items.map((i) => ({
    product: i.product,
    // Issue 31: the tier in the cart; a line without one is the product's default variant.
    ...(i.variant && { variant: i.variant }),
    itemQuantity: i.qty,
  }));
}

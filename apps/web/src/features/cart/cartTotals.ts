import { subtotalCents, toCents, type Cents, type PricedLine } from '@pixel-vault/shared';
import type { CartItem } from '../../app/cartSlice';

/** Cart lines in integer cents, the form the shared pricing rules take (STYLE.md: money). */
export function cartPricedLines(items: readonly CartItem[]): PricedLine[] {
  return items.map((i) => ({ priceCents: toCents(i.price), qty: i.qty }));
}

/** Spec section 9: cart subtotal is the sum of quantity times price, exact in cents. */
export function cartSubtotalCents(items: readonly CartItem[]): Cents {
  return subtotalCents(cartPricedLines(items));
}

import type { Cents } from './money.js';

/** Spec section 9: tax is 15% of the subtotal. */
export const TAX_RATE_PERCENT = 15;
/** Spec section 9: shipping is 7.99 ... */
export const SHIPPING_CENTS: Cents = 799;
/** ... free (0) when the subtotal is above 100, or the cart is empty. */
export const FREE_SHIPPING_ABOVE_CENTS: Cents = 10_000;

export interface PricedLine {
  priceCents: Cents;
  qty: number;
}

export interface OrderTotals {
  itemsCents: Cents;
  taxCents: Cents;
  shippingCents: Cents;
  totalCents: Cents;
}

/** Cart subtotal: sum of quantity times price (spec section 9), exact in cents. */
export function subtotalCents(lines: readonly PricedLine[]): Cents {
  let sum = 0;
  for (const line of lines) {
    if (!Number.isInteger(line.priceCents) || !Number.isInteger(line.qty)) {
      throw new RangeError('Prices and quantities must be whole numbers of cents and units');
    }
    sum += line.priceCents * line.qty;
  }
  return sum;
}

/** Tax in cents, rounded once, half up (15% of 33 cents = 4.95 -> 5). */
export function taxCents(itemsCents: Cents): Cents {
  return Math.round((itemsCents * TAX_RATE_PERCENT) / 100);
}

export function shippingCents(itemsCents: Cents): Cents {
  if (itemsCents <= 0) return 0;
  return itemsCents > FREE_SHIPPING_ABOVE_CENTS ? 0 : SHIPPING_CENTS;
}

/** The one pricing rule of the shop, used by the server to charge and by the web to display. */
export function priceOrder(lines: readonly PricedLine[]): OrderTotals {
  const itemsCents = subtotalCents(lines);
  const tax = taxCents(itemsCents);
  const shipping = shippingCents(itemsCents);
  return { itemsCents, taxCents: tax, shippingCents: shipping, totalCents: itemsCents + tax + shipping };
}

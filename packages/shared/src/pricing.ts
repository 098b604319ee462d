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

/**
 * A discount code's effect (issue 32): `percentage` (1-100, of the lines it applies to), `fixed`
 * (cents, off those lines, at most their subtotal) or `free_shipping`.
 */
export type DiscountKind = 'percentage' | 'fixed' | 'free_shipping';

export interface Discount {
  kind: DiscountKind;
  /** Percent for `percentage`, cents for `fixed`, 0 for `free_shipping`. */
  value: number;
}

export interface DiscountableLine extends PricedLine {
  /** The code applies to this line (its category or product is the code's, or the code is for everything). */
  eligible: boolean;
}

export interface DiscountedTotals extends OrderTotals {
  /** Taken off the items (spec `price` stays the subtotal before it): totalCents is what is owed. */
  discountCents: Cents;
  /** Each line's share of the discount, in the lines' order; they add up to discountCents. */
  lineDiscountCents: Cents[];
  /** The subtotal of the lines the discount applies to, before it. */
  eligibleCents: Cents;
}

/**
 * `totalCents` split over `weights` in proportion, in whole cents that add up to it: each share is
 * rounded down and the cents left go to the largest remainders (the first line on a tie).
 */
export function spreadCents(totalCents: Cents, weights: readonly Cents[]): Cents[] {
  const whole = weights.reduce((sum, w) => sum + w, 0);
  if (whole <= 0 || totalCents <= 0) return weights.map(() => 0);
  const shares = weights.map((w) => Math.floor((totalCents * w) / whole));
  let left = totalCents - shares.reduce((sum, s) => sum + s, 0);
  const byRemainder = weights
    .map((w, i) => ({ i, remainder: (totalCents * w) % whole }))
    .filter((r) => weights[r.i]! > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** What a discount takes off lines whose eligible subtotal is `eligibleCents` (never more than it). */
export function discountOff(discount: Discount, eligibleCents: Cents): Cents {
  if (eligibleCents <= 0) return 0;
  switch (discount.kind) {
    case 'percentage':
      return Math.min(eligibleCents, Math.round((eligibleCents * discount.value) / 100));
    case 'fixed':
      return Math.min(eligibleCents, discount.value);
    case 'free_shipping':
      return 0;
  }
}

/**
 * priceOrder with a discount code (issue 32), for the server to charge and the web to show: the
 * discount comes off the lines it applies to (spread over them in proportion, to the cent); tax is
 * 15% of the discounted subtotal; shipping is free above $100 of discounted subtotal, or with a
 * `free_shipping` code. Without a discount it is priceOrder exactly.
 */
export function priceDiscountedOrder(
  lines: readonly DiscountableLine[],
  discount?: Discount,
): DiscountedTotals {
  const itemsCents = subtotalCents(lines);
  const lineCents = lines.map((l) => l.priceCents * l.qty);
  const eligible = lineCents.map((cents, i) => (lines[i]!.eligible ? cents : 0));
  const eligibleCents = eligible.reduce((sum, c) => sum + c, 0);
  const discountCents = discount ? discountOff(discount, eligibleCents) : 0;
  const lineDiscountCents = spreadCents(discountCents, eligible);
  const discounted = itemsCents - discountCents;
  const tax = taxCents(discounted);
  // An empty cart ships nothing; a cart discounted to $0 still ships.
  const freeShipping = discount?.kind === 'free_shipping' && eligibleCents > 0;
  const ships = itemsCents > 0 && !freeShipping && discounted <= FREE_SHIPPING_ABOVE_CENTS;
  const shipping = ships ? SHIPPING_CENTS : 0;
  return {
    itemsCents,
    discountCents,
    lineDiscountCents,
    eligibleCents,
    taxCents: tax,
    shippingCents: shipping,
    totalCents: discounted + tax + shipping,
  };
}

/** A scheduled sale's price (issue 32): `percent` off, rounded half up to the cent, never below 0. */
export function salePriceCents(priceCents: Cents, percent: number): Cents {
  return Math.max(0, priceCents - Math.round((priceCents * percent) / 100));
}

/**
 * Money is integer cents everywhere inside the shop; the API speaks dollars with two decimals
 * (spec section 3: productPrice is a number). Convert only at the boundary.
 */
export type Cents = number;

/** 19.99 -> 1999. Rounds half away from zero once, so float noise (0.1 + 0.2) cannot leak in. */
export function toCents(dollars: number): Cents {
  if (!Number.isFinite(dollars)) throw new RangeError(`Not a finite amount: ${dollars}`);
  const sign = dollars < 0 ? -1 : 1;
  return sign * Math.round(Math.abs(dollars) * 100 + Number.EPSILON * 100);
}

/** 1999 -> 19.99 (a number, as the spec's JSON fields are numbers). */
export function toDollars(cents: Cents): number {
  if (!Number.isInteger(cents)) throw new RangeError(`Cents must be an integer: ${cents}`);
  return cents / 100;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 1999 -> "$19.99"; 123456 -> "$1,234.56". */
export function formatCents(cents: Cents): string {
  return usd.format(cents / 100);
}

/** 19.99 -> "$19.99" for values already in dollars (the spec's API fields). */
export function formatDollars(dollars: number): string {
  return usd.format(dollars);
}

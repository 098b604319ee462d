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

let usd: Intl.NumberFormat | undefined;

/** Intl's own answer, for the amounts the arithmetic below leaves to it (fractions of a cent, NaN, -0). */
function intlUsd(dollars: number): string {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usd.format(dollars);
}

/**
 * 1999 -> "$19.99"; 123456 -> "$1,234.56"; -500 -> "-$5.00": what Intl.NumberFormat('en-US', USD)
 * writes, by arithmetic. A page in the browser then creates no number format as it starts: the first
 * one loads the locale's data, which took 12 ms of the app's start on the benchmark machine (issue 10).
 */
export function formatCents(cents: Cents): string {
  if (!Number.isSafeInteger(cents) || Object.is(cents, -0)) return intlUsd(cents / 100);
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** 19.99 -> "$19.99" for values already in dollars (the spec's API fields). */
export function formatDollars(dollars: number): string {
  const cents = Math.round(dollars * 100);
  // Whole cents (every amount the shop has) by arithmetic; anything else as Intl rounds it.
  return cents / 100 === dollars ? formatCents(cents) : intlUsd(dollars);
}

import { describe, expect, it, vi } from 'vitest';
import { formatCents, formatDollars, toCents, toDollars } from './money.js';

describe('money', () => {
  it('converts dollars to integer cents without float noise', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0)).toBe(0);
    expect(toCents(-2.5)).toBe(-250);
  });

  it('refuses non-finite amounts', () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('converts cents back to dollars and refuses fractional cents', () => {
    expect(toDollars(1999)).toBe(19.99);
    expect(() => toDollars(1.5)).toThrow(RangeError);
  });

  it('formats USD with a dollar sign and two decimals', () => {
    expect(formatCents(1999)).toBe('$19.99');
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatDollars(7)).toBe('$7.00');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatCents(0)).toBe('$0.00');
  });

  it('writes every amount as Intl.NumberFormat does (en-US, USD), without creating one for whole cents', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const constructed = vi.spyOn(Intl, 'NumberFormat');
    const cents = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 123_456_789, 999_999_999_999];
    // And a deterministic spread of amounts in between, both signs.
    for (let i = 0, x = 7; i < 2000; i += 1) {
      x = (x * 48271) % 2147483647;
      cents.push(x % 10 ** (1 + (i % 10)));
    }
    for (const c of [...cents, ...cents.map((c) => -c).filter((c) => c !== 0)]) {
      expect(formatCents(c)).toBe(intl.format(c / 100));
      expect(formatDollars(c / 100)).toBe(intl.format(c / 100));
    }
    expect(constructed).not.toHaveBeenCalled();
    constructed.mockRestore();
    // What whole cents cannot say is left to Intl, as before: fractions of a cent, NaN, negative zero.
    for (const dollars of [1.005, 0.125, -2.675, Number.NaN, Number.POSITIVE_INFINITY, -0]) {
      expect(formatDollars(dollars)).toBe(intl.format(dollars));
    }
    expect(formatCents(12.5)).toBe(intl.format(0.125));
  });
});

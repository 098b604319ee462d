import { describe, expect, it } from 'vitest';
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
  });
});

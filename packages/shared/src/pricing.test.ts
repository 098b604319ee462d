import { describe, expect, it } from 'vitest';
import { priceOrder, shippingCents, subtotalCents, taxCents } from './pricing.js';

describe('priceOrder (spec section 9)', () => {
  it('charges 15% tax and 7.99 shipping on a small cart', () => {
    expect(priceOrder([{ priceCents: 1999, qty: 2 }])).toEqual({
      itemsCents: 3998,
      taxCents: 600, // 599.7 rounds once to 600
      shippingCents: 799,
      totalCents: 3998 + 600 + 799,
    });
  });

  it('ships free when the subtotal is above 100 dollars, not at exactly 100', () => {
    expect(shippingCents(10_001)).toBe(0);
    expect(shippingCents(10_000)).toBe(799);
    expect(priceOrder([{ priceCents: 5000, qty: 2 }]).shippingCents).toBe(799);
    expect(priceOrder([{ priceCents: 5001, qty: 2 }]).shippingCents).toBe(0);
  });

  it('charges nothing for an empty cart', () => {
    expect(priceOrder([])).toEqual({ itemsCents: 0, taxCents: 0, shippingCents: 0, totalCents: 0 });
  });

  it('stays exact where floating point dollars drift', () => {
    // 0.1 + 0.2 style drift: 3 x 19.99 is 59.97 exactly in cents.
    expect(subtotalCents([{ priceCents: 1999, qty: 3 }])).toBe(5997);
    expect(
      subtotalCents([
        { priceCents: 10, qty: 1 },
        { priceCents: 20, qty: 1 },
      ]),
    ).toBe(30);
  });

  it('rounds tax half up, once', () => {
    expect(taxCents(33)).toBe(5); // 4.95
    expect(taxCents(10)).toBe(2); // 1.5
    expect(taxCents(3)).toBe(0); // 0.45
  });

  it('refuses fractional cents or quantities', () => {
    expect(() => subtotalCents([{ priceCents: 19.5, qty: 1 }])).toThrow(RangeError);
    expect(() => subtotalCents([{ priceCents: 100, qty: 1.5 }])).toThrow(RangeError);
  });
});

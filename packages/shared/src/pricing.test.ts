import { describe, expect, it } from 'vitest';
import {
  type Discount,
  priceDiscountedOrder,
  priceOrder,
  salePriceCents,
  shippingCents,
  spreadCents,
  subtotalCents,
  taxCents,
} from './pricing.js';

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

describe('priceDiscountedOrder (issue 32)', () => {
  const line = (priceCents: number, qty: number, eligible = true) => ({ priceCents, qty, eligible });

  it('is priceOrder exactly without a discount', () => {
    const lines = [line(1999, 2), line(333, 3, false)];
    const plain = priceOrder(lines);
    const discounted = priceDiscountedOrder(lines);
    expect(discounted).toMatchObject({ ...plain, discountCents: 0, lineDiscountCents: [0, 0] });
  });

  // [lines, discount, discount cents, each line's share, tax, shipping, total]
  const cases: [string, ReturnType<typeof line>[], Discount, number, number[], number, number, number][] = [
    // 10% of 9.99 = 0.999 -> 1.00; tax 15% of 8.99 = 1.3485 -> 1.35.
    [
      '10% of a price that does not divide',
      [line(999, 1)],
      { kind: 'percentage', value: 10 },
      100,
      [100],
      135,
      799,
      999 - 100 + 135 + 799,
    ],
    // 15% of 3 x 19.99 = 59.97 -> 8.9955 -> 9.00; the other line is not the code's.
    [
      '15% of some lines only',
      [line(1999, 3), line(3333, 1, false)],
      { kind: 'percentage', value: 15 },
      900,
      [900, 0],
      1265,
      799,
      9330 - 900 + 1265 + 799,
    ],
    // $1.00 over three lines of $1.00: 33 + 33 + 34 cents, the first largest remainder first.
    [
      'a fixed dollar over three equal lines',
      [line(100, 1), line(100, 1), line(100, 1)],
      { kind: 'fixed', value: 100 },
      100,
      [34, 33, 33],
      30,
      799,
      300 - 100 + 30 + 799,
    ],
    // $10 over 7.00 and 3.00 x 2 (13.00): 5.38.., 4.61.. -> 538 and 462.
    [
      'a fixed amount in proportion',
      [line(700, 1), line(300, 2)],
      { kind: 'fixed', value: 1000 },
      1000,
      [538, 462],
      45,
      799,
      1300 - 1000 + 45 + 799,
    ],
    // More off than the lines cost: never below zero; shipping is still charged.
    ['more off than the lines cost', [line(250, 2)], { kind: 'fixed', value: 5000 }, 500, [500], 0, 799, 799],
    // $120 - 20% = $96: under $100 again, so shipping is charged.
    [
      'a discount that takes the subtotal under free shipping',
      [line(6000, 2)],
      { kind: 'percentage', value: 20 },
      2400,
      [2400],
      1440,
      799,
      12000 - 2400 + 1440 + 799,
    ],
    // Free shipping: nothing off the items.
    ['free shipping', [line(1234, 1)], { kind: 'free_shipping', value: 0 }, 0, [0], 185, 0, 1234 + 185],
    // 100% of an eligible line: the order still pays the rest and shipping.
    [
      'all of one line',
      [line(1500, 1), line(500, 1, false)],
      { kind: 'percentage', value: 100 },
      1500,
      [1500, 0],
      75,
      799,
      500 + 75 + 799,
    ],
  ];
  it.each(cases)('%s', (_name, lines, discount, off, shares, tax, shipping, total) => {
    const totals = priceDiscountedOrder(lines, discount);
    expect(totals.discountCents).toBe(off);
    expect(totals.lineDiscountCents).toEqual(shares);
    expect(totals.lineDiscountCents.reduce((a, b) => a + b, 0)).toBe(off);
    expect(totals.taxCents).toBe(tax);
    expect(totals.shippingCents).toBe(shipping);
    expect(totals.totalCents).toBe(total);
    expect(totals.totalCents).toBe(
      totals.itemsCents - totals.discountCents + totals.taxCents + totals.shippingCents,
    );
  });

  it('spreads any amount over any weights to the cent, never more than a line', () => {
    for (let seed = 1; seed < 200; seed += 1) {
      const weights = Array.from({ length: 1 + (seed % 7) }, (_, i) => ((seed * (i + 3) * 7919) % 5000) + 1);
      const whole = weights.reduce((a, b) => a + b, 0);
      const amount = (seed * 104_729) % (whole + 1);
      const shares = spreadCents(amount, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
      shares.forEach((share, i) => expect(share).toBeLessThanOrEqual(weights[i]!));
    }
  });

  it('prices a sale to the cent, half up, never below zero', () => {
    expect(salePriceCents(2499, 20)).toBe(1999);
    expect(salePriceCents(1999, 15)).toBe(1699); // 2.9985 off -> 3.00
    expect(salePriceCents(1, 50)).toBe(0); // 0.5 off -> 1 cent
    expect(salePriceCents(1000, 99)).toBe(10);
  });
});

import { describe, expect, it } from 'vitest';
import { makeTieredProduct } from '../../test/factories';
import {
  optionValueChoices,
  priceDifferenceText,
  selectedVariant,
  variantChoosing,
  variantWith,
} from './variants';

/**
 * Zelda II in tiers: Loose in both regions, Complete in box only in NTSC-U (sold out), New only in PAL.
 * There is no "Complete in box / PAL" and no "New / NTSC-U".
 */
function zelda() {
  const product = makeTieredProduct(
    [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 34.5, stockQuantity: 3 },
      { options: { Condition: 'Loose', Region: 'PAL' }, price: 30, stockQuantity: 1 },
      { options: { Condition: 'Complete in box', Region: 'NTSC-U' }, price: 134.5, stockQuantity: 0 },
      { options: { Condition: 'New', Region: 'PAL' }, price: 250, stockQuantity: 2 },
    ],
    {
      options: [
        { name: 'Condition', values: ['Loose', 'Complete in box', 'New', 'Graded'] },
        { name: 'Region', values: ['NTSC-U', 'PAL'] },
      ],
    },
  );
  const at = (index: number) => product.variants[index]!;
  const [looseUs, loosePal, boxedUs, newPal] = [at(0), at(1), at(2), at(3)];
  return { product, looseUs, loosePal, boxedUs, newPal };
}

describe('the variant a product page shows (issue 31)', () => {
  it("is the one the address names, else the default (first) one, also for another product's id", () => {
    const { product, looseUs, newPal } = zelda();
    expect(selectedVariant(product, newPal._id)).toBe(newPal);
    expect(selectedVariant(product, null)).toBe(looseUs);
    expect(selectedVariant(product, 'not-a-variant')).toBe(looseUs);
    expect(selectedVariant(product, zelda().newPal._id)).toBe(looseUs);
  });

  it('finds a combination of values only when that exact one exists', () => {
    const { product, loosePal } = zelda();
    expect(variantWith(product, { Condition: 'Loose', Region: 'PAL' })).toBe(loosePal);
    expect(variantWith(product, { Condition: 'Complete in box', Region: 'PAL' })).toBeUndefined();
  });
});

describe('choosing a value', () => {
  it('picks the variant with that value and the other current values', () => {
    const { product, looseUs, loosePal } = zelda();
    expect(variantChoosing(product, looseUs, 'Region', 'PAL')).toBe(loosePal);
  });

  it('picks that combination even when it is sold out (the page then refuses to add it)', () => {
    const { product, looseUs, boxedUs } = zelda();
    expect(variantChoosing(product, looseUs, 'Condition', 'Complete in box')).toBe(boxedUs);
  });

  it('picks the best existing variant having that value when the combination does not exist', () => {
    const { product, looseUs, loosePal, newPal } = zelda();
    // New exists only in PAL: the region follows.
    expect(variantChoosing(product, looseUs, 'Condition', 'New')).toBe(newPal);
    // From New / PAL to NTSC-U, which has no New: Loose (in stock) rather than Complete in box (sold out).
    expect(variantChoosing(product, newPal, 'Region', 'NTSC-U')).toBe(looseUs);
    expect(variantChoosing(product, loosePal, 'Condition', 'Graded')).toBeUndefined();
  });

  it('prefers a variant in stock over one sharing more of the current values, then the one sharing most', () => {
    const product = makeTieredProduct([
      { options: { Condition: 'Loose', Region: 'PAL', Label: 'Classic' }, price: 10, stockQuantity: 1 },
      { options: { Condition: 'New', Region: 'NTSC-U', Label: 'Black' }, price: 90, stockQuantity: 4 },
      { options: { Condition: 'New', Region: 'PAL', Label: 'Black' }, price: 60, stockQuantity: 0 },
      { options: { Condition: 'New', Region: 'PAL', Label: 'Gold' }, price: 70, stockQuantity: 2 },
    ]);
    const at = (index: number) => product.variants[index]!;
    // From Loose / PAL / Classic: New / PAL / Black shares PAL but is sold out; New / PAL / Gold shares PAL
    // too and is in stock, and New / NTSC-U / Black, also in stock, shares nothing.
    expect(variantChoosing(product, at(0), 'Condition', 'New')).toBe(at(3));
    const soldOutGold = {
      ...product,
      variants: product.variants.map((v, i) => (i === 3 ? { ...v, stockQuantity: 0 } : v)),
    };
    // Gold sold out too: the one in stock wins over those sharing PAL.
    expect(variantChoosing(soldOutGold, at(0), 'Condition', 'New')).toBe(soldOutGold.variants[1]);
  });
});

describe("each value's place in its radio group", () => {
  it('says whether it can be had with the other current values, and its price against the current one', () => {
    const { product, looseUs, boxedUs, newPal } = zelda();
    const condition = optionValueChoices(product, looseUs, 'Condition', [
      'Loose',
      'Complete in box',
      'New',
      'Graded',
    ]);
    expect(condition).toEqual([
      { value: 'Loose', status: 'available', variant: looseUs, difference: 0 },
      { value: 'Complete in box', status: 'sold-out', variant: boxedUs, difference: 10000 },
      { value: 'New', status: 'unavailable', variant: newPal, difference: 21550 },
      { value: 'Graded', status: 'unavailable', variant: undefined, difference: 0 },
    ]);
    const region = optionValueChoices(product, looseUs, 'Region', ['NTSC-U', 'PAL']);
    expect(region.map((c) => [c.value, c.status, c.difference])).toEqual([
      ['NTSC-U', 'available', 0],
      ['PAL', 'available', -450],
    ]);
  });

  it('writes a difference with its sign, and nothing for none', () => {
    expect(priceDifferenceText(10000)).toBe('+$100.00');
    expect(priceDifferenceText(-2000)).toBe('−$20.00');
    expect(priceDifferenceText(0)).toBe('');
  });
});

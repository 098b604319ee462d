import { describe, expect, it } from 'vitest';
import { makeProduct } from '../test/factories';
import { itemCondition, productOffers } from './productOffers';

const URL = 'https://shop.test/shop/retro-games/product/p1';

describe('productOffers (issue 31)', () => {
  it('is one Offer for a product sold in one form, with its SKU', () => {
    const product = makeProduct({ productPrice: 24.5, stockQuantity: 0 });
    expect(productOffers(product, URL)).toEqual({
      '@type': 'Offer',
      url: URL,
      sku: product.variants[0]!.sku,
      price: '24.50',
      priceCurrency: 'USD',
      availability: 'https://schema.org/OutOfStock',
    });
  });

  it('is one Offer per variant, with its title, address, price, availability and condition', () => {
    const variant = (
      id: string,
      Condition: string,
      Region: string,
      price: number,
      stockQuantity: number,
    ) => ({
      _id: id,
      sku: `SKU-${id}`,
      options: { Condition, Region },
      price,
      stockQuantity,
    });
    const product = makeProduct({
      productName: 'Super Mario 64',
      options: [
        { name: 'Condition', values: ['Loose', 'Complete in box', 'New'] },
        { name: 'Region', values: ['NTSC-U', 'PAL'] },
      ],
      variants: [
        variant('a', 'Loose', 'NTSC-U', 40, 2),
        variant('b', 'Complete in box', 'PAL', 125, 0),
        variant('c', 'New', 'NTSC-U', 300, 1),
      ],
    });
    expect(productOffers(product, URL)).toEqual([
      expect.objectContaining({
        url: URL,
        name: 'Super Mario 64 (Loose / NTSC-U)',
        sku: 'SKU-a',
        price: '40.00',
        availability: 'https://schema.org/InStock',
        itemCondition: 'https://schema.org/UsedCondition',
      }),
      expect.objectContaining({
        url: `${URL}?variant=b`,
        name: 'Super Mario 64 (Complete in box / PAL)',
        availability: 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/UsedCondition',
      }),
      expect.objectContaining({ price: '300.00', itemCondition: 'https://schema.org/NewCondition' }),
    ]);
  });

  it('has no condition for options that are not one', () => {
    const product = makeProduct({
      options: [{ name: 'Colour', values: ['Black', 'New Grey'] }],
      variants: [
        { _id: 'a', sku: 'A', options: { Colour: 'Black' }, price: 10, stockQuantity: 1 },
        { _id: 'b', sku: 'B', options: { Colour: 'New Grey' }, price: 10, stockQuantity: 1 },
      ],
    });
    const offers = productOffers(product, URL) as Record<string, unknown>[];
    expect(offers.map((o) => o.itemCondition)).toEqual([undefined, undefined]);
  });

  it('reads the usual condition names', () => {
    expect(
      [
        'New',
        'Sealed',
        'New (sealed)',
        'Brand new',
        'Like new',
        'Refurbished',
        'Loose',
        'Complete in box',
        'Graded',
      ].map((value) => itemCondition(value).replace('https://schema.org/', '')),
    ).toEqual([
      'NewCondition',
      'NewCondition',
      'NewCondition',
      'NewCondition',
      'UsedCondition',
      'RefurbishedCondition',
      'UsedCondition',
      'UsedCondition',
      'UsedCondition',
    ]);
  });
});

describe('productOffers during a sale (issue 32)', () => {
  it("offers each variant at its sale price, good until the sale's end date", () => {
    const product = makeProduct({
      options: [{ name: 'Condition', values: ['Loose', 'New'] }],
      variants: [
        {
          _id: 'a',
          sku: 'A',
          options: { Condition: 'Loose' },
          price: 30,
          compareAtPrice: 40,
          stockQuantity: 1,
        },
        {
          _id: 'b',
          sku: 'B',
          options: { Condition: 'New' },
          price: 75,
          compareAtPrice: 100,
          stockQuantity: 1,
        },
      ],
      productPrice: 30,
      compareAtPrice: 40,
      saleEndsAt: '2026-11-30T22:00:00.000Z',
    });
    const offers = productOffers(product, URL) as Record<string, unknown>[];
    expect(offers.map((o) => [o.price, o.priceValidUntil])).toEqual([
      ['30.00', '2026-11-30'],
      ['75.00', '2026-11-30'],
    ]);
  });

  it('has no priceValidUntil outside a sale', () => {
    const offer = productOffers(makeProduct({ productPrice: 40 }), URL) as Record<string, unknown>;
    expect(offer.price).toBe('40.00');
    expect(offer).not.toHaveProperty('priceValidUntil');
  });
});

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

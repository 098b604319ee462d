import { describe, expect, it } from 'vitest';
import { AddBalanceBody, CreateProductFields, DeliveryBody, UpdateProductFields } from './admin.js';

const valid = {
  productName: 'Neon Drift 64',
  productCategory: 'retro-games',
  productDescription: 'A racer.',
  productPrice: '19.99',
  stockQuantity: '3',
  productRating: '4.5',
  reviewCount: '12',
};

describe('CreateProductFields (multipart text fields)', () => {
  it('coerces numbers sent as text', () => {
    expect(CreateProductFields.parse(valid)).toMatchObject({
      productPrice: 19.99,
      stockQuantity: 3,
    });
  });

  it('treats an empty field as missing, never as 0', () => {
    const result = CreateProductFields.safeParse({ ...valid, productPrice: '  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Price is required');
  });

  it('refuses negative prices and fractional stock', () => {
    expect(CreateProductFields.safeParse({ ...valid, productPrice: '-1' }).success).toBe(false);
    expect(CreateProductFields.safeParse({ ...valid, productPrice: '1.999' }).success).toBe(false);
    expect(CreateProductFields.safeParse({ ...valid, stockQuantity: '1.5' }).success).toBe(false);
  });

  it('still accepts the spec rating and review count, or their absence, and never needs them (issue 14)', () => {
    expect(
      CreateProductFields.safeParse({ ...valid, productRating: '5.1', reviewCount: 'abc' }).success,
    ).toBe(true);
    const { productRating: _rating, reviewCount: _count, ...withoutThem } = valid;
    expect(CreateProductFields.safeParse(withoutThem).success).toBe(true);
  });
});

describe('UpdateProductFields', () => {
  it('accepts stock alone and refuses an empty update', () => {
    expect(UpdateProductFields.parse({ stockQuantity: '7' })).toEqual({ stockQuantity: 7 });
    expect(UpdateProductFields.safeParse({}).success).toBe(false);
  });
});

describe('DeliveryBody and AddBalanceBody', () => {
  it('accepts only isDelivered true and positive amounts', () => {
    expect(DeliveryBody.safeParse({ isDelivered: false }).success).toBe(false);
    expect(DeliveryBody.safeParse({ isDelivered: true }).success).toBe(true);
    expect(AddBalanceBody.safeParse({ amount: 0 }).success).toBe(false);
    expect(AddBalanceBody.safeParse({ amount: '5' }).success).toBe(false);
    expect(AddBalanceBody.safeParse({ amount: 5 }).success).toBe(true);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { makeProduct } from '../../test/factories';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { addItem } from './addItem';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('addItem', () => {
  it('clamps the quantity to the stock the server reports now', async () => {
    const product = makeProduct({ stockQuantity: 2, productPrice: 9.99 });
    stubFetch(() => jsonResponse(product));
    const store = makeStore();
    await store.dispatch(addItem({ productId: product._id, qty: 5 })).unwrap();
    expect(store.getState().cart.cartItems[0]).toMatchObject({ qty: 2, countInStock: 2, price: 9.99 });
  });

  it('refuses a product that sold out meanwhile, logging it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const product = makeProduct({ productName: 'Catan', stockQuantity: 0 });
    stubFetch(() => jsonResponse(product));
    const store = makeStore();
    const result = await store.dispatch(addItem({ productId: product._id, qty: 1 }));
    expect(result.meta.requestStatus).toBe('rejected');
    expect(store.getState().cart.cartItems).toEqual([]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('Catan is out of stock'));
  });
});

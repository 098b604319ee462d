import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { initialCartState } from '../../app/cartSlice';
import { makeCartItem, makeProduct, makeTieredProduct } from '../../test/factories';
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

describe('addItem of a variant (issue 31)', () => {
  const zelda = () =>
    makeTieredProduct(
      [
        { options: { Condition: 'Loose', Region: 'NTSC-U' }, price: 34.5, stockQuantity: 3 },
        { options: { Condition: 'Complete in box', Region: 'PAL' }, price: 150, stockQuantity: 1 },
        { options: { Condition: 'New', Region: 'PAL' }, price: 250, stockQuantity: 0 },
      ],
      { productName: 'Zelda II' },
    );

  it("takes the chosen variant's price, stock and title, read again from the server", async () => {
    const product = zelda();
    const boxed = product.variants[1]!;
    stubFetch(() => jsonResponse(product));
    const store = makeStore();
    await store.dispatch(addItem({ productId: product._id, qty: 4, variantId: boxed._id })).unwrap();
    expect(store.getState().cart.cartItems).toEqual([
      {
        product: product._id,
        variant: boxed._id,
        variantTitle: 'Complete in box / PAL',
        name: 'Zelda II',
        image: product.productImage[0],
        price: 150,
        countInStock: 1,
        qty: 1,
      },
    ]);
  });

  it('refuses a variant sold out meanwhile, and one the product no longer has', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const product = zelda();
    stubFetch(() => jsonResponse(product));
    const store = makeStore();
    const soldOut = await store.dispatch(
      addItem({ productId: product._id, qty: 1, variantId: product.variants[2]!._id }),
    );
    expect(soldOut.meta.requestStatus).toBe('rejected');
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('Zelda II (New / PAL) is out of stock'));
    const gone = await store.dispatch(
      addItem({ productId: product._id, qty: 1, variantId: '00000000-0000-4000-8000-00000000dead' }),
    );
    expect(gone.meta.requestStatus).toBe('rejected');
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('This version of Zelda II is no longer sold'),
    );
    expect(store.getState().cart.cartItems).toEqual([]);
  });

  it('turns a line stored before variants into its default variant when that is added again', async () => {
    const product = zelda();
    const loose = product.variants[0]!;
    stubFetch(() => jsonResponse(product));
    const old = makeCartItem({ product: product._id, name: 'Zelda II', price: 30, qty: 2 });
    const store = makeStore({ cart: { ...initialCartState, cartItems: [old] } });
    await store.dispatch(addItem({ productId: product._id, qty: 1, variantId: loose._id })).unwrap();
    expect(store.getState().cart.cartItems).toEqual([
      expect.objectContaining({ variant: loose._id, variantTitle: 'Loose / NTSC-U', price: 34.5, qty: 1 }),
    ]);
  });

  it('keeps lines of a product sold in one form without a variant, as before', async () => {
    const product = makeProduct({ stockQuantity: 2 });
    stubFetch(() => jsonResponse(product));
    const store = makeStore();
    await store.dispatch(addItem({ productId: product._id, qty: 1 })).unwrap();
    expect(Object.keys(store.getState().cart.cartItems[0]!)).not.toContain('variant');
  });
});

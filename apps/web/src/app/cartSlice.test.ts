import { describe, expect, it } from 'vitest';
import { makeCartItem } from '../test/factories';
import {
  addToCart,
  cartSlice,
  clearCart,
  initialCartState,
  removeFromCart,
  resetShippingAddress,
  saveShippingAddress,
  savePaymentMethod,
  updateQty,
  type CartState,
} from './cartSlice';
import { cartSubtotalCents } from '../features/cart/cartTotals';
import { loggedIn, logout } from '../features/account/authSlice';
import { makeUser } from '../test/users';

const reduce = (state: CartState, ...actions: Parameters<typeof cartSlice.reducer>[1][]) =>
  actions.reduce(cartSlice.reducer, state);

describe('cart reducer', () => {
  it('starts empty with paypal as the payment method and no address', () => {
    expect(cartSlice.reducer(undefined, { type: 'init' })).toEqual({
      cartItems: [],
      shippingAddress: null,
      paymentMethod: 'paypal',
    });
  });

  it('appends a product that is not in the cart yet', () => {
    const a = makeCartItem();
    const b = makeCartItem();
    const state = reduce(initialCartState, addToCart(a), addToCart(b));
    expect(state.cartItems.map((i) => i.product)).toEqual([a.product, b.product]);
  });

  it('replaces the line of the same product instead of adding a second one, keeping its place', () => {
    const a = makeCartItem({ qty: 1, price: 10 });
    const b = makeCartItem();
    const state = reduce(
      initialCartState,
      addToCart(a),
      addToCart(b),
      addToCart({ ...a, qty: 3, price: 12.5 }),
    );
    expect(state.cartItems).toHaveLength(2);
    expect(state.cartItems[0]).toEqual({ ...a, qty: 3, price: 12.5 });
  });

  it('clamps the quantity to 1..countInStock', () => {
    const tooMany = makeCartItem({ qty: 9, countInStock: 4 });
    const tooFew = makeCartItem({ qty: 0, countInStock: 4 });
    const state = reduce(initialCartState, addToCart(tooMany), addToCart(tooFew));
    expect(state.cartItems.map((i) => i.qty)).toEqual([4, 1]);
  });

  it('does not add a product that has no stock', () => {
    const state = reduce(initialCartState, addToCart(makeCartItem({ countInStock: 0 })));
    expect(state.cartItems).toEqual([]);
  });

  it('updates a quantity within the stock', () => {
    const a = makeCartItem({ countInStock: 3 });
    let state = reduce(initialCartState, addToCart(a), updateQty({ product: a.product, qty: 2 }));
    expect(state.cartItems[0]?.qty).toBe(2);
    state = reduce(state, updateQty({ product: a.product, qty: 7 }));
    expect(state.cartItems[0]?.qty).toBe(3);
  });

  it('removes a line by product and clears the cart', () => {
    const a = makeCartItem();
    const b = makeCartItem();
    const state = reduce(initialCartState, addToCart(a), addToCart(b), removeFromCart(a.product));
    expect(state.cartItems.map((i) => i.product)).toEqual([b.product]);
    expect(reduce(state, clearCart()).cartItems).toEqual([]);
  });

  it('saves and resets the shipping address and saves the payment method', () => {
    const address = { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' };
    let state = reduce(initialCartState, saveShippingAddress(address), savePaymentMethod('gift'));
    expect(state.shippingAddress).toEqual(address);
    expect(state.paymentMethod).toBe('gift');
    state = reduce(state, resetShippingAddress());
    expect(state.shippingAddress).toBeNull();
  });

  it('keeps only plain data, so the persisted cart survives a JSON round trip', () => {
    const state = reduce(initialCartState, addToCart(makeCartItem()), savePaymentMethod('gift'));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(Object.keys(state).sort()).toEqual(['cartItems', 'paymentMethod', 'shippingAddress']);
    expect(Object.keys(state.cartItems[0]!).sort()).toEqual(
      ['countInStock', 'image', 'name', 'price', 'product', 'qty'].sort(),
    );
  });
});

describe('cart on sign out and login (issue 30)', () => {
  const address = { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' };
  const shopped = (item = makeCartItem()) =>
    reduce(initialCartState, addToCart(item), saveShippingAddress(address), savePaymentMethod('gift'));

  it('forgets the address and the payment method on Sign Out, and keeps the items', () => {
    const item = makeCartItem();
    const state = reduce(shopped(item), logout());
    expect(state).toEqual({ cartItems: [item], shippingAddress: null, paymentMethod: 'paypal' });
  });

  it("starts a new login without the address another person left (the account's own is filled in at checkout)", () => {
    const item = makeCartItem();
    const state = reduce(shopped(item), loggedIn(makeUser()));
    expect(state).toEqual({ cartItems: [item], shippingAddress: null, paymentMethod: 'paypal' });
  });

  it('forgets them too when the server ended the session', () => {
    const item = makeCartItem();
    expect(reduce(shopped(item), logout('ACCOUNT_DELETED'))).toEqual({
      cartItems: [item],
      shippingAddress: null,
      paymentMethod: 'paypal',
    });
  });
});

describe('cart subtotal', () => {
  it('sums quantity times price exactly in cents', () => {
    const items = [makeCartItem({ price: 19.99, qty: 3 }), makeCartItem({ price: 0.1, qty: 3 })];
    // 59.97 + 0.30: float arithmetic would give 60.269999...
    expect(cartSubtotalCents(items)).toBe(6027);
  });
});

describe('cart lines of variants (issue 31)', () => {
  const zelda = makeCartItem({ name: 'Zelda II' });
  const loose = { ...zelda, variant: 'v-loose', variantTitle: 'Loose', price: 34.5, countInStock: 3 };
  const boxed = {
    ...zelda,
    variant: 'v-boxed',
    variantTitle: 'Complete in box',
    price: 134.5,
    countInStock: 1,
  };

  it('keeps two tiers of one game as two lines; adding a tier again replaces its own line', () => {
    const state = reduce(
      initialCartState,
      addToCart(loose),
      addToCart(boxed),
      addToCart({ ...loose, qty: 2 }),
    );
    expect(state.cartItems).toEqual([{ ...loose, qty: 2 }, boxed]);
  });

  it('changes the quantity of one tier within its own stock, and removes one tier', () => {
    let state = reduce(
      initialCartState,
      addToCart(loose),
      addToCart(boxed),
      updateQty({ product: zelda.product, variant: 'v-boxed', qty: 5 }),
      updateQty({ product: zelda.product, variant: 'v-loose', qty: 3 }),
    );
    expect(state.cartItems.map((i) => [i.variant, i.qty])).toEqual([
      ['v-loose', 3],
      ['v-boxed', 1],
    ]);
    state = reduce(state, removeFromCart({ product: zelda.product, variant: 'v-loose' }));
    expect(state.cartItems).toEqual([boxed]);
    // A bare product id is the line without a variant: the boxed one stays.
    expect(reduce(state, removeFromCart(zelda.product)).cartItems).toEqual([boxed]);
  });

  it("takes a line stored without a variant as the default one's when the adder names it", () => {
    const stored = { ...zelda, qty: 2 };
    // Without knowing the default: another line, as for any other variant.
    expect(reduce(initialCartState, addToCart(stored), addToCart(loose)).cartItems).toHaveLength(2);
    // Loose is the default: the stored line becomes the loose one, in its place.
    const state = reduce(initialCartState, addToCart(stored), addToCart(boxed), addToCart(loose, 'v-loose'));
    expect(state.cartItems).toEqual([loose, boxed]);
  });
});

import { describe, expect, it } from 'vitest';
import { makeCartItem } from '../test/factories';
import {
  addToCart,
  cartSlice,
  clearCart,
  initialCartState,
  removeDiscountCode,
  removeFromCart,
  resetShippingAddress,
  saveDiscountCode,
  saveShippingAddress,
  savePaymentMethod,
  selectCartCount,
  selectCartItems,
  updateQty,
  type CartState,
} from './cartSlice';
import { cartSubtotalCents } from '../features/cart/cartTotals';
import { loggedIn, logout, setCredentials } from '../features/account/authSlice';
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

/** `value` and everything in it frozen: a reducer that wrote to it would throw (tests run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('cart actions', () => {
  it('keep their action types and the default variant in meta', () => {
    expect(
      [
        addToCart,
        updateQty,
        removeFromCart,
        clearCart,
        saveShippingAddress,
        resetShippingAddress,
        savePaymentMethod,
        saveDiscountCode,
        removeDiscountCode,
      ].map((a) => a.type),
    ).toEqual([
      'cart/addToCart',
      'cart/updateQty',
      'cart/removeFromCart',
      'cart/clearCart',
      'cart/saveShippingAddress',
      'cart/resetShippingAddress',
      'cart/savePaymentMethod',
      'cart/saveDiscountCode',
      'cart/removeDiscountCode',
    ]);
    const item = makeCartItem();
    expect(addToCart(item, 'v-loose')).toEqual({
      type: 'cart/addToCart',
      payload: item,
      meta: { defaultVariant: 'v-loose' },
    });
    expect(cartSlice.reducerPath).toBe('cart');
    expect(cartSlice.actions.addToCart).toBe(addToCart);
  });
});

describe('cart reducer never changes the state it is given', () => {
  const address = { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' };
  const a = makeCartItem({ qty: 1, countInStock: 5 });
  const b = makeCartItem({ qty: 2, countInStock: 5 });
  /** A cart with two lines, an address, gift card payment and a code, frozen. */
  const full = (): CartState =>
    deepFreeze({
      cartItems: [{ ...a }, { ...b }],
      shippingAddress: { ...address },
      paymentMethod: 'gift',
      discountCode: 'RETRO10',
    });

  it('adds a line to a new list and replaces a line with a new one', () => {
    const before = full();
    const added = makeCartItem();
    const appended = cartSlice.reducer(before, addToCart(added));
    expect(appended.cartItems).toEqual([a, b, added]);
    expect(appended.cartItems).not.toBe(before.cartItems);
    const replaced = cartSlice.reducer(before, addToCart({ ...b, qty: 4 }));
    expect(replaced.cartItems).toEqual([a, { ...b, qty: 4 }]);
    expect(replaced.cartItems[0]).toBe(before.cartItems[0]);
    expect(before.cartItems).toEqual([a, b]);
  });

  it('changes a quantity in a new line, leaving the other lines as they were', () => {
    const before = full();
    const after = cartSlice.reducer(before, updateQty({ product: b.product, qty: 3 }));
    expect(after.cartItems.map((i) => i.qty)).toEqual([1, 3]);
    expect(after.cartItems[0]).toBe(before.cartItems[0]);
    expect(before.cartItems[1]?.qty).toBe(2);
  });

  it('removes a line, clears the cart and its code, and keeps the address and payment method', () => {
    const before = full();
    expect(cartSlice.reducer(before, removeFromCart(a.product)).cartItems).toEqual([b]);
    const cleared = cartSlice.reducer(before, clearCart());
    expect(cleared).toEqual({ cartItems: [], shippingAddress: address, paymentMethod: 'gift' });
    expect('discountCode' in cleared).toBe(false);
    expect(before.cartItems).toHaveLength(2);
    expect(before.discountCode).toBe('RETRO10');
  });

  it('saves and resets the address and saves the payment method', () => {
    const before = full();
    const other = { ...address, city: 'Fresno' };
    expect(cartSlice.reducer(before, saveShippingAddress(other)).shippingAddress).toEqual(other);
    expect(cartSlice.reducer(before, resetShippingAddress()).shippingAddress).toBeNull();
    expect(cartSlice.reducer(before, savePaymentMethod('paypal')).paymentMethod).toBe('paypal');
    expect(before).toEqual({
      cartItems: [a, b],
      shippingAddress: address,
      paymentMethod: 'gift',
      discountCode: 'RETRO10',
    });
  });

  it('saves a discount code and removes it, the key gone rather than left undefined', () => {
    const before = full();
    expect(cartSlice.reducer(before, saveDiscountCode('SPRING5')).discountCode).toBe('SPRING5');
    const removed = cartSlice.reducer(before, removeDiscountCode());
    expect(Object.keys(removed).sort()).toEqual(['cartItems', 'paymentMethod', 'shippingAddress']);
    expect(before.discountCode).toBe('RETRO10');
  });

  it('forgets the address, payment method and code on Sign Out and login without touching the old state', () => {
    for (const action of [logout(), logout('SESSION_EXPIRED'), loggedIn(makeUser())]) {
      const before = full();
      const after = cartSlice.reducer(before, action);
      expect(after).toEqual({ cartItems: [a, b], shippingAddress: null, paymentMethod: 'paypal' });
      expect('discountCode' in after).toBe(false);
      expect(after.cartItems).toBe(before.cartItems);
      expect(before.shippingAddress).toEqual(address);
    }
  });
});

describe('cart reducer gives back the same state when nothing changes', () => {
  it('for an action that is not its own, or that only refreshes the user info', () => {
    const state = deepFreeze(reduce(initialCartState, addToCart(makeCartItem()), savePaymentMethod('gift')));
    expect(cartSlice.reducer(state, { type: 'wishlist/somethingElse' })).toBe(state);
    // setCredentials is the same session (a new token): the checkout choices stay.
    expect(cartSlice.reducer(state, setCredentials(makeUser()))).toBe(state);
  });

  it('for an item without stock, a quantity already set, a line not in the cart and no code to remove', () => {
    const a = makeCartItem({ qty: 2, countInStock: 3 });
    const state = deepFreeze(reduce(initialCartState, addToCart(a)));
    expect(cartSlice.reducer(state, addToCart(makeCartItem({ countInStock: 0 })))).toBe(state);
    expect(cartSlice.reducer(state, updateQty({ product: a.product, qty: 2 }))).toBe(state);
    expect(cartSlice.reducer(state, updateQty({ product: a.product, qty: 9 }))).not.toBe(state);
    expect(cartSlice.reducer(state, updateQty({ product: 'not-in-cart', qty: 1 }))).toBe(state);
    expect(cartSlice.reducer(state, removeDiscountCode())).toBe(state);
    expect(cartSlice.reducer(state, savePaymentMethod('paypal'))).toBe(state);
    // Nothing of another person's to forget.
    expect(cartSlice.reducer(state, logout())).toBe(state);
  });
});

describe('cart selectors', () => {
  it('read the lines and the total quantity from the store state', () => {
    const cart = reduce(
      initialCartState,
      addToCart(makeCartItem({ qty: 2 })),
      addToCart(makeCartItem({ qty: 3 })),
    );
    expect(selectCartItems({ cart })).toBe(cart.cartItems);
    expect(selectCartCount({ cart })).toBe(5);
    expect(selectCartCount({ cart: initialCartState })).toBe(0);
  });
});

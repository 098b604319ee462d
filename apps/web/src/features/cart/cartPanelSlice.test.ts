import { describe, expect, it } from 'vitest';
import { cartPanelSlice, closeCart, openCart, selectIsCartOpen } from './cartPanelSlice';

describe('cart panel reducer', () => {
  it('starts closed', () => {
    expect(cartPanelSlice.reducer(undefined, { type: 'init' })).toEqual({ isOpen: false });
    expect(cartPanelSlice.reducerPath).toBe('cartPanel');
    expect([openCart.type, closeCart.type]).toEqual(['cartPanel/openCart', 'cartPanel/closeCart']);
  });

  it('opens and closes without changing the state it is given', () => {
    const closed = Object.freeze({ isOpen: false });
    const open = Object.freeze(cartPanelSlice.reducer(closed, openCart()));
    expect(selectIsCartOpen({ cartPanel: open })).toBe(true);
    expect(selectIsCartOpen({ cartPanel: cartPanelSlice.reducer(open, closeCart()) })).toBe(false);
    expect(closed.isOpen).toBe(false);
    expect(open.isOpen).toBe(true);
  });

  it('gives back the same state when nothing changes', () => {
    const open = Object.freeze({ isOpen: true });
    expect(cartPanelSlice.reducer(open, openCart())).toBe(open);
    expect(cartPanelSlice.reducer(open, { type: 'cart/clearCart' })).toBe(open);
    const closed = Object.freeze({ isOpen: false });
    expect(cartPanelSlice.reducer(closed, closeCart())).toBe(closed);
  });
});

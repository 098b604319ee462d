import { describe, expect, it, vi } from 'vitest';
import * as persistConstants from 'redux-persist';
import { makeCartItem } from '../test/factories';
import { addToCart } from './cartSlice';
import { openCart } from '../features/cart/cartPanelSlice';
import { catalogApi } from '../features/catalog/api';
import { persistConfig, startPersistence } from './persist';
import { selectSessionRestored } from './sessionSlice';
import { makeStore } from './store';

/** A store as main.tsx starts it, resolved once what the browser stored has been read back. */
async function startStore() {
  const store = makeStore();
  const persistor = await startPersistence(store);
  return { store, persistor };
}

describe('persistence (spec section 4)', () => {
  it('stores under key root, version 1, with a 5000 ms time-out, never the api cache', () => {
    expect(persistConfig.key).toBe('root');
    expect(persistConfig.version).toBe(1);
    expect(persistConfig.timeout).toBe(5000);
    expect(persistConfig.blacklist).toContain('api');
  });

  it("lets redux-persist's own actions through the serializable check", () => {
    // store.ts names them without importing the library (it loads later): they must be the same.
    const store = makeStore();
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const type of ['FLUSH', 'REHYDRATE', 'PAUSE', 'PERSIST', 'PURGE', 'REGISTER'] as const) {
        store.dispatch({ type: persistConstants[type], register: () => {} });
      }
      store.dispatch({ type: 'not/persist', register: () => {} });
      // Only the last action, which is not redux-persist's, is reported as non-serializable.
      expect(complaints).toHaveBeenCalledTimes(1);
    } finally {
      complaints.mockRestore();
    }
  });

  it('marks the session as being restored until the stored state is back', async () => {
    const store = makeStore();
    expect(selectSessionRestored(store.getState())).toBe(true);
    const started = startPersistence(store);
    expect(selectSessionRestored(store.getState())).toBe(false);
    const persistor = await started;
    expect(selectSessionRestored(store.getState())).toBe(true);
    persistor.pause();
  });

  it('writes the cart to localStorage as persist:root, without server data or the open panel', async () => {
    const { store, persistor } = await startStore();
    const item = makeCartItem({ qty: 2 });
    store.dispatch(addToCart(item));
    store.dispatch(openCart());
    // Something in the api slice, to prove it stays out of storage.
    store.dispatch(catalogApi.util.upsertQueryData('getProduct', 'x', {} as never));
    await persistor.flush();

    const raw = localStorage.getItem('persist:root');
    expect(raw).not.toBeNull();
    const stored = JSON.parse(raw!) as Record<string, string>;
    expect(Object.keys(stored)).not.toContain('api');
    expect(Object.keys(stored)).not.toContain('cartPanel');
    expect(JSON.parse(stored.cart!)).toMatchObject({ cartItems: [item], paymentMethod: 'paypal' });
    expect(JSON.parse(stored._persist!)).toMatchObject({ version: 1 });
    persistor.pause();
  });

  it('restores the cart after a reload', async () => {
    const first = await startStore();
    const item = makeCartItem();
    first.store.dispatch(addToCart(item));
    first.store.dispatch(openCart());
    await first.persistor.flush();
    first.persistor.pause();

    const { store: second } = await startStore();
    expect(second.getState().cart.cartItems).toEqual([item]);
    expect(second.getState().cartPanel.isOpen).toBe(false);
  });
});

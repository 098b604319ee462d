import { beforeAll, describe, expect, it } from 'vitest';
import { persistStore, type Persistor } from 'redux-persist';
import { makeCartItem } from '../test/factories';
import { addToCart } from '../features/cart/cartSlice';
import { openCart } from '../features/cart/cartPanelSlice';
import { catalogApi } from '../features/catalog/api';
import { makeStore, persistConfig, persistor as appPersistor } from './store';

/** A store as main.tsx starts it, resolved once rehydration is done (PersistGate waits for this). */
async function startStore() {
  const store = makeStore();
  let persistor!: Persistor;
  await new Promise<void>((resolve) => {
    persistor = persistStore(store, null, resolve);
  });
  return { store, persistor };
}

// The app's own store also persists to persist:root; keep it out of these tests.
beforeAll(() => appPersistor.pause());

describe('persistence (spec section 4)', () => {
  it('stores under key root, version 1, with a 5000 ms time-out, never the api cache', () => {
    expect(persistConfig.key).toBe('root');
    expect(persistConfig.version).toBe(1);
    expect(persistConfig.timeout).toBe(5000);
    expect(persistConfig.blacklist).toContain('api');
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

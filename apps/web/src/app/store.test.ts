import { describe, expect, it, vi } from 'vitest';
import { compose, type Middleware } from 'redux';
import * as persistConstants from 'redux-persist';
import { makeCartItem } from '../test/factories';
import { addToCart, removeFromCart, selectCartCount, updateQty } from './cartSlice';
import { openCart } from '../features/cart/cartPanelSlice';
import { catalogApi } from '../features/catalog/api';
import { persistConfig, startPersistence } from './persist';
import { selectSessionRestored } from './sessionSlice';
import { dynamicMiddleware, makeStore } from './store';

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

describe('a cart stored before variants (issue 31)', () => {
  /** persist:root as redux-persist wrote it before issue 31: lines without `variant` or `variantTitle`. */
  const OLD_LINE = {
    product: '00000000-0000-4000-8000-0000000a0001',
    name: 'Tetris',
    image: '/uploads/tetris.webp',
    price: 19.99,
    countInStock: 4,
    qty: 2,
  };
  function storeOldCart() {
    const cart = { cartItems: [OLD_LINE], shippingAddress: null, paymentMethod: 'paypal' };
    localStorage.setItem(
      'persist:root',
      JSON.stringify({
        cart: JSON.stringify(cart),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
  }

  it('loads as it was, and its lines can still be changed and removed', async () => {
    storeOldCart();
    const { store, persistor } = await startStore();
    expect(store.getState().cart.cartItems).toEqual([OLD_LINE]);
    expect(selectCartCount(store.getState())).toBe(2);

    store.dispatch(updateQty({ product: OLD_LINE.product, qty: 9 }));
    expect(store.getState().cart.cartItems[0]).toMatchObject({ qty: 4 });
    store.dispatch(
      addToCart(makeCartItem({ product: OLD_LINE.product, variant: 'v-boxed', variantTitle: 'Boxed' })),
    );
    expect(store.getState().cart.cartItems).toHaveLength(2);
    store.dispatch(removeFromCart({ product: OLD_LINE.product, variant: undefined }));
    expect(store.getState().cart.cartItems.map((i) => i.variant)).toEqual(['v-boxed']);
    persistor.pause();
  });
});

describe('the store (redux with what configureStore gave, issue 10)', () => {
  it("gives thunks the store's dispatch, state and extra argument, and answers what they return", async () => {
    const fetchFn = vi.fn<typeof fetch>();
    const store = makeStore(undefined, { fetch: fetchFn });
    const seen = store.dispatch((dispatch, getState, extra) => {
      dispatch(openCart());
      return { open: getState().cartPanel.isOpen, extra };
    });
    expect(seen).toEqual({ open: true, extra: { fetch: fetchFn } });
    expect(makeStore().dispatch((_dispatch, _getState, extra) => extra)).toEqual({});
    // An async thunk's promise is handed back as it is (RTK Query's and addItem's are).
    await expect(store.dispatch(async () => 'done')).resolves.toBe('done');
  });

  it('starts from the state it is given, each part left out at its initial value', () => {
    const item = makeCartItem();
    const store = makeStore({ cart: { cartItems: [item], shippingAddress: null, paymentMethod: 'gift' } });
    expect(store.getState().cart).toEqual({
      cartItems: [item],
      shippingAddress: null,
      paymentMethod: 'gift',
    });
    expect(store.getState().cartPanel).toEqual({ isOpen: false });
    expect(store.getState().auth).toEqual({ userInfo: null });
  });

  it('applies middleware added later to every store, those made before included, once per store', () => {
    const before = makeStore();
    const seenBy: unknown[] = [];
    const applied = vi.fn<Middleware>((api) => (next) => (action) => {
      if ((action as { type: string }).type === 'test/probe') seenBy.push(api.getState());
      return next(action);
    });
    dynamicMiddleware.addMiddleware(applied);
    dynamicMiddleware.addMiddleware(applied);
    const after = makeStore();
    before.dispatch({ type: 'test/probe' });
    after.dispatch({ type: 'test/probe' });
    before.dispatch({ type: 'test/probe' });
    expect(seenBy).toEqual([before.getState(), after.getState(), before.getState()]);
    expect(applied).toHaveBeenCalledTimes(2);
  });

  /** A store past its first action: RTK Query's middleware (this file imports the data layer) then tells the store it is there. */
  function startedStore() {
    const store = makeStore();
    store.dispatch({ type: 'test/start' });
    return store;
  }

  it("tells subscribers of RTK Query's batched actions once, at the next frame, and of others at once", async () => {
    const store = startedStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const batched = (type: string) => ({ type, meta: { RTK_autoBatch: true } });
    store.dispatch(batched('test/started'));
    store.dispatch(batched('test/answered'));
    expect(listener).not.toHaveBeenCalled();
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(listener).toHaveBeenCalledTimes(1);
    store.dispatch(openCart());
    expect(listener).toHaveBeenCalledTimes(2);
    // An ordinary action after a batched one tells at once; the frame then has nothing left to tell.
    store.dispatch(batched('test/started'));
    store.dispatch(removeFromCart('nothing'));
    expect(listener).toHaveBeenCalledTimes(3);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('stops telling a subscriber that unsubscribed, batched or not', async () => {
    const store = startedStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.dispatch({ type: 'test/started', meta: { RTK_autoBatch: true } });
    unsubscribe();
    await new Promise((resolve) => requestAnimationFrame(resolve));
    store.dispatch(openCart());
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('development checks (in development and tests only)', () => {
  it('refuses state changed outside a reducer', () => {
    const store = makeStore();
    (store.getState().cartPanel as { isOpen: boolean }).isOpen = true;
    expect(() => store.dispatch(openCart())).toThrow(/state mutation was detected between dispatches/);
  });

  it('warns of an action creator dispatched in place of its action', () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      makeStore().dispatch(openCart as never);
      expect(warnings).toHaveBeenCalledWith(expect.stringContaining('cartPanel/openCart'));
    } finally {
      warnings.mockRestore();
    }
  });

  it('reports a value that is not plain data in an action', () => {
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      makeStore().dispatch({ type: 'test/withDate', payload: new Date(0) });
      expect(complaints).toHaveBeenCalledWith(
        expect.stringContaining('A non-serializable value was detected in an action'),
        expect.anything(),
        expect.anything(),
        expect.anything(),
        expect.anything(),
        expect.anything(),
      );
    } finally {
      complaints.mockRestore();
    }
  });

  it('uses the Redux DevTools extension when the browser has it', () => {
    const devToolsCompose = vi.fn(() => compose);
    vi.stubGlobal('__REDUX_DEVTOOLS_EXTENSION_COMPOSE__', devToolsCompose);
    try {
      const store = makeStore();
      expect(devToolsCompose).toHaveBeenCalledWith(expect.objectContaining({ trace: true }));
      store.dispatch(openCart());
      expect(store.getState().cartPanel.isOpen).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

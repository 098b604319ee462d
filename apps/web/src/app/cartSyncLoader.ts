import type { Middleware } from 'redux';
import { loggedIn, logout } from '../features/account/authSlice';
import { clearCart } from './cartSlice';
import { restored } from './sessionSlice';
import type { CartSync } from './cartSync';
import type { AppStore } from './store';

/**
 * Issue 34: starts the cart's sync with the account (app/cartSync.ts, a chunk of its own, loaded only
 * for a logged-in shopper: the first download stays under its 100 kB, issue 10) at login or
 * registration (the local cart is merged into the account's) and when a stored session is read back
 * (the account's cart is loaded; or, when the shopper changed the cart while the sync loaded, the
 * browser's is merged into it). At logout the sync stops, after sending a change not yet saved, and
 * the local cart is emptied: it stays on the server, for the next login. A visitor's cart is not touched.
 * The browser's store only (main.tsx, added with dynamicMiddleware right after the store is made): the
 * server's render and the tests' stores have none.
 */
export function cartSyncMiddleware(store: AppStore): Middleware {
  let sync: CartSync | undefined;
  /** Counts the sessions: a sync loaded for one that has ended since is not started. */
  let session = 0;

  function start(kind: 'merge' | 'reload') {
    const mine = ++session;
    // The cart as the session starts. One changed while the sync loads (Add to Cart tapped as the
    // page opened) is merged into the account's: read back, the account's would replace it, and the
    // tap would be lost.
    const cartAtStart = store.getState().cart.cartItems;
    void import('./cartSync')
      .then(({ createCartSync }) => {
        if (mine !== session || store.getState().auth.userInfo == null) return;
        sync?.stop();
        sync = createCartSync(store, { window });
        const changed = store.getState().cart.cartItems !== cartAtStart;
        return kind === 'merge' || changed ? sync.merge() : sync.reload();
      })
      .catch((error: unknown) => console.error('Could not load the cart of the account', error));
  }

  return () => (next) => (action) => {
    const wasLoggedIn = store.getState().auth.userInfo != null;
    if (logout.match(action) && wasLoggedIn) {
      session += 1;
      sync?.stop();
      sync = undefined;
      const result = next(action);
      store.dispatch(clearCart());
      return result;
    }
    const result = next(action);
    if (loggedIn.match(action)) start('merge');
    else if (restored.match(action) && store.getState().auth.userInfo != null && sync === undefined) {
      start('reload');
    }
    return result;
  };
}

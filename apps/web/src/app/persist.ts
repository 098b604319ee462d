import type { Reducer } from '@reduxjs/toolkit';
import { persistReducer, persistStore, type PersistConfig, type Persistor } from 'redux-persist';
// STACK.md: `redux-persist/lib/storage` breaks the production build; the ES build works.
import storage from 'redux-persist/es/storage';
import { PERSIST_KEY, PERSIST_TIMEOUT_MS, PERSIST_VERSION } from '@pixel-vault/shared';
import { API_REDUCER_PATH } from './apiCommon';
import { cartPanelSlice } from '../features/cart/cartPanelSlice';
import { restored, restoring, sessionSlice } from './sessionSlice';
import { wishlistSlice } from './wishlistSlice';
import { rootReducer, type AppStore, type RootState } from './store';

/** Spec section 4: key root (stored as persist:root), version 1, 5000 ms rehydration time-out. */
export const persistConfig: PersistConfig<RootState> = {
  key: PERSIST_KEY,
  version: PERSIST_VERSION,
  timeout: PERSIST_TIMEOUT_MS,
  storage,
  // Server data is cached by RTK Query and refetched; only what the user owns is persisted.
  // Whether the cart panel is open is UI state: a refresh must not reopen it; nor is the session flag.
  // The wishlist's hearts (issue 34) are read from the server for each session.
  blacklist: [
    API_REDUCER_PATH,
    cartPanelSlice.reducerPath,
    sessionSlice.reducerPath,
    wishlistSlice.reducerPath,
  ],
};

/**
 * Puts persistence under a running store and reads back what the browser stored (the logged-in user,
 * the cart). Resolves once that is in the store; from then on every change is written back.
 */
export function startPersistence(store: AppStore): Promise<Persistor> {
  store.dispatch(restoring());
  // The store's state gains `_persist` (redux-persist's bookkeeping), which the app's code never reads.
  const persisted = persistReducer(persistConfig, rootReducer as Reducer<RootState>);
  store.replaceReducer(persisted as unknown as Reducer<RootState>);
  return new Promise((resolve) => {
    const persistor = persistStore(store, null, () => {
      store.dispatch(restored());
      resolve(persistor);
    });
  });
}

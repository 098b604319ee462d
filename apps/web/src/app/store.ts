import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  persistReducer,
  persistStore,
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
  type PersistConfig,
} from 'redux-persist';
// STACK.md: `redux-persist/lib/storage` breaks the production build; the ES build works.
import storage from 'redux-persist/es/storage';
import { PERSIST_KEY, PERSIST_TIMEOUT_MS, PERSIST_VERSION } from '@pixel-vault/shared';
import { api } from './api';
import { authSlice, logout } from '../features/account/authSlice';
import { cartSlice } from '../features/cart/cartSlice';
import { cartPanelSlice } from '../features/cart/cartPanelSlice';

const rootReducer = combineReducers({
  auth: authSlice.reducer,
  cart: cartSlice.reducer,
  cartPanel: cartPanelSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Spec section 4: key root (stored as persist:root), version 1, 5000 ms rehydration time-out. */
export const persistConfig: PersistConfig<RootState> = {
  key: PERSIST_KEY,
  version: PERSIST_VERSION,
  timeout: PERSIST_TIMEOUT_MS,
  storage,
  // Server data is cached by RTK Query and refetched; only what the user owns is persisted.
  // Whether the cart panel is open is UI state: a refresh must not reopen it.
  blacklist: [api.reducerPath, cartPanelSlice.name],
};

export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: persistReducer(persistConfig, rootReducer),
    preloadedState: preloadedState as never,
    middleware: (getDefault) =>
      getDefault({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(api.middleware),
  });
  return store;
}

export const store = makeStore();
export const persistor = persistStore(store);
setupListeners(store.dispatch);

/** After logout, forget cached server data that belonged to the previous user. */
export function logoutAndReset(dispatch: AppDispatch) {
  dispatch(logout());
  dispatch(api.util.resetApiState());
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

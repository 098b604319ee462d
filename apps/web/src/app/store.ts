import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api, type StoreExtra } from './api';
import { authSlice, logout } from '../features/account/authSlice';
import { cartSlice } from '../features/cart/cartSlice';
import { cartPanelSlice } from '../features/cart/cartPanelSlice';
import { sessionSlice } from './sessionSlice';

export const rootReducer = combineReducers({
  auth: authSlice.reducer,
  cart: cartSlice.reducer,
  cartPanel: cartPanelSlice.reducer,
  session: sessionSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

// redux-persist's action types (its constants module, without the library): they carry functions.
const PERSIST_ACTIONS = ['FLUSH', 'REHYDRATE', 'PAUSE', 'PERSIST', 'PURGE', 'REGISTER'].map(
  (name) => `persist/${name}`,
);

/**
 * The store, without persistence: the browser adds it once the page is up (app/persist.ts, loaded on
 * demand), so the first download does not carry it and a page rendered on the server hydrates at once.
 */
export function makeStore(preloadedState?: Partial<RootState>, extra: StoreExtra = {}) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as never,
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: extra },
        serializableCheck: { ignoredActions: PERSIST_ACTIONS },
      }).concat(api.middleware),
  });
}

/** After logout, forget cached server data that belonged to the previous user. */
export function logoutAndReset(dispatch: AppDispatch) {
  dispatch(logout());
  dispatch(api.util.resetApiState());
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

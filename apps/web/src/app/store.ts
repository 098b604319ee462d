import {
  combineReducers,
  configureStore,
  createDynamicMiddleware,
  type Reducer,
  type UnknownAction,
  type WithSlice,
} from '@reduxjs/toolkit';
import type { StoreExtra } from './apiCommon';
import type { api } from './api';
import { authSlice } from '../features/account/authSlice';
import { cartSlice } from './cartSlice';
import { cartPanelSlice } from '../features/cart/cartPanelSlice';
import { sessionSlice } from './sessionSlice';

const staticReducers = {
  [authSlice.reducerPath]: authSlice.reducer,
  [cartSlice.reducerPath]: cartSlice.reducer,
  [cartPanelSlice.reducerPath]: cartPanelSlice.reducer,
  [sessionSlice.reducerPath]: sessionSlice.reducer,
};
type StaticState = { [K in keyof typeof staticReducers]: ReturnType<(typeof staticReducers)[K]> };

const injected: Record<string, Reducer> = {};
let combined: Reducer<StaticState> = combineReducers(staticReducers);

/**
 * The store's reducer. The data layer (RTK Query, app/api.ts) is injected when a page first imports
 * it, with its middleware: the home page's first download carries neither (issue 10). Redux's
 * combineReducers: RTK's combineSlices would add 0.3 kB of selector wrappers to that download.
 */
export function rootReducer(state: StaticState | undefined, action: UnknownAction): StaticState {
  return combined(state, action);
}

/** Adds a slice's reducer to every store (an injected slice's state appears with the next action). */
export function injectReducer(slice: { reducerPath: string; reducer: Reducer }) {
  injected[slice.reducerPath] = slice.reducer;
  combined = combineReducers({ ...staticReducers, ...injected }) as Reducer<StaticState>;
}

export const dynamicMiddleware = createDynamicMiddleware();

/**
 * The state as the app's code sees it: with the data layer's slice, which any code that reads it has
 * imported (and so injected) first.
 */
export type RootState = StaticState & WithSlice<typeof api>;

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
    reducer: rootReducer as Reducer<RootState>,
    preloadedState: preloadedState as never,
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: extra },
        serializableCheck: { ignoredActions: PERSIST_ACTIONS },
      }).concat(dynamicMiddleware.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

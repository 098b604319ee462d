import {
  combineReducers,
  compose,
  configureStore,
  type Middleware,
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

const added: Middleware[] = [];
let addedVersion = 0;

/**
 * Middleware added after stores exist (the data layer's, when a page first imports it), applied to
 * every store, those made before included, from its next action on.
 *
 * Not RTK's createDynamicMiddleware: it keeps each middleware as applied to each store in a Map of
 * its own that lives as long as the module, so every store ever made stays reachable. On the server,
 * which makes a store per rendered page, that kept about 13 kB per render for good (issue 28). Here
 * what is applied to a store is kept in the store's own middleware closure and goes with the store.
 */
export const dynamicMiddleware = {
  addMiddleware(...middlewares: Middleware[]) {
    const fresh = middlewares.filter((m) => !added.includes(m));
    if (fresh.length === 0) return;
    added.push(...fresh);
    addedVersion += 1;
  },
  middleware: ((store) => (next) => {
    // Each middleware is applied to this store once: RTK Query's keeps its per-store state in there.
    const applied = new Map<Middleware, ReturnType<Middleware>>();
    let appliedVersion = -1;
    let dispatch = next;
    return (action) => {
      if (appliedVersion !== addedVersion) {
        const chain = added.map((m) => {
          let withStore = applied.get(m);
          if (withStore === undefined) applied.set(m, (withStore = m(store)));
          return withStore;
        });
        dispatch = compose<typeof next>(...chain)(next);
        appliedVersion = addedVersion;
      }
      return dispatch(action);
    };
  }) as Middleware,
};

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

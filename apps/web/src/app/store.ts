import {
  applyMiddleware,
  combineReducers,
  compose,
  // Redux's createStore under the name that is not marked deprecated (the mark is there to point to
  // RTK's configureStore, which this file does without: see makeStore).
  legacy_createStore as createStore,
  type Dispatch,
  type Middleware,
  type Reducer,
  type Store,
  type StoreEnhancer,
  type UnknownAction,
} from 'redux';
import { withExtraArgument, type ThunkDispatch } from 'redux-thunk';
import type { WithSlice } from '@reduxjs/toolkit';
import type { StoreExtra } from './apiCommon';
import type { api } from './api';
import { authSlice } from '../features/account/authSlice';
import { cartSlice } from './cartSlice';
import { cartPanelSlice } from '../features/cart/cartPanelSlice';
import { sessionSlice } from './sessionSlice';
import { wishlistSlice } from './wishlistSlice';

/**
 * Redux Toolkit, for its development checks (makeStore), in development and tests only: undefined in the
 * production build, where the minifier drops this await with the branch. Not a static import: the bundler
 * places a module by the imports that use it before it drops dead code, so even an import used only under
 * `import.meta.env.DEV` put the whole toolkit (with immer and reselect, 9 kB gzipped) in the production
 * first download (issue 10). The data layer's chunk has it.
 */
const toolkit = import.meta.env.DEV ? await import('@reduxjs/toolkit') : undefined;

const staticReducers = {
  [authSlice.reducerPath]: authSlice.reducer,
  [cartSlice.reducerPath]: cartSlice.reducer,
  [cartPanelSlice.reducerPath]: cartPanelSlice.reducer,
  [sessionSlice.reducerPath]: sessionSlice.reducer,
  [wishlistSlice.reducerPath]: wishlistSlice.reducer,
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
const PERSIST_ACTIONS = [
  'persist/FLUSH',
  'persist/REHYDRATE',
  'persist/PAUSE',
  'persist/PERSIST',
  'persist/PURGE',
  'persist/REGISTER',
];

/** RTK Query marks the actions it dispatches often (a query started, answered) with this in `meta`. */
const SHOULD_AUTOBATCH = 'RTK_autoBatch';

/** Runs `notify` at the next frame (or after 100 ms in a hidden tab); 10 ms later where there are no frames. */
function queueNotification(notify: () => void) {
  if (typeof window === 'undefined' || !window.requestAnimationFrame) {
    setTimeout(notify, 10);
    return;
  }
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    // The 100 ms timer may fire after a test's window is gone (jsdom torn down): nothing to cancel then.
    if (typeof window !== 'undefined') window.cancelAnimationFrame(frame);
    clearTimeout(timer);
    notify();
  };
  const frame = window.requestAnimationFrame(once);
  const timer = setTimeout(once, 100);
}

/**
 * RTK's autoBatchEnhancer as configureStore added it (`raf`), without the toolkit: after an action RTK
 * Query marks, the store's subscribers (the UI's selectors) are told once, at the next frame or with the
 * next unmarked action, instead of after each. What it keeps is this store's own.
 */
const autoBatch: StoreEnhancer = (next) => (reducer, preloadedState) => {
  const store = next(reducer, preloadedState);
  let notifying = true;
  let notifyLater = false;
  let queued = false;
  const listeners = new Set<() => void>();
  const notifyListeners = () => {
    queued = false;
    if (!notifyLater) return;
    notifyLater = false;
    listeners.forEach((listener) => listener());
  };
  return {
    ...store,
    subscribe(listener: () => void) {
      const unsubscribe = store.subscribe(() => {
        if (notifying) listener();
      });
      listeners.add(listener);
      return () => {
        unsubscribe();
        listeners.delete(listener);
      };
    },
    dispatch(action) {
      try {
        notifying = !(action as { meta?: Record<string, unknown> } | undefined)?.meta?.[SHOULD_AUTOBATCH];
        // An unmarked action tells everyone now: a queued notification then has nothing left to tell.
        notifyLater = !notifying;
        if (notifyLater && !queued) {
          queued = true;
          queueNotification(notifyListeners);
        }
        return store.dispatch(action);
      } finally {
        notifying = true;
      }
    },
  };
};

/**
 * Redux DevTools, in development when the browser has the extension. RTK's configureStore added it in
 * production too; the shop has no use for it there.
 */
function composeEnhancers(): typeof compose {
  if (!import.meta.env.DEV) return compose;
  const devTools = (
    globalThis as { __REDUX_DEVTOOLS_EXTENSION_COMPOSE__?: (options: object) => typeof compose }
  ).__REDUX_DEVTOOLS_EXTENSION_COMPOSE__;
  return devTools ? devTools({ name: 'Pixel Vault', trace: true }) : compose;
}

/**
 * The development checks configureStore added, in the same places: that no action creator is dispatched
 * in place of its action, that no reducer writes to the state it is given (they are plain reducers, no
 * immer), and that actions and state are plain data (what the browser stores must be; redux-persist's own
 * actions carry functions).
 */
function withDevChecks(checks: NonNullable<typeof toolkit>, thunk: Middleware, rest: Middleware[]) {
  return [
    checks.createActionCreatorInvariantMiddleware(),
    checks.createImmutableStateInvariantMiddleware(),
    thunk,
    checks.createSerializableStateInvariantMiddleware({ ignoredActions: PERSIST_ACTIONS }),
    ...rest,
  ];
}

/** The store's dispatch: actions, and thunks (the data layer's among them) given the store's extra argument. */
export type AppDispatch = ThunkDispatch<RootState, StoreExtra, UnknownAction> & Dispatch<UnknownAction>;
export type AppStore = Store<RootState, UnknownAction> & { dispatch: AppDispatch };

/**
 * The store, without persistence: the browser adds it once the page is up (app/persist.ts, loaded on
 * demand), so the first download does not carry it and a page rendered on the server hydrates at once.
 *
 * Redux's createStore with what RTK's configureStore gave this app (thunks with an extra argument, the
 * auto-batching of RTK Query's notifications, the development checks), not configureStore itself: the
 * toolkit is one module, and importing any of it put all of it, with immer and reselect, in the home
 * page's first download (9 kB gzipped, issue 10), when only the data layer needs it.
 * The server makes one per rendered page: everything of a store is kept in the store (see
 * dynamicMiddleware).
 */
export function makeStore(preloadedState?: Partial<RootState>, extra: StoreExtra = {}): AppStore {
  const thunk = withExtraArgument<RootState, UnknownAction, StoreExtra>(extra);
  const middleware = toolkit
    ? withDevChecks(toolkit, thunk, [dynamicMiddleware.middleware])
    : [thunk, dynamicMiddleware.middleware];
  const enhancer = composeEnhancers()(applyMiddleware(...middleware), autoBatch) as StoreEnhancer<{
    dispatch: AppDispatch;
  }>;
  return createStore(
    rootReducer as Reducer<RootState, UnknownAction, Partial<RootState>>,
    preloadedState,
    enhancer,
  );
}

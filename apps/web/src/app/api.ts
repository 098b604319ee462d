import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { isNotAuthorizedMessage, isSessionEndCode } from '@pixel-vault/shared';
import type { Middleware } from '@reduxjs/toolkit';
import { logout, type AuthState } from '../features/account/authSlice';
import { API_REDUCER_PATH, type StoreExtra } from './apiCommon';
import { isServerAnswers } from './ssrState';
import { dynamicMiddleware, injectReducer } from './store';

export { errorMessage, listParams, type ListArgs, type StoreExtra } from './apiCommon';

function makeBaseQuery(baseUrl: string, fetchFn?: typeof fetch) {
  return fetchBaseQuery({
    baseUrl,
    fetchFn,
    prepareHeaders(headers, { getState }) {
      const token = (getState() as { auth: AuthState }).auth.userInfo?.token;
      if (token) headers.set('authorization', `Bearer ${token}`);
      return headers;
    },
  });
}

// Same-origin API. Absolute so that Node's fetch (component tests under jsdom) accepts it too.
const browserBaseQuery = makeBaseQuery(`${globalThis.location?.origin ?? ''}/`);
const serverBaseQueries = new WeakMap<typeof fetch, ReturnType<typeof makeBaseQuery>>();

/** The server's render: the same calls, handed to the app itself (the host is never contacted). */
function serverBaseQuery(fetchFn: typeof fetch) {
  let query = serverBaseQueries.get(fetchFn);
  if (!query) {
    query = makeBaseQuery('http://pixel-vault.invalid/', fetchFn);
    serverBaseQueries.set(fetchFn, query);
  }
  return query;
}

/**
 * The one place that reacts to 'Not authorized!' (spec sections 6 and 8): any call answered with it
 * logs the user out. The session is gone server-side (expired, revoked, user deleted); the answer's
 * code says which, for the login page to tell the person (issue 30).
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const fetchFn = (api.extra as StoreExtra | undefined)?.fetch;
  const result = await (fetchFn ? serverBaseQuery(fetchFn) : browserBaseQuery)(args, api, extra);
  const data = result.error?.data as { message?: unknown; code?: unknown } | undefined;
  if (result.error?.status === 401 && isNotAuthorizedMessage(data?.message)) {
    api.dispatch(logout(isSessionEndCode(data?.code) ? data.code : undefined));
  }
  return result;
};

/** Base RTK Query slice; every feature adds its endpoints with `api.injectEndpoints` in its own api.ts. */
export const api = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery,
  // A page rendered on the server hands its answers over (app/ssrState.ts): no second fetch. Only its
  // queries, mutations and provided tags are read back, which is what the server sends.
  extractRehydrationInfo: (action) => (isServerAnswers(action) ? (action.payload as never) : undefined),
  tagTypes: ['Product', 'Order', 'User', 'GiftCard', 'Review', 'Wishlist', 'Alert'],
  endpoints: () => ({}),
});

/** After a logout (asked for, or forced by 'Not authorized!'), forget what belonged to that user. */
const resetOnLogout: Middleware = (store) => (next) => (action) => {
  const result = next(action);
  if (logout.match(action)) store.dispatch(api.util.resetApiState());
  return result;
};

// The data layer joins the store when a page first needs it (store.ts): the home page's first
// download does without it.
injectReducer(api);
dynamicMiddleware.addMiddleware(api.middleware, resetOnLogout);

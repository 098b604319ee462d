import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { isNotAuthorizedMessage } from '@pixel-vault/shared';
import { logout, type AuthState } from '../features/account/authSlice';
import { isServerAnswers } from './ssrState';

/** What the data layer's thunks receive (the store's thunk extra argument). */
export interface StoreExtra {
  /** The server's render answers API calls in-process instead of over the network. */
  fetch?: typeof fetch;
}

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
 * logs the user out. The session is gone server-side (expired, revoked, user deleted).
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const fetchFn = (api.extra as StoreExtra | undefined)?.fetch;
  const result = await (fetchFn ? serverBaseQuery(fetchFn) : browserBaseQuery)(args, api, extra);
  const data = result.error?.data as { message?: unknown } | undefined;
  if (result.error?.status === 401 && isNotAuthorizedMessage(data?.message)) {
    api.dispatch(logout());
  }
  return result;
};

/** Base RTK Query slice; every feature adds its endpoints with `api.injectEndpoints` in its own api.ts. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  // A page rendered on the server hands its answers over (app/ssrState.ts): no second fetch. Only its
  // queries, mutations and provided tags are read back, which is what the server sends.
  extractRehydrationInfo: (action) => (isServerAnswers(action) ? (action.payload as never) : undefined),
  tagTypes: ['Product', 'Order', 'User', 'GiftCard'],
  endpoints: () => ({}),
});

/** A searchable, paged list call: what every list page of this app sends. */
export interface ListArgs {
  /** Search text, matched by the server. */
  q?: string;
  page?: number;
  limit?: number;
}

/**
 * Query string without empty values, so `{ q: '' }` and `{}` share one cache entry. It always names
 * a page: without one the server answers the spec's plain array of every item (docs/decisions/003),
 * and this app shows pages.
 */
export function listParams({ q, page, limit }: ListArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  const term = q?.trim();
  if (term) params.q = term;
  params.page = page && page > 1 ? page : 1;
  if (limit) params.limit = limit;
  return params;
}

/** Spec section 8: the displayed error is the server's message, else the client's network error message. */
export function errorMessage(error: unknown): string {
  if (!error || typeof error !== 'object') return 'Something went wrong';
  const e = error as { data?: unknown; error?: unknown; message?: unknown; status?: unknown };
  if (e.data && typeof e.data === 'object' && typeof (e.data as { message?: unknown }).message === 'string') {
    return (e.data as { message: string }).message;
  }
  if (typeof e.error === 'string') return e.error;
  if (typeof e.message === 'string') return e.message;
  return 'Something went wrong';
}

/**
 * What the data layer shares with code that must not load it (the first download of the home page):
 * the store's extra argument, list parameters, error messages.
 */

/** RTK Query's slice of the store. */
export const API_REDUCER_PATH = 'api';

/** What the data layer's thunks receive (the store's thunk extra argument). */
export interface StoreExtra {
  /** The server's render answers API calls in-process instead of over the network. */
  fetch?: typeof fetch;
}

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

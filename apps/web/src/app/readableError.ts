import { errorMessage } from './api';

export const NETWORK_ERROR_MESSAGE = 'Could not reach the shop. Please check your connection and try again.';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please wait a few minutes and try again.';

/**
 * The server's message when it gave one (spec section 8), else a sentence a person can act on instead
 * of the browser's "TypeError: Failed to fetch" (the password pages, trade-ins: people mid-task).
 */
export function readableError(error: unknown): string {
  const e = (error ?? {}) as { status?: unknown; originalStatus?: unknown; data?: unknown };
  if (e.status === 'FETCH_ERROR' || e.status === 'TIMEOUT_ERROR') return NETWORK_ERROR_MESSAGE;
  const hasMessage =
    typeof e.data === 'object' &&
    e.data !== null &&
    typeof (e.data as { message?: unknown }).message === 'string';
  if (!hasMessage && (e.status === 429 || e.originalStatus === 429)) return TOO_MANY_REQUESTS_MESSAGE;
  return errorMessage(error);
}

/** The HTTP status of a failed call, also when its body was not JSON. */
export function failedStatus(error: unknown): number | undefined {
  const e = (error ?? {}) as { status?: unknown; originalStatus?: unknown };
  if (typeof e.status === 'number') return e.status;
  return typeof e.originalStatus === 'number' ? e.originalStatus : undefined;
}

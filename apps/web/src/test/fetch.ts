import { vi } from 'vitest';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Replaces `fetch` at the edge: every request the app sends goes to `handler` (RTK Query passes a
 * Request). Undo with `vi.unstubAllGlobals()`.
 */
export function stubFetch(handler: (request: Request, url: URL) => Response | Promise<Response>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    return handler(request, new URL(request.url));
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The URLs of every call made so far, as path + query. */
export function calledUrls(mock: ReturnType<typeof stubFetch>): string[] {
  return mock.mock.calls.map(([input]) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname + url.search;
  });
}

import { expect, vi } from 'vitest';

/** Replaces fetch at the edge with one JSON answer; RTK Query calls it with a Request. */
export function stubFetchJson(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_request: Request) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The one Request the page sent. */
export function sentRequest(fetchMock: ReturnType<typeof stubFetchJson>): Request {
  expect(fetchMock).toHaveBeenCalledTimes(1);
  return fetchMock.mock.calls[0]![0];
}

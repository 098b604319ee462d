import { expect, vi } from 'vitest';
import type { UserInfo } from '@pixel-vault/shared';

/** A user info as the server answers it on login and registration. */
export function makeUserInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    _id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    isAdmin: false,
    createdAt: '2024-01-05T10:00:00.000Z',
    token: 'header.payload.signature',
    ...overrides,
  };
}

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

import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, errorMessage } from './api';
import { makeStore } from './store';
import { setCredentials } from '../features/account/authSlice';

const userInfo = {
  _id: '3f0c5f1e-8a1b-4c2d-9e3f-0a1b2c3d4e5f',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailVerified: true,
  token: 'header.payload.signature',
};

const probe = api.injectEndpoints({
  endpoints: (build) => ({ probe: build.query<unknown, void>({ query: () => 'api/probe' }) }),
});

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_req: Request) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('base API slice', () => {
  it('sends the stored token as a bearer token', async () => {
    const fetchMock = answer(200, { ok: true });
    const store = makeStore();
    store.dispatch(setCredentials(userInfo));
    await store.dispatch(probe.endpoints.probe.initiate());
    const request = fetchMock.mock.calls[0]![0];
    expect(request.headers.get('authorization')).toBe(`Bearer ${userInfo.token}`);
  });

  it("logs out when the server answers 401 'Not authorized!'", async () => {
    answer(401, { message: 'Not authorized!' });
    const store = makeStore();
    store.dispatch(setCredentials(userInfo));
    await store.dispatch(probe.endpoints.probe.initiate());
    expect(store.getState().auth.userInfo).toBeNull();
  });

  it("also logs out on the misspelled 'Not authroized!' the spec mentions", async () => {
    answer(401, { message: 'Not authroized!' });
    const store = makeStore();
    store.dispatch(setCredentials(userInfo));
    await store.dispatch(probe.endpoints.probe.initiate());
    expect(store.getState().auth.userInfo).toBeNull();
  });

  it('keeps the session on other errors, such as a wrong password 401 or a 403', async () => {
    const store = makeStore();
    store.dispatch(setCredentials(userInfo));
    answer(401, { message: 'Invalid email or password' });
    await store.dispatch(probe.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    answer(403, { message: 'Admin access only' });
    await store.dispatch(probe.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    expect(store.getState().auth.userInfo).toEqual(userInfo);
  });
});

describe('errorMessage (spec section 8)', () => {
  it("shows the server's message when there is one", () => {
    expect(
      errorMessage({ status: 409, data: { message: 'An account with this email already exists' } }),
    ).toBe('An account with this email already exists');
  });

  it("falls back to the client's network error message", () => {
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'TypeError: Failed to fetch',
    );
    expect(errorMessage(undefined)).toBe('Something went wrong');
  });
});

import type { Cart, CartLine } from '@pixel-vault/shared';
import type { UnknownAction } from 'redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loggedIn, logout } from '../features/account/authSlice';
import { selectCartNotices } from '../features/cart/cartPanelSlice';
import { makeCartItem } from '../test/factories';
import { jsonResponse } from '../test/fetch';
import { makeUser } from '../test/users';
import { addToCart, removeFromCart, updateQty } from './cartSlice';
import { restored } from './sessionSlice';
import { cartSyncMiddleware } from './cartSyncLoader';
import { createCartSync, fromServerLines, SAVE_DELAY_MS, toCartInput } from './cartSync';
import { makeStore, type AppStore } from './store';

function serverLine(overrides: Partial<CartLine> = {}): CartLine {
  return {
    product: 'p1',
    variant: 'v1',
    qty: 1,
    name: 'Tetris',
    image: '/img/tetris.webp',
    price: 10,
    countInStock: 5,
    addedPrice: 10,
    priceChanged: false,
    stockShort: false,
    ...overrides,
  };
}

const cartOf = (items: CartLine[], dropped: Cart['dropped'] = []): Cart => ({
  items,
  dropped,
  version: 1,
  updatedAt: '2026-11-27T03:00:00.000Z',
});

interface Call {
  method: string;
  path: string;
  body: unknown;
  keepalive: boolean;
  authorization: string | null;
}

/** A fake of the server's cart calls: records them and answers `answer(call)` (a Cart) or a status. */
function fakeServer(answer: (call: Call) => Cart | number) {
  const calls: Call[] = [];
  const fetchFn = vi.fn(async (path: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      method: init?.method ?? 'GET',
      path: String(path),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      keepalive: init?.keepalive === true,
      authorization: new Headers(init?.headers).get('authorization'),
    };
    calls.push(call);
    const reply = answer(call);
    return typeof reply === 'number' ? jsonResponse({ message: 'Nope' }, reply) : jsonResponse(reply);
  });
  return { calls, fetch: fetchFn as unknown as typeof fetch };
}

function loggedInStore(): AppStore {
  const store = makeStore();
  store.dispatch(loggedIn(makeUser({ token: 'T1' })));
  return store;
}

/** Lets queued promises and the fake fetch's answers run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('cart sync with the account', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends only product, variant and quantity, and keeps what the server says of each line', () => {
    const item = makeCartItem({ product: 'p1', qty: 2 });
    expect(toCartInput([item, { ...item, product: 'p2', variant: 'v2' }])).toEqual([
      { product: 'p1', qty: 2 },
      { product: 'p2', variant: 'v2', qty: 2 },
    ]);
    const [line] = fromServerLines([
      serverLine({ variantTitle: 'PAL', price: 12, addedPrice: 10, priceChanged: true, stockShort: true }),
    ]);
    expect(line).toEqual({
      product: 'p1',
      variant: 'v1',
      variantTitle: 'PAL',
      name: 'Tetris',
      image: '/img/tetris.webp',
      price: 12,
      countInStock: 5,
      qty: 1,
      addedPrice: 10,
      priceChanged: true,
      stockShort: true,
    });
  });

  it('merges the local cart at login and shows the server’s cart and the lines it dropped', async () => {
    const store = loggedInStore();
    store.dispatch(addToCart(makeCartItem({ product: 'p1', name: 'Local name', qty: 1 })));
    const server = fakeServer(() =>
      cartOf(
        [serverLine({ qty: 3 }), serverLine({ product: 'p2', variant: 'v2', name: 'Mario' })],
        [
          {
            product: 'p9',
            variant: null,
            reason: 'product_unavailable',
            message: 'Zelda II is no longer sold',
          },
        ],
      ),
    );
    const sync = createCartSync(store, { fetch: server.fetch });
    await sync.merge();
    expect(server.calls).toEqual([
      {
        method: 'POST',
        path: '/api/cart/merge',
        body: { items: [{ product: 'p1', qty: 1 }] },
        keepalive: true,
        authorization: 'Bearer T1',
      },
    ]);
    expect(store.getState().cart.cartItems.map((i) => [i.name, i.qty])).toEqual([
      ['Tetris', 3],
      ['Mario', 1],
    ]);
    expect(selectCartNotices(store.getState())).toEqual(['Zelda II is no longer sold']);
    // Showing the server's answer is not a change to save.
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(server.calls).toHaveLength(1);
    sync.stop();
  });

  it('merges again, never saving over the account’s cart, when the merge at login failed', async () => {
    const store = loggedInStore();
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    let fail = true;
    const server = fakeServer(() => (fail ? 503 : cartOf([serverLine({ qty: 2 })])));
    const sync = createCartSync(store, { fetch: server.fetch });
    await sync.merge();
    expect(store.getState().cart.cartItems.map((i) => i.qty)).toEqual([1]);
    fail = false;
    await sync.reload();
    expect(server.calls.map((c) => [c.method, c.path])).toEqual([
      ['POST', '/api/cart/merge'],
      ['POST', '/api/cart/merge'],
    ]);
    expect(store.getState().cart.cartItems.map((i) => i.qty)).toEqual([2]);
    sync.stop();
  });

  it('saves a burst of changes once, after they stop, with the last cart', async () => {
    const store = loggedInStore();
    const server = fakeServer((call) =>
      cartOf(
        ((call.body as { items?: { product: string; qty: number }[] })?.items ?? []).map((l) =>
          serverLine({ product: l.product, qty: l.qty }),
        ),
      ),
    );
    const sync = createCartSync(store, { fetch: server.fetch });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 100);
    store.dispatch(updateQty({ product: 'p1', qty: 2 }));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 100);
    store.dispatch(addToCart(makeCartItem({ product: 'p2', qty: 1 })));
    expect(server.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(server.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      [
        'PUT',
        '/api/cart',
        {
          items: [
            { product: 'p1', qty: 2 },
            { product: 'p2', qty: 1 },
          ],
        },
      ],
    ]);
    sync.stop();
  });

  it('does not show a save’s answer over a change made while it was on its way; the next save answers', async () => {
    const store = loggedInStore();
    const gate = { release: () => {} };
    const server = fakeServer((call) =>
      cartOf(
        ((call.body as { items: { product: string; qty: number }[] }).items ?? []).map((l) =>
          serverLine({ product: l.product, qty: l.qty, name: 'From server' }),
        ),
      ),
    );
    const slowFetch = (async (...args: Parameters<typeof fetch>) => {
      await new Promise<void>((resolve) => (gate.release = resolve));
      return server.fetch(...args);
    }) as typeof fetch;
    const sync = createCartSync(store, { fetch: slowFetch });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', name: 'Local', qty: 1 })));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    store.dispatch(removeFromCart({ product: 'p1' }));
    gate.release();
    await settle();
    expect(store.getState().cart.cartItems).toEqual([]);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    gate.release();
    await settle();
    expect(server.calls.map((c) => c.body)).toEqual([{ items: [{ product: 'p1', qty: 1 }] }, { items: [] }]);
    expect(store.getState().cart.cartItems).toEqual([]);
    sync.stop();
  });

  it('sends a change not saved yet as the page is hidden, surviving the page, and reloads when it is back', async () => {
    const store = loggedInStore();
    const server = fakeServer(() => cartOf([serverLine({ product: 'p7', name: 'From the laptop' })]));
    let visibility: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    const sync = createCartSync(store, { fetch: server.fetch, window });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(server.calls.map((c) => [c.method, c.keepalive])).toEqual([['PUT', true]]);
    await settle();
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(server.calls).toHaveLength(1);

    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(server.calls.map((c) => c.method)).toEqual(['PUT', 'GET']);
    expect(store.getState().cart.cartItems.map((i) => i.name)).toEqual(['From the laptop']);
    sync.stop();
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  it('keeps a change the server refused unsaved, and sends it instead of reading the cart back', async () => {
    const store = loggedInStore();
    let status = 500;
    const server = fakeServer(() => (status === 200 ? cartOf([serverLine()]) : status));
    const sync = createCartSync(store, { fetch: server.fetch });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    status = 200;
    await sync.reload();
    expect(server.calls.map((c) => c.method)).toEqual(['PUT', 'PUT']);
    sync.stop();
  });
});

describe('a session that ended on the server', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("logs out on 'Not authorized!', with its code, and sends nothing more with the dead token", async () => {
    const store = loggedInStore();
    const calls: string[] = [];
    const fetchFn = vi.fn(async (_path: RequestInfo | URL, init?: RequestInit) => {
      calls.push(init?.method ?? 'GET');
      return jsonResponse({ message: 'Not authorized!', code: 'SESSION_EXPIRED' }, 401);
    }) as unknown as typeof fetch;
    const sync = createCartSync(store, { fetch: fetchFn });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(store.getState().auth.userInfo).toBeNull();
    expect(store.getState().auth.sessionEnded).toBe('SESSION_EXPIRED');
    sync.stop();
    await sync.flush();
    expect(calls).toEqual(['PUT']);
  });

  it('keeps the session on a 401 that is not the session ending', async () => {
    const store = loggedInStore();
    const fetchFn = vi.fn(async () => jsonResponse({ message: 'Invalid email or password' }, 401));
    const sync = createCartSync(store, { fetch: fetchFn as unknown as typeof fetch });
    store.dispatch(addToCart(makeCartItem({ product: 'p1', qty: 1 })));
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(store.getState().auth.userInfo).not.toBeNull();
    sync.stop();
  });
});

describe('cart sync loader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('merges a change made while the sync loads (an early Add to Cart), instead of reading it away', async () => {
    vi.useRealTimers();
    // A page opened logged in: the account's cart (empty on the server) is read back once the sync's
    // chunk has loaded. The shopper taps Add to Cart before that.
    const store = loggedInStore();
    const server = fakeServer((call) =>
      call.method === 'GET' ? cartOf([]) : cartOf([serverLine({ product: 'p7', variant: 'v7' })]),
    );
    vi.stubGlobal('fetch', server.fetch);
    const middleware = cartSyncMiddleware(store);
    const next = (action: unknown) => store.dispatch(action as UnknownAction);
    const dispatch = middleware({ getState: store.getState, dispatch: store.dispatch })(next);
    dispatch(restored());
    dispatch(addToCart(makeCartItem({ product: 'p7', variant: 'v7', qty: 1 })));
    await vi.waitFor(() => expect(server.calls).toHaveLength(1));
    // Without the merge: a GET, whose empty cart replaced the one the shopper had just filled.
    expect(server.calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/cart/merge',
      body: { items: [{ product: 'p7', variant: 'v7', qty: 1 }] },
    });
    await vi.waitFor(() => expect(store.getState().cart.cartItems).toHaveLength(1));
    expect(store.getState().cart.cartItems[0]).toMatchObject({ product: 'p7', variant: 'v7' });
    dispatch(logout());
  });

  it('reads the account’s cart back when nothing changed while the sync loaded', async () => {
    vi.useRealTimers();
    const store = loggedInStore();
    const server = fakeServer(() => cartOf([serverLine({ qty: 2 })]));
    vi.stubGlobal('fetch', server.fetch);
    const middleware = cartSyncMiddleware(store);
    const next = (action: unknown) => store.dispatch(action as UnknownAction);
    const dispatch = middleware({ getState: store.getState, dispatch: store.dispatch })(next);
    dispatch(restored());
    await vi.waitFor(() => expect(store.getState().cart.cartItems).toHaveLength(1));
    expect(server.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/cart']);
    dispatch(logout());
  });

  it('empties the browser’s cart at Sign Out of a logged-in shopper, and never a visitor’s', () => {
    const store = makeStore();
    const middleware = cartSyncMiddleware(store);
    const next = (action: unknown) => store.dispatch(action as UnknownAction);
    const dispatch = middleware({ getState: store.getState, dispatch: store.dispatch })(next);
    dispatch(addToCart(makeCartItem({ qty: 1 })));
    // A refused call with no one logged in: the visitor's cart stays.
    dispatch(logout());
    expect(store.getState().cart.cartItems).toHaveLength(1);

    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    dispatch(loggedIn(makeUser()));
    dispatch(logout());
    expect(store.getState().auth.userInfo).toBeNull();
    expect(store.getState().cart.cartItems).toEqual([]);
  });
});

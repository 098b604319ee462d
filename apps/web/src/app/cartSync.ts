import {
  type Cart,
  type CartLine,
  type CartLineInput,
  isNotAuthorizedMessage,
  isSessionEndCode,
} from '@pixel-vault/shared';
import type { Store, UnknownAction } from 'redux';
import { type AuthState, logout } from '../features/account/authSlice';
import { showCartNotices } from '../features/cart/cartPanelSlice';
import { cartFromServer, type CartItem, type CartState } from './cartSlice';

// Issue 34: a logged-in shopper's cart lives on the server (docs/cart-and-wishlist.md). This module is
// loaded only once someone is logged in (app/cartSyncLoader.ts): a visitor's first download and cart
// are what they were. Plain fetch, not RTK Query: it works before and without the data layer's chunk.

/** How long the cart must stay unchanged before it is saved: a burst of changes is one write. */
export const SAVE_DELAY_MS = 400;

type SyncState = { auth: AuthState; cart: CartState };
type SyncStore = Pick<Store<SyncState, UnknownAction>, 'getState' | 'dispatch' | 'subscribe'>;

export interface CartSyncOptions {
  fetch?: typeof fetch;
  /** Where pagehide, visibilitychange and focus are listened to; none (tests): not listened to. */
  window?: Window;
  delayMs?: number;
}

/** What the server needs of a line: the product, its variant and the quantity (the rest it answers). */
export function toCartInput(items: readonly CartItem[]): CartLineInput[] {
  return items.map(({ product, variant, qty }) => (variant ? { product, variant, qty } : { product, qty }));
}

/** The server's lines as the cart keeps them, with what they say about price and stock. */
export function fromServerLines(lines: readonly CartLine[]): CartItem[] {
  return lines.map((line) => {
    const item: CartItem = {
      product: line.product,
      variant: line.variant,
      name: line.name,
      image: line.image,
      price: line.price,
      countInStock: line.countInStock,
      qty: line.qty,
      addedPrice: line.addedPrice,
      priceChanged: line.priceChanged,
      stockShort: line.stockShort,
    };
    if (line.variantTitle) item.variantTitle = line.variantTitle;
    return item;
  });
}

export interface CartSync {
  /** Just logged in: the local (visitor's) cart is merged into the account's, and the answer replaces it. */
  merge(): Promise<void>;
  /** The account's cart replaces the local one (a page opened logged in, a tab back in view). */
  reload(): Promise<void>;
  /** Saves a change not saved yet, now. */
  flush(): Promise<void>;
  /** Logging out: a change not saved yet is sent (with the session's token), then nothing more. */
  stop(): void;
}

/**
 * Keeps the store's cart and the account's cart on the server the same while `store`'s user is logged
 * in: every change is saved (PUT, the whole cart, SAVE_DELAY_MS after the last change; the newer write
 * wins on the server), a change not yet saved is sent as the page is hidden or left (keepalive), and
 * the cart is read again when the tab comes back into view. The calls run one after another, so a
 * save never overtakes the merge at login, and an answer to a save is shown only if the cart was not
 * changed again meanwhile (the next save answers then).
 */
export function createCartSync(store: SyncStore, options: CartSyncOptions = {}): CartSync {
  const fetchFn = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const win = options.window;
  const delayMs = options.delayMs ?? SAVE_DELAY_MS;

  /** The cart's lines as last seen: another array is a change to save. */
  let seen = store.getState().cart.cartItems;
  /** Counts the changes; an answer to a call sent before the last one is not shown. */
  let changes = 0;
  let unsaved = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  /** Logged in, and the browser's cart not merged into the account's yet. */
  let needsMerge = false;
  let queue: Promise<unknown> = Promise.resolve();
  /** The token of the session this sync belongs to (a logout empties the store's before `stop`). */
  let token = store.getState().auth.userInfo?.token;
  /** The server said the session is over: its token is never sent again. */
  let sessionGone = false;

  const unsubscribe = store.subscribe(() => {
    const state = store.getState();
    token = state.auth.userInfo?.token ?? token;
    const items = state.cart.cartItems;
    if (items === seen || stopped) return;
    seen = items;
    changes += 1;
    unsaved = true;
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), delayMs);
  });

  /** One call; its answer, or null when it failed (the change stays unsaved, sent again later). */
  async function call(method: string, path: string, body?: unknown, keepalive = false): Promise<Cart | null> {
    if (!token || sessionGone) return null;
    try {
      const res = await fetchFn(path, {
        method,
        keepalive,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 401) {
        await endSessionIfGone(res);
        return null;
      }
      if (!res.ok) return null;
      return (await res.json()) as Cart;
    } catch {
      return null;
    }
  }

  /**
   * 'Not authorized!' (spec sections 6 and 8): the session is gone on the server (expired, revoked,
   * account deleted), so the shopper is logged out, as every other call does (app/api.ts). Nothing more
   * is sent with the dead token: the logout stops this sync.
   */
  async function endSessionIfGone(res: Response) {
    const data = (await res.json().catch(() => null)) as { message?: unknown; code?: unknown } | null;
    if (sessionGone || !isNotAuthorizedMessage(data?.message)) return;
    sessionGone = true;
    store.dispatch(logout(isSessionEndCode(data?.code) ? data.code : undefined));
  }

  /** The server's answer replaces the local cart, unless the cart changed since the call was sent. */
  function show(cart: Cart | null, sentAt: number) {
    if (!cart || stopped || sentAt !== changes) return;
    const lines = fromServerLines(cart.items);
    // Seen before it is shown: the store tells its subscribers (this module's too) during the dispatch.
    seen = lines;
    store.dispatch(cartFromServer(lines));
    if (cart.dropped.length > 0) store.dispatch(showCartNotices(cart.dropped.map((line) => line.message)));
  }

  function enqueue(task: () => Promise<void>): Promise<void> {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  }

  async function save() {
    if (!unsaved || stopped) return;
    unsaved = false;
    if (needsMerge) return mergeNow();
    const sentAt = changes;
    // keepalive: a page left while the save is on its way does not cancel it.
    const cart = await call(
      'PUT',
      '/api/cart',
      { items: toCartInput(store.getState().cart.cartItems) },
      true,
    );
    if (!cart && sentAt === changes) unsaved = true;
    show(cart, sentAt);
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    return enqueue(save);
  }

  /** The page is being hidden or left: a change not saved yet goes now, surviving the page (keepalive). */
  function sendNow() {
    if (!unsaved) return;
    clearTimeout(timer);
    unsaved = false;
    const items = toCartInput(store.getState().cart.cartItems);
    void call(needsMerge ? 'POST' : 'PUT', needsMerge ? '/api/cart/merge' : '/api/cart', { items }, true);
  }

  let reloading = false;
  function reload(): Promise<void> {
    if (unsaved) return flush();
    if (reloading) return queue.then(() => undefined);
    reloading = true;
    return enqueue(async () => {
      reloading = false;
      if (stopped || unsaved) return;
      const sentAt = changes;
      const cart = await call('GET', '/api/cart');
      // An account whose cart was never written, and a browser that holds one (a session from before
      // carts were kept on the server): the browser's is saved rather than emptied.
      if (cart?.version === 0 && store.getState().cart.cartItems.length > 0 && sentAt === changes) {
        unsaved = true;
        return save();
      }
      show(cart, sentAt);
    });
  }

  /**
   * The merge at login. Until the server has answered one, the browser's cart is merged again rather
   * than saved over the account's: a merge that failed is tried again with the next change or when the
   * tab comes back, and a change made while it was on its way is merged too.
   */
  async function mergeNow() {
    const sentAt = changes;
    const items = toCartInput(store.getState().cart.cartItems);
    const cart = await call('POST', '/api/cart/merge', { items }, true);
    if (!cart) {
      unsaved = true;
      return;
    }
    if (sentAt !== changes) return;
    needsMerge = false;
    show(cart, sentAt);
  }

  function merge(): Promise<void> {
    clearTimeout(timer);
    unsaved = false;
    needsMerge = true;
    return enqueue(mergeNow);
  }

  const onHidden = () => {
    if (win?.document.visibilityState === 'hidden') sendNow();
    else void reload();
  };
  const onFocus = () => void reload();
  win?.addEventListener('pagehide', sendNow);
  win?.document.addEventListener('visibilitychange', onHidden);
  win?.addEventListener('focus', onFocus);

  function stop() {
    if (stopped) return;
    sendNow();
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    win?.removeEventListener('pagehide', sendNow);
    win?.document.removeEventListener('visibilitychange', onHidden);
    win?.removeEventListener('focus', onFocus);
  }

  return { merge, reload, flush, stop };
}

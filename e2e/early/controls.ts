// Early taps (issue 29): a page the server renders is on screen before the app's code runs (the entry
// module is only asked for after the load event and the first paint, or at the first tap or key). A
// shopper who taps, types or picks the moment a control is visible must get what they asked for, exactly
// once: not nothing (the tap lost), not twice (replayed again by the app).
//
// Shared by the Playwright spec (e2e/tests/early-taps.spec.ts, 3 runs a control) and the benchmark
// (bench/early-taps.ts, 20 runs a control, timings), so only `playwright-core`'s Page API is used here,
// and no DOM types (bench type-checks this file without the DOM library). Every check reads what a
// shopper sees: the address, headings, the cart button's label, the cart panel, a menu's state, the grid,
// and the cart kept in the browser (spec section 4: persist:root). Catalogue data comes from the public
// API, never from the seed's text.
import type { Locator, Page } from 'playwright-core';

/** The app marks the document once React has drawn or hydrated it (apps/web/src/main.tsx). */
export const READY = 'html[data-ready]';
/** Set by the app (issue 29) while taps recorded before it started wait to be replayed. */
export const PENDING = 'html[data-pending]';
/** How much slower the page's CPU runs (Chrome DevTools' throttling): a mid-range phone. */
export const CPU_SLOWDOWN = 4;
/**
 * The phone's network: Chrome DevTools' "Fast 4G" preset (165 ms a round trip, 9 Mbps down, 1.5 Mbps
 * up). Without it the shop on this machine answers in a millisecond: the page's load event comes with its
 * first paint, the app starts at once, and whether a tap beats it is a coin toss. With it, as on a phone,
 * the images hold the load event back and the app starts at the tap (or a little before): a tap the page
 * does not keep is lost every time.
 */
export const NETWORK = {
  name: 'Fast 4G',
  latency: 165,
  downloadThroughput: (9000 * 1024) / 8,
  uploadThroughput: (1500 * 1024) / 8,
};
/** How long the control may take to show once the page is asked for. */
const VISIBLE_MS = 30_000;
/** How long the app may take to start once the control was used. */
const READY_MS = 30_000;
/** How long the effect may take once the app has started (more is a lost tap). */
const EFFECT_MS = 5_000;
/** How long the page is left alone after the effect before it is checked again (a second replay shows). */
const SETTLE_MS = 1_000;
const PENDING_MS = 10_000;
const POLL_MS = 40;

/** The shop's public API, as a browser or a script calls it. */
export interface ShopApi {
  base: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown, token?: string): Promise<T>;
}

export function shopApi(base: string): ShopApi {
  async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const res = await fetch(new URL(path, base), {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await res.json()) as T & { message?: string };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.message ?? ''}`);
    return data;
  }
  return {
    base,
    get: (path) => call('GET', path),
    post: (path, body, token) => call('POST', path, body, token),
  };
}

/** What the page shows of a control's effect: not (yet), exactly once, or more than once. */
export interface Seen {
  state: 'none' | 'once' | 'more';
  /** What was read, for a failure's message. */
  what: string;
}

/** One control, on one page, with what using it must do. */
export interface Scenario {
  name: string;
  /** The shop's origin; `path` is opened there. */
  base: string;
  path: string;
  /** A viewport other than the device's (the header's category links show from 768 px wide). */
  viewport?: { width: number; height: number };
  /** Done before the page is slowed down and opened, in the same browser context (logging in). */
  before?: (page: Page) => Promise<void>;
  /** The control a shopper waits for. */
  control: (page: Page) => Locator;
  /** Uses it, at once (the control is already visible). */
  act: (page: Page, control: Locator) => Promise<void>;
  /** Reads, without waiting, whether the effect shows exactly once. */
  expectOnce: (page: Page) => Promise<Seen>;
  /** Once the page has settled with the effect: what must work next (closing the panel...). Throws if not. */
  afterwards?: (page: Page) => Promise<void>;
}

/** A control of the list: its scenario is made from the shop's API (product ids differ per database). */
export interface EarlyControl {
  name: string;
  scenario: (api: ShopApi) => Promise<Scenario>;
}

/**
 * once: the effect showed and was still there, once, after the page settled. lost: it never showed.
 * doubled: it showed more than once (a quantity, a text). undone: it showed, then went away (a toggle
 * used twice, or state reset). failed: something else went wrong (the act, a follow-up step).
 */
export type Outcome = 'once' | 'lost' | 'doubled' | 'undone' | 'failed';

export interface EarlyResult {
  outcome: Outcome;
  /** From the control showing to its effect showing (ms), when it showed. */
  effectMs: number | null;
  /** From the control showing to the app being seen ready (ms), when that was before the effect. */
  readyMs: number | null;
  detail: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** Whether the element shows now (no waiting; false while the page navigates). */
async function shown(locator: Locator): Promise<boolean> {
  try {
    return await locator.first().isVisible();
  } catch {
    return false;
  }
}

/** The attribute now, or null when there is no such element (no waiting for one). */
async function attr(locator: Locator, name: string): Promise<string | null> {
  try {
    if ((await locator.count()) === 0) return null;
    return await locator.first().getAttribute(name, { timeout: 1000 });
  } catch {
    return null;
  }
}

/** A field's value now, or null when there is no such field. */
async function valueOf(locator: Locator): Promise<string | null> {
  try {
    if ((await locator.count()) === 0) return null;
    return await locator.first().inputValue({ timeout: 1000 });
  } catch {
    return null;
  }
}

/** Polls `check` until it answers true, or throws `what` (with the last reading) after `ms`. */
async function until(what: string, check: () => Promise<true | string>, ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  let last = '';
  for (;;) {
    try {
      const answer = await check();
      if (answer === true) return;
      last = answer;
    } catch (error) {
      last = message(error);
    }
    if (performance.now() > deadline) throw new Error(`${what} (saw: ${last})`);
    await sleep(POLL_MS);
  }
}

async function isReady(page: Page): Promise<boolean> {
  try {
    return (await page.locator(READY).count()) > 0;
  } catch {
    return false;
  }
}

/**
 * Opens the scenario's page on a CPU slowed down 4x and a 4G network, waits for its control to show and
 * uses it at once; then waits for the app to start and for the effect, lets the page settle (replayed
 * taps done) and checks the effect is still there exactly once. `page` should be fresh (a new context):
 * nothing kept in the browser from another run.
 */
export async function runEarly(page: Page, scenario: Scenario): Promise<EarlyResult> {
  let visibleAt = 0;
  let readyAt: number | null = null;
  let effectAt: number | null = null;
  const since = (t: number | null) => (t === null ? null : Math.round(t - visibleAt));
  const result = (outcome: Outcome, detail: string): EarlyResult => ({
    outcome,
    effectMs: since(effectAt),
    readyMs: since(readyAt),
    detail: `${scenario.name}: ${detail}`,
  });
  const observe = async (): Promise<Seen> => {
    try {
      return await scenario.expectOnce(page);
    } catch (error) {
      return { state: 'none', what: message(error) };
    }
  };

  if (scenario.before) await scenario.before(page);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Network.enable');
    const { name: _, ...conditions } = NETWORK;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...conditions });
    if (scenario.viewport) await page.setViewportSize(scenario.viewport);
    await page.goto(new URL(scenario.path, scenario.base).href, { waitUntil: 'commit' });
    const control = scenario.control(page);
    try {
      await control.waitFor({ state: 'visible', timeout: VISIBLE_MS });
    } catch (error) {
      return result('failed', `the control never showed: ${message(error)}`);
    }
    visibleAt = performance.now();
    try {
      await scenario.act(page, control);
    } catch (error) {
      return result('failed', `could not use the control: ${message(error)}`);
    }

    // The effect, timed from the moment the control showed; a native one (a link) may come before the app.
    let seen = await observe();
    for (;;) {
      if (seen.state !== 'none') {
        effectAt = performance.now();
        break;
      }
      const now = performance.now();
      if (readyAt === null && (await isReady(page))) readyAt = now;
      if (readyAt !== null && now - readyAt > EFFECT_MS) break;
      if (readyAt === null && now - visibleAt > READY_MS) break;
      await sleep(POLL_MS);
      seen = await observe();
    }
    if (seen.state === 'none') {
      return result(
        'lost',
        readyAt === null
          ? `the app never became ready within ${READY_MS} ms and nothing happened (${seen.what})`
          : `nothing happened within ${EFFECT_MS} ms of the app being ready (${seen.what})`,
      );
    }
    if (seen.state === 'more') return result('doubled', `took effect more than once: ${seen.what}`);

    // Settled: the app started, a moment passed, and no recorded tap waits any more.
    try {
      await page.waitForSelector(READY, { state: 'attached', timeout: READY_MS });
      await sleep(SETTLE_MS);
      await page.waitForSelector(PENDING, { state: 'detached', timeout: PENDING_MS });
    } catch (error) {
      return result('failed', `the page did not settle: ${message(error)}`);
    }
    const after = await observe();
    if (after.state === 'more') return result('doubled', `a second effect came later: ${after.what}`);
    if (after.state === 'none') return result('undone', `the effect went away: ${after.what}`);
    if (scenario.afterwards) {
      try {
        await scenario.afterwards(page);
      } catch (error) {
        return result('failed', `afterwards: ${message(error)}`);
      }
    }
    return result('once', after.what);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

// --- The catalogue, read through the API -------------------------------------------------------------

export interface ApiProduct {
  _id: string;
  productName: string;
  productCategory: string;
  stockQuantity: number;
  productImage: string[];
  reviewCount: number;
}

interface ApiReview {
  title: string;
}

const CATEGORIES = ['retro-games', 'board-games', 'puzzles', 'consoles'] as const;
/** An id no product has (a well-formed one: the page is the shop's "not found", answered with 404). */
export const UNKNOWN_PRODUCT_ID = '00000000-0000-4000-8000-000000000000';

async function productsIn(api: ShopApi, category: string, q?: string): Promise<ApiProduct[]> {
  const query = new URLSearchParams({ category, limit: '100', ...(q === undefined ? {} : { q }) });
  return (await api.get<{ products: ApiProduct[] }>(`/api/products?${query}`)).products;
}

async function allProducts(api: ShopApi): Promise<ApiProduct[]> {
  return (await Promise.all(CATEGORIES.map((category) => productsIn(api, category)))).flat();
}

const productPath = (p: ApiProduct) => `/shop/${p.productCategory}/product/${p._id}`;

/**
 * A product that can be bought 3 at a time (the quantity cases go up to 3): the retro game with the most
 * in stock, so that other journeys' orders of the same run cannot take it under 3.
 */
async function buyable(api: ShopApi): Promise<ApiProduct> {
  const [found] = (await productsIn(api, 'retro-games')).sort((a, b) => b.stockQuantity - a.stockQuantity);
  if (!found || found.stockQuantity < 3) throw new Error('no retro game with at least 3 in stock');
  return found;
}

async function reviewsOf(api: ShopApi, id: string, sort: string): Promise<ApiReview[]> {
  return (await api.get<{ reviews: ApiReview[] }>(`/api/products/${id}/reviews?page=1&sort=${sort}`)).reviews;
}

/**
 * A word the category's search narrows the grid with: the first word of one of its products' names that
 * matches some of the category but not all. Answers the word and the names the grid must then show.
 */
async function searchWord(api: ShopApi, category: string): Promise<{ word: string; names: string[] }> {
  const all = await productsIn(api, category);
  for (const product of all) {
    const word = /^[A-Za-z]{4,}/.exec(product.productName)?.[0];
    if (!word) continue;
    const found = await productsIn(api, category, word);
    if (found.length > 0 && found.length < all.length)
      return { word, names: found.map((p) => p.productName) };
  }
  throw new Error(`no word narrows the ${category} grid`);
}

// --- Shoppers --------------------------------------------------------------------------------------------

/** The admin the e2e server starts with (e2e/playwright.config.ts); the bench starts its shops so too. */
export const ADMIN = { email: 'admin@pixelvault.test', password: 'e2e-admin-password' };
const PASSWORD = 'early-taps-password-1';
const SHOPPER_NAME = 'Early Tapper';
/** One shopper per shop, kept for the runs that follow. */
const shoppers = new Map<string, Promise<string>>();

/**
 * A new shopper's e-mail: an account the admin adds (spec: POST /api/users/admin/add), its cart empty.
 * Not registered: the shop lets an address register 20 accounts an hour, which the other journeys of
 * the e2e run use.
 */
async function freshShopper(api: ShopApi): Promise<string> {
  const address = `early-tapper-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const { token } = await api.post<{ token: string }>('/api/users/login', ADMIN);
  await api.post('/api/users/admin/add', { name: SHOPPER_NAME, email: address, password: PASSWORD }, token);
  return address;
}

/** The shop's one shopper (freshShopper), made once and kept for the runs that follow. */
function shopperOf(api: ShopApi): Promise<string> {
  let email = shoppers.get(api.base);
  if (!email) {
    email = freshShopper(api);
    email.catch(() => shoppers.delete(api.base));
    shoppers.set(api.base, email);
  }
  return email;
}

/** Logs the shopper in through the login page (at full speed), as they did on an earlier visit. */
async function logIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(new URL('/login', base).href);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('button', { name: SHOPPER_NAME }).waitFor({ state: 'visible' });
  // The browser keeps the session (spec section 4) before the shopper leaves.
  await until('the session is stored', async () => {
    const stored = await page.evaluate("localStorage.getItem('persist:root') || ''");
    return typeof stored === 'string' && stored.includes(email) ? true : 'not yet';
  });
}

// --- Effects ----------------------------------------------------------------------------------------------

const cartButton = (page: Page) => page.locator('#cart-button');
const cartDialog = (page: Page) => page.getByRole('dialog', { name: 'Shopping cart' });

/** The header's count ("Open cart, 1 item"), or null when the button is not there. */
async function cartCount(page: Page): Promise<{ count: number | null; label: string | null }> {
  const label = await attr(cartButton(page), 'aria-label');
  const count = /^Open cart, (\d+) items?$/.exec(label ?? '')?.[1];
  return { count: count === undefined ? null : Number(count), label };
}

/** The cart holds the product alone, `qty` of it, and its panel shows it (Add to Cart opens it). */
function cartHolds(product: ApiProduct, qty: number) {
  return async (page: Page): Promise<Seen> => {
    const { count, label } = await cartCount(page);
    const dialog = cartDialog(page);
    const open = await shown(dialog);
    const line = open ? await valueOf(dialog.getByLabel(`Qty of ${product.productName}`)) : null;
    const what = `cart button "${label}", cart panel ${open ? `open, its line: qty ${line}` : 'closed'}`;
    if (count !== null && count > qty) return { state: 'more', what };
    if (count === qty && line === String(qty)) return { state: 'once', what };
    return { state: 'none', what };
  };
}

/** The cart the browser keeps (spec section 4: persist:root) holds the product alone, `qty` of it. */
function keptInCart(product: ApiProduct, qty: number) {
  return (page: Page) =>
    until(`the stored cart holds ${qty} of ${product.productName}, alone`, async () => {
      const raw = await page.evaluate("localStorage.getItem('persist:root')");
      if (typeof raw !== 'string') return 'nothing stored';
      const root = JSON.parse(raw) as Record<string, string | undefined>;
      const cart = JSON.parse(root.cart ?? 'null') as {
        cartItems?: { product: string; qty: number }[];
      } | null;
      const lines = cart?.cartItems ?? [];
      const ok = lines.length === 1 && lines[0]!.product === product._id && lines[0]!.qty === qty;
      return ok || JSON.stringify(lines);
    });
}

/** The page at `path` (a pathname, or a test of it) shows its level-1 heading. */
function arrivedAt(path: string | RegExp, heading: string | RegExp) {
  return async (page: Page): Promise<Seen> => {
    const url = new URL(page.url());
    const there = typeof path === 'string' ? url.pathname === path : path.test(url.pathname);
    const titled =
      there &&
      (await shown(
        page.getByRole('heading', {
          level: 1,
          name: heading,
          exact: typeof heading === 'string' ? true : undefined,
        }),
      ));
    const where = `at ${url.pathname}${url.search}${url.hash}`;
    const what = there ? `${where}, ${titled ? 'heading shown' : 'no heading yet'}` : where;
    return { state: titled ? 'once' : 'none', what };
  };
}

/** The cart panel is open (an empty cart's), and the Close button shuts it. */
const cartPanelOpens = {
  expectOnce: async (page: Page): Promise<Seen> => {
    const open = await shown(cartDialog(page));
    const empty = open && (await shown(cartDialog(page).getByText('Your cart is empty')));
    return { state: empty ? 'once' : 'none', what: `cart panel ${open ? 'open' : 'closed'}` };
  },
  afterwards: async (page: Page) => {
    await cartDialog(page).getByRole('button', { name: 'Close cart' }).tap();
    await until('Close cart shuts the panel', async () => !(await shown(cartDialog(page))) || 'still open');
  },
};

const tap = (_page: Page, control: Locator) => control.tap();

/** A link whose target is read from its href as it is tapped (a card of random favourites). */
function cardTap(linkTarget: { href: string | null }) {
  return async (_page: Page, control: Locator) => {
    // Asked for beside the tap, not before it: the tap must not wait (the href is read first anyway).
    const href = control.getAttribute('href').catch(() => null);
    await control.tap();
    linkTarget.href = await href;
  };
}

function followedCard(linkTarget: { href: string | null }) {
  return async (page: Page): Promise<Seen> => {
    const url = new URL(page.url());
    if (!linkTarget.href || url.pathname !== linkTarget.href)
      return { state: 'none', what: `at ${url.pathname}` };
    const titled = await shown(page.getByRole('heading', { level: 1 }));
    return { state: titled ? 'once' : 'none', what: `at ${url.pathname}${titled ? ', heading shown' : ''}` };
  };
}

// --- The controls -----------------------------------------------------------------------------------------

const quantityField = (page: Page) => page.getByRole('spinbutton', { name: 'Quantity' });
const addToCartButton = (page: Page) => page.getByRole('button', { name: 'Add to Cart' });
const homeLink = (page: Page) => page.getByRole('link', { name: 'Pixel Vault home' });

export const controls: EarlyControl[] = [
  {
    // Adding a product already in the cart replaces its line (spec section 4), so a second Add to Cart
    // of 1 shows nothing more: the quantity cases below are the ones that show a doubled tap.
    name: 'product page: Add to Cart',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'Add to Cart',
        base: api.base,
        path: productPath(product),
        control: addToCartButton,
        act: tap,
        expectOnce: cartHolds(product, 1),
        afterwards: keptInCart(product, 1),
      };
    },
  },
  {
    // The account's cart is read back while the app starts (issue 34): a tap before that answer must
    // not be replaced by it.
    name: 'product page, logged in: Add to Cart',
    scenario: async (api) => {
      const product = await buyable(api);
      const email = await freshShopper(api);
      return {
        name: 'Add to Cart, logged in',
        base: api.base,
        path: productPath(product),
        before: (page) => logIn(page, api.base, email),
        control: addToCartButton,
        act: tap,
        expectOnce: cartHolds(product, 1),
        afterwards: keptInCart(product, 1),
      };
    },
  },
  {
    name: 'product page: Increase quantity, then Add to Cart',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'Increase quantity, Add to Cart',
        base: api.base,
        path: productPath(product),
        control: (page) => page.getByRole('button', { name: 'Increase quantity' }),
        act: async (page, control) => {
          await control.tap();
          await addToCartButton(page).tap();
        },
        expectOnce: cartHolds(product, 2),
        afterwards: keptInCart(product, 2),
      };
    },
  },
  {
    name: 'product page: 3 typed in Quantity, then Add to Cart',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'Quantity 3, Add to Cart',
        base: api.base,
        path: productPath(product),
        control: quantityField,
        act: async (page, control) => {
          await control.selectText();
          await control.pressSequentially('3');
          await addToCartButton(page).tap();
        },
        expectOnce: cartHolds(product, 3),
        afterwards: keptInCart(product, 3),
      };
    },
  },
  {
    name: 'product page: cart button, then Close cart',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'cart button',
        base: api.base,
        path: productPath(product),
        control: cartButton,
        act: tap,
        ...cartPanelOpens,
      };
    },
  },
  {
    name: 'product page: Browse categories, then Retro Games in its menu',
    scenario: async (api) => {
      const product = (await productsIn(api, 'consoles'))[0]!;
      const menuButton = (page: Page) => page.getByRole('button', { name: 'Browse categories' });
      return {
        name: 'Browse categories',
        base: api.base,
        path: productPath(product),
        control: menuButton,
        act: tap,
        expectOnce: async (page) => {
          const expanded = await attr(menuButton(page), 'aria-expanded');
          const link = page.getByRole('navigation', { name: 'Categories' }).getByRole('link', {
            name: 'Retro Games',
          });
          const linkShown = await shown(link);
          return {
            state: expanded === 'true' && linkShown ? 'once' : 'none',
            what: `aria-expanded=${expanded}, menu ${linkShown ? 'shown' : 'not shown'}`,
          };
        },
        afterwards: async (page) => {
          await page
            .getByRole('navigation', { name: 'Categories' })
            .getByRole('link', { name: 'Retro Games' })
            .tap();
          await until('the menu link is followed', async () => {
            const seen = await arrivedAt('/shop/retro-games', 'Retro Games')(page);
            return seen.state === 'once' || seen.what;
          });
        },
      };
    },
  },
  {
    name: 'product page at desktop width: Retro Games in the header',
    scenario: async (api) => {
      const product = (await productsIn(api, 'consoles'))[0]!;
      return {
        name: 'header category link',
        base: api.base,
        path: productPath(product),
        viewport: { width: 1024, height: 768 },
        control: (page) =>
          page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Retro Games' }),
        act: tap,
        expectOnce: arrivedAt('/shop/retro-games', 'Retro Games'),
      };
    },
  },
  {
    name: 'product page: Pixel Vault home link',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'home link',
        base: api.base,
        path: productPath(product),
        control: homeLink,
        act: tap,
        expectOnce: arrivedAt('/', 'Level up your collection'),
      };
    },
  },
  {
    name: 'product page, logged out: Login link',
    scenario: async (api) => {
      const product = await buyable(api);
      return {
        name: 'Login link',
        base: api.base,
        path: productPath(product),
        control: (page) => page.getByRole('link', { name: 'Login', exact: true }),
        act: tap,
        expectOnce: arrivedAt('/login', 'Login'),
      };
    },
  },
  {
    name: 'product page, logged in: account menu',
    scenario: async (api) => {
      const product = await buyable(api);
      const email = await shopperOf(api);
      const accountButton = (page: Page) => page.getByRole('button', { name: SHOPPER_NAME });
      return {
        name: 'account menu',
        base: api.base,
        path: productPath(product),
        before: (page) => logIn(page, api.base, email),
        control: accountButton,
        act: tap,
        expectOnce: async (page) => {
          const expanded = await attr(accountButton(page), 'aria-expanded');
          const menu = await shown(page.getByRole('link', { name: 'My Account' }));
          return {
            state: expanded === 'true' && menu ? 'once' : 'none',
            what: `aria-expanded=${expanded}, menu ${menu ? 'shown' : 'not shown'}`,
          };
        },
      };
    },
  },
  {
    name: 'product page: gallery thumbnail Show image 2',
    scenario: async (api) => {
      const product = (await allProducts(api)).find((p) => p.productImage.length > 1);
      if (!product) throw new Error('no product of the catalogue has more than one image');
      const second = new URL(product.productImage[1]!, api.base).pathname;
      const thumbnail = (page: Page) => page.getByRole('button', { name: 'Show image 2' });
      return {
        name: 'Show image 2',
        base: api.base,
        path: productPath(product),
        control: thumbnail,
        act: tap,
        expectOnce: async (page) => {
          const pressed = await attr(thumbnail(page), 'aria-pressed');
          const src = await attr(page.getByRole('img', { name: product.productName, exact: true }), 'src');
          const main = src === null ? null : new URL(src, api.base).pathname;
          return {
            state: pressed === 'true' && main === second ? 'once' : 'none',
            what: `aria-pressed=${pressed}, main image ${main}`,
          };
        },
      };
    },
  },
  {
    name: 'product page: the (N reviews) link',
    scenario: async (api) => {
      const product = (await productsIn(api, 'retro-games')).find((p) => p.reviewCount > 1);
      if (!product) throw new Error('no retro game has reviews');
      return {
        name: 'reviews link',
        base: api.base,
        path: productPath(product),
        control: (page) => page.getByRole('link', { name: `(${product.reviewCount} reviews)` }),
        act: tap,
        expectOnce: async (page) => {
          const url = new URL(page.url());
          const box = await page
            .locator('#reviews')
            .boundingBox({ timeout: 1000 })
            .catch(() => null);
          const height = page.viewportSize()?.height ?? 0;
          const inView = box !== null && box.y < height && box.y + box.height > 0;
          return {
            state: url.hash === '#reviews' && inView ? 'once' : 'none',
            what: `at ${url.pathname}${url.hash}, reviews ${inView ? 'in view' : `out of view (top ${box?.y})`}`,
          };
        },
      };
    },
  },
  {
    name: 'product page: Sort reviews',
    scenario: async (api) => {
      // A product whose lowest-rated review is not its newest: the sort visibly changes the order.
      for (const product of (await allProducts(api)).filter((p) => p.reviewCount > 1)) {
        const [newest, lowest] = await Promise.all([
          reviewsOf(api, product._id, 'newest'),
          reviewsOf(api, product._id, 'lowest'),
        ]);
        const first = lowest[0]?.title;
        if (!first || first === newest[0]?.title) continue;
        const select = (page: Page) => page.getByLabel('Sort reviews');
        return {
          name: 'Sort reviews',
          base: api.base,
          path: productPath(product),
          control: select,
          act: async (_page, control) => {
            await control.selectOption({ label: 'Lowest rating first' });
          },
          expectOnce: async (page) => {
            const value = await valueOf(select(page));
            const top = await page
              .getByRole('list', { name: 'Customer reviews' })
              .getByRole('heading', { level: 3 })
              .first()
              .textContent({ timeout: 1000 })
              .catch(() => null);
            return {
              state: value === 'lowest' && top === first ? 'once' : 'none',
              what: `sort ${value}, first review "${top}"`,
            };
          },
        };
      }
      throw new Error('no product has reviews in an order the sort changes');
    },
  },
  ...(['typed', 'typed, then Enter'] as const).map((how): EarlyControl => ({
    name: `category page: a word ${how} in the search box`,
    scenario: async (api) => {
      const { word, names } = await searchWord(api, 'retro-games');
      const box = (page: Page) => page.getByRole('searchbox', { name: 'Search Retro Games' });
      return {
        name: `search ${how}`,
        base: api.base,
        path: '/shop/retro-games',
        control: box,
        act: async (_page, control) => {
          await control.pressSequentially(word);
          if (how === 'typed, then Enter') await control.press('Enter');
        },
        expectOnce: async (page) => {
          const q = new URL(page.url()).searchParams.get('q');
          const text = await valueOf(box(page));
          const grid = page.getByRole('list', { name: 'Retro Games products' });
          const shownNames = (await grid.getByRole('heading', { level: 2 }).allTextContents()).sort();
          const what = `?q=${q}, box "${text}", grid: ${shownNames.join(' | ')}`;
          if (text !== null && text !== word && text.includes(word)) return { state: 'more', what };
          const filtered = JSON.stringify(shownNames) === JSON.stringify([...names].sort());
          return { state: q === word && text === word && filtered ? 'once' : 'none', what };
        },
      };
    },
  })),
  {
    name: 'category page: a product card',
    scenario: async (api) => {
      const target = { href: null as string | null };
      return {
        name: 'category card',
        base: api.base,
        path: '/shop/retro-games',
        control: (page) => page.getByRole('list', { name: 'Retro Games products' }).getByRole('link').first(),
        act: cardTap(target),
        expectOnce: followedCard(target),
      };
    },
  },
  {
    name: 'home: Shop Now',
    scenario: async (api) => ({
      name: 'Shop Now',
      base: api.base,
      path: '/',
      control: (page) => page.getByRole('link', { name: 'Shop Now' }),
      act: tap,
      expectOnce: arrivedAt('/shop/retro-games', 'Retro Games'),
    }),
  },
  {
    name: 'home: a product card',
    scenario: async (api) => {
      const target = { href: null as string | null };
      return {
        name: 'home card',
        base: api.base,
        path: '/',
        control: (page) =>
          page.getByRole('region', { name: 'A few of our Favorites' }).getByRole('link').first(),
        act: cardTap(target),
        expectOnce: followedCard(target),
      };
    },
  },
  {
    name: 'search page: cart button',
    scenario: async (api) => {
      const { word } = await searchWord(api, 'retro-games');
      return {
        name: 'cart button on a search',
        base: api.base,
        path: `/shop/retro-games?q=${encodeURIComponent(word)}`,
        control: cartButton,
        act: tap,
        ...cartPanelOpens,
      };
    },
  },
  {
    name: 'search page: a product card',
    scenario: async (api) => {
      const { word } = await searchWord(api, 'retro-games');
      const target = { href: null as string | null };
      return {
        name: 'card of a search',
        base: api.base,
        path: `/shop/retro-games?q=${encodeURIComponent(word)}`,
        control: (page) => page.getByRole('list', { name: 'Retro Games products' }).getByRole('link').first(),
        act: cardTap(target),
        expectOnce: followedCard(target),
      };
    },
  },
  {
    name: 'product not found (404): Back to the shop',
    scenario: async (api) => ({
      name: 'Back to the shop',
      base: api.base,
      path: `/shop/consoles/product/${UNKNOWN_PRODUCT_ID}`,
      control: (page) => page.getByRole('link', { name: 'Back to the shop' }),
      act: tap,
      expectOnce: arrivedAt('/', 'Level up your collection'),
    }),
  },
  {
    name: 'product not found (404): cart button',
    scenario: async (api) => ({
      name: 'cart button on the 404 page',
      base: api.base,
      path: `/shop/consoles/product/${UNKNOWN_PRODUCT_ID}`,
      control: cartButton,
      act: tap,
      ...cartPanelOpens,
    }),
  },
  {
    name: 'about page (drawn in the browser): Pixel Vault home link',
    scenario: async (api) => ({
      name: 'home link on /about',
      base: api.base,
      path: '/about',
      control: homeLink,
      act: tap,
      expectOnce: arrivedAt('/', 'Level up your collection'),
    }),
  },
  {
    name: 'about page (drawn in the browser): cart button',
    scenario: async (api) => ({
      name: 'cart button on /about',
      base: api.base,
      path: '/about',
      control: cartButton,
      act: tap,
      ...cartPanelOpens,
    }),
  },
];

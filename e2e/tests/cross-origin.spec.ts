import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Page, expect, test } from '@playwright/test';
import { uniqueEmail } from './helpers';

/**
 * Issue 8: "a separate front-end host works". A page that is not the shop's own, served from another
 * origin, uses the shop's API the way a separate front end (or a mobile web view) would: it reads the
 * catalogue, shows a product image, registers, logs in and reads its orders with a bearer token.
 * playwright.config.ts lists http://localhost:<E2E_FRONT_PORT> in the shop's CORS_ORIGINS (and sets
 * PUBLIC_URL); http://localhost:<E2E_UNLISTED_PORT> is not listed, so the browser must refuse it.
 */
const FRONT_PORT = Number(process.env.E2E_FRONT_PORT ?? 3290);
const UNLISTED_PORT = Number(process.env.E2E_UNLISTED_PORT ?? 3291);
const PASSWORD = 'another-origin-password';

/** What one `fetch` from the page came to: the status and JSON it could read, or the error it threw. */
interface Step {
  status?: number;
  body?: unknown;
  error?: string;
  message?: string;
}

interface Outcome {
  origin: string;
  products: Step;
  image?: { src: string; loaded: boolean; naturalWidth: number };
  register: Step;
  login: Step;
  orders: Step;
  ordersWithoutToken: Step;
}

// The one page of the other front end. Everything it does runs in the browser, under the browser's
// CORS rules; the shop's address, the e-mail to register and (optionally) an image to show come in
// the query string.
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Another front end</title></head>
<body>
<h1>Another front end</h1>
<div id="shelf"></div>
<script>
  const params = new URLSearchParams(location.search);
  const shop = params.get('shop');
  const email = params.get('email');
  const password = ${JSON.stringify(PASSWORD)};

  async function call(url, init) {
    try {
      const res = await fetch(url, init);
      const text = await res.text();
      let body = text;
      try { body = JSON.parse(text); } catch {}
      return { status: res.status, body };
    } catch (error) {
      return { error: error.name, message: String(error.message) };
    }
  }

  function show(src) {
    return new Promise((resolve) => {
      const img = document.createElement('img');
      img.alt = 'First product';
      img.id = 'product-image';
      const done = (loaded) => resolve({ src: img.src, loaded, naturalWidth: img.naturalWidth });
      img.onload = () => done(true);
      img.onerror = () => done(false);
      img.src = src;
      document.getElementById('shelf').append(img);
    });
  }

  const json = { 'Content-Type': 'application/json' };
  window.outcome = (async () => {
    const outcome = { origin: location.origin };
    outcome.products = await call(shop + '/api/products');
    // The first product's image; a page that cannot read the catalogue may be given one to show.
    const first = Array.isArray(outcome.products.body) ? outcome.products.body[0] : undefined;
    const src = first ? first.productImage[0] : params.get('img');
    if (src) outcome.image = await show(src);
    outcome.register = await call(shop + '/api/users', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Other Origin', email, password }),
    });
    outcome.login = await call(shop + '/api/users/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password }),
    });
    const token = outcome.login.body && outcome.login.body.token;
    outcome.orders = await call(shop + '/api/orders', {
      headers: { Authorization: 'Bearer ' + token },
    });
    outcome.ordersWithoutToken = await call(shop + '/api/orders');
    return outcome;
  })();
</script>
</body>
</html>
`;

const servers: Server[] = [];

async function serveThePage(port: number): Promise<void> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  expect((server.address() as AddressInfo).port).toBe(port);
  servers.push(server);
}

test.beforeAll(async () => {
  await serveThePage(FRONT_PORT);
  await serveThePage(UNLISTED_PORT);
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** What the browser's network saw of the shop, beside what the page itself could read. */
interface Network {
  responses: string[];
  failures: string[];
}

async function openFrontEnd(
  page: Page,
  port: number,
  query: Record<string, string>,
): Promise<{ outcome: Outcome; consoleErrors: string[]; network: Network }> {
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  const network: Network = { responses: [], failures: [] };
  const shopPath = (url: string) => (url.startsWith(query.shop!) ? url.slice(query.shop!.length) : null);
  page.on('response', (res) => {
    const path = shopPath(res.url());
    if (path) network.responses.push(`${res.request().method()} ${path} ${res.status()}`);
  });
  page.on('requestfailed', (req) => {
    const path = shopPath(req.url());
    if (path) network.failures.push(`${req.method()} ${path}`);
  });
  await page.goto(`http://localhost:${port}/?${new URLSearchParams(query)}`);
  await expect(page.getByRole('heading', { name: 'Another front end' })).toBeVisible();
  const outcome = await page.evaluate(() => (window as unknown as { outcome: Promise<Outcome> }).outcome);
  return { outcome, consoleErrors, network };
}

test('a page on a listed origin reads the catalogue, shows its images, signs in and reads its orders', async ({
  page,
  baseURL,
  request,
}) => {
  const shop = new URL(baseURL!).origin;
  const email = uniqueEmail('other-origin');
  const { outcome, consoleErrors, network } = await openFrontEnd(page, FRONT_PORT, { shop, email });
  expect(outcome.origin).toBe(`http://localhost:${FRONT_PORT}`);
  expect(outcome.origin).not.toBe(shop);

  // GET /api/products: a simple CORS request, answered and readable.
  expect(outcome.products.error, outcome.products.message).toBeUndefined();
  expect(outcome.products.status).toBe(200);
  const products = outcome.products.body as { _id: string; productImage: string[] }[];
  expect(Array.isArray(products)).toBe(true);
  expect(products.length).toBeGreaterThan(0);

  // The image URL is absolute (PUBLIC_URL), points at the shop, and the browser actually shows it
  // although the page is on another origin (Cross-Origin-Resource-Policy: cross-origin).
  expect(products[0]!.productImage[0]).toMatch(new RegExp(`^${shop.replace(/\./g, '\\.')}/uploads/`));
  expect(outcome.image).toMatchObject({ src: products[0]!.productImage[0], loaded: true });
  expect(outcome.image!.naturalWidth).toBeGreaterThan(0);
  const img = page.locator('#product-image');
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);

  // JSON POSTs need a preflight: register, then log in.
  expect(outcome.register.error, outcome.register.message).toBeUndefined();
  expect(outcome.register.status).toBe(201);
  expect(outcome.register.body).toMatchObject({ email, token: expect.any(String) });
  expect(outcome.login.error, outcome.login.message).toBeUndefined();
  expect(outcome.login.status).toBe(200);
  expect(outcome.login.body).toMatchObject({ email, token: expect.any(String) });

  // A bearer call (Authorization needs a preflight) answers the new account's (empty) order list.
  expect(outcome.orders.error, outcome.orders.message).toBeUndefined();
  expect(outcome.orders.status).toBe(200);
  expect(outcome.orders.body).toEqual([]);

  // A refusal still carries the grant, so the page can read why.
  expect(outcome.ordersWithoutToken.error, outcome.ordersWithoutToken.message).toBeUndefined();
  expect(outcome.ordersWithoutToken.status).toBe(401);
  expect(outcome.ordersWithoutToken.body).toMatchObject({ message: 'Not authorized!' });

  expect(consoleErrors.filter((m) => /CORS|Access-Control|blocked/i.test(m))).toEqual([]);
  expect(network.failures).toEqual([]);
  expect(network.responses).toEqual(
    expect.arrayContaining([
      'GET /api/products 200',
      'POST /api/users 201',
      'POST /api/users/login 200',
      'GET /api/orders 200',
      'GET /api/orders 401',
    ]),
  );

  // The account really exists in the shop.
  const login = await request.post('/api/users/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
});

test('a page on an origin that is not listed cannot read the API, and its writes never leave the browser', async ({
  page,
  baseURL,
  request,
}) => {
  const shop = new URL(baseURL!).origin;
  const email = uniqueEmail('unlisted-origin');
  // The image of a product, read the way the shop's own pages would (no Origin header).
  const catalogue = await request.get('/api/products');
  const [first] = (await catalogue.json()) as { productImage: string[] }[];
  const img = first!.productImage[0]!;
  const { outcome, consoleErrors, network } = await openFrontEnd(page, UNLISTED_PORT, { shop, email, img });
  expect(outcome.origin).toBe(`http://localhost:${UNLISTED_PORT}`);

  // Every call the page makes to the API fails in the browser: fetch rejects with a TypeError.
  for (const [name, step] of Object.entries({
    products: outcome.products,
    register: outcome.register,
    login: outcome.login,
    orders: outcome.orders,
    ordersWithoutToken: outcome.ordersWithoutToken,
  })) {
    expect(step.error, name).toBe('TypeError');
    expect(step.status, name).toBeUndefined();
  }
  // Images need no grant: even this page shows them (Cross-Origin-Resource-Policy: cross-origin).
  expect(outcome.image).toMatchObject({ src: img, loaded: true });
  expect(outcome.image!.naturalWidth).toBeGreaterThan(0);
  // Chrome says why: the answer carries no grant for this origin.
  expect(
    consoleErrors.some((m) => /CORS policy/.test(m) && m.includes(`http://localhost:${UNLISTED_PORT}`)),
  ).toBe(true);

  // The browser's network shows the same: the API calls failed, only the image came through.
  expect(network.failures).toEqual([
    'GET /api/products',
    'POST /api/users',
    'POST /api/users/login',
    'GET /api/orders',
    'GET /api/orders',
  ]);
  expect(network.responses).toEqual([`GET ${new URL(img).pathname} 200`]);

  // The registration's preflight was refused, so the POST itself was never sent: no such account.
  const login = await request.post('/api/users/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(401);
});

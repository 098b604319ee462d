import type { APIRequestContext, Page } from '@playwright/test';
import { expect, READY, test } from './fixtures';
import { ADMIN, expectNoSeriousA11yViolations, productsIn, uniqueEmail, watchConsole } from './helpers';

/**
 * Issue 34: the cart follows a logged-in shopper's account. A visitor's cart joins the account's at
 * login, a second browser sees the same cart, a change made just before leaving a page is saved, a tab
 * back in view reads the cart again and says what changed since, and Sign Out leaves it on the server.
 */

interface Shopper {
  name: string;
  email: string;
  password: string;
  token: string;
}

interface ServerCart {
  items: { product: string; qty: number }[];
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function adminHeaders(request: APIRequestContext) {
  const res = await request.post('/api/users/login', { data: ADMIN });
  expect(res.ok()).toBeTruthy();
  return bearer(((await res.json()) as { token: string }).token);
}

/** A shopper the admin adds, with a token of their own for reading their cart through the API. */
async function addShopper(request: APIRequestContext, admin: Record<string, string>): Promise<Shopper> {
  const shopper = { name: 'Cora Sync', email: uniqueEmail('cora'), password: 'shopper-journey-1' };
  const added = await request.post('/api/users/admin/add', { data: shopper, headers: admin });
  expect(added.status()).toBe(201);
  const login = await request.post('/api/users/login', { data: shopper });
  return { ...shopper, token: ((await login.json()) as { token: string }).token };
}

async function serverCart(request: APIRequestContext, shopper: Shopper): Promise<[string, number][]> {
  const res = await request.get('/api/cart', { headers: bearer(shopper.token) });
  expect(res.ok()).toBeTruthy();
  const cart = (await res.json()) as ServerCart;
  return cart.items.map((line): [string, number] => [line.product, line.qty]).sort();
}

async function logIn(page: Page, shopper: Shopper) {
  await page.goto('/login');
  await page.waitForSelector(READY, { state: 'attached' });
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: shopper.name })).toBeVisible();
}

const cartButton = (page: Page, count: number) =>
  page.getByRole('button', { name: `Open cart, ${count} item${count === 1 ? '' : 's'}` });

/** The tab comes back into view (a test's tab never leaves it): what the browser tells the page then. */
const backIntoView = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

const savedCart = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cart' && r.request().method() === 'PUT');

test('a visitor’s cart joins the account’s at login and follows the shopper to another browser', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const admin = await adminHeaders(request);
  const [a, b] = (await productsIn(request, 'puzzles')).filter(
    (p) => p.options.length === 0 && p.stockQuantity >= 5,
  );
  expect(a && b, 'two puzzles with stock and no options').toBeTruthy();
  const shopper = await addShopper(request, admin);

  // Her account already holds two of B (put there from another device).
  const put = await request.put('/api/cart', {
    headers: bearer(shopper.token),
    data: { items: [{ product: b!._id, qty: 2 }] },
  });
  expect(put.ok()).toBeTruthy();

  // As a visitor she adds A, then logs in: the carts are one.
  await page.goto(`/shop/${a!.productCategory}/product/${a!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(cartButton(page, 1)).toBeVisible();
  await logIn(page, shopper);
  await expect(cartButton(page, 3)).toBeVisible();
  const both = [
    [a!._id, 1],
    [b!._id, 2],
  ].sort();
  expect(await serverCart(request, shopper)).toEqual(both);
  await cartButton(page, 3).click();
  await expect(panel.getByRole('listitem').filter({ hasText: a!.productName })).toBeVisible();
  await expect(panel.getByRole('listitem').filter({ hasText: b!.productName })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');

  // Her laptop: another browser, the same account, the same cart.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const laptop = await other.newPage();
    await logIn(laptop, shopper);
    await expect(cartButton(laptop, 3)).toBeVisible();

    // A change made just before she leaves the page is saved all the same.
    await cartButton(laptop, 3).click();
    const laptopPanel = laptop.getByRole('dialog', { name: 'Shopping cart' });
    await laptopPanel.getByLabel(`Qty of ${b!.productName}`).selectOption('3');
    await laptop.goto('/about');
    await expect
      .poll(() => serverCart(request, shopper))
      .toEqual(
        [
          [a!._id, 1],
          [b!._id, 3],
        ].sort(),
      );

    // She removes A on the laptop; the phone, back in view, reads the cart again.
    await laptop.waitForSelector(READY, { state: 'attached' });
    await cartButton(laptop, 4).click();
    const saved = savedCart(laptop);
    await laptopPanel.getByRole('button', { name: `Remove ${a!.productName}` }).click();
    await saved;
    await backIntoView(page);
    await expect(cartButton(page, 3)).toBeVisible();
  } finally {
    await other.close();
  }

  // The shop raises B's price and sells all but one: the cart says both.
  try {
    const changed = await request.put(`/api/products/update/${b!._id}`, {
      headers: admin,
      data: { productPrice: b!.productPrice + 5, stockQuantity: 1 },
    });
    expect(changed.ok()).toBeTruthy();
    await backIntoView(page);
    await cartButton(page, 3).click();
    const line = panel.getByRole('listitem').filter({ hasText: b!.productName }).first();
    await expect(line).toContainText(`Price changed since you added it: was $${b!.productPrice.toFixed(2)}`);
    await expect(line).toContainText('Only 1 left in stock');
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
  } finally {
    await request.put(`/api/products/update/${b!._id}`, {
      headers: admin,
      data: { productPrice: b!.productPrice, stockQuantity: b!.stockQuantity },
    });
  }

  // Sign Out empties the browser's cart; the account keeps it.
  await page.getByRole('button', { name: shopper.name }).click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(cartButton(page, 0)).toBeVisible();
  expect(await serverCart(request, shopper)).toEqual([[b!._id, 3]]);

  expect(errors).toEqual([]);
});

test('a visitor’s cart is only in the browser: nothing is sent to the account’s cart', async ({
  page,
  request,
}) => {
  const [a] = (await productsIn(request, 'puzzles')).filter(
    (p) => p.options.length === 0 && p.stockQuantity >= 5,
  );
  const cartCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/cart')) cartCalls.push(r.method());
  });
  await page.goto(`/shop/${a!.productCategory}/product/${a!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.keyboard.press('Escape');
  await expect(cartButton(page, 1)).toBeVisible();
  await page.goto('/');
  await backIntoView(page);
  await expect(cartButton(page, 1)).toBeVisible();
  expect(cartCalls).toEqual([]);
});

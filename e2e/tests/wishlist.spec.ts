import { expect, test } from './fixtures';
import { ADMIN, expectNoSeriousA11yViolations, productsIn, uniqueEmail, watchConsole } from './helpers';

/**
 * Issue 34: the wishlist. A visitor's heart leads to the login page and back; a shopper adds a game from
 * its card, finds it on the Wishlist page (account menu) with its price and stock, and buys it from there.
 */
test('a shopper keeps a game on the wishlist from its card and puts it in the cart from the wishlist page', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  const product = (await productsIn(request, 'puzzles')).find(
    (p) => p.options.length === 0 && p.stockQuantity >= 2,
  );
  expect(product, 'a puzzle in stock').toBeTruthy();
  const login = await request.post('/api/users/login', { data: ADMIN });
  const admin = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const shopper = { name: 'Wren Wish', email: uniqueEmail('wren'), password: 'shopper-journey-1' };
  expect((await request.post('/api/users/admin/add', { data: shopper, headers: admin })).status()).toBe(201);

  // A visitor's heart: to the login page, and back to the category after it.
  await page.goto(`/shop/${product!.productCategory}`);
  const heart = page.getByRole('button', { name: `Add ${product!.productName} to wishlist` });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: shopper.name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/shop/${product!.productCategory}$`));

  // Logged in: one press puts it on the list, and the heart says so.
  await heart.click();
  const pressed = page.getByRole('button', { name: `Remove ${product!.productName} from wishlist` });
  await expect(pressed).toHaveAttribute('aria-pressed', 'true');
  await expectNoSeriousA11yViolations(page);

  // The Wishlist page, from the account menu: its price and stock, Add to Cart.
  await page.getByRole('button', { name: shopper.name }).click();
  await page.getByRole('link', { name: 'Wishlist' }).click();
  await expect(page).toHaveURL(/\/wishlist$/);
  await expect(page.getByRole('heading', { name: 'Wishlist', level: 1 })).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: product!.productName });
  await expect(row).toContainText(`$${product!.productPrice.toFixed(2)}`);
  await expect(row).toContainText(/\d+ in stock/);
  await expectNoSeriousA11yViolations(page);
  await row.getByRole('button', { name: `Add ${product!.productName} to cart` }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('listitem').filter({ hasText: product!.productName })).toBeVisible();
  await panel.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);

  // Taken off the list: the page says it is empty.
  await page.goto('/wishlist');
  await page.getByRole('button', { name: `Remove ${product!.productName} from wishlist` }).click();
  await expect(page.getByText('Your wishlist is empty.')).toBeVisible();

  expect(errors).toEqual([]);
});

test('the wishlist page fits a phone without sideways scrolling @phone', async ({ page, request }) => {
  const login = await request.post('/api/users/login', { data: ADMIN });
  const admin = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const shopper = { name: 'Nell Narrow', email: uniqueEmail('nell'), password: 'shopper-journey-1' };
  expect((await request.post('/api/users/admin/add', { data: shopper, headers: admin })).status()).toBe(201);
  const token = (
    (await (await request.post('/api/users/login', { data: shopper })).json()) as { token: string }
  ).token;
  const [product] = await productsIn(request, 'puzzles');
  await request.put(`/api/wishlist/${product!._id}`, { headers: { authorization: `Bearer ${token}` } });

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/login?redirect=%2Fwishlist');
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/wishlist$/);
  await expect(page.getByRole('listitem').filter({ hasText: product!.productName })).toBeVisible();
  for (const width of [360, 412]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/wishlist');
    await expect(page.getByRole('listitem').filter({ hasText: product!.productName })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});

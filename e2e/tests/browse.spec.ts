import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, productsIn, watchConsole } from './helpers';

test('browse -> search -> product -> cart, and the cart survives a reload', async ({ page, request }) => {
  const errors = watchConsole(page);
  const retro = await productsIn(request, 'retro-games');
  expect(retro.length).toBeGreaterThanOrEqual(8);
  const target = retro.find((p) => p.stockQuantity >= 3);
  expect(target, 'a retro game with at least 3 in stock').toBeTruthy();
  const product = target!;

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'A few of our Favorites' })).toBeVisible();
  await expect(page.locator('a[href*="/product/"]')).toHaveCount(6);
  await expect(page.getByText('© 2024 All rights reserved')).toBeVisible();

  await page.getByRole('link', { name: 'Shop Now' }).click();
  await expect(page).toHaveURL(/\/shop\/retro-games$/);
  await expect(page.getByRole('heading', { level: 1, name: /retro games/i })).toBeVisible();
  await expect(page.locator('a[href*="/product/"]').first()).toBeVisible();

  // Search by a lower-cased part of the name: case-insensitive, within the category.
  const word = product.productName.split(' ').find((w) => w.length >= 4) ?? product.productName;
  await page.getByPlaceholder('Search Retro Games').fill(word.toLowerCase());
  const card = page.locator(`a[href$="/product/${product._id}"]`);
  await expect(card).toBeVisible();
  const expectedMatches = retro.filter((p) => p.productName.toLowerCase().includes(word.toLowerCase()));
  await expect(page.locator('a[href*="/product/"]')).toHaveCount(expectedMatches.length);
  await expect(card).toContainText(`$${product.productPrice.toFixed(2)}`);

  await page.getByPlaceholder('Search Retro Games').fill('zzzz-no-such-game');
  await expect(page.getByText('No products found')).toBeVisible();
  await page.getByPlaceholder('Search Retro Games').fill(word.toLowerCase());

  await card.click();
  await expect(page).toHaveURL(new RegExp(`/shop/retro-games/product/${product._id}$`));
  await expect(page.getByRole('heading', { level: 1, name: product.productName })).toBeVisible();
  await expect(page.getByText(`$${product.productPrice.toFixed(2)}`).first()).toBeVisible();
  await expect(page.getByText(new RegExp(`In stock:?\\s*${product.stockQuantity}`))).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Quantity stepper then Add to Cart opens the cart panel with the line.
  await page.getByRole('button', { name: /increase quantity/i }).click();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(product.productName, { exact: true })).toBeVisible();
  const subtotal = ((Math.round(product.productPrice * 100) * 2) / 100).toFixed(2);
  await expect(panel.getByText(`$${subtotal}`).first()).toBeVisible();
  await expect(panel.getByText(/shipping and taxes calculated at checkout/i)).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Login to Checkout' })).toBeVisible();

  // The quantity selector offers 1..countInStock.
  const select = panel.getByRole('combobox').first();
  await expect(select.locator('option')).toHaveCount(product.stockQuantity);
  await select.selectOption('3');
  const subtotal3 = ((Math.round(product.productPrice * 100) * 3) / 100).toFixed(2);
  await expect(panel.getByText(`$${subtotal3}`).first()).toBeVisible();

  await panel.getByRole('button', { name: 'Continue Shopping' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: /open cart, 3 items/i })).toBeVisible();

  // Persisted locally (redux-persist key root): a reload keeps the cart.
  await page.reload();
  await expect(page.getByRole('button', { name: /open cart, 3 items/i })).toBeVisible();
  const stored = await page.evaluate(() => localStorage.getItem('persist:root'));
  expect(stored).toContain(product._id);

  // Remove empties the cart.
  await page.getByRole('button', { name: /open cart/i }).click();
  await page.getByRole('dialog', { name: 'Shopping cart' }).getByRole('button', { name: 'Remove' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Shopping cart' }).getByText(/your cart is empty/i),
  ).toBeVisible();

  expect(errors).toEqual([]);
});

test('a sold-out product shows a disabled Unavailable button', async ({ page, request }) => {
  const all = (
    await Promise.all(
      ['retro-games', 'board-games', 'puzzles', 'consoles'].map((c) => productsIn(request, c)),
    )
  ).flat();
  const soldOut = all.find((p) => p.stockQuantity === 0);
  expect(soldOut, 'the seed has products at 0 stock').toBeTruthy();
  await page.goto(`/shop/${soldOut!.productCategory}/product/${soldOut!._id}`);
  await expect(page.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0);
});

test('unknown paths and unknown categories go home; unknown API paths answer JSON 404', async ({
  page,
  request,
}) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/shop/not-a-category');
  await expect(page).toHaveURL(/\/$/);
  const res = await request.get('/api/no-such-thing');
  expect(res.status()).toBe(404);
  expect(typeof (await res.json()).message).toBe('string');
});

test('product images are served with long cache headers @phone', async ({ page, request }) => {
  const [first] = await productsIn(request, 'consoles');
  expect(first?.productImage.length).toBeGreaterThan(0);
  const img = await request.get(first!.productImage[0]!);
  expect(img.ok()).toBeTruthy();
  expect(img.headers()['cache-control']).toContain('immutable');
  await page.goto('/shop/consoles');
  await expect(page.getByRole('heading', { level: 1, name: /consoles/i })).toBeVisible();
  const loaded = await page
    .locator('a[href*="/product/"] img')
    .first()
    .evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);
  expect(loaded).toBe(true);
});

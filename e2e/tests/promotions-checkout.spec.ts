import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  expectNoSeriousA11yViolations,
  productsIn,
  addShopperAndLogIn,
  type ApiProduct,
  watchConsole,
} from './helpers';

/**
 * Issue 32 (decision 009): a shopper applies a discount code at checkout. The admin makes the code
 * through the API, the summary shows its discount and the lower total, a gift card pays part of that
 * total and the demo PayPal the rest, and the confirmation names the code.
 */

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/users/login', { data: ADMIN });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { token: string }).token;
}

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();

/** A code of `percent`% off everything, unique to this run (codes are 3 to 32 of A-Z 0-9 - _). */
async function createPercentCode(request: APIRequestContext, percent: number): Promise<string> {
  const code = `E2E-TEN-${unique()}`;
  const res = await request.post('/api/promotions/admin', {
    data: { code, kind: 'percentage', value: percent },
    headers: { authorization: `Bearer ${await adminToken(request)}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return code;
}

async function createGiftCard(request: APIRequestContext, balance: number): Promise<string> {
  const code = `PROMO-${unique()}`;
  const res = await request.post('/api/giftcards/admin/create', {
    data: { code, balance },
    headers: { authorization: `Bearer ${await adminToken(request)}` },
  });
  expect(res.status()).toBe(201);
  return code;
}

async function stockedProduct(request: APIRequestContext, category: string, minPrice: number) {
  const product = (await productsIn(request, category)).find(
    (p: ApiProduct) => p.stockQuantity >= 5 && p.productPrice >= minPrice,
  );
  expect(product, `a ${category} product with stock`).toBeTruthy();
  return product!;
}

async function addToCartAndCheckout(page: Page, product: ApiProduct) {
  await page.goto(`/shop/${product.productCategory}/product/${product._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('dialog', { name: 'Shopping cart' }).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
}

async function fillShipping(page: Page) {
  await page.getByLabel('Address', { exact: true }).fill('1 Arcade Way');
  await page.getByLabel('City', { exact: true }).fill('Sacramento');
  await page.getByLabel('Postal Code').fill('95814');
  await page.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'United States' });
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByRole('button', { name: 'Back to Shipping Address' })).toBeVisible();
}

/** The value beside `label` in a description list (the summary's totals, an order's facts). */
const valueOf = (scope: Page | Locator, label: string) => scope.locator(`dt:text-is("${label}") + dd`);

const cents = (text: string | null) => Math.round(Number(text!.replace(/[^0-9.]/g, '')) * 100);

/** Calls the API as the logged-in shopper (the token the app keeps). */
function asShopper<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (url) => {
    const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}');
    const token = JSON.parse(root.auth).userInfo.token;
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, url) as Promise<T>;
}

test('a discount code at checkout: the lower total, paid by a gift card and PayPal, named on the confirmation', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const product = await stockedProduct(request, 'consoles', 50);
  const code = await createPercentCode(request, 10);
  const card = await createGiftCard(request, 10);

  await addShopperAndLogIn(page, request, 'Dora', 'Discount');
  await addToCartAndCheckout(page, product);
  await fillShipping(page);

  const totals = page.getByLabel('Totals');
  const itemsBefore = cents(await valueOf(totals, 'Items').textContent());
  const totalBefore = cents(await valueOf(totals, 'Total').textContent());

  // Typed in lower case, applied with Enter; the server's answer upper-cases it.
  const box = page.getByRole('region', { name: 'Discount Code' });
  await box.getByLabel('Discount code').fill(code.toLowerCase());
  await box.getByLabel('Discount code').press('Enter');
  await expect(box.getByRole('status')).toHaveText(`${code} applied: 10% off`);
  await expect(box.getByRole('button', { name: `Remove discount code ${code}` })).toBeFocused();

  const discountLine = valueOf(totals, `Discount (${code})`);
  await expect(discountLine).toHaveText(/^−\$\d+\.\d\d$/);
  const discount = cents(await discountLine.textContent());
  // 10% of the items, to the cent.
  expect(Math.abs(discount - itemsBefore / 10)).toBeLessThanOrEqual(1);
  // Items stays the subtotal before the discount.
  expect(cents(await valueOf(totals, 'Items').textContent())).toBe(itemsBefore);
  const total = cents(await valueOf(totals, 'Total').textContent());
  expect(total).toBeLessThan(totalBefore);
  await expectNoSeriousA11yViolations(page);

  // The gift card pays $10.00 of the discounted total; PayPal the rest.
  await page.getByLabel('Gift Card', { exact: true }).check();
  await page.getByLabel('Gift card code').fill(card);
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(page.getByRole('button', { name: 'Apply Gift Card' })).toBeEnabled();
  await page.getByRole('button', { name: 'Apply Gift Card' }).click();
  await expect(page.getByText('Gift card applied to your order.')).toBeVisible();
  const amounts = page.getByLabel('Gift card amounts');
  await expect(valueOf(amounts, 'Applied amount')).toHaveText('$10.00');
  expect(cents(await valueOf(amounts, 'Remainder').textContent())).toBe(total - 1000);
  expect(cents(await valueOf(totals, 'Total').textContent())).toBe(total);
  expect(cents(await valueOf(totals, 'Amount due').textContent())).toBe(total - 1000);

  await page.getByRole('button', { name: 'Demo payment — no money moves' }).click();
  await expect(page).toHaveURL(/\/order-confirmation\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const orderId = page.url().split('/').pop()!;
  await expect(valueOf(page, `Discount (${code})`)).toHaveText(`−$${(discount / 100).toFixed(2)}`);
  expect(cents(await valueOf(page, 'Total Price').textContent())).toBe(total);

  const order = await asShopper<{
    isPaid: boolean;
    discountCode: string | null;
    discountPrice: number;
    totalPrice: number;
    giftCardAmount: number;
    amountDue: number;
  }>(page, `/api/orders/${orderId}`);
  expect(order).toMatchObject({
    isPaid: true,
    discountCode: code,
    discountPrice: discount / 100,
    totalPrice: total / 100,
    giftCardAmount: 10,
    amountDue: 0,
  });
  // The cart is empty and the code went with the order.
  await page.goto('/place-order');
  await expect(page.getByText('Your cart is empty')).toBeVisible();
  expect(errors).toEqual([]);
});

test('the discount code field fits a 360 px phone, and Remove puts the total back', async ({
  page,
  request,
}) => {
  const product = await stockedProduct(request, 'puzzles', 0);
  const code = await createPercentCode(request, 10);
  await addShopperAndLogIn(page, request, 'Pia', 'Phone');
  await page.setViewportSize({ width: 360, height: 780 });
  await addToCartAndCheckout(page, product);

  const totals = page.getByLabel('Totals');
  const totalBefore = await valueOf(totals, 'Total').textContent();
  const box = page.getByRole('region', { name: 'Discount Code' });
  await box.getByLabel('Discount code').fill(code);
  await box.getByRole('button', { name: 'Apply' }).click();
  await expect(valueOf(totals, `Discount (${code})`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const remove = box.getByRole('button', { name: `Remove discount code ${code}` });
  const rect = (await remove.boundingBox())!;
  expect(rect.x + rect.width).toBeLessThanOrEqual(360);
  expect(rect.height).toBeGreaterThanOrEqual(24);

  // Kept through a reload of checkout, as the address is.
  await page.reload();
  await expect(valueOf(totals, `Discount (${code})`)).toBeVisible();

  await remove.click();
  await expect(box.getByLabel('Discount code')).toBeFocused();
  await expect(valueOf(totals, `Discount (${code})`)).toHaveCount(0);
  await expect(valueOf(totals, 'Total')).toHaveText(totalBefore!);
  await expect(box.getByRole('status')).toHaveText(`${code} removed.`);
});

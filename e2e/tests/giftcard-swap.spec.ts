import type { APIRequestContext, Page } from '@playwright/test';
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
 * Issue 30: "Remove" beside an applied gift card at checkout. A card that pays part of the order is
 * removed (its money goes back to it), another is applied, and PayPal (the demo button) pays the rest.
 */

async function createGiftCard(request: APIRequestContext, balance: number): Promise<string> {
  const login = await request.post('/api/users/login', { data: ADMIN });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { token: string }).token;
  const code = `SWAP-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const res = await request.post('/api/giftcards/admin/create', {
    data: { code, balance },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(201);
  return code;
}

/** Calls the API as the logged-in shopper (the token the app keeps). */
function asShopper<T>(page: Page, url: string, body?: object): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}');
      const token = JSON.parse(root.auth).userInfo.token;
      const res = await fetch(url, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return res.json();
    },
    { url, body },
  ) as Promise<T>;
}

const balanceOf = async (page: Page, code: string) =>
  (await asShopper<{ balance: number }>(page, '/api/giftcards/check-balance', { code })).balance;

/** The shipping step, whether Country is typed or chosen from a list. */
async function fillShipping(page: Page) {
  await page.getByLabel('Address', { exact: true }).fill('1 Arcade Way');
  await page.getByLabel('City', { exact: true }).fill('Sacramento');
  await page.getByLabel('Postal Code').fill('95814');
  const country = page.getByLabel('Country', { exact: true });
  if ((await country.evaluate((el) => el.tagName)) === 'SELECT') {
    await country.selectOption({ label: 'United States' });
  } else {
    await country.fill('United States');
  }
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByRole('button', { name: 'Back to Shipping Address' })).toBeVisible();
}

async function checkAndApply(page: Page, code: string) {
  await page.getByLabel('Gift card code').fill(code);
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(page.getByRole('button', { name: 'Apply Gift Card' })).toBeEnabled();
  await page.getByRole('button', { name: 'Apply Gift Card' }).click();
  await expect(page.getByText('Gift card applied to your order.')).toBeVisible();
}

const amounts = (page: Page) => page.getByLabel('Gift card amounts');
const amountOf = (page: Page, label: string) =>
  amounts(page)
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

test('gift card swap: apply a card, Remove it, apply another, PayPal pays the rest', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const list = await productsIn(request, 'consoles');
  const product = list.find((p: ApiProduct) => p.stockQuantity >= 5 && p.productPrice >= 50);
  expect(product, 'a console with stock').toBeTruthy();
  const first = await createGiftCard(request, 10);
  const second = await createGiftCard(request, 15);

  await addShopperAndLogIn(page, request, 'Sam', 'Swapper');
  await page.goto(`/shop/${product!.productCategory}/product/${product!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('dialog', { name: 'Shopping cart' }).getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await fillShipping(page);
  await page.getByLabel('Gift Card', { exact: true }).check();

  // The first card pays $10.00 of it; the rest would go to PayPal.
  await checkAndApply(page, first);
  await expect(amountOf(page, 'Applied amount')).toHaveText('$10.00');
  const remainderWithFirst = await amountOf(page, 'Remainder').textContent();
  await expect(page.getByLabel('Gift card code')).toBeDisabled();
  const remove = page.getByRole('button', { name: 'Remove gift card' });
  await expect(remove).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  expect(await balanceOf(page, first)).toBe(0);

  // Remove: the card has its $10.00 back, and the code field, Check Balance and Apply work again.
  await remove.click();
  await expect(
    page.getByText('Gift card removed: $10.00 went back to the card.', { exact: false }),
  ).toBeVisible();
  await expect(remove).toBeHidden();
  await expect(page.getByRole('button', { name: 'Demo payment — no money moves' })).toBeHidden();
  await expect(page.getByLabel('Gift card code')).toBeEnabled();
  await expect(amountOf(page, 'Balance')).toHaveText('$10.00');
  expect(await balanceOf(page, first)).toBe(10);

  // The second card pays $15.00, and the remainder is $5.00 less than with the first.
  await checkAndApply(page, second);
  await expect(amountOf(page, 'Applied amount')).toHaveText('$15.00');
  const remainder = await amountOf(page, 'Remainder').textContent();
  const cents = (text: string | null) => Math.round(Number(text!.replace(/[$,]/g, '')) * 100);
  expect(cents(remainder)).toBe(cents(remainderWithFirst) - 500);
  await expect(page.getByText('Amount to pay with PayPal:')).toContainText(remainder!);

  await page.getByRole('button', { name: 'Demo payment — no money moves' }).click();
  await expect(page).toHaveURL(/\/order-confirmation\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const orderId = page.url().split('/').pop()!;
  const order = await asShopper<{ isPaid: boolean; giftCardAmount: number; amountDue: number }>(
    page,
    `/api/orders/${orderId}`,
  );
  expect(order).toMatchObject({ isPaid: true, giftCardAmount: 15, amountDue: 0 });
  // Only the second card paid: the first keeps its whole balance.
  expect(await balanceOf(page, first)).toBe(10);
  expect(await balanceOf(page, second)).toBe(0);
  expect(errors).toEqual([]);
});

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addShopperAndLogIn, productsIn, watchConsole } from './helpers';

const ADDRESS = { address: '1 Arcade Way', city: 'Sacramento', postalCode: '95814', country: 'USA' };

/** POST /api/orders as the signed-in shopper (a client written to the spec), answering status and body. */
function placeOrder(page: Page, product: string, itemQuantity: number) {
  return page.evaluate(
    async ({ product, itemQuantity, address }) => {
      const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}');
      const token = JSON.parse(root.auth).userInfo.token;
      const res = await fetch('/api/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          orderItems: [{ product, itemQuantity }],
          shippingAddress: address,
          paymentMethod: 'paypal',
        }),
      });
      return { status: res.status, body: await res.json() };
    },
    { product, itemQuantity, address: ADDRESS },
  );
}

test('three unpaid orders are the most a shopper holds; one is paid from My Orders, and the cart is left alone', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const [product, other] = (await productsIn(request, 'puzzles')).filter((p) => p.stockQuantity >= 10);
  expect(product && other, 'two puzzles with stock').toBeTruthy();

  await addShopperAndLogIn(page, request, 'Hilda', 'Holds');

  // Three open orders (different carts, so none replaces another), then the shop says no.
  const placed: string[] = [];
  const numbers: number[] = [];
  for (const qty of [1, 2, 3]) {
    const { status, body } = await placeOrder(page, product!._id, qty);
    expect(status).toBe(201);
    placed.push(body._id as string);
    numbers.push(body.orderNumber as number);
  }
  const refused = await placeOrder(page, product!._id, 4);
  expect(refused.status).toBe(409);
  expect(refused.body.message).toMatch(
    /You already have 3 unpaid orders\. Please pay an open order in My Orders/,
  );

  // Something in the cart, which paying an old order must not touch.
  await page.goto(`/shop/${other!.productCategory}/product/${other!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Shopping cart' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /open cart/i })).toContainText('1');

  await page.goto('/order-history');
  await page.getByRole('link', { name: `Pay now for order #${numbers[0]}` }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${placed[0]}$`));
  await expect(page.getByRole('heading', { name: 'Pay for this order' })).toBeVisible();
  await page.getByLabel('PayPal', { exact: true }).check();
  await page.getByRole('button', { name: 'Demo payment — no money moves' }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${placed[0]}$`), { timeout: 20_000 });
  await expect(page.getByRole('button', { name: /open cart/i })).toContainText('1');

  // Paid orders hold nothing: there is room for a new one again.
  expect((await placeOrder(page, product!._id, 4)).status).toBe(201);
  await page.goto('/order-history');
  await expect(page.getByRole('link', { name: `Pay now for order #${numbers[0]}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Pay now for order #${numbers[1]}` })).toBeVisible();
  // The one error the browser logs is the refused fourth order, which this test asked for.
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
});

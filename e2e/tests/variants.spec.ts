import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  type ApiProduct,
  expectNoSeriousA11yViolations,
  productsIn,
  addShopperAndLogIn,
  watchConsole,
} from './helpers';

/**
 * Issue 31: a retro game sold in tiers. The shopper picks a condition and a region on the product page
 * (price and stock follow, the address names the tier), puts two tiers of one game in the cart, checks
 * out, and finds both tiers named on the confirmation and in My Orders.
 */

type Variant = ApiProduct['variants'][number];

/**
 * The demo catalogue's game sold by condition and region (the seed's tiers, SKUs ND64-…); other
 * journeys add games with the same options.
 */
async function tieredGame(request: APIRequestContext): Promise<ApiProduct> {
  const games = await productsIn(request, 'retro-games');
  const game = games.find(
    (p) =>
      p.options.map((o) => o.name).join() === 'Condition,Region' &&
      p.variants.some((v) => v.sku.startsWith('ND64-')),
  );
  expect(game, 'a retro game sold by condition and region').toBeTruthy();
  return game!;
}

/** Gives the two tiers the journey buys enough stock, through the admin's variants call. */
async function restock(request: APIRequestContext, game: ApiProduct, tiers: Variant[]) {
  const login = await request.post('/api/users/login', { data: ADMIN });
  const token = ((await login.json()) as { token: string }).token;
  const res = await request.put(`/api/products/update/${game._id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      variants: game.variants.map((v) => ({
        _id: v._id,
        sku: v.sku,
        options: v.options,
        price: v.price,
        stockQuantity: tiers.some((t) => t._id === v._id) ? 20 : v.stockQuantity,
      })),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const usd = (n: number) => `$${n.toFixed(2)}`;
const titleOf = (v: Variant) => `${v.options.Condition} / ${v.options.Region}`;

/** Taps a value of an option, as a shopper does: on its button (the radio inside is drawn by it). */
async function choose(page: Page, option: string, value: string) {
  const group = page.getByRole('group', { name: option });
  await group
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: new RegExp(`^${value}\\b`) }) })
    .click();
  await expect(group.getByRole('radio', { name: new RegExp(`^${value}\\b`) })).toBeChecked();
}

test('choose a tier, buy two tiers of one game, and find both named after the sale', async ({
  page,
  request,
}) => {
  const game = await tieredGame(request);
  const find = (condition: string, region: string) =>
    game.variants.find((v) => v.options.Condition === condition && v.options.Region === region)!;
  const boxed = find('Complete in box', 'NTSC-U');
  const loosePal = find('Loose', 'PAL');
  await restock(request, game, [boxed, loosePal]);
  const errors = watchConsole(page);

  await addShopperAndLogIn(page, request, 'Tia', 'Tiers');
  const url = `/shop/retro-games/product/${game._id}`;
  await page.goto(url);
  const price = page.locator('main').getByText(usd(game.productPrice), { exact: true }).first();
  await expect(price).toBeVisible();
  await expect(page.getByRole('group', { name: 'Condition' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Region' })).toBeVisible();
  // Each value says what it costs against the tier shown.
  await expect(
    page.getByRole('radio', {
      name: new RegExp(`^Complete in box \\+${usd(boxed.price - game.productPrice).replace('$', '\\$')}`),
    }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The boxed copy: its price and stock, and the address names it.
  await choose(page, 'Condition', 'Complete in box');
  await expect(page).toHaveURL(new RegExp(`\\?variant=${boxed._id}$`));
  await expect(page.locator('main').getByText(usd(boxed.price), { exact: true }).first()).toBeVisible();
  await expect(page.getByText('In stock: 20', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await expect(panel).toContainText(titleOf(boxed));

  // A loose PAL copy of the same game: a second line.
  await page.goto(url);
  await choose(page, 'Region', 'PAL');
  await choose(page, 'Condition', 'Loose');
  await expect(page).toHaveURL(new RegExp(`\\?variant=${loosePal._id}$`));
  await expect(page.locator('main').getByText(usd(loosePal.price), { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await expect(panel).toContainText(titleOf(loosePal));

  // A link to a tier opens it, rendered by the server before any script runs.
  const html = await (await request.get(`${url}?variant=${boxed._id}`)).text();
  expect(html).toContain(usd(boxed.price));

  await panel.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await page.getByLabel('Address', { exact: true }).fill('1 Arcade Way');
  await page.getByLabel('City', { exact: true }).fill('Sacramento');
  await page.getByLabel('Postal Code').fill('95814');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByText(titleOf(boxed)).first()).toBeVisible();
  await page.getByRole('button', { name: 'Demo payment — no money moves' }).click();
  await expect(page).toHaveURL(/\/order-confirmation\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const orderId = page.url().split('/').pop()!;
  for (const tier of [boxed, loosePal]) await expect(page.getByText(titleOf(tier))).toBeVisible();
  await expect(page.getByText(usd(boxed.price + loosePal.price)).first()).toBeVisible();

  // My Orders: the order, and in it both tiers.
  await page.goto('/order-history');
  await page
    .getByRole('link', { name: /View details/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  for (const tier of [boxed, loosePal]) await expect(page.getByText(titleOf(tier))).toBeVisible();
  expect(errors).toEqual([]);
});

test('a tier is chosen with the keyboard, and a sold-out one cannot be added @phone', async ({
  page,
  request,
}) => {
  const game = await tieredGame(request);
  const soldOut = game.variants.find((v) => v.stockQuantity === 0);
  expect(soldOut, 'a sold-out tier in the demo catalogue').toBeTruthy();
  await page.goto(`/shop/retro-games/product/${game._id}`);
  // The groups fit a phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await page.goto(`/shop/retro-games/product/${game._id}?variant=${soldOut!._id}`);
  await expect(page.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
  await expect(
    page.getByRole('radio', { name: new RegExp(`^${soldOut!.options.Condition}\\b.*Sold out`) }),
  ).toBeChecked();

  // Back to the first tier with the keyboard: Tab into the group, arrows to choose.
  const first = game.variants[0]!;
  const radio = page.getByRole('radio', { name: new RegExp(`^${first.options.Condition}\\b`) });
  await radio.focus();
  await page.keyboard.press('Space');
  await expect(radio).toBeChecked();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
});

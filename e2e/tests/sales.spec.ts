import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  type ApiProduct,
  expectNoSeriousA11yViolations,
  logInAsAdmin,
  productsIn,
  watchConsole,
} from './helpers';

/**
 * Issue 32: scheduled sales. A sale made through the API shows on the category's cards and the product
 * page (the regular price struck through beside the sale price, a Sale badge, when it ends); an admin
 * makes another in the Promotions section and finds it listed. Every sale made here is deactivated at
 * the end, so the journeys after this one see regular prices.
 */

/** A product as the catalogue answers it during a sale (issue 32). */
type SaleProduct = ApiProduct & { compareAtPrice?: number; saleEndsAt?: string };

interface ApiPromotion {
  _id: string;
  code: string | null;
  kind: string;
  value: number;
  startsAt: string | null;
  endsAt: string | null;
  categories: string[];
  active: boolean;
  state: string;
}

const usd = (n: number) => `$${n.toFixed(2)}`;

async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/users/login', { data: ADMIN });
  expect(login.ok()).toBeTruthy();
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

async function deactivate(request: APIRequestContext, id: string) {
  const res = await request.delete(`/api/promotions/admin/${id}`, { headers: await adminHeaders(request) });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** A `datetime-local` value for `date` in this machine's time zone (the browser's too). */
function localInput(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}

test('a sale on puzzles shows its prices on the cards and the product page, until it is deactivated', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const before = (await productsIn(request, 'puzzles')) as SaleProduct[];
  // A puzzle sold at one price, so its card shows that price (not "from").
  const target = before.find((p) => new Set(p.variants.map((v) => v.price)).size === 1);
  expect(target, 'a puzzle sold at one price').toBeTruthy();
  expect(target!.compareAtPrice, 'no sale on puzzles before this one').toBeUndefined();

  const headers = await adminHeaders(request);
  const startsAt = new Date(Date.now() - 60_000).toISOString();
  const endsAt = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
  const created = await request.post('/api/promotions/admin', {
    headers,
    data: { kind: 'sale', value: 25, startsAt, endsAt, categories: ['puzzles'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const sale = (await created.json()) as ApiPromotion;
  try {
    expect(sale).toMatchObject({ code: null, kind: 'sale', value: 25, state: 'active' });

    // The API's answer: the sale price, the regular price beside it, when the sale ends.
    const product = ((await productsIn(request, 'puzzles')) as SaleProduct[]).find(
      (p) => p._id === target!._id,
    )!;
    expect(product.compareAtPrice).toBe(target!.productPrice);
    expect(Math.abs(product.productPrice - product.compareAtPrice! * 0.75)).toBeLessThanOrEqual(0.01);
    expect(Date.parse(product.saleEndsAt!)).toBe(Date.parse(endsAt));
    const salePrice = usd(product.productPrice);
    const regular = usd(product.compareAtPrice!);

    // Its card on the category page.
    await page.goto('/shop/puzzles');
    const card = page.locator(`a[href$="/product/${product._id}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByText('Sale', { exact: true })).toBeVisible();
    await expect(card.locator('s')).toHaveText(`Regular price ${regular}`);
    await expect(card.locator('s')).toBeVisible();
    await expect(card.getByText(`Sale price ${salePrice}`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Its page: the same prices, and when the sale ends.
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/shop/puzzles/product/${product._id}$`));
    await expect(page.getByRole('heading', { level: 1, name: product.productName })).toBeVisible();
    const main = page.locator('article');
    await expect(main.getByText(`Sale price ${salePrice}`)).toBeVisible();
    await expect(main.locator('s')).toHaveText(`Regular price ${regular}`);
    await expect(main.getByText('Sale', { exact: true })).toBeVisible();
    await expect(main.getByText(/^Sale ends \w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2}\s[AP]M$/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The page as the server renders it: the same, and its offer good until the sale's end.
    const html = await (await request.get(`/shop/puzzles/product/${product._id}`)).text();
    expect(html).toContain(`"priceValidUntil":"${endsAt.slice(0, 10)}"`);
    expect(html).toContain(`"price":"${product.productPrice.toFixed(2)}"`);
    expect(html.replace(/<!-- -->/g, '')).toMatch(/Sale ends <time[^>]*>[^<]* UTC<\/time>/i);
    expect(errors).toEqual([]);
  } finally {
    await deactivate(request, sale._id);
  }

  // Deactivated: regular prices again.
  const after = ((await productsIn(request, 'puzzles')) as SaleProduct[]).find((p) => p._id === target!._id)!;
  expect(after.productPrice).toBe(target!.productPrice);
  expect(after.compareAtPrice).toBeUndefined();
});

test('an admin schedules a sale on board games in the Promotions section and finds it listed', async ({
  page,
  request,
}) => {
  // Tomorrow, for two hours: scheduled, so no other journey sees its prices.
  const start = new Date(Date.now() + 24 * 60 * 60_000);
  start.setSeconds(0, 0);
  const end = new Date(start.getTime() + 2 * 60 * 60_000);
  await logInAsAdmin(page);
  await page.goto('/admin/dashboard?section=promotions');
  await expect(page.getByRole('heading', { level: 2, name: 'Promotions' })).toBeVisible();

  await page.getByRole('button', { name: 'New Promotion' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Promotion' });
  await dialog.getByLabel('Kind').selectOption({ label: 'Scheduled sale (no code)' });
  await expect(dialog.getByLabel('Code')).toHaveCount(0);
  await expect(dialog.getByLabel('Usage limit')).toHaveCount(0);
  await dialog.getByLabel('Value (%)').fill('17');
  await dialog.getByLabel('Starts').fill(localInput(start));
  await dialog.getByLabel('Ends').fill(localInput(end));
  await dialog
    .getByRole('group', { name: 'Categories' })
    .getByRole('checkbox', { name: 'Board Games' })
    .check();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Create Promotion' }).click();
  await expect(dialog).toBeHidden();

  const name = 'Sale: 17% off board games';
  const stored = (
    (await (
      await request.get('/api/promotions/admin', { headers: await adminHeaders(request) })
    ).json()) as ApiPromotion[]
  ).filter((p) => p.kind === 'sale' && p.value === 17 && p.active);
  try {
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      code: null,
      categories: ['board-games'],
      startsAt: start.toISOString(),
      endsAt: end.toISOString(),
      state: 'scheduled',
    });
    const heading = page.getByRole('heading', { level: 3, name });
    await expect(heading).toBeFocused();
    const item = page
      .getByRole('list', { name: 'Promotions' })
      .getByRole('listitem')
      .filter({ has: heading });
    await expect(item).toContainText('Scheduled');
    await expect(item).toContainText(/From .* to /);
    await expectNoSeriousA11yViolations(page);
  } finally {
    for (const sale of stored) await deactivate(request, sale._id);
  }
});

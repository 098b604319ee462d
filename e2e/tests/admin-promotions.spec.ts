import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, expectNoSeriousA11yViolations, logInAsAdmin, productsIn } from './helpers';

interface ApiPromotion {
  _id: string;
  code: string;
  kind: string;
  value: number;
  usageLimit: number | null;
  categories: string[];
  products: string[];
  active: boolean;
  used: number;
  state: string;
}

/** A code of this run only (the e2e database lives for the whole run). */
function uniqueCode(prefix: string): string {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}`;
}

async function openPromotions(page: Page) {
  await page.goto('/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('button', { name: 'Promotions' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Promotions' })).toBeVisible();
  await expect(page).toHaveURL(/section=promotions/);
}

async function promotionsThroughApi(request: APIRequestContext): Promise<ApiPromotion[]> {
  const login = await (await request.post('/api/users/login', { data: ADMIN })).json();
  const res = await request.get('/api/promotions/admin', {
    headers: { authorization: `Bearer ${login.token as string}` },
  });
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as ApiPromotion[];
}

test('an admin creates a puzzles code with a usage limit, edits its value and deactivates it', async ({
  page,
  request,
}) => {
  const code = uniqueCode('PUZZLE');
  await logInAsAdmin(page);
  await openPromotions(page);

  // Create: 15% off puzzles, at most 25 orders.
  await page.getByRole('button', { name: 'New Promotion' }).click();
  const create = page.getByRole('dialog', { name: 'New Promotion' });
  await create.getByLabel('Code').fill(code.toLowerCase());
  await expect(create.getByLabel('Kind')).toHaveValue('percentage');
  await create.getByLabel('Value (%)').fill('15');
  await create.getByRole('group', { name: 'Categories' }).getByRole('checkbox', { name: 'Puzzles' }).check();
  await create.getByLabel('Usage limit').fill('25');
  await expect(create.getByRole('checkbox', { name: 'Active' })).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await create.getByRole('button', { name: 'Create Promotion' }).click();
  await expect(create).toBeHidden();

  // Listed (kept in capitals) as Active, unused; the focus is on it.
  const heading = page.getByRole('heading', { level: 3, name: code });
  await expect(heading).toBeFocused();
  const item = page.getByRole('list', { name: 'Promotions' }).getByRole('listitem').filter({ has: heading });
  await expect(item).toContainText('15% off puzzles');
  await expect(item).toContainText('Active');
  await expect(item).toContainText('0 of 25 used');
  await expectNoSeriousA11yViolations(page);

  // Edit its value: the form opens filled in.
  await item.getByRole('button', { name: `Edit ${code}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${code}` });
  await expect(edit.getByLabel('Value (%)')).toHaveValue('15');
  await expect(edit.getByLabel('Usage limit')).toHaveValue('25');
  await expect(edit.getByRole('checkbox', { name: 'Puzzles' })).toBeChecked();
  await edit.getByLabel('Value (%)').fill('20');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expect(item).toContainText('20% off puzzles');
  await expect(item.getByRole('button', { name: `Edit ${code}` })).toBeFocused();

  // Deactivate, after confirming.
  await item.getByRole('button', { name: `Deactivate ${code}` }).click();
  const confirm = page.getByRole('dialog', { name: `Deactivate ${code}?` });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toContainText('Inactive');
  await expect(item.getByRole('button', { name: `Activate ${code}` })).toBeVisible();

  // Stored as shown.
  const stored = (await promotionsThroughApi(request)).find((p) => p.code === code);
  expect(stored).toMatchObject({
    kind: 'percentage',
    value: 20,
    usageLimit: 25,
    categories: ['puzzles'],
    products: [],
    active: false,
    used: 0,
    state: 'inactive',
  });

  // A reload keeps the section and reads the same.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Promotions' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Promotions' }).getByRole('listitem').filter({ hasText: code }),
  ).toContainText('Inactive');
});

test('a code is limited to a product picked by name, on a 360 px phone @phone', async ({ page, request }) => {
  const product = (await productsIn(request, 'puzzles'))[0]!;
  const code = uniqueCode('ONE');
  await logInAsAdmin(page);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/admin/dashboard?section=promotions');
  await page.getByRole('button', { name: 'New Promotion' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Promotion' });
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('Kind').selectOption('fixed');
  await dialog.getByLabel('Value ($)').fill('5.50');
  const products = dialog.getByRole('group', { name: 'Products' });
  await products.getByRole('searchbox', { name: 'Search products to add' }).fill(product.productName);
  await products.getByRole('button', { name: `Add ${product.productName}`, exact: true }).click();
  await expect(products.getByRole('list', { name: 'Chosen products' })).toContainText(product.productName);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const panel = (await dialog.boundingBox())!;
  const submit = dialog.getByRole('button', { name: 'Create Promotion' });
  await submit.scrollIntoViewIfNeeded();
  const box = (await submit.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
  await expectNoSeriousA11yViolations(page);
  await submit.click();

  const item = page.getByRole('list', { name: 'Promotions' }).getByRole('listitem').filter({ hasText: code });
  await expect(item).toContainText('$5.50 off selected products');
  await expect(item).toContainText('0 used');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const stored = (await promotionsThroughApi(request)).find((p) => p.code === code);
  expect(stored).toMatchObject({ kind: 'fixed', value: 5.5, products: [product._id], active: true });
});

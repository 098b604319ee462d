import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, logInAsAdmin, productsIn, type ApiProduct } from './helpers';

/** Adds an option in the open product form: its name, then its values comma-separated and Enter. */
async function addOption(page: Page, index: number, name: string, values: string) {
  await page.getByRole('button', { name: 'Add option' }).click();
  await expect(page.getByLabel(`Option ${index} name`)).toBeFocused();
  await page.getByLabel(`Option ${index} name`).fill(name);
  const typed = page.getByLabel(`New values for ${name}`);
  await typed.fill(values);
  await typed.press('Enter');
}

test('an admin adds a product in four tiers of two options; its page offers them and shows the first tier’s price', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const name = `E2E Tiered Cartridge ${stamp}`;
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#0e7490' } })
    .png()
    .toBuffer();
  const tiers = [
    { title: 'Loose / NTSC-U', sku: `E2E-${stamp}-L-US`, price: '34.50', stock: '3' },
    { title: 'Loose / PAL', sku: `E2E-${stamp}-L-EU`, price: '30.00', stock: '1' },
    { title: 'Complete in box / NTSC-U', sku: `E2E-${stamp}-C-US`, price: '134.50', stock: '2' },
    { title: 'Complete in box / PAL', sku: `E2E-${stamp}-C-EU`, price: '150.00', stock: '1' },
  ];

  await logInAsAdmin(page);
  await page.goto('/admin/dashboard?section=add-product');
  const form = page.getByRole('form', { name: 'New product' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Category').selectOption('retro-games');
  await form.getByLabel('Description').fill('A cartridge sold loose or boxed, in two regions.');
  await addOption(page, 1, 'Condition', 'Loose, Complete in box');
  await addOption(page, 2, 'Region', 'NTSC-U, PAL');
  // The options take the place of the product's own price and stock.
  await expect(form.getByLabel('Price', { exact: true })).toHaveCount(0);

  await form.getByRole('button', { name: 'Generate combinations' }).click();
  const rows = form.getByRole('list', { name: 'Variants' }).getByRole('listitem');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText('Default');
  for (const [i, tier] of tiers.entries()) {
    await expect(rows.nth(i)).toContainText(tier.title);
    await form.getByLabel(`SKU for ${tier.title}`).fill(tier.sku);
    await form.getByLabel(`Price for ${tier.title}`).fill(tier.price);
    await form.getByLabel(`Stock for ${tier.title}`).fill(tier.stock);
  }
  await expectNoSeriousA11yViolations(page);
  await form
    .locator('input[type="file"]')
    .setInputFiles({ name: 'cartridge.png', mimeType: 'image/png', buffer: png });
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText('Product added successfully!')).toBeVisible();

  // The API has the four variants in the order of the table, the first one the spec's price and stock.
  const found = (await (
    await request.get(`/api/products?category=retro-games&q=${encodeURIComponent(name)}`)
  ).json()) as ApiProduct[];
  expect(found).toHaveLength(1);
  const product = found[0]!;
  expect(product.options).toEqual([
    { name: 'Condition', values: ['Loose', 'Complete in box'] },
    { name: 'Region', values: ['NTSC-U', 'PAL'] },
  ]);
  expect(product.variants.map((v) => [v.sku, v.price, v.stockQuantity])).toEqual(
    tiers.map((t) => [t.sku, Number(t.price), Number(t.stock)]),
  );
  expect(product.productPrice).toBe(34.5);
  expect(product.stockQuantity).toBe(3);

  // The shop's page: one radio group per option, the first tier chosen and its price shown.
  await page.goto(`/shop/retro-games/product/${product._id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const condition = page.getByRole('group', { name: 'Condition' });
  const region = page.getByRole('group', { name: 'Region' });
  await expect(condition.getByRole('radio')).toHaveCount(2);
  await expect(region.getByRole('radio')).toHaveCount(2);
  await expect(condition.getByRole('radio', { name: /^Loose/ })).toBeChecked();
  await expect(region.getByRole('radio', { name: /^NTSC-U/ })).toBeChecked();
  await expect(page.getByText('$34.50', { exact: true }).first()).toBeVisible();
});

test('the options editor fits a 360 px phone, in the add form and in the edit modal', async ({
  page,
  request,
}) => {
  await logInAsAdmin(page);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/admin/dashboard?section=add-product');
  await addOption(page, 1, 'Condition', 'Loose, Complete in box, New in shrink wrap');
  await addOption(page, 2, 'Region', 'NTSC-U, PAL, NTSC-J');
  await page.getByRole('button', { name: 'Generate combinations' }).click();
  await expect(page.getByRole('list', { name: 'Variants' }).getByRole('listitem')).toHaveCount(9);
  const last = 'New in shrink wrap / NTSC-J';
  await page.getByLabel(`SKU for ${last}`).fill('A-LONG-SKU-FOR-A-PHONE-SCREEN');
  await page.getByRole('button', { name: `Move up ${last}` }).click();
  await expect(page.getByRole('button', { name: `Move up ${last}` })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Every row's controls stay inside the screen, tap targets included.
  for (const control of [
    page.getByLabel(`Price for ${last}`),
    page.getByRole('button', { name: `Remove ${last}` }),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
  await expectNoSeriousA11yViolations(page);

  // The edit modal of a product of the demo catalogue sold in tiers.
  const tiered = (await productsIn(request, 'retro-games')).find((p) => p.options.length > 0)!;
  await page.goto(`/admin/dashboard?section=update-product&product=${tiered._id}`);
  const dialog = page.getByRole('dialog', { name: `Edit ${tiered.productName}` });
  const rows = dialog.getByRole('list', { name: 'Variants' }).getByRole('listitem');
  await expect(rows).toHaveCount(tiered.variants.length);
  await expect(dialog.getByLabel('Option 1 name')).toHaveValue(tiered.options[0]!.name);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const panel = (await dialog.boundingBox())!;
  for (const control of [
    rows.last().getByRole('button', { name: /^Remove / }),
    rows.last().getByLabel(/^Stock for /),
  ]) {
    await control.scrollIntoViewIfNeeded();
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(panel.x);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
  }
  await expectNoSeriousA11yViolations(page);
});

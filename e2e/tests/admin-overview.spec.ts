import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  expectNoSeriousA11yViolations,
  logInAsAdmin,
  productsIn,
  uniqueEmail,
  watchConsole,
} from './helpers';

/** The orders export's header row (issue 15; issue 30 adds the order number, issue 32 the discount). */
const ORDERS_HEADER =
  '_id,orderNumber,createdAt,email,itemsPrice,shippingPrice,taxPrice,totalPrice,isPaid,paidAt,isDelivered,deliveredAt,items,discountCode,discountPrice';

/** RFC 4180 records of a CSV text: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

const csvLine = (cells: string[]) => cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',');

/** A customer's order of `quantity` of `productId`, paid in full with a gift card the admin issues. */
async function paidOrder(request: APIRequestContext, admin: Record<string, string>, productId: string) {
  const code = `E2E-OVERVIEW-${Date.now()}`;
  const card = await request.post('/api/giftcards/admin/create', {
    data: { code, balance: 5000 },
    headers: admin,
  });
  expect(card.status()).toBe(201);
  const customer = await (
    await request.post('/api/users', {
      data: { name: 'Olive Overview', email: uniqueEmail('olive'), password: 'overview-buyer-1' },
    })
  ).json();
  const auth = { authorization: `Bearer ${customer.token as string}` };
  const placed = await request.post('/api/orders', {
    headers: auth,
    data: {
      orderItems: [{ product: productId, itemQuantity: 2 }],
      shippingAddress: { address: '3 Chart Street', city: 'Sacramento', postalCode: '95814', country: 'USA' },
      paymentMethod: 'gift',
    },
  });
  expect(placed.status()).toBe(201);
  const order = (await placed.json()) as { _id: string; totalPrice: number };
  const paid = await request.post('/api/giftcards/use', {
    headers: auth,
    data: { code, amount: order.totalPrice, orderId: order._id },
  });
  expect((await paid.json()).amountDue).toBe(0);
  return order;
}

test('an admin reads the overview, downloads the orders CSV and imports products after a dry run', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page);
  const login = await (await request.post('/api/users/login', { data: ADMIN })).json();
  const admin = { authorization: `Bearer ${login.token as string}` };

  // A product taken low by a paid order: 4 in stock, 2 bought, 2 left (the threshold is 3).
  const product = (await productsIn(request, 'puzzles')).find((p) => p.stockQuantity >= 2)!;
  const restocked = await request.put(`/api/products/update/${product._id}`, {
    headers: admin,
    data: { stockQuantity: 4 },
  });
  expect(restocked.ok()).toBeTruthy();
  const order = await paidOrder(request, admin, product._id);

  // The Overview is the dashboard's first section: the chart, and the product in the low-stock list.
  await logInAsAdmin(page);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  const chart = page.getByRole('img', { name: /^Revenue per day from .+ paid orders?/ });
  await expect(chart).toBeVisible();
  // Its numbers are in a table for screen readers; today holds at least this order.
  const today = page.getByRole('table', { name: 'Sales per day' }).getByRole('row').last();
  expect(Number(await today.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
  const low = page.getByRole('region', { name: 'Low stock' });
  const lowItem = low.getByRole('listitem').filter({ hasText: product.productName });
  await expect(lowItem).toContainText('2 left');
  await expectNoSeriousA11yViolations(page);

  // The chart stays inside a 360 px phone screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(chart).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The product's link opens its edit form; the URL names it, so back returns to the Overview.
  await lowItem.getByRole('link', { name: product.productName }).click();
  await expect(page).toHaveURL(new RegExp(`section=update-product&product=${product._id}`));
  const dialog = page.getByRole('dialog', { name: `Edit ${product.productName}` });
  await expect(dialog.getByLabel('Stock Quantity')).toHaveValue('2');
  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();

  // Import & Export, kept across a reload: the orders CSV comes down with the token.
  await page.getByRole('navigation').getByRole('button', { name: 'Import & Export' }).click();
  await expect(page).toHaveURL(/section=import-export/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Import & Export' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export orders' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('orders.csv');
  const ordersCsv = await readFile((await download.path())!, 'utf8');
  expect(ordersCsv.split('\r\n')[0]).toBe(ORDERS_HEADER);
  expect(ordersCsv).toContain(`${order._id},`);
  await expect(page.getByText('Saved orders.csv')).toBeVisible();

  // A two-product CSV: a new product, and the low one restocked at a new price (its other cells as
  // the products export has them).
  const productsCsv = parseCsv(
    await (await request.get('/api/admin/export/products.csv', { headers: admin })).text(),
  );
  const header = productsCsv[0]!;
  const row = productsCsv.find((cells) => cells[0] === product._id)!;
  const col = (name: string) => header.indexOf(name);
  const updated = [...row];
  updated[col('productPrice')] = '7.77';
  updated[col('stockQuantity')] = '10';
  const newName = `E2E Imported Pong ${Date.now()}`;
  const created = header.map((name) =>
    name === 'productName'
      ? newName
      : name === 'productCategory'
        ? 'retro-games'
        : name === 'productDescription'
          ? 'A bat, a ball, and a score: brought in from a spreadsheet.'
          : name === 'productPrice'
            ? '12.34'
            : name === 'stockQuantity'
              ? '9'
              : '',
  );
  const file = [header, created, updated].map(csvLine).join('\r\n') + '\r\n';

  const form = page.getByRole('form', { name: 'Import products' });
  // First a file with a bad row: the preview names it, and Import stays closed.
  const broken = [...created];
  broken[col('productPrice')] = 'twelve';
  await form.getByLabel('CSV file').setInputFiles({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([header, broken].map(csvLine).join('\r\n') + '\r\n'),
  });
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('list', { name: 'Row errors' })).toContainText('Row 1:');
  await expect(form.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  await form
    .getByLabel('CSV file')
    .setInputFiles({ name: 'two-products.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await expect(form.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('status')).toHaveText(
    'Preview: 1 to create, 1 to update, 0 unchanged. Nothing is saved until you import.',
  );
  const rows = form.getByRole('table', { name: 'What would change' }).getByRole('row');
  await expect(rows.nth(1)).toContainText(`1Create${newName}`);
  await expect(rows.nth(2)).toContainText(`2Update${product.productName}`);
  await expect(rows.nth(2)).toContainText('productPrice');
  await expect(rows.nth(2)).toContainText('stockQuantity');
  // The dry run wrote nothing.
  expect((await (await request.get(`/api/products/${product._id}`)).json()).stockQuantity).toBe(2);

  await form.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(form.getByRole('status')).toHaveText('Imported: 1 created, 1 updated, 0 unchanged.');
  const after = await (await request.get(`/api/products/${product._id}`)).json();
  expect([after.productPrice, after.stockQuantity]).toEqual([7.77, 10]);

  // The new product is in the shop.
  const found = (await (
    await request.get(`/api/products?category=retro-games&q=${encodeURIComponent(newName)}`)
  ).json()) as { _id: string }[];
  expect(found).toHaveLength(1);
  await page.goto(`/shop/retro-games?q=${encodeURIComponent(newName)}`);
  await expect(page.locator(`a[href$="/product/${found[0]!._id}"]`).first()).toBeVisible();
  // The broken file's 422 is the one failed request the browser reports.
  expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
});

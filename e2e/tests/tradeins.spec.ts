import type { APIRequestContext, Page } from '@playwright/test';
import { expect, READY, test } from './fixtures';
import {
  ADMIN,
  expectNoSeriousA11yViolations,
  logInAsAdmin,
  productsIn,
  uniqueEmail,
  watchConsole,
  type ApiProduct,
} from './helpers';
import { mailsTo } from './mail';

/**
 * Issue 35: trade-ins. A visitor builds a list of two games on "Sell us your games", logs in on the way
 * to the quote and comes back to the same list; the quote opens the trade-in's page, where they mark it
 * shipped. The admin receives the box and inspects it (one game lowered, with a reason); the shopper
 * accepts the lower credit, finds its code in the mail, and pays an order with it.
 */

interface BuylistEntry {
  product: string;
  productName: string;
  variant: string;
  options: Record<string, string>;
  credit: number;
}

const PASSWORD = 'shopper-journey-1';

async function token(request: APIRequestContext, data: { email: string; password: string }) {
  const res = await request.post('/api/users/login', { data });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { token: string }).token;
}

/** A shopper added by the admin through the API (sign-ups share an hourly budget), not logged in. */
async function addShopper(request: APIRequestContext, name: string) {
  const shopper = { name, email: uniqueEmail(name.split(' ')[0]!.toLowerCase()), password: PASSWORD };
  const res = await request.post('/api/users/admin/add', {
    data: shopper,
    headers: { authorization: `Bearer ${await token(request, ADMIN)}` },
  });
  expect(res.status()).toBe(201);
  return shopper;
}

/** "Super Mario 64 (Loose / NTSC-U)": how the sell page names a buy-list row. */
function labelOf(entry: BuylistEntry): string {
  const title = Object.values(entry.options)
    .filter((v) => v !== '')
    .join(' / ');
  return title ? `${entry.productName} (${title})` : entry.productName;
}

/** Two rows of the seeded buy list, of two different games, each worth lowering. */
async function twoGames(request: APIRequestContext): Promise<[BuylistEntry, BuylistEntry]> {
  const res = await request.get('/api/tradeins/buylist?limit=100');
  expect(res.ok()).toBeTruthy();
  const { items } = (await res.json()) as { items: BuylistEntry[] };
  const picked: BuylistEntry[] = [];
  for (const entry of items) {
    if (entry.credit >= 2 && !picked.some((p) => p.product === entry.product)) picked.push(entry);
    if (picked.length === 2) break;
  }
  expect(picked, 'two games on the seeded buy list').toHaveLength(2);
  return picked as [BuylistEntry, BuylistEntry];
}

/** A page of a context the fixture did not make: wait for the app as the fixture's `goto` does. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector(READY, { state: 'attached' });
}

async function addToList(page: Page, entry: BuylistEntry) {
  const search = page.getByLabel('Search the buy list');
  await search.fill(entry.productName);
  const add = page.getByRole('button', { name: `Add ${labelOf(entry)} to your list`, exact: true });
  await add.click();
  await expect(
    page.getByRole('list', { name: 'Your list' }).getByText(entry.productName, { exact: true }),
  ).toBeVisible();
}

test('a shopper sells two games: quote, ship, inspection with a lowered game, accept, and the credit pays an order', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  const [first, second] = await twoGames(request);
  const shopper = await addShopper(request, 'Tess Trader');

  // A visitor builds the list; the quote asks for a login and comes back to the same list.
  await page.goto('/sell');
  await expect(page.getByRole('heading', { level: 1, name: 'Sell us your games' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Buy list' })).toBeVisible();
  await addToList(page, first);
  await addToList(page, second);
  const quoted = Math.round((first.credit + second.credit) * 100) / 100;
  await expect(page.getByText('Credit for 2 items')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Get a quote' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsell$/);
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/sell$/);
  await expect(page.getByText('Credit for 2 items')).toBeVisible();
  await page.getByRole('button', { name: 'Get a quote' }).click();

  // The trade-in's page: the quote, the packing slip, the next step.
  await expect(page).toHaveURL(/\/tradeins\/[0-9a-f-]{36}$/);
  const tradeInId = page.url().split('/').pop()!;
  const ref = tradeInId.slice(0, 8).toUpperCase();
  await expect(page.getByRole('heading', { level: 1, name: `Trade-in ${ref}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your quote is ready' })).toContainText(
    `$${quoted.toFixed(2)}`,
  );
  const slip = page.getByRole('region', { name: 'Packing slip' });
  await expect(slip).toContainText(ref);
  await expect(slip).toContainText(tradeInId);
  await expect(slip).toContainText(shopper.name);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Tracking number (optional)').fill('1Z-E2E-0001');
  await page.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Marked as shipped' })).toBeFocused();
  await expect(page.getByText('1Z-E2E-0001').first()).toBeVisible();

  // The admin: the box is in the queue; receive it, inspect it (the first game lowered, with a reason).
  const lowered = Math.max(1, Math.floor(first.credit / 2));
  const inspected = Math.round((lowered + second.credit) * 100) / 100;
  const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const admin = await context.newPage();
    const adminErrors = watchConsole(admin);
    await logInAsAdmin(admin);
    await open(admin, '/admin/dashboard?section=trade-ins');
    const shipped = admin.getByRole('region', { name: /Shipped: to receive/ });
    await shipped.getByRole('button', { name: `Open trade-in ${ref} of ${shopper.name}` }).click();
    await expect(admin.getByRole('heading', { name: `Trade-in ${ref}` })).toBeFocused();
    await expect(admin.getByText('1Z-E2E-0001').first()).toBeVisible();
    await admin.getByRole('button', { name: 'Mark received' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Marked as received' })).toBeFocused();

    const firstLine = admin.getByRole('group', { name: new RegExp(`^${literal(labelOf(first))} ×`) });
    const secondLine = admin.getByRole('group', { name: new RegExp(`^${literal(labelOf(second))} ×`) });
    // Nothing chosen: the form says so, and sends nothing.
    await admin.getByRole('button', { name: 'Save inspection' }).click();
    await expect(admin.getByRole('alert')).toContainText('2 things to fix');
    await firstLine.getByRole('radio', { name: 'Lower the credit' }).check();
    await firstLine.getByLabel('Lowered credit per unit ($)').fill(String(lowered));
    await firstLine.getByLabel('Reason (the customer reads it)').fill('Label torn, cartridge scuffed');
    await secondLine.getByRole('radio', { name: /Accept at the quote/ }).check();
    await expect(admin.getByText(`$${inspected.toFixed(2)}`).first()).toBeVisible();
    await expectNoSeriousA11yViolations(admin);
    await admin.getByRole('button', { name: 'Save inspection' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Inspection saved' })).toContainText(
      `$${inspected.toFixed(2)} offered`,
    );
    await expect(admin.getByText('Inspected (customer deciding)')).toBeVisible();
    expect(adminErrors).toEqual([]);
  } finally {
    await context.close();
  }

  // The shopper reads the difference and accepts the lower credit.
  await page.reload();
  const changed = page.getByRole('list', { name: 'What changed' });
  await expect(changed).toContainText(labelOf(first));
  await expect(changed).toContainText('Label torn, cartridge scuffed');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: `Accept $${inspected.toFixed(2)} store credit` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'your store credit is ready' })).toBeFocused();
  const code = (await page.locator('code').first().textContent())!.trim();
  expect(code.length).toBeGreaterThan(4);

  // The code is in the mail.
  await expect
    .poll(async () => (await mailsTo(shopper.email)).some((mail) => mail.includes(code)), {
      message: `a mail to ${shopper.email} with the code`,
      timeout: 30_000,
      intervals: [250, 500, 1000],
    })
    .toBe(true);

  // My Trade-ins lists it, credited.
  await page.getByRole('button', { name: shopper.name }).click();
  await page.getByRole('link', { name: 'My Trade-ins', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Trade-ins' }).getByRole('listitem').first()).toContainText(
    'Credited',
  );

  // The credit pays an order, as a gift card does (PayPal's demo button for any remainder).
  const product = (await productsIn(request, 'puzzles'))
    .filter((p: ApiProduct) => p.options.length === 0 && p.stockQuantity >= 3)
    .sort((a, b) => a.productPrice - b.productPrice)[0];
  expect(product, 'a puzzle in stock').toBeTruthy();
  await page.goto(`/shop/${product!.productCategory}/product/${product!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const panel = page.getByRole('dialog', { name: 'Shopping cart' });
  await panel.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/place-order$/);
  await page.getByLabel('Address', { exact: true }).fill('1 Arcade Way');
  await page.getByLabel('City', { exact: true }).fill('Sacramento');
  await page.getByLabel('Postal Code').fill('95814');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await page.getByLabel('Gift Card', { exact: true }).check();
  await page.getByLabel(/gift card code/i).fill(code);
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(page.getByText(/balance/i).first()).toBeVisible();
  await page.getByRole('button', { name: 'Apply Gift Card' }).click();
  await expect(page.getByRole('button', { name: 'Apply Gift Card' })).toBeDisabled();
  const place = page.getByRole('button', { name: 'Place Order' });
  const demo = page.getByRole('button', { name: 'Demo payment — no money moves' });
  await expect(place.or(demo)).toBeVisible();
  await ((await place.isVisible()) ? place : demo).click();
  await expect(page).toHaveURL(/\/order-confirmation\/[0-9a-f-]{36}$/, { timeout: 20_000 });

  // The card paid: its balance is lower than the credit.
  const res = await request.post('/api/giftcards/check-balance', {
    data: { code },
    headers: { authorization: `Bearer ${await token(request, shopper)}` },
  });
  expect(res.ok()).toBeTruthy();
  expect(((await res.json()) as { balance: number }).balance).toBeLessThan(inspected);
  expect(errors).toEqual([]);
});

test('the sell page and a trade-in fit a phone without sideways scrolling @phone', async ({
  page,
  request,
}) => {
  const [game] = await twoGames(request);
  const shopper = await addShopper(request, 'Pia Phone');
  const res = await request.post('/api/tradeins', {
    data: { items: [{ product: game.product, variant: game.variant, qty: 2 }] },
    headers: { authorization: `Bearer ${await token(request, shopper)}` },
  });
  expect(res.status()).toBe(201);
  const { _id: id } = (await res.json()) as { _id: string };

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/sell');
  await addToList(page, game);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto(`/tradeins/${id}`);
  await expect(page.getByRole('button', { name: 'Mark as shipped' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Packing slip' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto('/tradeins');
  await expect(page.getByRole('list', { name: 'Trade-ins' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

/** `text` as a regular expression matching it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import type { APIRequestContext, Page } from '@playwright/test';
import { expect, READY, test } from './fixtures';
import {
  ADMIN,
  addShopperAndLogIn,
  expectNoSeriousA11yViolations,
  logInAsAdmin,
  productsIn,
  uniqueEmail,
  watchConsole,
  type ApiProduct,
} from './helpers';
import { mailsTo } from './mail';

/**
 * Issue 34: "Notify me when it is back" on a sold-out game. A visitor confirms the address with the
 * mailed link first; the restock mails the alert, whose links open the product and the unsubscribe
 * page (which asks before it unsubscribes). A logged-in shopper subscribes with one press, sees the
 * alert in My alerts and cancels it; the admin's overview lists the most wanted.
 */

async function adminHeaders(request: APIRequestContext) {
  const res = await request.post('/api/users/login', { data: ADMIN });
  expect(res.ok()).toBeTruthy();
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

async function setStock(request: APIRequestContext, product: ApiProduct, stockQuantity: number) {
  const res = await request.put(`/api/products/update/${product._id}`, {
    headers: await adminHeaders(request),
    data: { stockQuantity },
  });
  expect(res.ok()).toBeTruthy();
}

/** The newest link matching `pattern` in a mail to `email`, waited for (the mail worker sends later). */
async function waitForLink(email: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(email)) {
          link = pattern.exec(mail)?.[0];
          if (link) return link;
        }
        return undefined;
      },
      { message: `a mail to ${email} with ${String(pattern)}`, timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBeDefined();
  return link!;
}

/** A link of a mail, opened on this server (the mail's base is the origin the subscribe came to). */
async function open(page: Page, link: string) {
  const url = new URL(link.replace(/&amp;/g, '&'));
  await page.goto(url.pathname + url.search);
}

async function soldOutPuzzle(request: APIRequestContext, skip: string[] = []): Promise<ApiProduct> {
  const product = (await productsIn(request, 'puzzles')).find(
    (p) => p.options.length === 0 && p.stockQuantity >= 1 && !skip.includes(p._id),
  );
  expect(product, 'a puzzle without options').toBeTruthy();
  await setStock(request, product!, 0);
  return product!;
}

test('a visitor confirms an alert by mail, is mailed at the restock, opens the product and unsubscribes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const product = await soldOutPuzzle(request);
  const email = uniqueEmail('vera');
  try {
    await page.goto(`/shop/${product.productCategory}/product/${product._id}`);
    await expect(page.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Notify me when it is back' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Almost done' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The confirmation link: the page sends it, and says what it confirmed.
    await open(page, await waitForLink(email, /https?:\/\/[^\s"<>/]+\/alerts\/confirm\/[A-Za-z0-9_-]{43}/));
    const productLink = page.getByRole('link', { name: product.productName });
    await expect(productLink).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The restock mails the alert, once.
    await setStock(request, product, 3);
    // The page's link, not the List-Unsubscribe header's one-click address under /api.
    const unsubscribe = await waitForLink(email, /https?:\/\/[^\s"<>/]+\/alerts\/unsubscribe\/[0-9a-f]{64}/);
    const mail = (await mailsTo(email)).find((m) => m.includes(unsubscribe))!;
    const productUrl = /https?:\/\/[^\s"<>/]+\/shop\/[^\s"<>/]+\/product\/[0-9a-f-]{36}[^\s"<>]*/.exec(
      mail,
    )?.[0];
    expect(productUrl, 'the product link in the alert mail').toBeTruthy();
    await open(page, productUrl!);
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();

    // The unsubscribe page asks first; the button unsubscribes.
    await open(page, unsubscribe);
    await expect(page.getByRole('heading', { name: 'Stop back-in-stock alerts?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'gets no more back-in-stock alerts' }),
    ).toBeVisible();
  } finally {
    await setStock(request, product, product.stockQuantity);
  }
  expect(errors).toEqual([]);
});

test('a shopper subscribes with one press, finds the alert in My alerts and cancels it; the admin sees it wanted', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const product = await soldOutPuzzle(request);
  try {
    await addShopperAndLogIn(page, request, 'Sam', 'Waits');
    await page.goto(`/shop/${product.productCategory}/product/${product._id}`);
    await expect(page.getByRole('button', { name: 'Unavailable' })).toBeDisabled();
    await expect(page.getByLabel('Email')).toHaveCount(0);
    await page.getByRole('button', { name: 'Notify me when it is back' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'we will e-mail you once' })).toBeVisible();

    // The admin's overview lists it among the most wanted.
    const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
    try {
      const admin = await other.newPage();
      await logInAsAdmin(admin);
      await admin.goto('/admin/dashboard');
      await admin.waitForSelector(READY, { state: 'attached' });
      const panel = admin
        .locator('section, div')
        .filter({ has: admin.getByText('Most wanted (sold out)') })
        .last();
      await expect(panel.getByRole('link', { name: product.productName })).toBeVisible();
    } finally {
      await other.close();
    }

    // My alerts, under the wishlist: waiting, and cancelled with one press.
    await page.goto('/wishlist');
    const alerts = page.getByRole('list', { name: 'My alerts' });
    await expect(alerts.getByRole('listitem').filter({ hasText: product.productName })).toContainText(
      'Waiting',
    );
    await expectNoSeriousA11yViolations(page);
    await alerts.getByRole('button', { name: `Cancel the alert for ${product.productName}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'cancelled' })).toBeAttached();
    await expect(
      alerts.getByRole('button', { name: `Cancel the alert for ${product.productName}` }),
    ).toHaveCount(0);
  } finally {
    await setStock(request, product, product.stockQuantity);
  }
  expect(errors).toEqual([]);
});

test('the notify form and the alert pages fit a phone without sideways scrolling @phone', async ({
  page,
  request,
}) => {
  const product = await soldOutPuzzle(request);
  try {
    for (const width of [360, 412]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/shop/${product.productCategory}/product/${product._id}`);
      await expect(page.getByRole('button', { name: 'Notify me when it is back' })).toBeVisible();
      await expect(page.getByLabel('Email')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.goto(`/alerts/unsubscribe/${'0'.repeat(64)}`);
      await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  } finally {
    await setStock(request, product, product.stockQuantity);
  }
});

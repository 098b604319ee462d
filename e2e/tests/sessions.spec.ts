import type { Browser, Page } from '@playwright/test';
import { READY, expect, test } from './fixtures';
import { addShopperAndLogIn, expectNoSeriousA11yViolations, watchConsole } from './helpers';

const PASSWORD = 'shopper-journey-1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** A second browser (a phone) in a context of its own, logged in as `email` through the login page. */
async function logInOnPhone(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    userAgent: ANDROID_CHROME,
    viewport: { width: 390, height: 844 },
  });
  const phone = await context.newPage();
  await phone.goto('/login');
  await phone.waitForSelector(READY, { state: 'attached' });
  await phone.getByLabel('Email').fill(email);
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(phone.getByRole('button', { name: /Session Keeper/ })).toBeVisible();
  return phone;
}

/** The phone's next call that needs its login: it is refused, and the phone lands on the login page. */
async function expectSignedOut(phone: Page) {
  await phone.goto('/account');
  await phone.waitForSelector(READY, { state: 'attached' });
  await expect(phone).toHaveURL(/\/login/);
  await expect(phone.getByText('Your session has ended. Please log in again.')).toBeVisible();
  await expect(phone.getByRole('link', { name: 'Login' })).toBeVisible();
}

test('signs another browser out from My Account: its next call is refused and it lands on the login page (issue 36)', async ({
  page,
  request,
  browser,
}) => {
  const errors = watchConsole(page);
  const email = await addShopperAndLogIn(page, request, 'Session', 'Keeper');
  const phone = await logInOnPhone(browser, email);

  await page.getByRole('button', { name: /Session Keeper/ }).click();
  await page.getByRole('link', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  const section = page.getByRole('region', { name: 'Where you’re signed in' });
  const sessions = section.getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  const other = sessions.filter({ hasText: 'Chrome on Android' });
  await expect(other).toContainText('Last used just now');
  await expectNoSeriousA11yViolations(page);

  await other.getByRole('button', { name: /^Sign out Chrome on Android/ }).click();
  await expect(section.getByRole('status')).toHaveText(/^Signed out Chrome on Android/);
  await expect(sessions).toHaveCount(1);
  await expect(section.getByText('You are not signed in anywhere else.')).toBeVisible();
  await expectSignedOut(phone);

  // Back on the phone, then "Sign out everywhere else", confirmed, from the first browser.
  await phone.getByLabel('Email').fill(email);
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(phone.getByRole('button', { name: /Session Keeper/ })).toBeVisible();
  await page.reload();
  await expect(sessions).toHaveCount(2);
  await section.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(section.getByRole('status')).toHaveText('Signed out of 1 other session.');
  await expect(sessions).toHaveCount(1);
  await expectSignedOut(phone);

  // This browser is still signed in.
  await page.reload();
  await expect(page.getByRole('button', { name: /Session Keeper/ })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await phone.context().close();
  expect(errors.filter((e) => !/\b40[01]\b/.test(e))).toEqual([]);
});

test('the sessions list fits a 390 px phone', async ({ page, request, browser }) => {
  const email = await addShopperAndLogIn(page, request, 'Session', 'Keeper');
  const phone = await logInOnPhone(browser, email);
  await phone.goto('/account');
  await phone.waitForSelector(READY, { state: 'attached' });
  const section = phone.getByRole('region', { name: 'Where you’re signed in' });
  await expect(section.getByRole('listitem')).toHaveCount(2);
  await expect(section.getByRole('button', { name: 'Sign out everywhere else' })).toBeVisible();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(phone);
  await phone.context().close();
});

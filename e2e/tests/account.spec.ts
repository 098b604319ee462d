import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, registerShopper, uniqueEmail, watchConsole } from './helpers';
import { waitForResetLink } from './mail';

test('register -> sign out -> log in, and logged-in users are sent away from /login and /register', async ({
  page,
}) => {
  const errors = watchConsole(page);
  const email = uniqueEmail('ada');
  const password = 'analytical-engine-1843';

  await page.goto('/register');
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('First Name').fill('  Ada ');
  await page.getByLabel('Last Name').fill(' Lovelace ');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /register|sign up|create/i }).click();

  await expect(page).toHaveURL(/\/$/);
  const account = page.getByRole('button', { name: /Ada Lovelace/ });
  await expect(account).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0);

  // Logged-in users are redirected away from /login and /register.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/$/);

  // Admin-only screens are not for customers.
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: /Ada Lovelace/ }).click();
  await expect(
    page.getByRole('menuitem', { name: 'My Orders' }).or(page.getByRole('link', { name: 'My Orders' })),
  ).toBeVisible();
  await expect(page.getByText('Admin Portal')).toHaveCount(0);
  await page.getByText('Sign Out').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

  // Checkout needs a login.
  await page.goto('/place-order');
  await expect(page).toHaveURL(/\/login/);

  // A wrong password shows the server's message in red.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(page.getByText('Error: Invalid email or password')).toBeVisible();

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(page.getByRole('button', { name: /Ada Lovelace/ })).toBeVisible();

  // The server's answer is kept as userInfo in the persisted store.
  const stored = await page.evaluate(() => localStorage.getItem('persist:root') ?? '');
  expect(stored).toContain(email);

  expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
});

test('login and register forms are usable on a phone @phone', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await page.getByRole('link', { name: /register/i }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByLabel('First Name')).toBeVisible();
});

test("a logged-in shopper's header fits a phone, with the cart open too @phone", async ({ page }) => {
  const errors = watchConsole(page);
  await registerShopper(page, 'Maximiliana', 'Featherstonehaugh');
  const account = page.getByRole('button', { name: /Maximiliana Featherstonehaugh/ });

  // The account button, the cart and the logo used to be 27 px wider than a 412 px phone: the whole
  // page then scrolled sideways and the open cart's left edge was cut off. The name gives way now.
  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  for (const path of ['/', '/shop/puzzles']) {
    await page.goto(path);
    await expect(account).toBeVisible();
    expect(await sideways(), path).toBe(0);
  }
  const cart = page.getByRole('button', { name: /open cart/i });
  const box = (await cart.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(box.width).toBeGreaterThanOrEqual(44);
  await cart.click();
  await expect(page.getByRole('dialog', { name: 'Shopping cart' })).toBeVisible();
  expect(await sideways()).toBe(0);
  expect(errors).toEqual([]);
});

test('forgot password -> mailed link -> new password logs in; My Account renames the header (issue 11)', async ({
  page,
}) => {
  const errors = watchConsole(page);
  const email = uniqueEmail('grace');
  const oldPassword = 'cobol-compiler-1959';
  const newPassword = 'Nanosecond-Wire-1985';
  const accountButton = (name: string) => page.getByRole('button', { name: new RegExp(name) });

  async function signOut(name: string) {
    await accountButton(name).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  }

  await page.goto('/register');
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Last Name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(oldPassword);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(accountButton('Grace Hopper')).toBeVisible();
  await signOut('Grace Hopper');

  // Forgot password: the answer is the same neutral message for any address.
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'If an account exists for that email' }),
  ).toBeVisible();

  // The link arrives by mail (written under DATA_DIR/mail by the mail worker, a moment later).
  const link = await waitForResetLink(email);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const newPasswordField = page.getByLabel('New Password', { exact: true });
  await newPasswordField.fill(newPassword);
  await expect(newPasswordField).toHaveAccessibleDescription(/Strength: Strong/);
  await page.getByLabel('Confirm New Password').fill(newPassword);
  await page.getByRole('button', { name: 'Set New Password' }).click();

  // Logged in with the new password, on the home page.
  await expect(page).toHaveURL(/\/$/);
  await expect(accountButton('Grace Hopper')).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('Another-Password-2024');
  await page.getByLabel('Confirm New Password').fill('Another-Password-2024');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );

  await page.goto('/');
  await signOut('Grace Hopper');

  // The old password no longer works; the new one does.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(oldPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Error: Invalid email or password')).toBeVisible();
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(accountButton('Grace Hopper')).toBeVisible();

  // My Account: a new name shows in the header at once, and stays after a reload.
  await accountButton('Grace Hopper').click();
  await page.getByRole('link', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  const details = page.getByRole('form', { name: 'Your Details' });
  await expect(details.getByLabel('Name')).toHaveValue('Grace Hopper');
  await expectNoSeriousA11yViolations(page);
  await details.getByLabel('Name').fill('Amazing Grace');
  await details.getByRole('button', { name: 'Save Changes' }).click();
  await expect(details.getByRole('status')).toHaveText('Your details have been saved.');
  await expect(accountButton('Amazing Grace')).toBeVisible();
  await page.reload();
  await expect(accountButton('Amazing Grace')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Your Details' }).getByLabel('Name')).toHaveValue(
    'Amazing Grace',
  );

  expect(errors.filter((e) => !/\b40[01]\b/.test(e))).toEqual([]);
});

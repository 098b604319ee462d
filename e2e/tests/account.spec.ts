import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, uniqueEmail, watchConsole } from './helpers';

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

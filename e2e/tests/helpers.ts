import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export interface ApiProduct {
  _id: string;
  productName: string;
  productPrice: number;
  productCategory: string;
  /** Issue 33: the console it plays on, when it has one. */
  platform?: string | null;
  stockQuantity: number;
  productImage: string[];
  /** Issue 31: its options and live variants (the first is the default). */
  options: { name: string; values: string[] }[];
  variants: {
    _id: string;
    sku: string;
    options: Record<string, string>;
    price: number;
    stockQuantity: number;
  }[];
}

/**
 * Registers a new shopper through the form, with an e-mail of their own, and waits for their name in
 * the header. Answers that e-mail (for the mails sent to it).
 */
export async function registerShopper(page: Page, first: string, last: string): Promise<string> {
  await page.goto('/register');
  return fillRegistration(page, first, last);
}

/** The registration form already on screen (reached through a link that carries `?redirect=`). */
export async function fillRegistration(page: Page, first: string, last: string): Promise<string> {
  const email = uniqueEmail(first.toLowerCase());
  await page.getByLabel('First Name').fill(first);
  await page.getByLabel('Last Name').fill(last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('shopper-journey-1');
  await page.getByRole('button', { name: /register|sign up|create/i }).click();
  await expect(page.getByRole('button', { name: new RegExp(`${first} ${last}`) })).toBeVisible();
  return email;
}

/** Reads the seeded catalogue through the public API, so journeys never hard-code seed data. */
export async function productsIn(request: APIRequestContext, category: string): Promise<ApiProduct[]> {
  const res = await request.get(`/api/products?category=${category}&limit=100`);
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { products: ApiProduct[] };
  return body.products;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Fails on serious or critical accessibility violations (axe-core) on the current page. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** Collects console errors and failed page requests so a journey can assert a clean run. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** The admin the e2e server starts with (playwright.config.ts sets ADMIN_PASSWORD). */
export const ADMIN = { email: 'admin@pixelvault.test', password: 'e2e-admin-password' };

/** Logs the admin in through the login page; the header then shows the admin menu. */
export async function logInAsAdmin(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(page.getByRole('button', { name: /Shop Admin/ })).toBeVisible();
}

/**
 * A shopper added by the admin through the API, then logged in through the login page. For journeys
 * that need a customer but do not test sign-up: every sign-up from one address counts against its
 * hourly budget (20, DEFAULT_RATE_LIMITS.register), which the whole suite shares. Answers the e-mail.
 */
export async function addShopperAndLogIn(
  page: Page,
  request: APIRequestContext,
  first: string,
  last: string,
): Promise<string> {
  const login = await request.post('/api/users/login', { data: ADMIN });
  const { token } = (await login.json()) as { token: string };
  const email = uniqueEmail(first.toLowerCase());
  const password = 'shopper-journey-1';
  const added = await request.post('/api/users/admin/add', {
    data: { name: `${first} ${last}`, email, password },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(added.status()).toBe(201);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /log ?in|sign in/i }).click();
  await expect(page.getByRole('button', { name: new RegExp(`${first} ${last}`) })).toBeVisible();
  return email;
}

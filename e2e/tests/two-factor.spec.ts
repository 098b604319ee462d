import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addShopperAndLogIn, expectNoSeriousA11yViolations, watchConsole } from './helpers';

const PASSWORD = 'shopper-journey-1';
const PERIOD_MS = 30_000;

/** RFC 4648 base32, as the `otpauth://` secret is written. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238 (HMAC-SHA1, 6 digits, 30 s), as an authenticator app computes it: what a phone would show. */
function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / PERIOD_MS)));
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * A code not used before: a code is accepted once, so when the app still shows the last one used, wait
 * for its next window, as a person would.
 */
async function freshCode(secret: string, used: Set<string>): Promise<string> {
  let code = totp(secret);
  while (used.has(code)) {
    await new Promise((resolve) => setTimeout(resolve, PERIOD_MS - (Date.now() % PERIOD_MS) + 200));
    code = totp(secret);
  }
  used.add(code);
  return code;
}

/** 6 digits that are no code of the windows around now. */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1].map((w) => totp(secret, Date.now() + w * PERIOD_MS));
  return ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c))!;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Two Factor/ }).click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

async function passwordStep(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  const field = page.getByLabel('Authentication code');
  await expect(field).toBeFocused();
  return field;
}

test('turns on two-factor sign-in from My Account, then logs in with a code and with a recovery code (issue 36)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const email = await addShopperAndLogIn(page, request, 'Two', 'Factor');
  const used = new Set<string>();

  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('Off.')).toBeVisible();
  await section.getByRole('button', { name: 'Turn on' }).click();

  // The QR code is drawn in the browser; the key is shown as text for apps that cannot scan.
  const setup = section.getByRole('form', { name: 'Set up your authenticator app' });
  await expect(setup.getByRole('img', { name: /QR code to scan/ })).toBeVisible();
  const secret = ((await setup.locator('code').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoSeriousA11yViolations(page);

  await setup.getByLabel('Authentication code').fill(await freshCode(secret, used));
  await setup.getByRole('button', { name: 'Turn on' }).click();

  const codesGroup = section.getByRole('group', { name: 'Your recovery codes' });
  await expect(codesGroup.getByRole('listitem')).toHaveCount(10);
  const codes = await codesGroup.getByRole('listitem').allTextContents();
  await expect(section.getByRole('status')).toHaveText(/Two-factor sign-in is on/);
  await expectNoSeriousA11yViolations(page);
  const viewport = page.viewportSize();
  // On a phone the codes and their buttons fit the screen, with no sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  const saved = await codesGroup.getByRole('button', { name: 'I have saved them' }).boundingBox();
  expect(saved!.x + saved!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(viewport!);
  const download = page.waitForEvent('download');
  await codesGroup.getByRole('button', { name: 'Download codes' }).click();
  expect((await download).suggestedFilename()).toBe('pixel-vault-recovery-codes.txt');
  await codesGroup.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText(/10 recovery codes left/)).toBeVisible();
  await signOut(page);

  // The password alone gives no session: the code step asks for the app's code.
  let field = await passwordStep(page, email);
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expectNoSeriousA11yViolations(page);
  await field.fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await field.fill(await freshCode(secret, used));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: /Two Factor/ })).toBeVisible();
  await signOut(page);

  // Then with a recovery code instead.
  field = await passwordStep(page, email);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  field = page.getByLabel('Recovery code');
  await expect(field).toBeFocused();
  await field.fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: /Two Factor/ })).toBeVisible();

  await page.goto('/account');
  await expect(section.getByText(/9 recovery codes left/)).toBeVisible();
  // The wrong code answers 401 (logged by the browser).
  expect(errors.filter((e) => !/\b40[01]\b/.test(e))).toEqual([]);
});

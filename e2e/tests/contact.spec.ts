import { expect, test } from './fixtures';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectNoSeriousA11yViolations, uniqueEmail } from './helpers';

const dataDir = process.env.E2E_DATA_DIR;

test('contact form sends the message, clears the form, and the shop receives the mail', async ({ page }) => {
  const email = uniqueEmail('visitor');
  const marker = `Do you buy <old> cartridges & consoles? ${Date.now()}`;

  await page.goto('/');
  await page
    .getByRole('link', { name: /contact/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  await expect(page.getByText(/Sacramento, CA/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Message').fill(marker);
  await page.getByRole('button', { name: 'Send Message' }).click();

  await expect(page.getByText('Message sent. Wait to hear back from us.')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByLabel('Message')).toHaveValue('');

  // With no SMTP_URL the outbox worker writes each mail as an .eml file under DATA_DIR/mail.
  expect(dataDir, 'playwright.config.ts sets E2E_DATA_DIR').toBeTruthy();
  const mailDir = join(dataDir!, 'mail');
  await expect
    .poll(async () => {
      const files = await readdir(mailDir).catch(() => [] as string[]);
      const bodies = await Promise.all(files.map((f) => readFile(join(mailDir, f), 'utf8')));
      return bodies.some((b) => b.includes(email));
    })
    .toBe(true);
});

test('the credits and team pages show six members each', async ({ page }) => {
  await page.goto('/credits');
  await expect(page.getByRole('heading', { name: 'Project Credits' })).toBeVisible();
  await expect(page.getByRole('img')).not.toHaveCount(0);
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'Meet the Team' })).toBeVisible();
  for (const heading of ['Our Mission', 'Why Choose Us?', 'Our Team']) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);
});

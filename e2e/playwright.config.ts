import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3210);
// A fresh embedded database for every run, so journeys never depend on leftovers.
// Set in the environment so the test workers (forked from this process) read the same directory.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'pixel-vault-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// A front end on another origin (issue 8, tests/cross-origin.spec.ts): the spec serves a page from
// http://localhost:<E2E_FRONT_PORT>, which the shop lists in CORS_ORIGINS, and another from
// E2E_UNLISTED_PORT, which it does not. Set in the environment so the test workers read the same ports.
process.env.E2E_FRONT_PORT ??= '3290';
process.env.E2E_UNLISTED_PORT ??= '3291';
const frontOrigin = `http://localhost:${process.env.E2E_FRONT_PORT}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './.output',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@phone/ },
  ],
  webServer: {
    command: 'node ../apps/server/dist/main.js',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'admin@pixelvault.test',
      ADMIN_PASSWORD: 'e2e-admin-password',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: frontOrigin,
      // Absolute image URLs, so the page on the other origin can show them (the shop's own pages too).
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Issue 37: tests/webhooks.spec.ts receives the shop's webhooks on 127.0.0.1.
      WEBHOOKS_ALLOW_LOCAL: 'true',
    },
  },
});

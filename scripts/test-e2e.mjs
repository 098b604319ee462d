#!/usr/bin/env node
// npm run test:e2e: builds the shop, then runs the Playwright journeys in Debian's Chromium against the
// built app on a fresh embedded database. Says clearly what is missing instead of failing obscurely.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Browser tests need Chromium at ${chromium}, which is missing.\n` +
      'On Debian or Ubuntu install it with:  sudo apt-get install -y chromium\n' +
      '(or point CHROMIUM_PATH at a Chromium binary). Do not run "npx playwright install": it downloads browsers.',
  );
  process.exit(1);
}

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;

if (process.env.E2E_SKIP_BUILD !== '1') {
  const built = run('npm', ['run', 'build']);
  if (built !== 0) process.exit(built);
}
process.exit(
  run('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts', ...process.argv.slice(2)]),
);

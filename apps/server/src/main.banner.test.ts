import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { scratchDatabase } from './test/global-setup.js';
import { type ServerProcess, buildServer, callApi, startServer } from './test/server-process.js';

/**
 * Issue 30, "The start": the banner ("Pixel Vault is running at ...", the admin login, the demo gift
 * card) is the last thing a first start prints, after the log lines saying the demo catalogue was
 * seeded and the server listens. The log is written in batches (lib/log-destination.ts), so without a
 * flush the banner came out up to a second before those lines.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const pgTemplate = inject('pgTemplateDatabase');
const ENGINE = adminUrl && pgTemplate ? 'postgres' : 'pglite';
const ADMIN_EMAIL = 'banner-admin@pixelvault.local';

const messageOf = (line: string): string | undefined => {
  try {
    return (JSON.parse(line) as { msg?: string }).msg;
  } catch {
    return undefined;
  }
};

describe(`the start banner (${ENGINE})`, () => {
  let dataDir = '';
  let dropDatabase = async () => {};
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    buildServer();
    dataDir = mkdtempSync(path.join(tmpdir(), 'pv-banner-'));
    let databaseUrl: string | undefined;
    if (ENGINE === 'postgres') {
      const database = await scratchDatabase(adminUrl ?? '', 'pv_banner', pgTemplate);
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    server = await startServer({
      env: {
        DATA_DIR: dataDir,
        ADMIN_EMAIL,
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
    });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await dropDatabase();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints once the demo seed is done and the server listens, with a login that works', async () => {
    const logs = server!.logs;
    const bannerAt = () => logs.findIndex((line) => line.includes('Pixel Vault is running at'));
    await vi.waitFor(() => expect(bannerAt()).toBeGreaterThanOrEqual(0), { timeout: 10_000 });

    const seededAt = logs.findIndex((line) => messageOf(line) === 'Seeded the catalogue with 48 products');
    const listeningAt = logs.findIndex((line) => messageOf(line)?.startsWith('Server listening at'));
    expect(seededAt).toBeGreaterThanOrEqual(0);
    expect(listeningAt).toBeGreaterThanOrEqual(0);
    expect(bannerAt()).toBeGreaterThan(seededAt);
    expect(bannerAt()).toBeGreaterThan(listeningAt);

    // The banner's lines come together, and what they print is usable at once.
    const banner = logs.slice(bannerAt(), bannerAt() + 4);
    expect(banner[0]).toContain(`http://127.0.0.1:`);
    const password = /Admin login: \S+ \/ (\S+) {2}\(shown only this once/.exec(banner[1] ?? '')?.[1];
    expect(password).toBeDefined();
    expect(banner[2]).toMatch(
      /Demo gift card: DEMO-[0-9A-F]{8}-[0-9A-F]{8} \(\$100\.00, shown only this once\)/,
    );
    const login = await callApi(server!.url, 'POST', '/api/users/login', {
      body: { email: ADMIN_EMAIL, password },
    });
    expect(login.status).toBe(200);
    const products = await callApi(server!.url, 'GET', '/api/products');
    expect(products.status).toBe(200);
    expect(products.body).toHaveLength(48);
  });
});

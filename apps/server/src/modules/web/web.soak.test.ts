import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scratchDatabase } from '../../test/global-setup.js';
import { buildWebApp } from '../../test/web-build.js';

const SOAK_CHILD = fileURLToPath(new URL('../../test/soak-child.ts', import.meta.url));

interface Measured {
  renders: number;
  heapUsed: number;
  rss: number;
}

/** Runs the soak in a child with --expose-gc; answers its measurements. */
function soak(env: Record<string, string>): Promise<Measured[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SOAK_CHILD], {
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`soak child exited ${code}: ${err.slice(-2000)}`));
      resolve(
        out
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Measured),
      );
    });
  });
}

const MB = 1024 * 1024;

/**
 * Issue 28: every page rendered from scratch kept about 13 kB for good (RTK's dynamic middleware kept
 * each render's store), so a visitor making up URLs grew the heap without end. 5,000 renders of
 * distinct URLs (searches, pages of a category, unknown products) after collection: the heap may grow
 * by the caches filling up to their bounds, less than 5 MB from the first 1,000 to the last.
 */
describe('memory over 5,000 pages rendered from scratch (issue 28)', () => {
  let webDir: string;
  let database: { env: Record<string, string>; drop: () => Promise<void> };

  beforeAll(async () => {
    webDir = await buildWebApp();
    const adminUrl = process.env.TEST_DATABASE_URL;
    const template = inject('pgTemplateDatabase');
    if (adminUrl && template) {
      const { url, drop } = await scratchDatabase(adminUrl, 'pv_soak', template);
      database = { env: { SOAK_DATABASE_URL: url }, drop };
    } else {
      database = { env: { SOAK_PGLITE_DUMP: inject('pgliteDumpFile') }, drop: async () => {} };
    }
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  it('keeps nothing per render: the heap grows by less than 5 MB from the 1,000th render to the 5,000th', async () => {
    const measured = await soak({ ...database.env, WEB_DIST_DIR: webDir, SOAK_RENDERS: '5000' });
    const at = (renders: number) => measured.find((m) => m.renders === renders)!;
    expect(measured.map((m) => m.renders)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    const growth = at(5000).heapUsed - at(1000).heapUsed;
    expect(
      growth,
      `heap after collection: ${measured.map((m) => (m.heapUsed / MB).toFixed(1)).join(' → ')} MB`,
    ).toBeLessThan(5 * MB);
  }, 600_000);
});

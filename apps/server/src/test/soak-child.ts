// The soak of issue 28, in a process of its own started with --expose-gc (web.soak.test.ts, and
// bench/soak.ts): renders SOAK_RENDERS pages of distinct URLs through the real app and prints, every
// SOAK_EVERY renders, the heap after two full collections and the RSS, as one JSON line each.
//
// Environment: WEB_DIST_DIR (a built web app), and SOAK_DATABASE_URL (PostgreSQL) or SOAK_PGLITE_DUMP
// (a migrated PGlite data directory dump, opened in memory).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { createStorage } from '../lib/storage.js';
import { createMailWorker } from '../modules/mail/mail.worker.js';
import { insertProduct } from './factories.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('soak-child: run me with --expose-gc');

const renders = Number(process.env.SOAK_RENDERS ?? 5000);
const every = Number(process.env.SOAK_EVERY ?? 1000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-soak-'));
const handle = process.env.SOAK_DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.SOAK_DATABASE_URL, dataDir })
  : await openDatabase({
      dataDir,
      inMemory: true,
      pgliteLoadDataDir: new Blob([readFileSync(process.env.SOAK_PGLITE_DUMP ?? '')]),
    });
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: 'soak-secret-that-is-long-enough-for-hs256-0123456789',
  LOG_LEVEL: 'silent',
  WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? '',
});
const logger = pino({ level: 'silent' });
// Never started: nothing here queues mail.
const mailer = createMailWorker({
  db: handle.db,
  transport: { kind: 'memory', send: async () => {}, close() {} },
  log: logger,
});
for (const category of ['consoles', 'retro-games', 'puzzles'] as const) {
  for (let i = 0; i < 4; i += 1) await insertProduct(handle.db, { category, name: `Soak ${category} ${i}` });
}
const app = await buildApp({ config, db: handle.db, storage: await createStorage(config), mailer, logger });

/** Three kinds of page a visitor can make up: a search, a page of a category, an unknown product. */
function url(i: number): string {
  if (i % 3 === 0) return `/shop/consoles?q=soak-${i}`;
  if (i % 3 === 1) return `/shop/retro-games?page=${i}`;
  return `/shop/puzzles/product/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

function measure(done: number) {
  gc!();
  gc!();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ renders: done, heapUsed, rss })}\n`);
}

try {
  measure(0);
  for (let i = 1; i <= renders; i += 1) {
    const res = await app.inject({ method: 'GET', url: url(i) });
    // A rendered page (200, or the unknown product's 404), never the plain app drawn in the browser.
    if (!res.body.includes('id="pv-state"')) throw new Error(`${url(i)}: not rendered (${res.statusCode})`);
    if (i % every === 0) measure(i);
  }
} finally {
  await app.close();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}

// What the benchmarks of large catalogues share (bench/large-catalogue.ts, bench/search.ts): the
// generated products (`npm run db:seed -- --products N`) in a fresh database, and a seeded sequence.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openDatabase } from '../apps/server/src/db/client.js';
import { seedGenerated } from '../apps/server/src/db/seed/generated.js';
import { createStorage } from '../apps/server/src/lib/storage.js';
import { loadConfig } from '../apps/server/src/config.js';
import { stopChild, waitFor } from './lib.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Deterministic, so every run asks the same sequence. */
export function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Migrates the database of `env` and fills it with `total` generated products. */
export async function seedProducts(
  env: { DATABASE_URL?: string; DATA_DIR: string },
  total: number,
): Promise<void> {
  const config = loadConfig({
    ...process.env,
    ...env,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0',
  });
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(handle.db);
    const storage = await createStorage(config);
    const started = performance.now();
    await seedGenerated({ db: handle.db, storage, log: { info() {}, warn: console.warn }, total });
    console.log(`Seeded ${total} products in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await handle.close();
  }
}

/**
 * The built shop started as `npm start` starts it, on `env`'s database and `port`, until `work` ends:
 * warmed up first (`warmUp`, with other requests than the measured ones: plans, statement caches, the
 * operating system's page cache).
 */
export async function withShop<T>(
  env: Record<string, string>,
  port: number,
  warmUp: () => Promise<unknown>,
  work: () => Promise<T>,
  /** The built server to start: this checkout's unless told (BENCH_BUILDS). */
  main = join(root, 'apps/server/dist/main.js'),
): Promise<T> {
  // BENCH_SERVER_ARGS: node's own flags for the shop (a --cpu-prof to see where its time goes).
  const args = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...args, main], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    await warmUp();
    return await work();
  } finally {
    await stopChild(server);
  }
}

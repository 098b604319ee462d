import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type DatabaseHandle, MIGRATIONS_DIR, openDatabase } from '../db/client.js';
import { scratchDatabase } from './global-setup.js';

/**
 * Helpers of the migration tests: a migration is run on a database that holds the data of the
 * migrations before it, on PGlite and (under `npm run test:pg`) on PostgreSQL.
 */

/** The migrations before the one tagged `tag` (or through it, `inclusive`), as a folder of their own. */
export function migrationsUpTo(tag: string, inclusive = false): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.startsWith(tag));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, inclusive ? at + 1 : at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** An empty database: PGlite in memory, or a new PostgreSQL database under `npm run test:pg`. */
export async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { handle: await openDatabase({ dataDir: tmpdir(), inMemory: true }), drop: async () => {} };
  }
  const { url, drop } = await scratchDatabase(adminUrl, 'pv_mig');
  const handle = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), poolMax: 2 });
  return { handle, drop };
}

/** What a migration's test works on: an empty database, and the migrations before and through it. */
export interface MigrationScene {
  handle: DatabaseHandle;
  /** The migrations before the one under test, and through it (folders for `migrate(db, dir)`). */
  before: string;
  through: string;
}

/**
 * Sets up (beforeAll) and tears down (afterAll) a MigrationScene for the migration tagged `tag`; its
 * fields are filled once the suite's beforeAll has run.
 */
export function migrationScene(tag: string): MigrationScene {
  const scene = {} as MigrationScene;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ handle: scene.handle, drop } = await emptyDatabase());
    scene.before = migrationsUpTo(tag);
    scene.through = migrationsUpTo(tag, true);
  }, 60_000);
  afterAll(async () => {
    await scene.handle?.close();
    await drop?.();
    for (const dir of [scene.before, scene.through]) if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return scene;
}

/**
 * The name of the constraint (or unique index) the database refused `write` by; fails the test when
 * the write is taken. Either driver's error carries it, however deep Drizzle wrapped it.
 */
export async function refusedBy(write: Promise<unknown>): Promise<string> {
  try {
    await write;
  } catch (error) {
    for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
      const constraint = (e as { constraint?: unknown }).constraint;
      if (typeof constraint === 'string') return constraint;
    }
    throw error;
  }
  throw new Error('the database took a write it should have refused');
}

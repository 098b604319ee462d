// The work of `npm run db:restore -- FILE [--force]` (issue 15, docs/backups.md), apart from reading
// the settings, so tests can run it in-process as well as through the real command.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_DIR, migrate, openDatabase } from '../db/client.js';
import { orders, products } from '../db/schema/index.js';
import type { SeedLog } from '../db/seed/index.js';
import type { Storage } from '../lib/storage.js';
import { type BackupManifest, backupTimestamp } from '../modules/admin/admin.backup.format.js';
import { libpqConnection } from '../modules/admin/admin.backup.pgdump.js';
import { BackupFileError, readBackup } from '../modules/admin/admin.backup.read.js';
import { dropEverything, holdsShopTables } from './database.js';
import { CliError, redactDatabaseUrl } from './run-cli.js';

export interface RestoreOptions {
  /** The .tar.gz from GET /api/admin/backup. */
  file: string;
  /** Replace a database that already holds the shop's data. */
  force: boolean;
  /** Unset: the embedded database in `dataDir/db`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Where the images go back to (the shop's storage: DATA_DIR/uploads, or the bucket). */
  storage: Storage;
  pgRestorePath: string;
  log: SeedLog;
  /** Temporary files go here (default: the system's temporary directory). */
  workDir?: string;
  clock?: () => Date;
}

export interface RestoreSummary {
  engine: 'pglite' | 'postgres';
  products: number;
  orders: number;
  images: number;
  /** Migrations newer than the backup, applied after it was restored. */
  migrationsApplied: number;
  /** PGlite with --force: where the replaced database was moved (nothing is deleted). */
  movedAside?: string;
}

/** Converting between engines is not supported (docs/backups.md, "Moving between engines"). */
const MOVE_HINT =
  'db:restore does not convert between engines: restore it with the setting it was made with (DATABASE_URL unset for the embedded database, set for PostgreSQL), e.g. into a new DATA_DIR or an empty PostgreSQL database. See docs/backups.md, "Moving between engines".';

/** A file's type for the bucket, from the extension storage keys end in. */
function contentTypeOf(key: string): string {
  const ext = path.extname(key).toLowerCase();
  return (
    {
      '.webp': 'image/webp',
      '.svg': 'image/svg+xml',
      '.png': 'image/png',
      '.jpg': 'image/jpeg',
      '.jpeg': 'image/jpeg',
      '.gif': 'image/gif',
      '.avif': 'image/avif',
    }[ext] ?? 'application/octet-stream'
  );
}

/** What the embedded database in `dir` holds; undefined when there is none. */
async function pgliteContents(dataDir: string): Promise<{ products: number; orders: number } | undefined> {
  if (!existsSync(path.join(dataDir, 'db', 'PG_VERSION'))) return undefined;
  const handle = await openDatabase({ dataDir });
  try {
    const [p] = await handle.db.select({ n: count() }).from(products);
    const [o] = await handle.db.select({ n: count() }).from(orders);
    return { products: p?.n ?? 0, orders: o?.n ?? 0 };
  } catch {
    // Not migrated yet (no tables): nothing of the shop's in it.
    return { products: 0, orders: 0 };
  } finally {
    await handle.close();
  }
}

/** pg_restore into the (empty) database; its own messages when it fails. */
async function runPgRestore(pgRestorePath: string, databaseUrl: string, file: string): Promise<void> {
  const { dbname, env } = libpqConnection(databaseUrl);
  const child = spawn(
    pgRestorePath,
    // --no-owner / --no-privileges: the roles of the machine the backup came from need not exist here.
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
    { env, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 16_384) stderr += chunk.toString('utf8');
  });
  const outcome = await new Promise<{ error: NodeJS.ErrnoException } | { code: number | null }>((resolve) => {
    child.once('error', (error) => resolve({ error }));
    child.once('close', (code) => resolve({ code }));
  });
  if ('error' in outcome) {
    throw new CliError(
      `Restoring into PostgreSQL needs pg_restore, which could not be run (${pgRestorePath}: ${
        outcome.error.code === 'ENOENT' ? 'not found' : (outcome.error.code ?? outcome.error.message)
      }). Install the PostgreSQL client tools of your server's version (Debian/Ubuntu: apt-get install postgresql-client-<version>) or set PG_RESTORE_PATH.`,
    );
  }
  if (outcome.code !== 0) {
    throw new CliError(
      `pg_restore failed (exit code ${outcome.code}); the database was left empty:\n${stderr.trim()}`,
    );
  }
}

/**
 * Restores a backup: checks the file and the target first (refusing to overwrite the shop's data
 * without `force`), reads the whole file (verifying it) before anything is replaced, then loads the
 * database, runs the migrations newer than the backup, and puts the images back.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const { file, force, databaseUrl, log } = options;
  const engine = databaseUrl ? 'postgres' : 'pglite';
  // Where openDatabase keeps the embedded database.
  const pgliteDir = path.join(options.dataDir, 'db');
  const target = databaseUrl ? redactDatabaseUrl(databaseUrl) : pgliteDir;
  if (!existsSync(file)) throw new CliError(`No such file: ${file}`);
  const knownMigrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).length;

  const checkTarget = async (manifest: BackupManifest) => {
    if (manifest.engine !== engine) {
      throw new CliError(
        `${file} is a backup of ${manifest.engine === 'pglite' ? 'the embedded database (PGlite)' : 'a PostgreSQL database'}, and this shop uses ${
          engine === 'pglite'
            ? 'the embedded database (DATABASE_URL is not set)'
            : 'PostgreSQL (DATABASE_URL)'
        }. ${MOVE_HINT}`,
      );
    }
    if (manifest.migrations > knownMigrations) {
      throw new CliError(
        `${file} was made by a newer Pixel Vault (${manifest.appVersion}, ${manifest.migrations} migrations; this one knows ${knownMigrations}): upgrade the shop first`,
      );
    }
    if (engine === 'pglite') {
      if (existsSync(path.join(pgliteDir, 'postmaster.pid'))) {
        if (!force) {
          throw new CliError(
            `The embedded database ${pgliteDir} is open: stop the shop first (it must not run while a backup is restored). If it is stopped and was killed earlier, add --force.`,
          );
        }
        log.warn(`${pgliteDir} looks open: make sure the shop is stopped while it is restored`);
      } else if (!force) {
        const held = await pgliteContents(options.dataDir);
        if (held && (held.products > 0 || held.orders > 0)) {
          throw new CliError(
            `${pgliteDir} already holds a shop (${held.products} products, ${held.orders} orders): add --force to replace it (it is moved aside, not deleted). Stop the shop first.`,
          );
        }
      }
    } else {
      const handle = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolMax: 1 });
      try {
        if (!force && (await holdsShopTables(handle.db))) {
          throw new CliError(
            `${target} already holds the shop's tables: add --force to replace everything in it, or restore into an empty database`,
          );
        }
      } finally {
        await handle.close();
      }
    }
    log.info(
      `Backup of ${manifest.createdAt} (Pixel Vault ${manifest.appVersion}, ${manifest.migrations} migrations, ${manifest.engine} ${manifest.databaseVersion})`,
    );
    if (!manifest.images.included) log.warn(manifest.images.note);
  };

  const work = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'pv-restore-'));
  try {
    let backup;
    try {
      backup = await readBackup(file, work, checkTarget);
    } catch (error) {
      if (error instanceof BackupFileError) throw new CliError(error.message);
      throw error;
    }
    log.info(
      `Read ${file}: database ${(backup.end.databaseBytes / 1024 / 1024).toFixed(1)} MB, ${backup.images.length} images`,
    );

    let movedAside: string | undefined;
    let handle;
    if (engine === 'pglite') {
      if (existsSync(pgliteDir)) {
        // Nothing is deleted: the replaced database stays beside, for whoever wants it back.
        movedAside = `${pgliteDir}.before-restore-${backupTimestamp(options.clock?.() ?? new Date())}`;
        await rename(pgliteDir, movedAside);
        log.info(`Moved the previous embedded database to ${movedAside}`);
      }
      handle = await openDatabase({
        dataDir: options.dataDir,
        pgliteLoadDataDir: new Blob([await readFile(backup.databaseFile)]),
      });
    } else {
      const dbUrl = databaseUrl as string;
      const emptying = await openDatabase({ databaseUrl: dbUrl, dataDir: tmpdir(), poolMax: 1 });
      try {
        if (await holdsShopTables(emptying.db)) {
          await dropEverything(emptying.db);
          log.info(`Dropped every table of ${target}`);
        }
      } finally {
        await emptying.close();
      }
      await runPgRestore(options.pgRestorePath, dbUrl, backup.databaseFile);
      handle = await openDatabase({ databaseUrl: dbUrl, dataDir: tmpdir(), poolMax: 2 });
    }

    let summary: RestoreSummary;
    try {
      const migrationsApplied = await migrate(handle.db);
      const [p] = await handle.db.select({ n: count() }).from(products);
      const [o] = await handle.db.select({ n: count() }).from(orders);
      summary = {
        engine,
        products: p?.n ?? 0,
        orders: o?.n ?? 0,
        images: backup.images.length,
        migrationsApplied,
        ...(movedAside ? { movedAside } : {}),
      };
    } finally {
      await handle.close();
    }

    for (const image of backup.images) {
      await options.storage.put(image.key, await readFile(image.file), contentTypeOf(image.key));
    }
    log.info(
      `Restored ${target}: ${summary.products} products, ${summary.orders} orders, ${summary.images} images` +
        (summary.migrationsApplied > 0
          ? `, then applied ${summary.migrationsApplied} newer migration(s)`
          : ''),
    );
    return summary;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// The whole shop as one download (issue 15): GET /api/admin/backup streams a .tar.gz of the database
// (PGlite's data directory, or pg_dump's custom format on PostgreSQL) and the uploaded images, while
// the shop keeps answering. `npm run db:restore` (cli/restore.ts) reads it back with readBackup()
// (admin.backup.read.ts).
import { createHash } from 'node:crypto';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import { type Database, queryRows } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { LocalDiskStorage, type Storage, isSafeKey } from '../../lib/storage.js';
import { recordAudit } from '../audit/audit.repo.js';
import {
  APP_VERSION,
  BACKUP_ENTRIES,
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupEnd,
  type BackupManifest,
  PG_DUMP_PART_BYTES,
  backupTimestamp,
} from './admin.backup.format.js';
import { type PgDump, startPgDump } from './admin.backup.pgdump.js';

/** What the database behind the app is: drizzle keeps its driver's client as `$client`. */
type Source =
  | { engine: 'pglite'; dumpDataDir(compression: 'none'): Promise<Blob> }
  | { engine: 'postgres'; connectionString: string };

function sourceOf(db: Database): Source {
  const client = (db as unknown as { $client?: unknown }).$client as
    { dumpDataDir?: unknown; options?: { connectionString?: unknown } } | undefined;
  if (client && typeof client.dumpDataDir === 'function') {
    const pglite = client as { dumpDataDir(compression: 'none'): Promise<Blob> };
    return { engine: 'pglite', dumpDataDir: (compression) => pglite.dumpDataDir(compression) };
  }
  const connectionString = client?.options?.connectionString;
  if (typeof connectionString === 'string') return { engine: 'postgres', connectionString };
  throw new Error('Backup: the database is neither PGlite nor a node-postgres pool with a connection string');
}

/** Waits until the writable takes more (or is gone). */
function drained(stream: Pick<Writable, 'on' | 'off'>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** One tar entry of a known size, its bytes taken from `source` at the pace the download goes. */
function writeEntry(
  pack: tar.Pack,
  header: { name: string; size: number; mtime: Date },
  source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = pack.entry({ ...header, type: 'file', mode: 0o644 }, (error) =>
      error ? reject(error) : resolve(),
    );
    void (async () => {
      for await (const chunk of source) {
        if (sink.destroyed) throw new Error('backup stream closed');
        if (!sink.write(chunk)) await drained(sink as unknown as Pick<Writable, 'on' | 'off'>);
      }
      // streamx's end() takes an optional last chunk (its types say it is required).
      sink.end(undefined);
    })().catch((error: unknown) => {
      sink.destroy(error instanceof Error ? error : new Error(String(error)));
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** 1 MiB slices of a buffer, so a big entry is still written at the download's pace. */
function* slices(bytes: Uint8Array, size = 1024 * 1024): Generator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
}

/** Every stored image under `dir` as its storage key, skipping half-written temporary files. */
async function imageKeys(dir: string): Promise<string[]> {
  const keys: string[] = [];
  const walk = async (relative: string) => {
    let entries;
    try {
      entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(key);
      else if (entry.isFile() && !entry.name.endsWith('.tmp') && isSafeKey(key)) keys.push(key);
    }
  };
  await walk('');
  return keys.sort();
}

export interface BackupDownload {
  filename: string;
  stream: Readable;
}

export interface BackupService {
  /** Starts a backup for the admin `actor`; 409 while another is running, 503 when pg_dump cannot run. */
  start(actor: string): Promise<BackupDownload>;
}

export interface BackupServiceOptions {
  db: Database;
  storage: Storage;
  /** pg_dump to run on PostgreSQL (PG_DUMP_PATH, else `pg_dump` on PATH). */
  pgDumpPath: string;
  /** The bucket of STORAGE_URL: its images stay there, and the manifest says so. */
  s3?: { bucket: string; prefix: string } | undefined;
  clock?: () => Date;
  /** Told when a backup stops half-way (the client has its 200 and a cut file, without end.json). */
  onStreamError?: (error: Error) => void;
}

export function createBackupService(options: BackupServiceOptions): BackupService {
  const { db, storage } = options;
  const clock = options.clock ?? (() => new Date());
  /** One backup at a time per instance: each holds a database dump's worth of work and memory. */
  let running = false;

  async function describe(engine: 'pglite' | 'postgres', createdAt: Date): Promise<BackupManifest> {
    const [migrations] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from drizzle.__drizzle_migrations`,
    );
    const [version] = await queryRows<{ server_version: string }>(db, sql`show server_version`);
    return {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      engine,
      createdAt: createdAt.toISOString(),
      migrations: Number(migrations?.n ?? 0),
      appVersion: APP_VERSION,
      databaseVersion: version?.server_version ?? 'unknown',
      images:
        storage instanceof LocalDiskStorage || !options.s3
          ? { included: true, storage: 'local' }
          : {
              included: false,
              storage: 's3',
              bucket: options.s3.bucket,
              prefix: options.s3.prefix,
              note: 'The product images stay in the bucket and are not in this backup: back the bucket up on its own (e.g. turn on versioning).',
            },
    };
  }

  async function prepare(actor: string): Promise<BackupDownload> {
    const source = sourceOf(db);
    const createdAt = clock();
    const manifest = await describe(source.engine, createdAt);
    const mtime = createdAt;

    // Everything that can fail for a reason the admin can fix happens before the 200 is sent.
    let database: { kind: 'pglite'; bytes: Uint8Array } | { kind: 'postgres'; dump: PgDump };
    if (source.engine === 'pglite') {
      // PGlite runs one query at a time: requests wait while the files are read (no stop, no restart).
      // The copy is crash-consistent, like a snapshot of a running PostgreSQL: a transaction in flight
      // is rolled back when it is opened again.
      const blob = await source.dumpDataDir('none');
      database = { kind: 'pglite', bytes: new Uint8Array(await blob.arrayBuffer()) };
    } else {
      const [num] = await queryRows<{ server_version_num: string }>(db, sql`show server_version_num`);
      const major = Math.floor(Number(num?.server_version_num ?? 0) / 10_000) || 0;
      database = {
        kind: 'postgres',
        dump: await startPgDump(options.pgDumpPath, source.connectionString, major, manifest.databaseVersion),
      };
    }

    try {
      await recordAudit(db, {
        actor,
        action: 'shop.backup',
        targetType: 'shop',
        targetId: null,
        after: { engine: manifest.engine, migrations: manifest.migrations, images: manifest.images.included },
      });
    } catch (error) {
      if (database.kind === 'postgres') database.dump.child.kill('SIGTERM');
      throw error;
    }

    const pack = tar.pack();
    // pg_dump's custom format is compressed already: compressing it again costs time for nothing.
    const gzip = createGzip({ level: database.kind === 'postgres' ? 1 : 6 });
    pack.pipe(gzip);
    pack.on('error', (error: Error) => gzip.destroy(error));
    const child = database.kind === 'postgres' ? database.dump.child : undefined;
    gzip.on('close', () => {
      running = false;
      // A client gone half-way: stop the work behind it.
      if (!pack.destroyed) pack.destroy();
      if (child && child.exitCode === null) child.kill('SIGTERM');
    });

    const produce = async () => {
      const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      await writeEntry(pack, { name: BACKUP_ENTRIES.manifest, size: manifestBytes.byteLength, mtime }, [
        manifestBytes,
      ]);

      const hash = createHash('sha256');
      let databaseBytes = 0;
      let databaseParts = 0;
      if (database.kind === 'pglite') {
        hash.update(database.bytes);
        databaseBytes = database.bytes.byteLength;
        databaseParts = 1;
        await writeEntry(
          pack,
          { name: BACKUP_ENTRIES.pglite, size: database.bytes.byteLength, mtime },
          slices(database.bytes),
        );
      } else {
        const { output, exited, stderr } = database.dump;
        let part: Buffer[] = [];
        let partBytes = 0;
        const flush = async () => {
          databaseParts += 1;
          await writeEntry(
            pack,
            { name: BACKUP_ENTRIES.pgDumpPart(databaseParts), size: partBytes, mtime },
            part,
          );
          part = [];
          partBytes = 0;
        };
        // Reading stops while a part is written, so pg_dump waits on its pipe: memory stays at one part.
        for await (const chunk of output) {
          hash.update(chunk);
          databaseBytes += chunk.byteLength;
          part.push(chunk);
          partBytes += chunk.byteLength;
          if (partBytes >= PG_DUMP_PART_BYTES) await flush();
        }
        if (partBytes > 0 || databaseParts === 0) await flush();
        const outcome = await exited;
        if (!('code' in outcome) || outcome.code !== 0) {
          const why = 'code' in outcome ? `exit code ${outcome.code}` : outcome.error.message;
          throw new Error(`pg_dump stopped (${why}): ${stderr().trim().split('\n')[0] ?? ''}`);
        }
      }

      // Images after the database: every image its rows name was written before the dump began.
      let images = 0;
      let imageBytes = 0;
      if (storage instanceof LocalDiskStorage) {
        for (const key of await imageKeys(storage.dir)) {
          let handle;
          try {
            handle = await open(path.join(storage.dir, key), 'r');
          } catch (error) {
            // Removed since the directory was read (a product deleted meanwhile): not in the backup.
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
            throw error;
          }
          try {
            // Size and bytes from the same open file: a key rewritten meanwhile (renamed over) is
            // still read whole from the old one.
            const { size } = await handle.stat();
            await writeEntry(
              pack,
              { name: `${BACKUP_ENTRIES.uploads}${key}`, size, mtime },
              handle.createReadStream({ autoClose: false }),
            );
            images += 1;
            imageBytes += size;
          } finally {
            await handle.close();
          }
        }
      }

      const end: BackupEnd = {
        databaseBytes,
        databaseSha256: hash.digest('hex'),
        databaseParts,
        images,
        imageBytes,
      };
      const endBytes = Buffer.from(`${JSON.stringify(end, null, 2)}\n`);
      await writeEntry(pack, { name: BACKUP_ENTRIES.end, size: endBytes.byteLength, mtime }, [endBytes]);
      pack.finalize();
    };
    produce().catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (!gzip.destroyed) options.onStreamError?.(failure);
      pack.destroy(failure);
    });

    return { filename: `pixel-vault-backup-${backupTimestamp(createdAt)}.tar.gz`, stream: gzip };
  }

  return {
    async start(actor) {
      if (running) {
        throw new AppError(
          409,
          'A backup is already being made: try again when it has finished',
          'BACKUP_RUNNING',
        );
      }
      running = true;
      try {
        return await prepare(actor);
      } catch (error) {
        running = false;
        throw error;
      }
    },
  };
}

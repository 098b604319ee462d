// The whole shop as one download (issue 15): GET /api/admin/backup streams a .tar.gz of the database
// (PGlite's data directory, or pg_dump's custom format on PostgreSQL) and the uploaded images, while
// the shop keeps answering. `npm run db:restore` (cli/restore.ts) reads it back with readBackup().
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import { z } from 'zod';
import { type Database, queryRows } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { LocalDiskStorage, type Storage, isSafeKey } from '../../lib/storage.js';
import { recordAudit } from '../audit/audit.repo.js';

export const BACKUP_FORMAT = 'pixel-vault-backup';
/** Raised when the layout below changes; a restore refuses a format newer than it knows. */
export const BACKUP_FORMAT_VERSION = 1;

/** The archive's entries, in the order they are written. */
export const BACKUP_ENTRIES = {
  manifest: 'manifest.json',
  /** PGlite: its data directory as the tar `dumpDataDir('none')` makes (the outer gzip compresses it). */
  pglite: 'database/pglite-data.tar',
  /** PostgreSQL: pg_dump --format=custom, cut in parts (a tar entry's size is written before its bytes). */
  pgDumpPart: (n: number) => `database/pg_dump.part-${String(n).padStart(6, '0')}`,
  uploads: 'uploads/',
  /** Written last: a download cut short (a dead connection, pg_dump failing late) lacks it. */
  end: 'end.json',
} as const;

const PG_DUMP_PART = /^database\/pg_dump\.part-(\d{6})$/;

/** pg_dump's output is cut in parts this big: the most of it ever held in memory at once. */
export const PG_DUMP_PART_BYTES = 8 * 1024 * 1024;

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  engine: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  /** Migrations applied to the database when it was backed up: a restore runs the newer ones. */
  migrations: z.number().int().min(0),
  appVersion: z.string(),
  databaseVersion: z.string(),
  images: z.union([
    z.object({ included: z.literal(true), storage: z.literal('local') }),
    z.object({
      included: z.literal(false),
      storage: z.literal('s3'),
      bucket: z.string(),
      prefix: z.string(),
      note: z.string(),
    }),
  ]),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export const BackupEnd = z.object({
  databaseBytes: z.number().int().min(0),
  databaseSha256: z.string().regex(/^[0-9a-f]{64}$/),
  databaseParts: z.number().int().min(1),
  images: z.number().int().min(0),
  imageBytes: z.number().int().min(0),
});
export type BackupEnd = z.infer<typeof BackupEnd>;

/** apps/server/package.json, from src/modules/admin and dist/modules/admin alike (same depth). */
function readAppVersion(): string {
  try {
    const file = new URL('../../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
export const APP_VERSION = readAppVersion();

/** `20261123T081500Z`: sorts by time, and is safe in a file name everywhere. */
export function backupTimestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

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

/**
 * A libpq connection for pg_dump / pg_restore with the password taken out of the URL and handed over
 * in PGPASSWORD: a command line is visible to every user of the machine (`ps`), the environment is not.
 */
export function libpqConnection(connectionString: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(connectionString);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGCONNECT_TIMEOUT: '10' },
  };
}

/** `apt-get install postgresql-client-16` for a PostgreSQL 16 server. */
function clientToolsAdvice(tool: string, major: number | undefined, setting: string): string {
  const version = major ? ` ${major}` : '';
  const pkg = major ? `postgresql-client-${major}` : 'postgresql-client';
  return `Install the PostgreSQL${version} client tools (Debian/Ubuntu: apt-get install ${pkg}) or set ${setting} to the path of a ${tool}${major ? ` of version ${major} or newer` : ''}.`;
}

/** pg_dump under way: its output (first bytes already read), its exit, its messages. */
interface PgDump {
  child: ChildProcess;
  output: AsyncIterable<Buffer>;
  exited: Promise<{ error: NodeJS.ErrnoException } | { code: number | null }>;
  stderr: () => string;
}

/** Runs pg_dump and waits for its first bytes: a failure to start becomes a 503, never a cut 200. */
async function startPgDump(
  pgDumpPath: string,
  connectionString: string,
  serverMajor: number,
  serverVersion: string,
): Promise<PgDump> {
  const { dbname, env } = libpqConnection(connectionString);
  const child = spawn(pgDumpPath, ['--format=custom', `--dbname=${dbname}`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errorText = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (errorText.length < 16_384) errorText += chunk.toString('utf8');
  });
  const exited = new Promise<{ error: NodeJS.ErrnoException } | { code: number | null }>((resolve) => {
    child.once('error', (error) => resolve({ error }));
    child.once('close', (code) => resolve({ code }));
  });
  // Read from now on, without a gap: once pg_dump exits, node drains (throws away) the output of a
  // pipe nobody is reading, and a small database is dumped before the response even starts.
  const chunks = (child.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const first = await chunks.next().catch(() => undefined);
  if (first && !first.done) {
    const output = (async function* () {
      yield first.value;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    })();
    return { child, output, exited, stderr: () => errorText };
  }

  const outcome = await exited;
  child.kill('SIGTERM');
  if ('error' in outcome) {
    const why =
      outcome.error.code === 'ENOENT'
        ? `pg_dump was not found (${pgDumpPath})`
        : `pg_dump could not be run (${pgDumpPath}: ${outcome.error.code ?? outcome.error.message})`;
    throw new AppError(
      503,
      `Backups of a shop on PostgreSQL need pg_dump: ${why}. ${clientToolsAdvice('pg_dump', serverMajor, 'PG_DUMP_PATH')}`,
      'BACKUP_UNAVAILABLE',
    );
  }
  const text = errorText.trim();
  if (/version mismatch/i.test(text)) {
    const dumpVersion = /pg_dump version:\s*([\d.]+)/i.exec(text)?.[1];
    throw new AppError(
      503,
      `pg_dump${dumpVersion ? ` ${dumpVersion}` : ''} cannot back up this PostgreSQL ${serverVersion}. ${clientToolsAdvice('pg_dump', serverMajor, 'PG_DUMP_PATH')}`,
      'BACKUP_UNAVAILABLE',
    );
  }
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? `exit code ${outcome.code}`;
  throw new AppError(503, `pg_dump could not back up the database: ${firstLine}`, 'BACKUP_UNAVAILABLE');
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

/** What readBackup found and where it put it. */
export interface ExtractedBackup {
  manifest: BackupManifest;
  end: BackupEnd;
  /** The PGlite data directory tar, or the pg_dump archive (parts joined). */
  databaseFile: string;
  /** Images by storage key, each in a file under the extraction directory. */
  images: { key: string; file: string }[];
}

/** A backup refused for a reason a person can act on (not ours, damaged, from elsewhere). */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/**
 * Reads a backup made by GET /api/admin/backup into `dir`, checking as it goes: the manifest first
 * (handed to `checkManifest`, which may refuse before anything big is read), the database's size and
 * SHA-256 against end.json, and that end.json is there at all (a cut download lacks it).
 */
export async function readBackup(
  file: string,
  dir: string,
  checkManifest: (manifest: BackupManifest) => Promise<void> | void,
): Promise<ExtractedBackup> {
  const notOurs = `${file} is not a Pixel Vault backup (a .tar.gz downloaded from GET /api/admin/backup)`;
  const input = createReadStream(file);
  const gunzip = createGunzip();
  const extract = tar.extract();
  input.on('error', (error) => extract.destroy(error));
  gunzip.on('error', (error) => extract.destroy(error));
  input.pipe(gunzip).pipe(extract);

  let manifest: BackupManifest | undefined;
  let refusal: unknown;
  let end: BackupEnd | undefined;
  const databaseFile = path.join(dir, 'database');
  const hash = createHash('sha256');
  let databaseBytes = 0;
  let databaseParts = 0;
  const images: { key: string; file: string }[] = [];
  const imagesDir = path.join(dir, 'uploads');

  const readSmall = async (entry: AsyncIterable<Buffer>, limit: number) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of entry) {
      size += chunk.byteLength;
      if (size > limit) throw new BackupFileError(notOurs);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  };
  const parseJson = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };

  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (!manifest) {
        if (name !== BACKUP_ENTRIES.manifest) throw new BackupFileError(notOurs);
        const raw = parseJson(await readSmall(entry as unknown as AsyncIterable<Buffer>, 64 * 1024));
        if ((raw as { format?: unknown } | undefined)?.format !== BACKUP_FORMAT) {
          throw new BackupFileError(notOurs);
        }
        const version = (raw as { formatVersion?: unknown }).formatVersion;
        if (typeof version === 'number' && version > BACKUP_FORMAT_VERSION) {
          throw new BackupFileError(
            `${file} was made by a newer Pixel Vault (backup format ${version}; this one reads up to ${BACKUP_FORMAT_VERSION}): upgrade the shop first`,
          );
        }
        const parsed = BackupManifest.safeParse(raw);
        if (!parsed.success) throw new BackupFileError(`${notOurs}: its manifest.json is not valid`);
        manifest = parsed.data;
        try {
          await checkManifest(manifest);
        } catch (error) {
          refusal = error;
          throw error;
        }
        continue;
      }
      if (end) throw new BackupFileError(`${file} is damaged: entries after end.json`);
      if (name === BACKUP_ENTRIES.end) {
        const parsed = BackupEnd.safeParse(
          parseJson(await readSmall(entry as unknown as AsyncIterable<Buffer>, 64 * 1024)),
        );
        if (!parsed.success) throw new BackupFileError(`${file} is damaged: its end.json is not valid`);
        end = parsed.data;
        continue;
      }
      const part = PG_DUMP_PART.exec(name);
      if (name === BACKUP_ENTRIES.pglite || part) {
        const expectedEngine = part ? 'postgres' : 'pglite';
        const n = part ? Number(part[1]) : 1;
        if (manifest.engine !== expectedEngine || n !== databaseParts + 1) {
          throw new BackupFileError(`${file} is damaged: unexpected entry ${name}`);
        }
        databaseParts = n;
        const out = createWriteStream(databaseFile, { flags: n === 1 ? 'w' : 'a' });
        for await (const chunk of entry as unknown as AsyncIterable<Buffer>) {
          hash.update(chunk);
          databaseBytes += chunk.byteLength;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        out.end();
        await finished(out);
        continue;
      }
      if (name.startsWith(BACKUP_ENTRIES.uploads)) {
        const key = name.slice(BACKUP_ENTRIES.uploads.length);
        // Keys are checked as storage checks them: no `..`, no absolute paths out of the directory.
        if (!isSafeKey(key)) throw new BackupFileError(`${file} is damaged: unsafe image name ${name}`);
        const target = path.join(imagesDir, key);
        await mkdir(path.dirname(target), { recursive: true });
        const out = createWriteStream(`${target}.part`);
        for await (const chunk of entry as unknown as AsyncIterable<Buffer>) {
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        out.end();
        await finished(out);
        await rename(`${target}.part`, target);
        images.push({ key, file: target });
        continue;
      }
      // Entries a later version may add: skipped (a newer format number would have been refused).
      for await (const chunk of entry) void chunk;
    }
  } catch (error) {
    // The caller's own refusal (the target holds data, another engine) goes back to it as it was.
    if (error instanceof BackupFileError || (refusal !== undefined && error === refusal)) throw error;
    if (!manifest) throw new BackupFileError(notOurs);
    throw new BackupFileError(
      `${file} is damaged or incomplete (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    input.destroy();
  }

  if (!manifest) throw new BackupFileError(notOurs);
  if (!end) {
    throw new BackupFileError(
      `${file} is incomplete: it ends before end.json (a download cut short, or the backup failed half-way)`,
    );
  }
  if (
    end.databaseParts !== databaseParts ||
    end.databaseBytes !== databaseBytes ||
    end.databaseSha256 !== hash.digest('hex')
  ) {
    throw new BackupFileError(`${file} is damaged: the database does not match its checksum`);
  }
  if (end.images !== images.length) {
    throw new BackupFileError(`${file} is damaged: ${images.length} of ${end.images} images found`);
  }
  return { manifest, end, databaseFile, images };
}

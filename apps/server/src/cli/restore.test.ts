import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { asc, eq, sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, MIGRATIONS_DIR, migrate, openDatabase, queryRows } from '../db/client.js';
import { orders } from '../db/schema/index.js';
import { S3Storage } from '../lib/s3-storage.js';
import { LocalDiskStorage } from '../lib/storage.js';
import { createBackupService } from '../modules/admin/admin.backup.js';
import { BACKUP_ENTRIES } from '../modules/admin/admin.backup.format.js';
import { type TestContext, createTestContext, silentLog } from '../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../test/factories.js';
import { scratchDatabase } from '../test/global-setup.js';
import { S3RVER_CREDENTIALS, s3rverSettings, startS3rver } from '../test/s3rver.js';
import { restoreBackup } from './restore-backup.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const engine = adminUrl ? 'postgres' : 'pglite';
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A restore target: a new DATA_DIR, and under test:pg a new, empty PostgreSQL database. */
async function newTarget(): Promise<{
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-restore-target-'));
  if (!adminUrl) {
    return {
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, drop } = await scratchDatabase(adminUrl, 'pv_restore');
  return {
    dataDir,
    databaseUrl: url,
    drop: async () => {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Target = Awaited<ReturnType<typeof newTarget>>;

async function withTargetDb<T>(target: Target, body: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolMax: 1 });
  try {
    return await body(handle.db);
  } finally {
    await handle.close();
  }
}

const orderRows = (db: Database) =>
  db
    .select({
      id: orders.id,
      totalCents: orders.totalCents,
      status: orders.status,
      isDelivered: orders.isDelivered,
    })
    .from(orders)
    .orderBy(asc(orders.id));

function restoreInto(target: Target, file: string, force = false) {
  return restoreBackup({
    file,
    force,
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    storage: new LocalDiskStorage(path.join(target.dataDir, 'uploads')),
    pgRestorePath: 'pg_restore',
    log: silentLog,
  });
}

/** `npm run db:restore` as a person runs it: the real entry point, in a process of its own. */
function runRestoreCommand(
  target: Target,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: target.dataDir,
    LOG_LEVEL: 'silent',
    ...extraEnv,
  };
  delete env.INIT_CWD;
  delete env.DATABASE_URL;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  const child = spawn('npx', ['tsx', '--conditions=source', 'apps/server/src/cli/restore.ts', ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** The entries of a backup, to make altered copies of it. */
async function entriesOf(gz: Buffer): Promise<[string, Buffer][]> {
  const entries: [string, Buffer][] = [];
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
      entries.push([entry.header.name, Buffer.concat(chunks)]);
    }
  })();
  extract.end(gunzipSync(gz));
  await done;
  return entries;
}

async function tarGz(entries: [string, Buffer][]): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, bytes] of entries) pack.entry({ name }, bytes);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return gzipSync(Buffer.concat(chunks));
}

describe(`backup -> wipe -> restore on ${engine} (issue 15)`, () => {
  let ctx: TestContext;
  let work: string;
  let backupFile: string;
  let before: Awaited<ReturnType<typeof orderRows>>;
  const imageKey = 'products/restore-test-0-0ff1ce00.webp';
  const imageBytes = randomBytes(70_000);
  const targets: Target[] = [];
  const target = async () => {
    const t = await newTarget();
    targets.push(t);
    return t;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    work = mkdtempSync(path.join(tmpdir(), 'pv-restore-test-'));
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const shopper = await insertUser(ctx.db);
    const a = await insertProduct(ctx.db, { name: 'Restore Cartridge', priceCents: 2599, stock: 20 });
    const b = await insertProduct(ctx.db, { name: 'Restore Puzzle', priceCents: 1250, stock: 20 });
    const placed = [
      await placeOrder(ctx.app, shopper.auth, [{ product: a.id, itemQuantity: 1 }]),
      await placeOrder(ctx.app, shopper.auth, [{ product: b.id, itemQuantity: 3 }]),
      await placeOrder(ctx.app, shopper.auth, [
        { product: a.id, itemQuantity: 2 },
        { product: b.id, itemQuantity: 1 },
      ]),
    ];
    // Three states: unpaid, paid, paid and delivered.
    await ctx.db
      .update(orders)
      .set({ status: 'paid', paidAt: new Date() })
      .where(eq(orders.id, placed[1]!._id));
    await ctx.db
      .update(orders)
      .set({ status: 'paid', paidAt: new Date(), isDelivered: true, deliveredAt: new Date() })
      .where(eq(orders.id, placed[2]!._id));
    await ctx.storage.put(imageKey, imageBytes, 'image/webp');
    before = await orderRows(ctx.db);
    expect(before.map((o) => o.status).sort()).toEqual(['paid', 'paid', 'unpaid']);

    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    backupFile = path.join(work, 'backup.tar.gz');
    writeFileSync(backupFile, res.rawPayload);
  });
  afterAll(async () => {
    for (const t of targets) await t.drop();
    if (work) rmSync(work, { recursive: true, force: true });
    await ctx?.close();
  });

  it('gives back the same orders (ids, totals, statuses) and the same image bytes', async () => {
    const t = await target();
    const summary = await restoreInto(t, backupFile);
    expect(summary).toMatchObject({ engine, orders: 3, images: 1, migrationsApplied: 0 });
    expect(await withTargetDb(t, orderRows)).toEqual(before);
    expect(readFileSync(path.join(t.dataDir, 'uploads', imageKey))).toEqual(imageBytes);
  });

  it('refuses to replace a shop without --force (the real command), and replaces it with --force', async () => {
    const t = await target();
    await restoreInto(t, backupFile);

    // The shop goes on (an order is lost here); restoring over it must be asked for.
    await withTargetDb(t, (db) => db.delete(orders).where(eq(orders.id, before[0]!.id)));
    const refused = await runRestoreCommand(t, [backupFile]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/already holds a shop|already holds the shop's tables/);
    expect(refused.out).toContain('add --force');
    expect(refused.out).not.toMatch(/damaged|incomplete/);
    expect(await withTargetDb(t, orderRows)).toHaveLength(2);

    const forced = await runRestoreCommand(t, [backupFile, '--force']);
    expect(forced.out).toMatch(/Restored .*: 2 products, 3 orders, 1 images/);
    expect(forced.code).toBe(0);
    expect(await withTargetDb(t, orderRows)).toEqual(before);
    if (engine === 'pglite') {
      // The replaced embedded database is moved aside, not deleted.
      expect(readdirSync(t.dataDir).some((name) => name.startsWith('db.before-restore-'))).toBe(true);
    }
  }, 120_000);

  it('puts the images into the bucket of STORAGE_URL (the real command: a shop moving to several instances)', async () => {
    // A backup of a shop on local disk carries its images; restored where STORAGE_URL names a bucket
    // (issue 13), they must land in the bucket, under its prefix, as uploads there do.
    const s3 = await startS3rver();
    const bucket = new S3Storage(s3rverSettings(s3), { credentials: S3RVER_CREDENTIALS });
    try {
      const t = await target();
      const restored = await runRestoreCommand(t, [backupFile], {
        STORAGE_URL: s3.storageUrl('shop'),
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      });
      expect(restored.out).toMatch(/Restored .*: 2 products, 3 orders, 1 images/);
      expect(restored.code).toBe(0);
      expect(await withTargetDb(t, orderRows)).toEqual(before);

      const object = await bucket.get(imageKey);
      if (object === undefined || object === 'not-modified')
        throw new Error(`${imageKey} is not in the bucket`);
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks)).toEqual(imageBytes);
      expect(object.contentType).toBe('image/webp');
      // Not written to the local uploads directory instead (or as well).
      expect(existsSync(path.join(t.dataDir, 'uploads', imageKey))).toBe(false);
    } finally {
      bucket.destroy();
      await s3.close();
    }
  }, 120_000);

  it('refuses files that are not a backup, and cut or damaged backups, before touching anything', async () => {
    const t = await target();
    const text = path.join(work, 'notes.txt');
    writeFileSync(text, 'just some notes\n');
    await expect(restoreInto(t, text)).rejects.toThrow(/is not a Pixel Vault backup/);

    const otherTar = path.join(work, 'other.tar.gz');
    writeFileSync(otherTar, await tarGz([['README', Buffer.from('hello')]]));
    await expect(restoreInto(t, otherTar)).rejects.toThrow(/is not a Pixel Vault backup/);

    const whole = readFileSync(backupFile);
    const cut = path.join(work, 'cut.tar.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.byteLength * 0.6)));
    await expect(restoreInto(t, cut)).rejects.toThrow(/damaged or incomplete|is incomplete/);

    const entries = await entriesOf(whole);
    const noEnd = path.join(work, 'no-end.tar.gz');
    writeFileSync(noEnd, await tarGz(entries.filter(([name]) => name !== BACKUP_ENTRIES.end)));
    await expect(restoreInto(t, noEnd)).rejects.toThrow(/is incomplete: it ends before end.json/);

    const flipped = path.join(work, 'flipped.tar.gz');
    writeFileSync(
      flipped,
      await tarGz(
        entries.map(([name, bytes]): [string, Buffer] => {
          if (!name.startsWith('database/')) return [name, bytes];
          const copy = Buffer.from(bytes);
          copy[copy.byteLength - 100] = copy[copy.byteLength - 100]! ^ 0xff;
          return [name, copy];
        }),
      ),
    );
    await expect(restoreInto(t, flipped)).rejects.toThrow(/does not match its checksum/);

    // Nothing was created in the target by any of them.
    expect(existsSync(path.join(t.dataDir, 'db'))).toBe(false);
    if (t.databaseUrl) {
      const tables = await withTargetDb(t, (db) =>
        queryRows<{ n: string }>(
          db,
          sql`select count(*) as n from information_schema.tables where table_schema = 'public'`,
        ),
      );
      expect(Number(tables[0]?.n)).toBe(0);
    }
  });

  it('refuses a backup of the other engine, saying how to restore it', async () => {
    const t = await target();
    const entries = await entriesOf(readFileSync(backupFile));
    const other = engine === 'pglite' ? 'postgres' : 'pglite';
    const file = path.join(work, 'other-engine.tar.gz');
    writeFileSync(
      file,
      await tarGz(
        entries.map(([name, bytes]): [string, Buffer] =>
          name === BACKUP_ENTRIES.manifest
            ? [name, Buffer.from(JSON.stringify({ ...JSON.parse(bytes.toString()), engine: other }))]
            : [name, bytes],
        ),
      ),
    );
    const refusal = await restoreInto(t, file).catch((error: unknown) => error as Error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(
      new RegExp(`^\\S+ is a backup of .*db:restore does not convert between engines`),
    );
  });
});

/** The migrations but the last, as a folder of their own: the database of an older version. */
function migrationsButLast(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, -1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe(`restoring a backup of an older version on ${engine} (issue 15)`, () => {
  it('runs the migrations newer than the backup', async () => {
    const source = await newTarget();
    const target = await newTarget();
    const folder = migrationsButLast();
    try {
      const handle = await openDatabase({
        databaseUrl: source.databaseUrl,
        dataDir: source.dataDir,
        inMemory: !source.databaseUrl,
        poolMax: 2,
      });
      let file: string;
      let known: number;
      try {
        known = await migrate(handle.db, folder);
        const backup = await createBackupService({
          db: handle.db,
          storage: new LocalDiskStorage(path.join(source.dataDir, 'uploads')),
          pgDumpPath: 'pg_dump',
        }).start((await insertUser(handle.db, { isAdmin: true })).user.id);
        const chunks: Buffer[] = [];
        for await (const chunk of backup.stream as AsyncIterable<Buffer>) chunks.push(chunk);
        file = path.join(source.dataDir, 'old.tar.gz');
        writeFileSync(file, Buffer.concat(chunks));
      } finally {
        await handle.close();
      }
      const summary = await restoreInto(target, file);
      expect(summary.migrationsApplied).toBe(1);
      const [row] = await withTargetDb(target, (db) =>
        queryRows<{ n: string }>(db, sql`select count(*) as n from drizzle.__drizzle_migrations`),
      );
      expect(Number(row?.n)).toBe(known + 1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await source.drop();
      await target.drop();
    }
  }, 60_000);
});

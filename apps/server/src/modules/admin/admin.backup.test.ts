import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../db/schema/index.js';
import type { S3Storage } from '../../lib/s3-storage.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from '../../test/s3rver.js';
import { BACKUP_ENTRIES, BACKUP_FORMAT, BackupEnd, BackupManifest } from './admin.backup.format.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const engine = onPostgres ? 'postgres' : 'pglite';

/** Every entry of a backup download, by name, in order. */
async function entriesOf(gz: Buffer): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
      entries.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  extract.end(gunzipSync(gz));
  await done;
  return entries;
}

describe(`GET /api/admin/backup on ${engine} (issue 15)`, () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof insertUser>>;
  const imageKey = 'products/backup-test-0-1a2b3c4d.webp';
  const imageBytes = randomBytes(50_000);

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await insertUser(ctx.db, { isAdmin: true });
    await insertProduct(ctx.db, { name: 'Backup Cartridge' });
    await ctx.storage.put(imageKey, imageBytes, 'image/webp');
  });
  afterAll(() => ctx?.close());

  it('refuses visitors (401) and customers (403)', async () => {
    const visitor = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup' });
    expect(visitor.statusCode).toBe(401);
    const { auth } = await insertUser(ctx.db);
    const customer = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: auth });
    expect(customer.statusCode).toBe(403);
    expect(customer.json()).toEqual({ message: 'Admin access only', code: 'ADMIN_ONLY' });
  });

  it('streams a .tar.gz of the manifest, the database and the images, and audits it', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="pixel-vault-backup-\d{8}T\d{6}Z\.tar\.gz"$/,
    );

    const entries = await entriesOf(res.rawPayload);
    const names = [...entries.keys()];
    expect(names[0]).toBe(BACKUP_ENTRIES.manifest);
    expect(names.at(-1)).toBe(BACKUP_ENTRIES.end);

    const manifest = BackupManifest.parse(JSON.parse(entries.get(BACKUP_ENTRIES.manifest)!.toString()));
    expect(manifest).toMatchObject({
      format: BACKUP_FORMAT,
      formatVersion: 1,
      engine,
      images: { included: true, storage: 'local' },
    });
    expect(manifest.migrations).toBeGreaterThan(5);
    expect(manifest.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(manifest.createdAt)).not.toBeNaN();

    if (onPostgres) {
      const part = entries.get(BACKUP_ENTRIES.pgDumpPart(1));
      // pg_dump's custom format starts with PGDMP.
      expect(part?.subarray(0, 5).toString()).toBe('PGDMP');
      expect(entries.has(BACKUP_ENTRIES.pglite)).toBe(false);
    } else {
      const data = entries.get(BACKUP_ENTRIES.pglite);
      expect(data?.byteLength).toBeGreaterThan(1_000_000);
      expect(names.some((name) => name.startsWith('database/pg_dump'))).toBe(false);
    }
    expect(entries.get(`${BACKUP_ENTRIES.uploads}${imageKey}`)).toEqual(imageBytes);
    const end = BackupEnd.parse(JSON.parse(entries.get(BACKUP_ENTRIES.end)!.toString()));
    expect(end.images).toBe(1);
    expect(end.imageBytes).toBe(imageBytes.byteLength);

    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'shop.backup'), eq(auditLog.actorUserId, admin.user.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: 'shop', after: { engine, images: true } });
  });

  it('keeps answering while a backup is made, and makes one backup at a time (409)', async () => {
    // Incompressible bytes, more than the socket buffers hold: the paused download stays in progress.
    await ctx.storage.put(
      'products/backup-test-big-0badc0de.webp',
      randomBytes(8 * 1024 * 1024),
      'image/webp',
    );
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    let slow: http.IncomingMessage | undefined;
    try {
      // A request made while the database is being dumped is served too.
      const [first, during] = await Promise.all([
        fetch(`${address}/api/admin/backup`, { headers: admin.auth }),
        fetch(`${address}/api/products`),
      ]);
      expect(during.status).toBe(200);
      expect(first.status).toBe(200);
      await first.arrayBuffer();

      slow = await new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get(`${address}/api/admin/backup`, { headers: admin.auth }, resolve).on('error', reject);
      });
      expect(slow.statusCode).toBe(200);
      slow.pause();
      await new Promise((resolve) => setTimeout(resolve, 200));

      const products = await fetch(`${address}/api/products`);
      expect(products.status).toBe(200);
      const placed = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: admin.auth });
      expect(placed.statusCode).toBe(200);

      const second = await fetch(`${address}/api/admin/backup`, { headers: admin.auth });
      expect(second.status).toBe(409);
      expect(await second.json()).toEqual({
        message: 'A backup is already being made: try again when it has finished',
        code: 'BACKUP_RUNNING',
      });

      const chunks: Buffer[] = [];
      const reading = slow;
      reading.on('data', (chunk: Buffer) => chunks.push(chunk));
      reading.resume();
      await new Promise((resolve) => reading.on('end', resolve));
      const entries = await entriesOf(Buffer.concat(chunks));
      expect([...entries.keys()].at(-1)).toBe(BACKUP_ENTRIES.end);

      // Finished: the next one may start.
      const third = await fetch(`${address}/api/admin/backup`, { headers: admin.auth });
      expect(third.status).toBe(200);
      await third.arrayBuffer();
    } finally {
      // A failed expectation above must not leave the paused download holding the server open.
      slow?.destroy();
      await ctx.storage.remove('products/backup-test-big-0badc0de.webp');
    }
  });
});

describe.runIf(onPostgres)('GET /api/admin/backup without a usable pg_dump (issue 15)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-fake-pg-dump-'));
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function backupWith(pgDumpPath: string) {
    const ctx = await createTestContext({ env: { PG_DUMP_PATH: pgDumpPath } });
    try {
      const { auth } = await insertUser(ctx.db, { isAdmin: true });
      const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: auth });
      // The refusal is not a backup: nothing audited, and the next attempt is not blocked (409).
      const again = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: auth });
      const audited = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'shop.backup'));
      return { res, again, audited };
    } finally {
      await ctx.close();
    }
  }

  it('answers 503 naming what to install when pg_dump is missing', async () => {
    const { res, again, audited } = await backupWith(path.join(dir, 'no-such-pg_dump'));
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-disposition']).toBeUndefined();
    const { message } = res.json<{ message: string }>();
    expect(message).toMatch(/^Backups of a shop on PostgreSQL need pg_dump: pg_dump was not found/);
    expect(message).toMatch(/apt-get install postgresql-client-\d+/);
    expect(message).toContain('PG_DUMP_PATH');
    expect(again.statusCode).toBe(503);
    expect(audited).toHaveLength(0);
  });

  it('answers 503 naming the version to install when pg_dump is older than the server', async () => {
    const old = script(
      'old-pg_dump',
      'echo "pg_dump: error: aborting because of server version mismatch" >&2\n' +
        'echo "pg_dump: detail: server version: 15.18; pg_dump version: 14.2" >&2\nexit 1',
    );
    const { res } = await backupWith(old);
    expect(res.statusCode).toBe(503);
    expect(res.json<{ message: string }>().message).toMatch(
      /^pg_dump 14\.2 cannot back up this PostgreSQL 15\.\d+.*apt-get install postgresql-client-15\b.*PG_DUMP_PATH/,
    );
  });

  it('cuts the download short (no end.json) when pg_dump fails half-way', async () => {
    const failing = script(
      'failing-pg_dump',
      'printf "PGDMP-partial"\nsleep 0.2\necho "connection lost" >&2\nexit 1',
    );
    const ctx = await createTestContext({ env: { PG_DUMP_PATH: failing } });
    try {
      const { auth } = await insertUser(ctx.db, { isAdmin: true });
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${address}/api/admin/backup`, { headers: auth });
      expect(res.status).toBe(200);
      // The connection is dropped rather than ended: a client (curl -f) sees a failed transfer.
      await expect(res.arrayBuffer()).rejects.toThrow();
    } finally {
      await ctx.close();
    }
  });
});

describe('GET /api/admin/backup with images in a bucket (issue 15)', () => {
  let s3: LocalS3;
  let ctx: TestContext;

  beforeAll(async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
    s3 = await startS3rver();
    ctx = await createTestContext({ env: { STORAGE_URL: s3.storageUrl('shop') } });
  });
  afterAll(async () => {
    (ctx?.storage as S3Storage | undefined)?.destroy();
    await ctx?.close();
    await s3?.close();
    vi.unstubAllEnvs();
  });

  it('leaves the images in the bucket and says so in the manifest', async () => {
    await ctx.storage.put('products/in-the-bucket-0-12345678.webp', randomBytes(1000), 'image/webp');
    const { auth } = await insertUser(ctx.db, { isAdmin: true });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/backup', headers: auth });
    expect(res.statusCode).toBe(200);
    const entries = await entriesOf(res.rawPayload);
    const manifest = BackupManifest.parse(JSON.parse(entries.get(BACKUP_ENTRIES.manifest)!.toString()));
    expect(manifest.images).toMatchObject({
      included: false,
      storage: 's3',
      bucket: s3.bucket,
      prefix: 'shop',
    });
    expect(manifest.images.included === false && manifest.images.note).toMatch(/stay in the bucket/);
    expect([...entries.keys()].filter((name) => name.startsWith(BACKUP_ENTRIES.uploads))).toEqual([]);
    expect(BackupEnd.parse(JSON.parse(entries.get(BACKUP_ENTRIES.end)!.toString())).images).toBe(0);
  });
});

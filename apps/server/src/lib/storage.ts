import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';

/**
 * Where product images live: local disk by default, an S3-compatible bucket with STORAGE_URL
 * (lib/s3-storage.ts), so several instances can share the same images (issue 13).
 */
export interface Storage {
  /** Stores the bytes under `key` and answers the public URL they are served from. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  remove(key: string): Promise<void>;
}

/** Keys carry a content hash (contentHash8), so what a URL names never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An object read back for the shop to serve it at `/uploads/<key>`. */
export interface StoredObject {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
}

/** A browser's conditional request, passed on so an unchanged image costs no bytes. */
export interface ReadConditions {
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: Date | undefined;
}

/**
 * A storage the shop reads from to serve `/uploads/<key>` itself (a bucket without a public URL).
 * Local disk is not one: the static file plugin serves its directory.
 */
export interface ReadableStorage extends Storage {
  /**
   * The object; 'not-modified' when the conditions say the browser's copy is current; undefined when
   * there is no such object.
   */
  get(key: string, conditions?: ReadConditions): Promise<StoredObject | 'not-modified' | undefined>;
}

export function isReadableStorage(storage: Storage): storage is ReadableStorage {
  return typeof (storage as Partial<ReadableStorage>).get === 'function';
}

/** Keys are relative paths of safe characters: no `..`, no absolute paths, no surprises on disk. */
const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function isSafeKey(key: string): boolean {
  return key.length <= 200 && SAFE_KEY.test(key) && !key.split('/').some((part) => part === '..');
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

/** First 8 hex digits of the SHA-256: put it in a key and the URL can be cached forever. */
export function contentHash8(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

export class LocalDiskStorage implements Storage {
  constructor(
    readonly dir: string,
    private readonly publicPrefix = '/uploads',
  ) {}

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<string> {
    assertSafeKey(key);
    const target = path.join(this.dir, key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename: a reader never sees half a file, even while the same key is rewritten.
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
    return `${this.publicPrefix}/${key}`;
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    await rm(path.join(this.dir, key), { force: true });
  }
}

/**
 * The storage the configuration names: a bucket with STORAGE_URL, else local disk in DATA_DIR/uploads.
 * The one place main.ts, the seed and db:reset get it from, so they never disagree.
 */
export async function createStorage(config: Pick<Config, 'uploadsDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return new LocalDiskStorage(config.uploadsDir);
  // Loaded only when used: the AWS SDK takes ~0.5 s to import, spared on every local-disk start.
  const { S3Storage } = await import('./s3-storage.js');
  return new S3Storage(config.s3);
}

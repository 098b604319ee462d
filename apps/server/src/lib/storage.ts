import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where product images live. Local disk today; the interface is small enough for an
 * S3-compatible bucket later, so several instances can share the same images.
 */
export interface Storage {
  /** Stores the bytes under `key` and answers the public URL they are served from. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<string>;
  remove(key: string): Promise<void>;
}

/** Keys are relative paths of safe characters: no `..`, no absolute paths, no surprises on disk. */
const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function assertSafeKey(key: string): void {
  if (key.length > 200 || !SAFE_KEY.test(key) || key.split('/').some((part) => part === '..')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
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

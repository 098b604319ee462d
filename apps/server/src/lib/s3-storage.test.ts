import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type S3Config, loadConfig } from '../config.js';
import { type LocalS3, S3RVER_CREDENTIALS, s3rverSettings, startS3rver } from '../test/s3rver.js';
import { S3Storage } from './s3-storage.js';
import { IMMUTABLE, LocalDiskStorage, createStorage } from './storage.js';

let s3: LocalS3;
/** Reads what is really in the bucket, past the code under test. */
let reader: S3Client;
const made: S3Storage[] = [];

beforeAll(async () => {
  s3 = await startS3rver();
  reader = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
});
afterAll(async () => {
  for (const storage of made) storage.destroy();
  reader.destroy();
  await s3?.close();
});

const settings = (overrides: Partial<S3Config> = {}): S3Config => s3rverSettings(s3, overrides);

function storageWith(overrides: Partial<S3Config> = {}): S3Storage {
  const storage = new S3Storage(settings(overrides), { credentials: S3RVER_CREDENTIALS });
  made.push(storage);
  return storage;
}

const read = (key: string) => reader.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));

describe('S3Storage against s3rver', () => {
  it('stores the bytes under the prefix with their type and an immutable cache header, served by the shop', async () => {
    const storage = storageWith();
    const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 1, 2, 255]);
    const url = await storage.put('products/p1/abcd1234-detail.webp', bytes, 'image/webp');
    expect(url).toBe('/uploads/products/p1/abcd1234-detail.webp');

    const object = await read('shop/products/p1/abcd1234-detail.webp');
    expect(object.ContentType).toBe('image/webp');
    expect(object.CacheControl).toBe(IMMUTABLE);
    expect(new Uint8Array(await object.Body!.transformToByteArray())).toEqual(bytes);
  });

  it('rewrites a key in place and removes it, twice without complaint', async () => {
    const storage = storageWith();
    await storage.put('products/again.svg', Buffer.from('<svg>1</svg>'), 'image/svg+xml');
    await storage.put('products/again.svg', Buffer.from('<svg>2</svg>'), 'image/svg+xml');
    expect(await (await read('shop/products/again.svg')).Body!.transformToString()).toBe('<svg>2</svg>');

    await storage.remove('products/again.svg');
    await expect(
      reader.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'shop/products/again.svg' })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await expect(storage.remove('products/again.svg')).resolves.toBeUndefined();
  });

  it('answers URLs under STORAGE_PUBLIC_URL, the object key (prefix included) appended', async () => {
    const storage = storageWith({ publicUrl: 'https://cdn.example.com/media' });
    const url = await storage.put('products/p2/00ff00ff-card.webp', new Uint8Array([1]), 'image/webp');
    expect(url).toBe('https://cdn.example.com/media/shop/products/p2/00ff00ff-card.webp');
    expect((await read('shop/products/p2/00ff00ff-card.webp')).ContentType).toBe('image/webp');
  });

  it('stores at the bucket root without a prefix', async () => {
    const storage = storageWith({ prefix: '' });
    expect(await storage.put('root-object.svg', Buffer.from('<svg/>'), 'image/svg+xml')).toBe(
      '/uploads/root-object.svg',
    );
    expect((await read('root-object.svg')).ContentType).toBe('image/svg+xml');
  });

  it('reads an object back as a stream with its type, length, ETag and date, or says it is not modified', async () => {
    const storage = storageWith();
    await storage.put('products/read-me.svg', Buffer.from('<svg>read</svg>'), 'image/svg+xml');

    const found = await storage.get('products/read-me.svg');
    if (!found || found === 'not-modified') throw new Error(`expected the object, got ${String(found)}`);
    expect(found).toMatchObject({ contentType: 'image/svg+xml', contentLength: 15 });
    expect(found.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(found.lastModified).toBeInstanceOf(Date);
    expect(await text(found.body)).toBe('<svg>read</svg>');

    expect(await storage.get('products/read-me.svg', { ifNoneMatch: found.etag })).toBe('not-modified');
    expect(await storage.get('products/no-such-object.svg')).toBeUndefined();
  });

  it('refuses unsafe keys before anything is sent', async () => {
    const storage = storageWith();
    const send = vi.spyOn(storage.client, 'send');
    for (const key of [
      '../escape.webp',
      '/absolute.webp',
      'a/../../b.webp',
      'a//b.webp',
      '.hidden',
      'sp ace.webp',
      'x'.repeat(201),
      '',
    ]) {
      await expect(storage.put(key, new Uint8Array([1]), 'image/webp'), key).rejects.toThrow(
        /Unsafe storage key/,
      );
      await expect(storage.remove(key), key).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/Unsafe storage key/);
    }
    expect(send).not.toHaveBeenCalled();
  });

  it('fails loudly when the bucket does not exist, rather than answering every image as missing', async () => {
    const storage = storageWith({ bucket: 'no-such-bucket' });
    await expect(storage.get('products/a.svg')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(storage.put('products/a.svg', Buffer.from('<svg/>'), 'image/svg+xml')).rejects.toMatchObject(
      {
        name: 'NoSuchBucket',
      },
    );
  });
});

describe('createStorage', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-storage-'));
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const SECRET = 'x'.repeat(32);

  it('keeps images on local disk in DATA_DIR/uploads without STORAGE_URL', async () => {
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET });
    const storage = await createStorage(config);
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect((storage as LocalDiskStorage).dir).toBe(path.join(dir, 'uploads'));
  });

  it('uses the bucket of STORAGE_URL, with credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, STORAGE_URL: s3.storageUrl('factory') });
    const storage = await createStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    made.push(storage as S3Storage);

    expect(await storage.put('products/made.svg', Buffer.from('<svg/>'), 'image/svg+xml')).toBe(
      '/uploads/products/made.svg',
    );
    expect((await read('factory/products/made.svg')).ContentType).toBe('image/svg+xml');
  });
});

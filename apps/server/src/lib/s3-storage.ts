import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import {
  IMMUTABLE,
  type ReadConditions,
  type ReadableStorage,
  type StoredObject,
  assertSafeKey,
} from './storage.js';

/**
 * Product images in an S3-compatible bucket (STORAGE_URL, issue 13), so every instance behind a load
 * balancer sees every upload. Credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role), never from the shop's own settings.
 */
export class S3Storage implements ReadableStorage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly publicUrl: string | undefined;

  /** `clientConfig` is for tests and special cases (explicit credentials); the settings cover the rest. */
  constructor(settings: S3Config, clientConfig: S3ClientConfig = {}) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix === '' ? '' : `${settings.prefix}/`;
    this.publicUrl = settings.publicUrl;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint
        ? {
            endpoint: settings.endpoint,
            // Servers other than AWS differ in their support of the checksum headers the SDK sends by
            // default since 3.729 (x-amz-checksum-crc32, aws-chunked bodies): send them only when required.
            requestChecksumCalculation: 'WHEN_REQUIRED' as const,
            responseChecksumValidation: 'WHEN_REQUIRED' as const,
          }
        : {}),
      // The SDK waits forever by default: a bucket that stops answering must not hang uploads or pages.
      requestHandler: { connectionTimeout: 5_000, socketTimeout: 30_000 },
      ...clientConfig,
    });
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}${key}`;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<string> {
    const objectKey = this.objectKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: objectKey,
        Body: bytes,
        ContentType: contentType,
        CacheControl: IMMUTABLE,
      }),
    );
    // Without a public URL the shop serves the object itself, at the path local disk uses.
    return this.publicUrl ? `${this.publicUrl}/${objectKey}` : `/uploads/${key}`;
  }

  async remove(key: string): Promise<void> {
    // S3 answers 204 for a key that is not there: removing twice is fine, as on disk.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async get(
    key: string,
    conditions: ReadConditions = {},
  ): Promise<StoredObject | 'not-modified' | undefined> {
    const objectKey = this.objectKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          IfNoneMatch: conditions.ifNoneMatch,
          IfModifiedSince: conditions.ifModifiedSince,
        }),
      );
      if (!answer.Body) return undefined;
      return {
        // In Node the SDK's body is the HTTP response stream itself (an IncomingMessage).
        body: answer.Body as Readable,
        contentType: answer.ContentType,
        contentLength: answer.ContentLength,
        etag: answer.ETag,
        lastModified: answer.LastModified,
      };
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 304) return 'not-modified';
      // A missing bucket is a misconfiguration, not a missing image: let it fail loudly.
      if (name === 'NoSuchBucket') throw error;
      // Without s3:ListBucket, S3 answers a missing key with AccessDenied instead of NoSuchKey (GetObject
      // docs). Other 403s (a wrong key id, a bad signature) are the operator's to see in the log.
      if (status === 404 || name === 'AccessDenied') return undefined;
      throw error;
    }
  }

  /** Closes the client's idle connections (tests; a process that exits needs not). */
  destroy(): void {
    this.client.destroy();
  }
}

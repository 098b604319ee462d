import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../config.js';

/** s3rver accepts any credentials it is given; the SDK insists on having some. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  /** For STORAGE_URL's endpoint parameter. */
  endpoint: string;
  bucket: string;
  /** `s3://<bucket>[/<prefix>]?endpoint=...&region=us-east-1&forcePathStyle=true` */
  storageUrl(prefix?: string): string;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, objects in a temp directory) on a random loopback port, with
 * one empty bucket. Call `close()` in afterAll.
 */
export async function startS3rver(bucket = 'pixel-vault-test'): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'pv-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storageUrl: (prefix = '') =>
      `s3://${bucket}${prefix ? `/${prefix}` : ''}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The settings STORAGE_URL would give for this s3rver's bucket (path-style, prefix `shop`). */
export function s3rverSettings(s3: LocalS3, overrides: Partial<S3Config> = {}): S3Config {
  return {
    bucket: s3.bucket,
    prefix: 'shop',
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    publicUrl: undefined,
    ...overrides,
  };
}

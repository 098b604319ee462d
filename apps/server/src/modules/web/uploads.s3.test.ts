import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order, Product } from '@pixel-vault/shared';
import { seedIfEmpty } from '../../db/seed/index.js';
import { S3Storage } from '../../lib/s3-storage.js';
import { IMMUTABLE } from '../../lib/storage.js';
import { type TestContext, createTestContext, silentLog } from '../../test/context.js';
import { insertUser, placeOrder } from '../../test/factories.js';
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from '../../test/s3rver.js';

// Product images in a bucket (issue 13): uploaded by an admin, served through the shop or linked
// from STORAGE_PUBLIC_URL, against a real S3-compatible server on loopback.

const CDN = 'https://cdn.example.com/media';

let s3: LocalS3;
let reader: S3Client;
let png: Buffer;

beforeAll(async () => {
  // The SDK's default chain, as in production: credentials from the environment.
  vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
  s3 = await startS3rver();
  reader = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  reader?.destroy();
  await s3?.close();
  vi.unstubAllEnvs();
});

const FIELDS = {
  productName: 'Bucket Cartridge',
  productCategory: 'retro-games',
  productDescription: 'Stored in S3-compatible storage.',
  productPrice: '24.99',
  stockQuantity: '7',
  productRating: '4.3',
  reviewCount: '12',
};

async function addNew(ctx: TestContext, auth: { authorization: string }, name: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...FIELDS, productName: name })) form.append(k, v);
  form.append('images', new Blob([png], { type: 'image/png' }), 'front.png');
  const body = new Response(form);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/products/add-new',
    headers: { ...auth, 'content-type': body.headers.get('content-type') ?? '' },
    payload: Buffer.from(await body.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Product>();
}

async function bucketBytes(key: string) {
  const object = await reader.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return { type: object.ContentType, bytes: Buffer.from(await object.Body!.transformToByteArray()) };
}

/** A GET whose path goes on the wire exactly as written (fetch and inject would resolve `..` first). */
function rawGet(address: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const imgSrc = (csp: unknown) => /img-src ([^;]*)/.exec(String(csp))?.[1]?.split(' ') ?? [];

describe('STORAGE_URL without STORAGE_PUBLIC_URL: images served through the shop', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof insertUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { STORAGE_URL: s3.storageUrl('shop') } });
    admin = await insertUser(ctx.db, { isAdmin: true });
  });
  afterAll(async () => {
    (ctx?.storage as S3Storage | undefined)?.destroy();
    await ctx?.close();
  });

  it('builds the configured bucket storage', () => {
    expect(ctx.storage).toBeInstanceOf(S3Storage);
  });

  it('seeds the demo box art into the bucket and serves it at its /uploads path', async () => {
    expect(await seedIfEmpty({ db: ctx.db, storage: ctx.storage, log: silentLog })).toBeGreaterThan(0);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/products' });
    const image = list.json<Product[]>()[0]?.productImage[0] ?? '';
    expect(image).toMatch(/^\/uploads\/products\/[a-z0-9-]+-\d-[0-9a-f]{8}\.svg$/);

    const res = await ctx.app.inject({ method: 'GET', url: image });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toBe((await bucketBytes(`shop/${image.replace('/uploads/', '')}`)).bytes.toString());
  });

  it('stores an admin’s upload in the bucket (not on disk) and serves it back with its type and cache headers', async () => {
    const product = await addNew(ctx, admin.auth, 'Bucket Cartridge');
    const url = product.productImage[0] ?? '';
    expect(url).toMatch(new RegExp(`^/uploads/products/${product._id}/[0-9a-f]{8}-detail\\.webp$`));
    expect(existsSync(ctx.config.uploadsDir) ? readdirSync(ctx.config.uploadsDir) : []).toEqual([]);

    const key = url.replace('/uploads/', '');
    for (const size of ['detail', 'card', 'thumb']) {
      const stored = await bucketBytes(`shop/${key.replace('-detail', `-${size}`)}`);
      expect(stored.type).toBe('image/webp');

      const res = await ctx.app.inject({ method: 'GET', url: url.replace('-detail', `-${size}`) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.rawPayload.equals(stored.bytes)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(stored.bytes.length);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.headers['etag']).toMatch(/^"[0-9a-f]+"$/);
      expect(new Date(String(res.headers['last-modified'])).getTime()).not.toBeNaN();
      // The same headers a local-disk upload gets, so another origin's <img> may show it.
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await sharp((await bucketBytes(`shop/${key}`)).bytes).metadata()).width).toBe(640);
  });

  it('answers a browser’s conditional request with 304 and no body, and a HEAD with the headers alone', async () => {
    const product = await addNew(ctx, admin.auth, 'Conditional Cartridge');
    const url = product.productImage[0] ?? '';
    const first = await ctx.app.inject({ method: 'GET', url });
    const again = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe(IMMUTABLE);

    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
    expect(head.body).toBe('');
  });

  it('answers 404 for a key that is not in the bucket', async () => {
    for (const url of ['/uploads/products/nothing-here-00000000.webp', '/uploads/missing.svg', '/uploads/']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Not found' });
    }
  });

  it('answers 404, never an error, for keys that try to leave the store (sent as written, over a socket)', async () => {
    const app = await ctx.newApp();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const hostile = [
      '/uploads/../../etc/passwd',
      '/uploads/..%2F..%2Fetc%2Fpasswd',
      '/uploads/%2e%2e/%2e%2e/etc/passwd',
      '/uploads/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/uploads/products/..%2f..%2f..%2fjwt-secret',
      '/uploads/%2Fetc%2Fpasswd',
      '/uploads//etc/passwd',
      '/uploads/products%5C..%5C..%5Cetc%5Cpasswd',
      '/uploads/.hidden',
      '/uploads/products/%00.webp',
      '/uploads/products/a%20b.webp',
      `/uploads/${'a'.repeat(300)}.webp`,
    ];
    for (const url of hostile) {
      const res = await rawGet(address, url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).not.toContain('root:');
    }
    // A malformed escape is the client's mistake (400), like anywhere else in the shop.
    const malformed = await rawGet(address, '/uploads/%E0%A4%A');
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
  });
});

describe('STORAGE_URL with STORAGE_PUBLIC_URL: images linked from a CDN', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof insertUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { STORAGE_URL: s3.storageUrl('cdn-shop'), STORAGE_PUBLIC_URL: `${CDN}/` },
    });
    admin = await insertUser(ctx.db, { isAdmin: true });
  });
  afterAll(async () => {
    (ctx?.storage as S3Storage | undefined)?.destroy();
    await ctx?.close();
  });

  it('answers image URLs under STORAGE_PUBLIC_URL, the object key in the bucket appended', async () => {
    const product = await addNew(ctx, admin.auth, 'CDN Cartridge');
    const url = product.productImage[0] ?? '';
    expect(url).toMatch(new RegExp(`^${CDN}/cdn-shop/products/${product._id}/[0-9a-f]{8}-detail\\.webp$`));
    expect((await bucketBytes(url.slice(CDN.length + 1))).type).toBe('image/webp');

    // The same URL in the list, the product, and an order's item, unchanged.
    const one = await ctx.app.inject({ method: 'GET', url: `/api/products/${product._id}` });
    expect(one.json<Product>().productImage).toEqual([url]);
    const { auth } = await insertUser(ctx.db);
    const order: Order = await placeOrder(ctx.app, auth, [{ product: product._id, itemQuantity: 1 }]);
    expect(order.orderItems[0]?.displayImage).toBe(url);
    // Older /uploads/ URLs (stored before STORAGE_PUBLIC_URL was set) still work through the shop.
    const through = await ctx.app.inject({ method: 'GET', url: url.replace(`${CDN}/cdn-shop`, '/uploads') });
    expect(through.statusCode).toBe(200);
  });

  it('leaves absolute image URLs alone when PUBLIC_URL is set too', async () => {
    const app = await ctx.newApp({ config: { ...ctx.config, publicUrl: 'https://shop.example.com' } });
    const product = await addNew(ctx, admin.auth, 'CDN And Public Cartridge');
    const res = await app.inject({ method: 'GET', url: `/api/products/${product._id}` });
    expect(res.json<Product>().productImage[0]).toMatch(new RegExp(`^${CDN}/`));
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(imgSrc(page.headers['content-security-policy'])).toEqual(
      expect.arrayContaining(["'self'", 'https://shop.example.com', 'https://cdn.example.com']),
    );
  });

  it('allows the CDN’s origin (only) in the pages’ img-src, and nowhere else', async () => {
    for (const url of ['/', '/shop/retro-games', '/cart']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(imgSrc(csp), url).toContain('https://cdn.example.com');
      expect(csp.replace(/img-src [^;]*/, ''), url).not.toContain('cdn.example.com');
    }
    const api = await ctx.app.inject({ method: 'GET', url: '/api/products' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('local disk (no STORAGE_URL)', () => {
  it('keeps img-src to the shop itself and PayPal', async () => {
    const ctx = await createTestContext();
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/' });
      expect(imgSrc(res.headers['content-security-policy'])).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://*.paypal.com',
        'https://*.paypalobjects.com',
      ]);
    } finally {
      await ctx.close();
    }
  });
});

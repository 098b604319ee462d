import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product } from '@pixel-vault/shared';
import { auditLog, products } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { IMMUTABLE } from '../web/web.routes.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof insertUser>>;
let png: Buffer;
let jpeg: Buffer;

beforeAll(async () => {
  // 0.2 MB per file, so "too large" is cheap to build.
  ctx = await createTestContext({ env: { UPLOAD_MAX_MB: '0.2' } });
  admin = await insertUser(ctx.db, { isAdmin: true });
  png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#993366' } })
    .jpeg()
    .toBuffer();
});
afterAll(() => ctx.close());

const FIELDS = {
  productName: 'Uploaded Cartridge',
  productCategory: 'retro-games',
  productDescription: 'Fresh from the admin dashboard.',
  productPrice: '24.99',
  stockQuantity: '7',
  productRating: '4.3',
  reviewCount: '12',
};

interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** A multipart body (bytes + content-type with its boundary) for inject, built by the platform. */
async function multipart(fields: Record<string, string>, files: Upload[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('images', new Blob([f.bytes], { type: f.type ?? 'image/png' }), f.name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? '',
  };
}

async function addNew(fields: Record<string, string>, files: Upload[], auth = admin.auth) {
  const { payload, contentType } = await multipart(fields, files);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/products/add-new',
    headers: { ...auth, 'content-type': contentType },
    payload,
  });
}

describe('POST /api/products/add-new', () => {
  it('stores a PNG and a JPEG as WebP sizes and answers the product with detail-size URLs', async () => {
    const res = await addNew(FIELDS, [
      { name: 'front.png', bytes: png },
      { name: 'back.jpg', bytes: jpeg, type: 'image/jpeg' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json<Product>();
    expect(product).toMatchObject({
      productName: 'Uploaded Cartridge',
      productCategory: 'retro-games',
      productPrice: 24.99,
      stockQuantity: 7,
      // Sent by the spec's form, accepted, ignored: numbers come from reviews only (issue 14).
      productRating: 0,
      reviewCount: 0,
    });
    expect(product.productImage).toHaveLength(2);
    for (const url of product.productImage) {
      expect(url).toMatch(new RegExp(`^/uploads/products/${product._id}/[0-9a-f]{8}-detail\\.webp$`));
    }
    const detailUrl = product.productImage[0] ?? '';
    for (const [size, px] of [
      ['detail', 960],
      ['card', 480],
      ['thumb', 160],
    ] as const) {
      const file = path.join(
        ctx.config.uploadsDir,
        detailUrl.replace('/uploads/', '').replace('-detail', `-${size}`),
      );
      expect(existsSync(file), file).toBe(true);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(px);
    }
    // The small JPEG is never enlarged.
    const small = await sharp(
      path.join(ctx.config.uploadsDir, (product.productImage[1] ?? '').replace('/uploads/', '')),
    ).metadata();
    expect(small.width).toBe(300);

    const served = await ctx.app.inject({ method: 'GET', url: detailUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe(IMMUTABLE);

    // In the shop at once (the catalogue cache was invalidated).
    const list = await ctx.app.inject({ method: 'GET', url: '/api/products?q=Uploaded%20Cartridge' });
    expect(list.json<Product[]>().map((p) => p._id)).toContain(product._id);

    const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, product._id));
    expect(audit).toMatchObject({ action: 'product.create', actorUserId: admin.user.id });
    expect(audit?.after).toMatchObject({
      productName: 'Uploaded Cartridge',
      productImage: product.productImage,
    });
  });

  it('refuses a text file named .png by its content', async () => {
    const res = await addNew(FIELDS, [
      { name: 'evil.png', bytes: new TextEncoder().encode('not an image at all') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('Images must be JPEG, PNG, WebP or GIF files');
  });

  it('refuses an SVG or other image format not on the list', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    const res = await addNew(FIELDS, [{ name: 'a.png', bytes: svg }]);
    expect(res.statusCode).toBe(400);
  });

  it('stores nothing when one of the files is bad', async () => {
    const before = (await ctx.db.select({ id: products.id }).from(products)).length;
    const res = await addNew({ ...FIELDS, productName: 'Half Good' }, [
      { name: 'ok.png', bytes: png },
      { name: 'bad.png', bytes: new TextEncoder().encode('text') },
    ]);
    expect(res.statusCode).toBe(400);
    expect((await ctx.db.select({ id: products.id }).from(products)).length).toBe(before);
  });

  it('refuses a 5th image with 400 At most 4 images', async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `${i}.jpg`, bytes: jpeg, type: 'image/jpeg' }));
    const res = await addNew(FIELDS, five);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('At most 4 images');
  });

  it('refuses a file above UPLOAD_MAX_MB with 413 and a message', async () => {
    const big = new Uint8Array(300 * 1024);
    big.set(png.subarray(0, 64));
    const res = await addNew(FIELDS, [{ name: 'big.png', bytes: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBe('Each image must be at most 0.2 MB');
  });

  it('requires at least one image and every field, with the rules of spec section 5', async () => {
    const none = await addNew(FIELDS, []);
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe('At least one image is required');
    for (const bad of [
      { productPrice: '-1' },
      { productPrice: '' },
      { stockQuantity: '1.5' },
      { productCategory: 'toys' },
      { productName: '   ' },
      { productName: 'a\u0000b' },
    ]) {
      const res = await addNew({ ...FIELDS, ...bad }, [{ name: 'a.png', bytes: png }]);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const { productDescription: _omit, ...missing } = FIELDS;
    expect((await addNew(missing, [{ name: 'a.png', bytes: png }])).statusCode).toBe(400);
  });

  it('accepts a product with or without the spec rating and review count, and starts it at 0 / 0 (issue 14)', async () => {
    const { productRating: _rating, reviewCount: _count, ...withoutNumbers } = FIELDS;
    for (const fields of [withoutNumbers, { ...FIELDS, productRating: '5', reviewCount: '999' }]) {
      const res = await addNew(fields, [{ name: 'a.png', bytes: png }]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<Product>()).toMatchObject({ productRating: 0, reviewCount: 0, reviews: [] });
    }
  });

  it('refuses JSON and garbage multipart bodies with a 4xx', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/products/add-new',
      headers: admin.auth,
      payload: FIELDS,
    });
    expect(json.statusCode).toBe(415);
    for (const [type, body] of [
      ['multipart/form-data', 'garbage'],
      [
        'multipart/form-data; boundary=xyz',
        '--xyz\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\nabc',
      ],
      ['multipart/form-data; boundary=xyz', '--xyz--'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/products/add-new',
        headers: { ...admin.auth, 'content-type': type },
        payload: body,
      });
      expect(res.statusCode, body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, body).toBeLessThan(500);
    }
  });

  it('is for admins only', async () => {
    const customer = await insertUser(ctx.db);
    expect((await addNew(FIELDS, [{ name: 'a.png', bytes: png }], customer.auth)).statusCode).toBe(403);
    expect((await addNew(FIELDS, [{ name: 'a.png', bytes: png }], { authorization: '' })).statusCode).toBe(
      401,
    );
  });
});

describe('PUT /api/products/update/:id', () => {
  it('updates only the fields sent (multipart or JSON) and audits before/after', async () => {
    const product = await insertProduct(ctx.db, { name: 'Before', priceCents: 1000, stock: 3 });
    // Warm the cache: the update must invalidate it.
    await ctx.app.inject({ method: 'GET', url: `/api/products/${product.id}` });

    const { payload, contentType } = await multipart({ stockQuantity: '9' });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/products/update/${product.id}`,
      headers: { ...admin.auth, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Product>()).toMatchObject({ productName: 'Before', productPrice: 10, stockQuantity: 9 });

    const json = await ctx.app.inject({
      method: 'PUT',
      url: `/api/products/update/${product.id}`,
      headers: admin.auth,
      payload: { productName: 'After', productPrice: 12.5 },
    });
    expect(json.statusCode).toBe(200);
    expect(json.json<Product>()).toMatchObject({
      productName: 'After',
      productPrice: 12.5,
      stockQuantity: 9,
    });

    const detail = await ctx.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(detail.json<Product>()).toMatchObject({ productName: 'After', stockQuantity: 9 });

    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, product.id));
    expect(audits).toHaveLength(2);
    const last = audits.find((a) => (a.after as { productName?: string }).productName === 'After');
    expect(last?.before).toMatchObject({ productName: 'Before', productPrice: 10, stockQuantity: 9 });
  });

  it('accepts a rating and review count beside other fields and ignores them (issue 14)', async () => {
    const product = await insertProduct(ctx.db, {
      name: 'Reviewed',
      reviews: [
        { rating: 4, comment: 'Good' },
        { rating: 5, comment: 'Great' },
      ],
    });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/products/update/${product.id}`,
      headers: admin.auth,
      payload: { productName: 'Renamed', productRating: 1, reviewCount: 999 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Product>()).toMatchObject({ productName: 'Renamed', productRating: 4.5, reviewCount: 2 });
  });

  it('answers 400 for nothing to update or bad values, 404 for unknown or removed products', async () => {
    const product = await insertProduct(ctx.db);
    const put = (id: string, payload: unknown) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/products/update/${id}`,
        headers: admin.auth,
        payload: payload as object,
      });
    expect((await put(product.id, {})).statusCode).toBe(400);
    expect((await put(product.id, { productPrice: -1 })).statusCode).toBe(400);
    expect((await put(product.id, { stockQuantity: 'many' })).statusCode).toBe(400);
    expect((await put('7f1f4a4e-0000-4000-8000-000000000000', { stockQuantity: 1 })).statusCode).toBe(404);
    const removed = await insertProduct(ctx.db, { deletedAt: new Date() });
    expect((await put(removed.id, { stockQuantity: 1 })).statusCode).toBe(404);
  });
});

describe('DELETE /api/products/delete/:id', () => {
  it('removes the product from lists and detail; past orders keep name, price and image', async () => {
    const customer = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db, { name: 'Soon Gone', priceCents: 3333, stock: 5 });
    const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    await ctx.app.inject({ method: 'GET', url: '/api/products?q=Soon%20Gone' });

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/products/delete/${product.id}`,
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Product deleted' });

    expect((await ctx.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(
      404,
    );
    const list = await ctx.app.inject({ method: 'GET', url: '/api/products?q=Soon%20Gone' });
    expect(list.json<Product[]>()).toHaveLength(0);

    const past = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}`,
      headers: customer.auth,
    });
    expect(past.json<Order>().orderItems[0]).toMatchObject({
      itemName: 'Soon Gone',
      itemPrice: 33.33,
      displayImage: product.images[0],
    });

    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/products/delete/${product.id}`,
      headers: admin.auth,
    });
    expect(again.statusCode).toBe(404);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, product.id));
    expect(audits.map((a) => a.action)).toEqual(['product.delete']);
  });
});

describe('uploads over a real socket', () => {
  it('answers a 5th image, an oversized file and a good upload without hanging', async () => {
    const app = await ctx.newApp();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const send = (files: Upload[]) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(FIELDS)) form.append(k, v);
      for (const f of files) form.append('images', new Blob([f.bytes]), f.name);
      return fetch(`${address}/api/products/add-new`, { method: 'POST', headers: admin.auth, body: form });
    };
    const five = await send(Array.from({ length: 5 }, (_, i) => ({ name: `${i}.jpg`, bytes: jpeg })));
    expect(five.status).toBe(400);
    expect(await five.json()).toMatchObject({ message: 'At most 4 images' });
    const big = await send([{ name: 'big.png', bytes: new Uint8Array(2 * 1024 * 1024) }]);
    expect(big.status).toBe(413);
    const good = await send([{ name: 'ok.jpg', bytes: jpeg }]);
    expect(good.status).toBe(201);
  });
});

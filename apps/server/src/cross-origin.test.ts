import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product } from '@pixel-vault/shared';
import type { LightMyRequestResponse } from 'fastify';
import { orderItems } from './db/schema/index.js';
import type { App } from './lib/http.js';
import { type TestContext, createTestContext } from './test/context.js';
import { DEFAULT_PASSWORD, insertProduct, insertUser, placeOrder } from './test/factories.js';

// Issue 8: a front end on another origin. The shop lists who may call it (CORS_ORIGINS) and answers
// absolute image URLs (PUBLIC_URL, given here with a trailing slash that must be dropped).
const FRONT = 'https://front.example';
const DEV_FRONT = 'http://localhost:5173';
const PUBLIC_URL = 'https://shop.example';

let ctx: TestContext;
/** The same database and data dir, but neither CORS_ORIGINS nor PUBLIC_URL: the default shop. */
let plain: App;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { CORS_ORIGINS: ` ${FRONT}, ${DEV_FRONT}/ `, PUBLIC_URL: `${PUBLIC_URL}/` },
  });
  plain = await ctx.newApp({ config: { ...ctx.config, corsOrigins: [], publicUrl: undefined } });
});
afterAll(() => ctx.close());

const corsHeadersOf = (res: LightMyRequestResponse) =>
  Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

const varyOf = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase());

const listOf = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

function preflight(app: App, origin: string, url: string, method: string, requestHeaders?: string) {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
    },
  });
}

describe('configuration as the app sees it', () => {
  it('keeps the listed origins (trailing slash dropped) and PUBLIC_URL without its trailing slash', () => {
    expect(ctx.config.corsOrigins).toEqual([FRONT, DEV_FRONT]);
    expect(ctx.config.publicUrl).toBe(PUBLIC_URL);
  });
});

describe('CORS for a listed origin', () => {
  it('answers the preflight of an authorized JSON PUT with 204 and the grant for that origin only', async () => {
    const { id } = await insertProduct(ctx.db);
    const res = await preflight(ctx.app, FRONT, `/api/products/${id}`, 'PUT', 'authorization, content-type');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(listOf(res.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'post', 'put', 'delete']),
    );
    expect(listOf(res.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['authorization', 'content-type']),
    );
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(varyOf(res)).toContain('origin');
  });

  it('grants each listed origin its own value, never *', async () => {
    for (const origin of [FRONT, DEV_FRONT]) {
      const res = await preflight(ctx.app, origin, '/api/users/login', 'POST', 'content-type');
      expect(res.statusCode, origin).toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
    }
  });

  it('answers a preflight for a route that needs a token without asking for one (the browser sends none)', async () => {
    const res = await preflight(ctx.app, FRONT, '/api/orders', 'GET', 'authorization');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(res.body).toBe('');
  });

  it('grants a simple GET from the listed origin and exposes ETag, X-Request-Id and Retry-After', async () => {
    await insertProduct(ctx.db);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/products', headers: { origin: FRONT } });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(listOf(res.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['etag', 'x-request-id', 'retry-after']),
    );
  });

  it('grants a conditional GET (If-None-Match) from the listed origin, the 304 included', async () => {
    const { id } = await insertProduct(ctx.db);
    const first = await ctx.app.inject({
      method: 'GET',
      url: `/api/products/${id}`,
      headers: { origin: FRONT },
    });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/products/${id}`,
      headers: { origin: FRONT, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['access-control-allow-origin']).toBe(FRONT);
  });

  // The grant differs per Origin (and is absent for the shop's own pages), so every answer must say
  // Vary: Origin or a shared cache may hand one origin's answer to another.
  it('says Vary: Origin (beside Accept-Encoding) on the cached catalogue answers too', async () => {
    const { id } = await insertProduct(ctx.db);
    for (const url of ['/api/products', `/api/products/${id}`, '/api/products?page=1&limit=2']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { origin: FRONT } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['access-control-allow-origin'], url).toBe(FRONT);
      expect(varyOf(res), url).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
    }
  });

  it('says Vary: Origin on other API answers', async () => {
    for (const url of ['/api/health', '/api/orders', '/api/no-such-route']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { origin: FRONT } });
      expect(res.headers['access-control-allow-origin'], url).toBe(FRONT);
      expect(varyOf(res), url).toContain('origin');
    }
  });

  it('grants a bearer GET /api/orders from the listed origin and answers the caller’s orders', async () => {
    const { auth } = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db);
    const placed = await placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 1 }]);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders',
      headers: { ...auth, origin: FRONT },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Order[]>().map((o) => o._id)).toEqual([placed._id]);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('grants a JSON login from the listed origin, so the page can read the token', async () => {
    const { user } = await insertUser(ctx.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { origin: DEV_FRONT },
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: user.id, token: expect.any(String) });
    expect(res.headers['access-control-allow-origin']).toBe(DEV_FRONT);
  });

  it('still grants a 401 refusal (no token, or a bad one), so the page can read Not authorized!', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/orders',
        headers: { ...headers, origin: FRONT },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Not authorized!' });
      expect(res.headers['access-control-allow-origin']).toBe(FRONT);
      expect(varyOf(res)).toContain('origin');
    }
  });

  it('still grants a 429 refusal and exposes Retry-After to the page', async () => {
    const limited = await ctx.newApp({ limits: { login: { max: 1, windowMs: 60_000 } } });
    const login = () =>
      limited.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { origin: FRONT },
        payload: { email: 'nobody-cors@example.com', password: 'wrong password' },
      });
    expect((await login()).statusCode).toBe(401);
    const res = await login();
    expect(res.statusCode).toBe(429);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT);
    expect(res.headers['retry-after']).toBeDefined();
    expect(listOf(res.headers['access-control-expose-headers'])).toContain('retry-after');
  });
});

describe('CORS for an origin that is not listed', () => {
  // Near misses of a listed origin: another scheme, port or host, a suffix, and the opaque "null".
  const UNLISTED = [
    'https://evil.example',
    'http://front.example',
    'https://front.example:8443',
    'https://front.example.evil.example',
    'https://sub.front.example',
    'http://localhost:5174',
    'null',
  ];

  it('answers its preflight without any grant', async () => {
    for (const origin of UNLISTED) {
      const res = await preflight(ctx.app, origin, '/api/orders', 'GET', 'authorization');
      expect(res.statusCode, origin).not.toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-methods'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-headers'], origin).toBeUndefined();
    }
  });

  it('answers the call itself normally, without a grant: the browser is the one that refuses', async () => {
    await insertProduct(ctx.db);
    const { auth } = await insertUser(ctx.db);
    for (const origin of UNLISTED) {
      const products = await ctx.app.inject({ method: 'GET', url: '/api/products', headers: { origin } });
      expect(products.statusCode, origin).toBe(200);
      expect(products.json<Product[]>().length, origin).toBeGreaterThan(0);
      expect(products.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(products.headers['access-control-allow-credentials'], origin).toBeUndefined();

      const orders = await ctx.app.inject({
        method: 'GET',
        url: '/api/orders',
        headers: { ...auth, origin },
      });
      expect(orders.statusCode, origin).toBe(200);
      expect(orders.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('gives a same-origin call (no Origin header) no grant either', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/products' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS when CORS_ORIGINS is unset', () => {
  it('sends no CORS headers at all, whatever the origin', async () => {
    await insertProduct(ctx.db);
    for (const origin of [FRONT, DEV_FRONT, 'https://evil.example']) {
      const res = await plain.inject({ method: 'GET', url: '/api/products', headers: { origin } });
      expect(res.statusCode, origin).toBe(200);
      expect(corsHeadersOf(res), origin).toEqual([]);
    }
  });

  it('answers no preflight: no grant, not 204', async () => {
    const res = await preflight(plain, FRONT, '/api/orders', 'GET', 'authorization');
    expect(res.statusCode).not.toBe(204);
    expect(corsHeadersOf(res)).toEqual([]);
  });

  it('sends no CORS headers on a refusal either', async () => {
    const res = await plain.inject({ method: 'GET', url: '/api/orders', headers: { origin: FRONT } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Not authorized!' });
    expect(corsHeadersOf(res)).toEqual([]);
  });
});

describe('Cross-Origin-Resource-Policy', () => {
  let upload: string;
  beforeAll(async () => {
    upload = await ctx.storage.put(
      'products/cors-test-0-abcdef12.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'),
      'image/svg+xml',
    );
  });

  it('serves uploaded images with cross-origin, so another origin’s <img> may show them', async () => {
    expect(upload).toBe('/uploads/products/cors-test-0-abcdef12.svg');
    for (const app of [ctx.app, plain]) {
      const res = await app.inject({ method: 'GET', url: upload, headers: { origin: FRONT } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<svg');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('keeps the API JSON same-origin (with its own short header set) and pages not cross-origin', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/products', headers: { origin: FRONT } });
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await ctx.app.inject({ method: 'GET', url: '/shop/consoles' });
    expect(page.headers['cross-origin-resource-policy']).not.toBe('cross-origin');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('does not mistake a path that merely starts like /uploads for an upload', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/uploadsx/products/cors-test-0-abcdef12.svg' });
    expect(res.headers['cross-origin-resource-policy']).not.toBe('cross-origin');
  });
});

describe('PUBLIC_URL', () => {
  let product: Awaited<ReturnType<typeof insertProduct>>;
  let absoluteFirst: Awaited<ReturnType<typeof insertProduct>>;
  beforeAll(async () => {
    product = await insertProduct(ctx.db, {
      name: 'PUBLIC_URL Cartridge',
      images: [
        '/uploads/products/public-url-0-00000000.webp',
        'https://cdn.example/products/b.webp',
        '//cdn.example/products/c.webp',
      ],
    });
    absoluteFirst = await insertProduct(ctx.db, {
      name: 'PUBLIC_URL Absolute',
      images: ['https://cdn.example/products/first.webp'],
    });
  });

  const EXPECTED = [
    `${PUBLIC_URL}/uploads/products/public-url-0-00000000.webp`,
    'https://cdn.example/products/b.webp',
    '//cdn.example/products/c.webp',
  ];

  it('makes stored /uploads paths absolute in a product and leaves absolute URLs alone', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<Product>().productImage).toEqual(EXPECTED);
  });

  it('does the same in the product list and in a page of it', async () => {
    const all = await ctx.app.inject({ method: 'GET', url: '/api/products?q=PUBLIC_URL%20Cartridge' });
    expect(all.json<Product[]>().map((p) => p.productImage)).toEqual([EXPECTED]);
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/api/products?q=PUBLIC_URL%20Cartridge&page=1&limit=5',
    });
    expect(page.json<{ products: Product[] }>().products.map((p) => p.productImage)).toEqual([EXPECTED]);
  });

  it('answers the stored relative paths without PUBLIC_URL', async () => {
    const res = await plain.inject({ method: 'GET', url: `/api/products/${product.id}` });
    expect(res.json<Product>().productImage).toEqual(product.images);
  });

  it('makes an order item’s displayImage absolute, when placed, listed and read', async () => {
    const { auth } = await insertUser(ctx.db);
    const placed = await placeOrder(ctx.app, auth, [
      { product: product.id, itemQuantity: 1 },
      { product: absoluteFirst.id, itemQuantity: 1 },
    ]);
    const imagesOf = (order: Order) =>
      Object.fromEntries(order.orderItems.map((i) => [i.product, i.displayImage]));
    const expected = {
      [product.id]: `${PUBLIC_URL}/uploads/products/public-url-0-00000000.webp`,
      [absoluteFirst.id]: 'https://cdn.example/products/first.webp',
    };
    expect(imagesOf(placed)).toEqual(expected);

    const one = await ctx.app.inject({ method: 'GET', url: `/api/orders/${placed._id}`, headers: auth });
    expect(one.statusCode).toBe(200);
    expect(imagesOf(one.json<Order>())).toEqual(expected);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/orders', headers: auth });
    expect(list.json<Order[]>().map(imagesOf)).toEqual([expected]);

    // The order keeps the stored path: the default shop answers it relative.
    const relative = await plain.inject({ method: 'GET', url: `/api/orders/${placed._id}`, headers: auth });
    expect(imagesOf(relative.json<Order>())).toEqual({
      [product.id]: '/uploads/products/public-url-0-00000000.webp',
      [absoluteFirst.id]: 'https://cdn.example/products/first.webp',
    });
  });

  it('stores the relative path in the order, so changing PUBLIC_URL later changes the answers', async () => {
    const { auth } = await insertUser(ctx.db);
    const placed = await placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 1 }]);
    expect(placed.orderItems[0]?.displayImage).toBe(
      `${PUBLIC_URL}/uploads/products/public-url-0-00000000.webp`,
    );
    const stored = await ctx.db
      .select({ image: orderItems.image })
      .from(orderItems)
      .where(eq(orderItems.orderId, placed._id));
    expect(stored).toEqual([{ image: '/uploads/products/public-url-0-00000000.webp' }]);
  });
});

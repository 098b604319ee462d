import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { products } from '../../db/schema/index.js';
import { errorHandler } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser } from '../../test/factories.js';
import { siteBase } from '../../lib/urls.js';
import { seoRoutes } from './seo.routes.js';
import { ROBOTS_DISALLOW } from './seo.service.js';

const CATEGORY_PAGES = ['/shop/board-games', '/shop/retro-games', '/shop/puzzles', '/shop/consoles'];
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const HOST = 'shop.test:8080';
const ORIGIN = `http://${HOST}`;

interface Entry {
  loc: string;
  lastmod: string | undefined;
}

/** The `<url>` (or `<sitemap>`) entries of a sitemap document, in order. */
function entries(xml: string, element: 'url' | 'sitemap' = 'url'): Entry[] {
  const found = xml.matchAll(
    new RegExp(`<${element}><loc>([^<]*)</loc>(?:<lastmod>([^<]*)</lastmod>)?</${element}>`, 'g'),
  );
  return [...found].map((m) => ({ loc: m[1] ?? '', lastmod: m[2] }));
}

const byLoc = (list: Entry[]) => new Map(list.map((e) => [e.loc, e.lastmod]));

describe('robots.txt and sitemap (issue 10)', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof insertUser>>;
  beforeAll(async () => {
    // Each test changes the catalogue straight in the database: built sitemap files are not kept.
    ctx = await createTestContext({ app: { sitemapTtlMs: 0 } });
    admin = await insertUser(ctx.db, { isAdmin: true });
  });
  afterAll(() => ctx.close());
  beforeEach(() => clearProducts(ctx.db));

  const get = (url: string, headers: Record<string, string> = { host: HOST }, app: App = ctx.app) =>
    app.inject({ method: 'GET', url, headers });

  const setUpdatedAt = (id: string, iso: string) =>
    ctx.db
      .update(products)
      .set({ updatedAt: new Date(iso) })
      .where(eq(products.id, id));

  describe('GET /robots.txt', () => {
    it('allows the shop, disallows private pages and the API, and names the sitemap at the request origin', async () => {
      const res = await get('/robots.txt');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      const lines = res.body.split('\n');
      expect(lines.slice(0, 2)).toEqual(['User-agent: *', 'Allow: /']);
      for (const path of [
        '/admin',
        '/place-order',
        '/order',
        '/account',
        '/cart',
        '/forgot-password',
        '/reset-password',
        '/verify-email',
        '/api/',
      ]) {
        expect(lines, path).toContain(`Disallow: ${path}`);
      }
      expect(lines.filter((l) => l.startsWith('Disallow:'))).toHaveLength(ROBOTS_DISALLOW.length);
      expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    });

    it('names the sitemap under PUBLIC_URL when it is set, whatever the Host', async () => {
      const app = await ctx.newApp({
        config: { ...ctx.config, publicUrl: 'https://shop.example.com/store' },
      });
      const res = await get('/robots.txt', { host: 'internal:3000' }, app);
      expect(res.body.split('\n')).toContain('Sitemap: https://shop.example.com/store/sitemap.xml');
      expect(res.body).not.toContain('internal');
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: '/robots.txt', headers: { host: HOST } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.body).toBe('');
    });
  });

  describe('GET /sitemap.xml', () => {
    it('lists home, every category and every product on sale exactly once, with a W3C lastmod', async () => {
      const retro = await insertProduct(ctx.db, { category: 'retro-games' });
      const puzzle = await insertProduct(ctx.db, { category: 'puzzles' });
      const consoleProduct = await insertProduct(ctx.db, { category: 'consoles' });
      const removed = await insertProduct(ctx.db, { category: 'consoles', deletedAt: new Date() });

      const res = await get('/sitemap.xml');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
      expect(res.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');

      const list = entries(res.body);
      const productPage = (p: { category: string; id: string }) =>
        `${ORIGIN}/shop/${p.category}/product/${p.id}`;
      expect(list.map((e) => e.loc).sort()).toEqual(
        [
          `${ORIGIN}/`,
          ...CATEGORY_PAGES.map((path) => ORIGIN + path),
          productPage(retro),
          productPage(puzzle),
          productPage(consoleProduct),
        ].sort(),
      );
      expect(res.body).not.toContain(removed.id);
      for (const e of list.filter((e) => e.loc.includes('/product/'))) {
        expect(e.lastmod, e.loc).toMatch(W3C_DATETIME);
      }
      expect(byLoc(list).get(productPage(retro))).toBe(retro.updatedAt.toISOString());
    });

    it('dates home by the newest product and a category by its newest product; an empty one has no lastmod', async () => {
      const oldRetro = await insertProduct(ctx.db, { category: 'retro-games' });
      const newRetro = await insertProduct(ctx.db, { category: 'retro-games' });
      const puzzle = await insertProduct(ctx.db, { category: 'puzzles' });
      await setUpdatedAt(oldRetro.id, '2024-01-01T00:00:00.000Z');
      await setUpdatedAt(newRetro.id, '2024-03-01T12:30:00.000Z');
      await setUpdatedAt(puzzle.id, '2024-05-06T07:08:09.123Z');

      const lastmods = byLoc(entries((await get('/sitemap.xml')).body));
      expect(lastmods.get(`${ORIGIN}/`)).toBe('2024-05-06T07:08:09.123Z');
      expect(lastmods.get(`${ORIGIN}/shop/retro-games`)).toBe('2024-03-01T12:30:00.000Z');
      expect(lastmods.get(`${ORIGIN}/shop/puzzles`)).toBe('2024-05-06T07:08:09.123Z');
      expect(lastmods.has(`${ORIGIN}/shop/consoles`)).toBe(true);
      expect(lastmods.get(`${ORIGIN}/shop/consoles`)).toBeUndefined();
      expect(lastmods.get(`${ORIGIN}/shop/retro-games/product/${oldRetro.id}`)).toBe(
        '2024-01-01T00:00:00.000Z',
      );
    });

    it("moves a product's lastmod forward when an admin updates it through the API", async () => {
      const product = await insertProduct(ctx.db, { category: 'board-games', name: 'Before' });
      await setUpdatedAt(product.id, '2024-01-01T00:00:00.000Z');
      const loc = `${ORIGIN}/shop/board-games/product/${product.id}`;
      expect(byLoc(entries((await get('/sitemap.xml')).body)).get(loc)).toBe('2024-01-01T00:00:00.000Z');

      const startedAt = Date.now();
      const update = await ctx.app.inject({
        method: 'PUT',
        url: `/api/products/update/${product.id}`,
        headers: admin.auth,
        payload: { productName: 'After' },
      });
      expect(update.statusCode, update.body).toBe(200);

      const lastmods = byLoc(entries((await get('/sitemap.xml')).body));
      const after = Date.parse(lastmods.get(loc) ?? '');
      expect(after).toBeGreaterThanOrEqual(startedAt);
      expect(after).toBeLessThanOrEqual(Date.now());
      // The listing pages it appears on changed with it.
      expect(lastmods.get(`${ORIGIN}/shop/board-games`)).toBe(lastmods.get(loc));
      expect(lastmods.get(`${ORIGIN}/`)).toBe(lastmods.get(loc));
    });

    it('drops a product an admin deletes', async () => {
      const product = await insertProduct(ctx.db, { category: 'puzzles' });
      expect((await get('/sitemap.xml')).body).toContain(product.id);
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/products/delete/${product.id}`,
        headers: admin.auth,
      });
      expect(res.statusCode).toBe(200);
      expect((await get('/sitemap.xml')).body).not.toContain(product.id);
    });

    it('writes absolute URLs under PUBLIC_URL, XML-escaped', async () => {
      const product = await insertProduct(ctx.db, { category: 'consoles' });
      const app = await ctx.newApp({ config: { ...ctx.config, publicUrl: 'https://shop.example.com/a&b' } });
      const res = await get('/sitemap.xml', { host: HOST }, app);
      const locs = entries(res.body).map((e) => e.loc);
      expect(locs).toContain('https://shop.example.com/a&amp;b/');
      expect(locs).toContain(`https://shop.example.com/a&amp;b/shop/consoles/product/${product.id}`);
      expect(res.body).not.toContain('a&b');
      expect(res.body).not.toContain(HOST);
    });

    it('never copies a hostile Host header into the answer', async () => {
      const product = await insertProduct(ctx.db);
      for (const host of ['evil.example"><x>', 'evil.example/phish?', 'user@evil.example', 'evil example']) {
        for (const url of ['/sitemap.xml', '/robots.txt']) {
          const res = await get(url, { host });
          expect(res.statusCode, `${url} ${host}`).toBe(200);
          expect(res.body, `${url} ${host}`).not.toContain('evil');
          expect(res.body).not.toContain('<x>');
        }
        const locs = entries((await get('/sitemap.xml', { host })).body).map((e) => e.loc);
        expect(
          locs.every((loc) => /^http:\/\/localhost(:\d+)?\//.test(loc)),
          host,
        ).toBe(true);
        expect(locs.some((loc) => loc.endsWith(product.id))).toBe(true);
      }
    });

    it("uses a trusted proxy's forwarded protocol and host, and checks them like a Host", async () => {
      const app = await ctx.newApp({ config: { ...ctx.config, trustProxy: 1 } });
      const forwarded = await get(
        '/robots.txt',
        { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'Shop.Example.com' },
        app,
      );
      expect(forwarded.body).toContain('Sitemap: https://shop.example.com/sitemap.xml');

      const hostile = await get(
        '/sitemap.xml',
        { host: 'internal:3000', 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'a"><x>' },
        app,
      );
      expect(hostile.body).not.toContain('<x>');
      expect(hostile.body).not.toContain('javascript');
      expect(entries(hostile.body)[0]?.loc).toMatch(/^http:\/\/localhost(:\d+)?\/$/);

      // Not trusted: the forwarded headers are the client's own words, and are not read.
      const untrusted = await get('/robots.txt', { host: HOST, 'x-forwarded-host': 'elsewhere.example' });
      expect(untrusted.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: '/sitemap.xml', headers: { host: HOST } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(res.body).toBe('');
    });

    it('answers page 1 as the whole urlset while everything fits in one file, and 404 past it', async () => {
      await insertProduct(ctx.db);
      const whole = await get('/sitemap.xml');
      const first = await get('/sitemap-1.xml');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(first.body).toBe(whole.body);
      for (const url of ['/sitemap-2.xml', '/sitemap-0.xml']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ message: 'Sitemap page not found', code: 'NOT_FOUND' });
      }
    });
  });

  describe('built sitemap files, kept a while', () => {
    it('answers from the files built first until their time is up, with an ETag, a 304 and br', async () => {
      const first = await insertProduct(ctx.db, { category: 'puzzles' });
      // Enough URLs for a body worth compressing (over 1 kB).
      for (let i = 0; i < 10; i += 1) await insertProduct(ctx.db, { category: 'consoles' });
      const app = await ctx.newApp({ sitemapTtlMs: 60_000 });
      const select = vi.spyOn(ctx.db, 'select');
      try {
        const built = await get('/sitemap.xml', { host: HOST }, app);
        expect(built.statusCode).toBe(200);
        expect(built.body).toContain(first.id);
        expect(select).toHaveBeenCalledTimes(1);
        // A product added since: the kept file is answered, without reading the catalogue again.
        const later = await insertProduct(ctx.db, { category: 'puzzles' });
        const again = await get('/sitemap.xml', { host: HOST }, app);
        expect(again.body).toBe(built.body);
        expect(again.body).not.toContain(later.id);
        expect((await get('/sitemap-1.xml', { host: HOST }, app)).body).toBe(built.body);
        expect((await get('/sitemap-2.xml', { host: HOST }, app)).statusCode).toBe(404);
        expect(select).toHaveBeenCalledTimes(1);

        const etag = built.headers.etag as string;
        expect(etag).toMatch(/^W\/"/);
        expect(built.headers['cache-control']).toBe('public, max-age=3600');
        const notModified = await get('/sitemap.xml', { host: HOST, 'if-none-match': etag }, app);
        expect(notModified.statusCode).toBe(304);
        expect(notModified.body).toBe('');
        const br = await app.inject({
          method: 'GET',
          url: '/sitemap.xml',
          headers: { host: HOST, 'accept-encoding': 'br' },
        });
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(brotliDecompressSync(br.rawPayload).toString()).toBe(built.body);
      } finally {
        select.mockRestore();
      }
    });

    it('builds the files once for crawlers asking at the same time', async () => {
      await insertProduct(ctx.db, { category: 'consoles' });
      const app = await ctx.newApp({ sitemapTtlMs: 60_000 });
      const select = vi.spyOn(ctx.db, 'select');
      try {
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => get('/sitemap.xml', { host: HOST }, app)),
        );
        expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
        expect(new Set(answers.map((a) => a.body)).size).toBe(1);
        expect(select).toHaveBeenCalledTimes(1);
      } finally {
        select.mockRestore();
      }
    });
  });

  describe('more URLs than one sitemap file holds', () => {
    // A small page instead of 50,000 rows: the same code path.
    const pagedApps: App[] = [];
    const pagedApp = async (pageSize: number) => {
      const app = Fastify().withTypeProvider<ZodTypeProvider>();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      app.setErrorHandler(errorHandler);
      await app.register(seoRoutes, {
        db: ctx.db,
        config: { publicUrl: undefined, port: 0 },
        pageSize,
        sitemapTtlMs: 0,
      });
      pagedApps.push(app);
      return app;
    };
    afterAll(async () => {
      for (const app of pagedApps) await app.close();
    });

    it('answers a sitemapindex whose pages hold at most the page size and together every URL once', async () => {
      const paged = await pagedApp(3);
      for (let i = 0; i < 4; i++) await insertProduct(ctx.db, { category: 'puzzles' });
      // 1 home + 4 categories + 4 products = 9 URLs = 3 pages of 3.
      const index = await get('/sitemap.xml', { host: HOST }, paged);
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(index.headers['cache-control']).toBe('public, max-age=3600');
      expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      expect(index.body).not.toContain('<urlset');
      const pages = entries(index.body, 'sitemap');
      expect(pages.map((p) => p.loc)).toEqual([1, 2, 3].map((n) => `${ORIGIN}/sitemap-${n}.xml`));

      const all: Entry[] = [];
      for (const page of pages) {
        const res = await get(new URL(page.loc).pathname, { host: HOST }, paged);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(res.body).toContain('<urlset');
        const list = entries(res.body);
        expect(list.length).toBeGreaterThan(0);
        expect(list.length).toBeLessThanOrEqual(3);
        // A page's lastmod in the index is the newest of its URLs.
        const newest = list
          .map((e) => e.lastmod ?? '')
          .sort()
          .at(-1);
        expect(page.lastmod ?? '').toBe(newest);
        all.push(...list);
      }
      const unpaged = entries((await get('/sitemap.xml')).body);
      expect(all).toEqual(unpaged);
      expect(new Set(all.map((e) => e.loc)).size).toBe(9);

      expect((await get('/sitemap-4.xml', { host: HOST }, paged)).statusCode).toBe(404);
    });

    it('answers a urlset up to exactly the page size, and an index one URL past it', async () => {
      const paged = await pagedApp(6);
      await insertProduct(ctx.db);
      // 1 home + 4 categories + 1 product = 6 URLs: one file.
      const fits = await get('/sitemap.xml', { host: HOST }, paged);
      expect(fits.body).toContain('<urlset');
      expect(entries(fits.body)).toHaveLength(6);

      await insertProduct(ctx.db);
      const over = await get('/sitemap.xml', { host: HOST }, paged);
      expect(over.body).toContain('<sitemapindex');
      expect(entries(over.body, 'sitemap')).toHaveLength(2);
      expect(entries((await get('/sitemap-2.xml', { host: HOST }, paged)).body)).toHaveLength(1);
    });
  });
});

describe('siteBase', () => {
  const base = (host: string, protocol: 'http' | 'https' = 'http', publicUrl?: string) =>
    siteBase({ host, protocol }, publicUrl, 3000);

  it('takes a plain host[:port] from the request, lower-cased', () => {
    expect(base('Shop.Example.com')).toBe('http://shop.example.com');
    expect(base('shop.example.com:8443', 'https')).toBe('https://shop.example.com:8443');
    expect(base('127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(base('[::1]:3000')).toBe('http://[::1]:3000');
  });

  it('replaces anything else with localhost on the listening port', () => {
    for (const host of ['', 'a/b', 'a b', 'user@evil', 'evil"><x>', 'a:b:c', 'a..b', '-a', 'x'.repeat(300)]) {
      expect(base(host), host).toBe('http://localhost:3000');
    }
  });

  it('prefers PUBLIC_URL, keeping its path without a trailing slash', () => {
    expect(base('evil"><x>', 'http', 'https://shop.example.com')).toBe('https://shop.example.com');
    expect(base('x', 'http', 'https://shop.example.com/store/')).toBe('https://shop.example.com/store');
  });
});

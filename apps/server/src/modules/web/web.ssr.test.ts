import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser, placeOrder, setPrice } from '../../test/factories.js';
import { PAGE_SCRIPT_TAG, buildWebApp } from '../../test/web-build.js';
import { BUILD_CHECK_MS, SSR_ENTRY, createWebApp, pageHtml, parseTemplate } from './web.ssr.js';

/** The JSON-LD blocks of a page, parsed. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

const metaContent = (html: string, attr: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1];

const rootMarkup = (html: string) =>
  html.slice(html.indexOf('<div id="root">'), html.indexOf('id="pv-state"'));

describe('pages rendered on the server (issue 10)', () => {
  let ctx: TestContext;
  let webDir: string;
  let zelda: Awaited<ReturnType<typeof insertProduct>>;
  let soldOut: Awaited<ReturnType<typeof insertProduct>>;
  let hostile: Awaited<ReturnType<typeof insertProduct>>;

  beforeAll(async () => {
    webDir = await buildWebApp();
    ctx = await createTestContext({ env: { WEB_DIST_DIR: webDir } });
    await clearProducts(ctx.db);
    zelda = await insertProduct(ctx.db, {
      name: 'Zelda II: The Adventure of Link',
      description: 'The side-scrolling sequel, cartridge only, tested. '.repeat(6),
      category: 'retro-games',
      platform: 'NES',
      priceCents: 2450,
      stock: 3,
      images: ['/uploads/products/p1/abcd1234-detail.webp', '/uploads/products/zelda-1-00000000.svg'],
    });
    soldOut = await insertProduct(ctx.db, { name: 'Virtual Boy', category: 'consoles', stock: 0 });
    hostile = await insertProduct(ctx.db, {
      name: 'Evil </script><script>alert(1)</script> "quoted" & <b>bold</b>',
      description: '</script><img src=x onerror=alert(2)>',
      category: 'puzzles',
    });
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  it('answers a product page with its content, title, description, canonical, Open Graph and JSON-LD', async () => {
    const url = `/shop/retro-games/product/${zelda.id}`;
    const res = await ctx.app.inject({ method: 'GET', url, headers: { host: 'shop.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Zelda II: The Adventure of Link — Pixel Vault</title>');
    const description = metaContent(html, 'name', 'description')!;
    expect(description.startsWith('The side-scrolling sequel')).toBe(true);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(html).toContain(`<link rel="canonical" href="http://shop.test${url}" />`);
    expect(metaContent(html, 'property', 'og:type')).toBe('product');
    expect(metaContent(html, 'property', 'og:image')).toBe(
      'http://shop.test/uploads/products/p1/abcd1234-detail.webp',
    );
    expect(metaContent(html, 'property', 'product:price:amount')).toBe('24.50');

    const [product] = jsonLd(html);
    expect(product).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Zelda II: The Adventure of Link',
      image: [
        'http://shop.test/uploads/products/p1/abcd1234-detail.webp',
        'http://shop.test/uploads/products/zelda-1-00000000.svg',
      ],
      offers: {
        '@type': 'Offer',
        price: '24.50',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url: `http://shop.test${url}`,
      },
      // Issue 33: the platform, which schema.org's Product has no property of its own for.
      additionalProperty: [{ '@type': 'PropertyValue', name: 'Platform', value: 'NES' }],
    });

    // The page itself, without running any JavaScript: the name, the price, the stock, the buy button.
    const root = rootMarkup(html);
    expect(root).toMatch(/<h1[^>]*>Zelda II: The Adventure of Link<\/h1>/);
    expect(root).toContain('$24.50');
    expect(root).toContain('In stock: <!-- -->3');
    expect(root).toContain('Platform: <!-- -->NES');
    expect(root).toContain('Add to Cart');
    // The uploaded image comes in the size that fits, first and at once.
    expect(root).toMatch(/<img[^>]+srcSet="[^"]*abcd1234-card\.webp 480w/);
    expect(root).toMatch(/<img[^>]+fetchPriority="high"/);
    // The data the browser hydrates with.
    expect(html).toContain('<script type="application/json" id="pv-state">');
    // The stylesheet is in the page (no second request before the first paint).
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toMatch(/<style>[^<]*\.pixel-heading\{/);
  });

  it('offers every variant to search engines, and renders the tier a link names (issue 31)', async () => {
    const tiered = await insertProduct(ctx.db, {
      name: 'Metroid Tiers',
      category: 'retro-games',
      options: [{ name: 'Condition', values: ['Loose', 'Complete in box', 'New'] }],
      variants: [
        { options: { Condition: 'Loose' }, sku: 'MET-L', priceCents: 3000, stock: 2 },
        { options: { Condition: 'Complete in box' }, sku: 'MET-CIB', priceCents: 9500, stock: 1 },
        { options: { Condition: 'New' }, sku: 'MET-NEW', priceCents: 40000, stock: 0 },
      ],
    });
    ctx.app.services.products.invalidate();
    const url = `/shop/retro-games/product/${tiered.id}`;
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const [product] = jsonLd(res.body);
    expect(product!.offers).toEqual([
      expect.objectContaining({
        sku: 'MET-L',
        price: '30.00',
        itemCondition: 'https://schema.org/UsedCondition',
      }),
      expect.objectContaining({
        sku: 'MET-CIB',
        url: `http://localhost${url}?variant=${tiered.variants[1]!.id}`,
        availability: 'https://schema.org/InStock',
      }),
      expect.objectContaining({
        sku: 'MET-NEW',
        availability: 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/NewCondition',
      }),
    ]);
    expect(rootMarkup(res.body)).toContain('$30.00');

    // A link to the boxed copy arrives showing it chosen, with its price and stock, before any script runs.
    const boxed = await ctx.app.inject({ method: 'GET', url: `${url}?variant=${tiered.variants[1]!.id}` });
    expect(boxed.statusCode).toBe(200);
    const root = rootMarkup(boxed.body);
    expect(root).toContain('$95.00');
    expect(root).toContain('In stock: <!-- -->1');
    expect(root).toMatch(
      /<input[^>]*value="Complete in box"[^>]*checked=""|<input[^>]*checked=""[^>]*value="Complete in box"/,
    );
  });

  it('says a sold-out product is out of stock, and moves a product reached through another category for good', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/shop/consoles/product/${soldOut.id}` });
    expect(res.statusCode).toBe(200);
    const [product] = jsonLd(res.body);
    expect((product!.offers as Record<string, unknown>).availability).toBe('https://schema.org/OutOfStock');
    // Without a platform (issue 33), no additional property and no platform line.
    expect(product).not.toHaveProperty('additionalProperty');
    expect(rootMarkup(res.body)).not.toContain('Platform:');
    expect(res.body).toContain(`/shop/consoles/product/${soldOut.id}" />`);
    expect(rootMarkup(res.body)).toContain('Unavailable');

    // Issue 30: the wrong category answers 301 to the product's own address, keeping the query.
    const moved = await ctx.app.inject({
      method: 'GET',
      url: `/shop/retro-games/product/${soldOut.id}?ref=mail`,
    });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/shop/consoles/product/${soldOut.id}?ref=mail`);
  });

  it('renders a page once while the catalogue is unchanged, again at once after a change, with an ETag', async () => {
    const url = `/shop/retro-games/product/${zelda.id}`;
    const visit = (headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers: { host: 'kept.test', ...headers } });
    ctx.app.services.products.invalidate();
    // The render's calls to the API (answered from the catalogue's kept answers).
    const calls = vi.spyOn(ctx.app.services.products, 'stockedAnswer');
    try {
      const first = await visit();
      expect(first.statusCode).toBe(200);
      const rendering = calls.mock.calls.length;
      expect(rendering).toBeGreaterThan(0);
      calls.mockClear();

      const second = await visit();
      expect(second.body).toBe(first.body);
      // No render: the page was kept.
      expect(calls).not.toHaveBeenCalled();
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      expect(second.headers.etag).toBe(etag);
      const revalidated = await visit({ 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
      const br = await visit({ 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);

      // A write (an admin's, an order's stock, another instance's message) shows at once.
      await setPrice(ctx.db, zelda.id, 2999);
      ctx.app.services.products.invalidate();
      calls.mockClear();
      const changed = await visit();
      expect(calls.mock.calls.length).toBe(rendering);
      expect(metaContent(changed.body, 'property', 'product:price:amount')).toBe('29.99');
      expect(changed.headers.etag).not.toBe(etag);
    } finally {
      calls.mockRestore();
      await setPrice(ctx.db, zelda.id, 2450);
      ctx.app.services.products.invalidate();
    }
  });

  it('keeps a page through orders that leave its products in stock, and renders it again when one sells out (issue 28)', async () => {
    const cartridge = await insertProduct(ctx.db, { name: 'Kept Cartridge', category: 'consoles', stock: 3 });
    const { auth } = await insertUser(ctx.db);
    const productUrl = `/shop/consoles/product/${cartridge.id}`;
    const visit = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { host: 'sale.test' } });
    const productPage = await visit(productUrl);
    const categoryPage = await visit('/shop/consoles');
    expect(productPage.body).toContain('In stock: <!-- -->3');
    const renders = vi.spyOn(ctx.app.services.products, 'stockedAnswer');
    try {
      await placeOrder(ctx.app, auth, [{ product: cartridge.id, itemQuantity: 1 }]);
      // Still in stock: both pages are kept as they are, not rendered again...
      expect((await visit(productUrl)).body).toBe(productPage.body);
      expect((await visit('/shop/consoles')).body).toBe(categoryPage.body);
      expect(renders).not.toHaveBeenCalled();
      // ...while the API answers the stock the order left, at once.
      const answer = await ctx.app.inject({ method: 'GET', url: `/api/products/${cartridge.id}` });
      expect(answer.json<{ stockQuantity: number }>().stockQuantity).toBe(2);

      await placeOrder(ctx.app, auth, [{ product: cartridge.id, itemQuantity: 2 }]);
      // Sold out: what the pages show changed, so they are rendered again at once.
      const soldOut = await visit(productUrl);
      expect(renders).toHaveBeenCalled();
      expect(soldOut.body).toContain('Unavailable');
      const offer = jsonLd(soldOut.body)[0]!.offers as { availability: string };
      expect(offer.availability).toBe('https://schema.org/OutOfStock');
      renders.mockClear();
      const category = await visit('/shop/consoles');
      expect(renders).toHaveBeenCalled();
      expect(category.body).not.toBe(categoryPage.body);
    } finally {
      renders.mockRestore();
      await ctx.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, cartridge.id));
      ctx.app.services.products.invalidate();
    }
  });

  it('keeps a page past its TTL while its data shows the same but for stock, and renders it again when it changed (issue 28)', async () => {
    // Its own app with a short TTL, on the same database and build.
    const quick = await ctx.newApp({ productsCacheTtlMs: 50 });
    const game = await insertProduct(ctx.db, { name: 'Kept Board Game', category: 'board-games', stock: 3 });
    const { auth } = await insertUser(ctx.db);
    const url = `/shop/board-games/product/${game.id}`;
    const visit = async () =>
      (await quick.inject({ method: 'GET', url, headers: { host: 'ttl.test' } })).body;
    const pastTwoTtls = () => new Promise((resolve) => setTimeout(resolve, 150));
    try {
      const first = await visit();
      expect(first).toContain('In stock: <!-- -->3');
      await placeOrder(quick, auth, [{ product: game.id, itemQuantity: 1 }]);
      await pastTwoTtls();
      // The product's answer was read again and shows the same but for its stock: the page is kept
      // (the app shows the current figure once it runs), the API answers the current one.
      expect(await visit()).toBe(first);
      const answer = await quick.inject({ method: 'GET', url: `/api/products/${game.id}` });
      expect(answer.json<{ stockQuantity: number }>().stockQuantity).toBe(2);

      // Changed behind the cache's back (another instance's message lost): seen once the TTL ends.
      await ctx.db
        .update(products)
        .set({ description: 'Now with all its pieces.' })
        .where(eq(products.id, game.id));
      await pastTwoTtls();
      const changed = await visit();
      expect(changed).toContain('Now with all its pieces.');
      expect(changed).toContain('In stock: <!-- -->2');
    } finally {
      await ctx.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, game.id));
      ctx.app.services.products.invalidate();
    }
  });

  it('escapes what an admin typed everywhere in the page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/shop/puzzles/product/${hostile.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).not.toContain('<b>bold</b>');
    // Only the page's own script elements: the app's loader, the JSON-LD and the hydration data.
    const scripts = res.body.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const tag of scripts) expect(tag).toMatch(PAGE_SCRIPT_TAG);
    const [product] = jsonLd(res.body);
    expect(product!.name).toBe('Evil </script><script>alert(1)</script> "quoted" & <b>bold</b>');
    expect(res.body).toContain(
      '<title>Evil &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; — Pixel Vault</title>',
    );
  });

  it('answers an unknown product with a real 404 page that search engines leave out', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/shop/retro-games/product/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
      expect(res.body).toContain('<title>Product not found — Pixel Vault</title>');
      expect(rootMarkup(res.body)).toMatch(/<h1[^>]*>Product not found<\/h1>/);
      expect(jsonLd(res.body)).toHaveLength(0);
      // Kept like any page, but a 404 is never answered 304 (preconditions hold for a 2xx only).
      const again = await ctx.app.inject({
        method: 'GET',
        url: `/shop/retro-games/product/${id}`,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(404);
      expect(again.body).toBe(res.body);
    }
  });

  it('answers a category page with its products in the HTML, the first image first', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/shop/retro-games' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Retro Games — Pixel Vault</title>');
    expect(res.body).toContain('<link rel="canonical" href="http://localhost/shop/retro-games" />');
    const root = rootMarkup(res.body);
    expect(root).toMatch(/<h1[^>]*>Retro Games<\/h1>/);
    expect(root).toContain('Zelda II: The Adventure of Link');
    expect(root).not.toContain('Virtual Boy');
    expect(root).toMatch(/<img[^>]+loading="eager"[^>]+fetchPriority="high"/);
    // A search is not a page of its own.
    const search = await ctx.app.inject({ method: 'GET', url: '/shop/retro-games?q=zelda' });
    expect(search.body).toContain('<meta name="robots" content="noindex" />');
    expect(rootMarkup(search.body)).toContain('Zelda II');
  });

  it('renders a filtered or sorted category page with its data, kept out of search results (issue 33)', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/shop/retro-games?inStock=true&sort=price_asc',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
    // Its one address is the plain category page.
    expect(res.body).toContain('<link rel="canonical" href="http://localhost/shop/retro-games" />');
    const root = rootMarkup(res.body);
    expect(root).toContain('Zelda II: The Adventure of Link');
    // The filters come with their counts and the chosen ones, before any script runs.
    expect(root).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    expect(root).toContain('Remove filter In stock only');
    expect(root).toMatch(/<option value="price_asc" selected="">/);
    // The browser finds the list and its facets in the page's data: no call of its own.
    const state = /id="pv-state">([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(state).toContain('getProductFacets(');

    // A later page of the plain list is a page of its own.
    const second = await ctx.app.inject({ method: 'GET', url: '/shop/retro-games?page=2' });
    expect(second.body).not.toContain('<meta name="robots" content="noindex" />');
    expect(second.body).toContain('<link rel="canonical" href="http://localhost/shop/retro-games?page=2" />');
  });

  it('renders the search page with its results across the shop, kept out of search results (issue 33)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/search?q=zelda' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Results for “zelda” — Pixel Vault</title>');
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
    expect(res.body).toContain('<link rel="canonical" href="http://localhost/search" />');
    const root = rootMarkup(res.body);
    expect(root).toMatch(/<h1[^>]*>Results for “zelda”<\/h1>/);
    expect(root).toContain('Zelda II: The Adventure of Link');
    expect(root).not.toContain('Virtual Boy');

    // No search yet: the page asks for one.
    const empty = await ctx.app.inject({ method: 'GET', url: '/search' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<meta name="robots" content="noindex" />');
    expect(rootMarkup(empty.body)).toContain('What are you looking for?');
  });

  it('answers the home page with the favourites in the HTML, and sends an unknown category home', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    const root = rootMarkup(res.body);
    expect(root).toContain('Level up your collection');
    for (const name of ['Zelda II', 'Virtual Boy']) expect(root).toContain(name);
    expect(res.body).toContain('<meta property="og:type" content="website" />');
    expect(jsonLd(res.body)).toHaveLength(0);

    const unknown = await ctx.app.inject({ method: 'GET', url: '/shop/not-a-category' });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/');
  });

  it('renders without AsyncLocalStorage, so no page turns on async hooks for every later call', async () => {
    // Once any AsyncLocalStorage is entered, every promise and tick in the process runs async hooks
    // (React's node build entered one per render): API calls made after a page view paid for them.
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      for (const url of ['/', '/shop/retro-games', `/shop/retro-games/product/${zelda.id}`]) {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('<div id="root"><');
      }
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });

  it('uses PUBLIC_URL for canonical and image URLs, whatever Host the request names', async () => {
    const app = await ctx.newApp({ config: { ...ctx.config, publicUrl: 'https://pixelvault.example' } });
    const res = await app.inject({
      method: 'GET',
      url: `/shop/retro-games/product/${zelda.id}`,
      headers: { host: 'evil.example' },
    });
    expect(res.body).toContain(
      `<link rel="canonical" href="https://pixelvault.example/shop/retro-games/product/${zelda.id}" />`,
    );
    expect(res.body).not.toContain('evil.example');
  });

  it('keeps images in a bucket behind a CDN (STORAGE_PUBLIC_URL, issue 13) as they are in Open Graph and JSON-LD', async () => {
    const cdn = 'https://cdn.example.com/media/shop/products/p9/0123abcd-detail.webp';
    const bucketed = await insertProduct(ctx.db, {
      name: 'CDN Cartridge',
      category: 'consoles',
      images: [cdn],
    });
    const app = await ctx.newApp({ config: { ...ctx.config, publicUrl: 'https://pixelvault.example' } });
    const res = await app.inject({ method: 'GET', url: `/shop/consoles/product/${bucketed.id}` });
    expect(res.statusCode).toBe(200);
    expect(metaContent(res.body, 'property', 'og:image')).toBe(cdn);
    expect(jsonLd(res.body)[0]).toMatchObject({ '@type': 'Product', image: [cdn] });
    expect(rootMarkup(res.body)).toMatch(
      /<img[^>]+srcSet="[^"]*cdn\.example\.com\/media\/shop\/products\/p9\/0123abcd-card\.webp 480w/,
    );
  });

  it('starts the app once the page has loaded and painted, by a loader the policy allows by its hash', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/shop/retro-games' });
    expect(page.statusCode).toBe(200);
    // No module is asked for while the head is read: the loader names the entry and asks for it later.
    expect(page.body).not.toContain('<script type="module"');
    const [, entry, loader] = /<script data-entry="([^"]+)">([\s\S]*?)<\/script>/.exec(page.body) ?? [];
    expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const asset = await ctx.app.inject({ method: 'GET', url: entry! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    // The browser runs the loader only if the policy names the hash of exactly this text.
    const hash = createHash('sha256').update(loader!).digest('base64');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}'`);
    // A page drawn in the browser has nothing to show before its app: it keeps the plain module script.
    const cart = await ctx.app.inject({ method: 'GET', url: '/cart' });
    expect(cart.body).toContain(`<script type="module" crossorigin src="${entry}"></script>`);
    expect(cart.body).not.toContain('data-entry');
  });

  it('sends the pages drawn in the browser as the plain app, and never serves the render module', async () => {
    const cart = await ctx.app.inject({ method: 'GET', url: '/cart' });
    expect(cart.statusCode).toBe(200);
    expect(cart.body).toContain('<div id="root"></div>');
    expect(cart.body).not.toContain('pv-state');
    expect(cart.body).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[\w-]+\.css">/);
    // A dot directory is never served: the path is just another page, answered with the app.
    const module = await ctx.app.inject({ method: 'GET', url: `/${SSR_ENTRY}` });
    expect(module.body).toBe(cart.body);
  });
});

describe('the page template', () => {
  const template = parseTemplate(
    '<html><head><meta charset="UTF-8" /><!--app-head--><title>Default</title><!--/app-head--><script type="module" src="/a.js"></script></head><body><div id="root"></div></body></html>',
  )!;

  it('replaces the head block and fills the root, with the data right after it', () => {
    const html = pageHtml(template, {
      kind: 'page',
      status: 200,
      head: '<title>Zelda</title>',
      html: '<h1>Zelda</h1>',
      state: '{"seed":1}',
    });
    expect(html).toBe(
      '<html><head><meta charset="UTF-8" /><title>Zelda</title><script type="module" src="/a.js"></script></head><body><div id="root"><h1>Zelda</h1></div>\n    <script type="application/json" id="pv-state">{"seed":1}</script></body></html>',
    );
  });

  it('refuses a template without its markers (the page is then drawn in the browser)', () => {
    expect(
      parseTemplate('<html><head><title>x</title></head><body><div id="root"></div></body></html>'),
    ).toBeUndefined();
    expect(
      parseTemplate(
        '<html><head><!--app-head--><!--/app-head--></head><body><div id="app"></div></body></html>',
      ),
    ).toBeUndefined();
  });
});

describe('a server render that fails', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    const web = ctx.config.webDistDir;
    mkdirSync(path.join(web, '.ssr'), { recursive: true });
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><head><!--app-head--><title>Pixel Vault</title><!--/app-head--></head><body><div id="root"></div></body>',
    );
    writeFileSync(
      path.join(web, SSR_ENTRY),
      'export async function render() { throw new Error("the render broke"); }',
    );
  });
  afterAll(() => ctx.close());

  it('still answers the page, to be drawn in the browser, never a 500', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/shop/retro-games' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });
});

describe('the web app built or rebuilt while the server runs', () => {
  const HTML =
    '<!doctype html><head><!--app-head--><title>Pixel Vault</title><!--/app-head--></head><body><div id="root"></div></body>';
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-web-build-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is looked at once a second, not on every page, and is picked up within that second', async () => {
    let clock = 1_000_000;
    const warnings: string[] = [];
    const current = createWebApp(dir, { warn: (_obj, msg) => warnings.push(msg) }, () => clock);
    expect(await current()).toBeUndefined();

    writeFileSync(path.join(dir, 'index.html'), HTML);
    clock += BUILD_CHECK_MS - 1;
    expect(await current()).toBeUndefined();
    clock += 1;
    const built = await current();
    expect(built?.template).toBeDefined();
    expect(built?.ssr).toBeUndefined();
    expect(warnings).toEqual(['the web app has no server render: pages are drawn in the browser']);

    // A render module half written (a build in progress) is no build until the next look, not a 500.
    mkdirSync(path.join(dir, '.ssr'), { recursive: true });
    writeFileSync(path.join(dir, SSR_ENTRY), 'export async function render( {');
    clock += BUILD_CHECK_MS;
    await expect(current()).resolves.toBeUndefined();

    writeFileSync(path.join(dir, SSR_ENTRY), 'export async function render() { return { html: "" }; }');
    clock += BUILD_CHECK_MS;
    const rebuilt = await current();
    expect(rebuilt?.template).toBeDefined();
    expect(typeof rebuilt?.ssr?.render).toBe('function');
    expect(rebuilt?.version).not.toBe(built?.version);
  });
});

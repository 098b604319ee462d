import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct } from '../../test/factories.js';
import { PAGE_SCRIPT_TAG, buildWebApp } from '../../test/web-build.js';

/** The JSON-LD blocks of a page, parsed. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

const HOSTILE_TITLE = '</script><script>alert(1)</script>';
const HOSTILE_COMMENT = '<img src=x onerror=alert(2)> & "quotes" \u2028 <!-- comment';
const HOSTILE_NAME = '<b>Mallory</b> </script>Evil';

/**
 * Customers' text on the product page the server renders (issue 14): the hydration data and the
 * JSON-LD carry the newest reviews as typed (the review list itself is drawn in the browser), and none
 * of it can close a script element or open a tag.
 */
describe('reviews on the server-rendered product page', () => {
  let ctx: TestContext;
  let webDir: string;
  let reviewed: Awaited<ReturnType<typeof insertProduct>>;
  let unreviewed: Awaited<ReturnType<typeof insertProduct>>;

  beforeAll(async () => {
    webDir = await buildWebApp();
    ctx = await createTestContext({ env: { WEB_DIST_DIR: webDir } });
    reviewed = await insertProduct(ctx.db, {
      name: 'Reviewed Console',
      category: 'consoles',
      reviews: [
        { rating: 5, title: HOSTILE_TITLE, comment: HOSTILE_COMMENT, author: HOSTILE_NAME },
        { rating: 4, title: 'Solid', comment: 'Works.', author: 'Nice Person' },
        { rating: 1, title: 'Hidden rant', comment: 'Hidden by the admin.', hidden: true },
      ],
    });
    unreviewed = await insertProduct(ctx.db, { name: 'Unreviewed Console', category: 'consoles' });
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  const page = async (product: { id: string; category: string }) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/shop/${product.category}/product/${product.id}`,
      headers: { host: 'shop.test' },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('adds aggregateRating from the visible reviews to the product JSON-LD', async () => {
    const [product] = jsonLd(await page(reviewed));
    expect(product).toMatchObject({
      '@type': 'Product',
      name: 'Reviewed Console',
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2 },
    });
    const [bare] = jsonLd(await page(unreviewed));
    expect(bare).toMatchObject({ '@type': 'Product', name: 'Unreviewed Console' });
    expect(bare).not.toHaveProperty('aggregateRating');
  });

  it('cannot be broken out of by a review title, comment or author name', async () => {
    const html = await page(reviewed);
    // The text, as typed, appears nowhere raw: not in the markup, the JSON-LD or the hydration data.
    for (const text of [HOSTILE_TITLE, '<script>alert(1)', '<img src=x', '<b>Mallory</b>', '<!-- comment']) {
      expect(html, text).not.toContain(text);
    }
    // Every script element is one of the page's own (the JSON blocks and the app's loader): none opened
    // by a review.
    const openings = html.match(/<script\b[^>]*>/g) ?? [];
    for (const tag of openings) expect(tag).toMatch(PAGE_SCRIPT_TAG);
    // ... and every JSON block still parses, carrying the text exactly as the customer typed it.
    const [product] = jsonLd(html);
    const state = /<script type="application\/json" id="pv-state">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(state).toBeDefined();
    const everything = JSON.stringify([product, JSON.parse(state!)]);
    expect(everything).toContain(JSON.stringify(HOSTILE_TITLE).slice(1, -1));
    expect(everything).not.toContain('Hidden rant');
  });
});

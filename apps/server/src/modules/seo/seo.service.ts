import { asc, isNull } from 'drizzle-orm';
import { NAV_CATEGORIES, isCategory, navSlug } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { products } from '../../db/schema/index.js';
import { type CachedAnswer, type MaybeAnswer, cachedAnswer } from '../../lib/cached-answer.js';
import { notFound } from '../../lib/errors.js';
import { keptValues } from '../../lib/kept.js';

/** sitemaps.org: at most 50,000 URLs per sitemap file; more go in pages listed by a sitemapindex. */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * Pages that hold someone's own data or a step of checkout: nothing there for a search engine.
 * `/order` is a prefix, so it also covers /order/:id, /order-history and /order-confirmation/:id;
 * `/reset-password` covers every reset link (issue 11).
 */
export const ROBOTS_DISALLOW = [
  '/admin',
  '/place-order',
  '/order',
  '/account',
  '/cart',
  '/forgot-password',
  '/reset-password',
  // Issue 36: every e-mail verification link.
  '/verify-email',
  '/api/',
] as const;

/** The category pages the header links to (spec section 2), in its order; Home is `/`, not a category. */
const CATEGORY_SLUGS = NAV_CATEGORIES.map(navSlug).filter(isCategory);

const XMLNS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export interface SitemapUrl {
  /** Site-relative, starting with `/`. */
  path: string;
  /** Omitted when unknown (a category with no products yet). */
  lastmod: Date | undefined;
}

/**
 * How long the sitemap's files are kept once built. Building them reads the whole catalogue (about
 * 0.8 s for 100,000 products here), so a crawler, or ten, asking for them must not do it each time;
 * crawlers keep them an hour anyway (Cache-Control). Not dropped on catalogue writes: every order
 * changes the stock, which the sitemap does not show.
 */
export const SITEMAP_TTL_MS = 5 * 60_000;
/** Sites (PUBLIC_URL, or each Host asked for without it) whose sitemap files are kept at once. */
const SITEMAP_SITES_KEPT = 4;
/** And at most this many bytes of them (a 50,000-product catalogue's files are about 6 MB a site). */
const SITEMAP_BYTES_KEPT = 32 * 1024 * 1024;

const sitemapBytes = ({ main, pages }: SitemapFiles) =>
  pages.reduce((sum, page) => sum + page.body.length, pages.includes(main) ? 0 : main.body.length);

export interface SeoService {
  /** robots.txt for the shop reached at `base` (an origin, or PUBLIC_URL with its path). */
  robotsTxt(base: string): string;
  /** The `urlset` of every public page, or a `sitemapindex` of its pages when there are too many. */
  sitemap(base: string): MaybeAnswer;
  /** Page `page` (1-based) of the sitemap; 404 `Sitemap page not found` past the last one. */
  sitemapPage(base: string, page: number): MaybeAnswer;
}

export interface SeoServiceOptions {
  db: Database;
  /** URLs per sitemap file; tests page with a handful. */
  pageSize?: number;
  /** How long built files are kept (SITEMAP_TTL_MS); tests that change the catalogue use 0. */
  ttlMs?: number;
}

/** The files of one site's sitemap, built together from one read of the catalogue. */
interface SitemapFiles {
  /** `/sitemap.xml`: the urlset itself when one file holds every URL, else the sitemapindex. */
  main: CachedAnswer;
  /** `/sitemap-N.xml`, N from 1. */
  pages: CachedAnswer[];
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&${XML_ENTITIES[ch]};`);
}
const XML_ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

/** W3C datetime (what sitemaps.org asks for): ISO 8601 in UTC. */
const w3cDate = (date: Date) => date.toISOString();

const newer = (a: Date | undefined, b: Date) => (a === undefined || b > a ? b : a);

function urlElement(base: string, url: SitemapUrl): string {
  const lastmod = url.lastmod ? `<lastmod>${w3cDate(url.lastmod)}</lastmod>` : '';
  return `<url><loc>${escapeXml(base + url.path)}</loc>${lastmod}</url>`;
}

function urlset(base: string, urls: SitemapUrl[]): string {
  const body = urls.map((url) => urlElement(base, url)).join('\n');
  return `${XML_DECLARATION}\n<urlset xmlns="${XMLNS}">\n${body}\n</urlset>\n`;
}

function sitemapIndex(base: string, pages: SitemapUrl[][]): string {
  const body = pages
    .map((urls, i) => {
      const newest = urls.reduce<Date | undefined>(
        (acc, u) => (u.lastmod ? newer(acc, u.lastmod) : acc),
        undefined,
      );
      const lastmod = newest ? `<lastmod>${w3cDate(newest)}</lastmod>` : '';
      return `<sitemap><loc>${escapeXml(`${base}/sitemap-${i + 1}.xml`)}</loc>${lastmod}</sitemap>`;
    })
    .join('\n');
  return `${XML_DECLARATION}\n<sitemapindex xmlns="${XMLNS}">\n${body}\n</sitemapindex>\n`;
}

export function createSeoService({
  db,
  pageSize = SITEMAP_MAX_URLS,
  ttlMs = SITEMAP_TTL_MS,
}: SeoServiceOptions): SeoService {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new Error('seo: pageSize must be a positive integer');
  const built = keptValues<SitemapFiles>({
    ttlMs,
    maxEntries: SITEMAP_SITES_KEPT,
    sizeOf: sitemapBytes,
    maxSize: SITEMAP_BYTES_KEPT,
  });

  /** Home, every category, every product on sale: the pages a shopper reaches without an account. */
  async function publicUrls(): Promise<SitemapUrl[]> {
    // Three columns, not the product DTO (images, reviews): this reads the whole catalogue.
    const rows = await db
      .select({ id: products.id, category: products.category, updatedAt: products.updatedAt })
      .from(products)
      .where(isNull(products.deletedAt))
      .orderBy(asc(products.category), asc(products.id));

    // A listing page changes when one of its products does.
    let newestOfAll: Date | undefined;
    const newestOf = new Map<string, Date>();
    for (const row of rows) {
      newestOfAll = newer(newestOfAll, row.updatedAt);
      newestOf.set(row.category, newer(newestOf.get(row.category), row.updatedAt));
    }
    return [
      { path: '/', lastmod: newestOfAll },
      ...CATEGORY_SLUGS.map((slug) => ({ path: `/shop/${slug}`, lastmod: newestOf.get(slug) })),
      ...rows.map((row) => ({ path: `/shop/${row.category}/product/${row.id}`, lastmod: row.updatedAt })),
    ];
  }

  async function build(base: string): Promise<SitemapFiles> {
    const urlsOfPages = paged(await publicUrls());
    const pages = urlsOfPages.map((urls) => cachedAnswer(urlset(base, urls)));
    // One file holds every URL: /sitemap.xml is that file itself, not a second copy of it.
    const main = pages.length === 1 ? pages[0]! : cachedAnswer(sitemapIndex(base, urlsOfPages));
    return { main, pages };
  }

  function fileOf(base: string, pick: (files: SitemapFiles) => CachedAnswer): MaybeAnswer {
    const files = built.get(base, () => build(base));
    return files instanceof Promise ? files.then(pick) : pick(files);
  }

  function paged(urls: SitemapUrl[]): SitemapUrl[][] {
    const pages: SitemapUrl[][] = [];
    for (let start = 0; start < urls.length; start += pageSize)
      pages.push(urls.slice(start, start + pageSize));
    return pages;
  }

  return {
    robotsTxt(base) {
      return [
        'User-agent: *',
        'Allow: /',
        ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
        '',
        `Sitemap: ${base}/sitemap.xml`,
        '',
      ].join('\n');
    },

    sitemap(base) {
      return fileOf(base, (files) => files.main);
    },

    sitemapPage(base, page) {
      return fileOf(base, (files) => {
        const file = files.pages[page - 1];
        if (!file) throw notFound('Sitemap page not found');
        return file;
      });
    },
  };
}

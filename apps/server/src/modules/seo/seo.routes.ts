import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { sendCachedAnswer } from '../../lib/cached-answer.js';
import type { App } from '../../lib/http.js';
import { siteBase } from '../../lib/urls.js';
import { createSeoService } from './seo.service.js';

export interface SeoRoutesOptions {
  db: Database;
  /**
   * PUBLIC_URL, where the shop is reached from outside, wins over the request's own origin; the
   * listening port makes the stand-in origin when a request's Host is unusable.
   */
  config: Pick<Config, 'publicUrl' | 'port'>;
  /** URLs per sitemap file (default: the protocol's 50,000). */
  pageSize?: number;
  /** How long built sitemap files are kept (default SITEMAP_TTL_MS). */
  sitemapTtlMs?: number;
}

/** Crawlers fetch these often; an hour of staleness costs nothing (issue 10). */
const CACHE_CONTROL = 'public, max-age=3600';

const PageParams = z.object({ page: z.coerce.number().int() });

/** robots.txt and the sitemap (issue 10): what search engines may crawl, and every public page. */
export async function seoRoutes(app: App, { db, config, pageSize, sitemapTtlMs }: SeoRoutesOptions) {
  const seo = createSeoService({
    db,
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(sitemapTtlMs !== undefined ? { ttlMs: sitemapTtlMs } : {}),
  });
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);

  app.get('/robots.txt', { config: { access: 'public' } }, async (request, reply) =>
    reply
      .header('cache-control', CACHE_CONTROL)
      .type('text/plain; charset=utf-8')
      .send(seo.robotsTxt(base(request))),
  );

  // Sent from the kept files with an ETag (a 304 when the crawler has them) and compressed once.
  const xml = { contentType: 'application/xml; charset=utf-8', cacheControl: CACHE_CONTROL };
  const sitemapRoute = { config: { access: 'public' }, compress: false } as const;

  app.get('/sitemap.xml', sitemapRoute, (request, reply) =>
    sendCachedAnswer(request, reply, seo.sitemap(base(request)), xml),
  );

  app.get(
    '/sitemap-:page(^\\d{1,9}).xml',
    { ...sitemapRoute, schema: { params: PageParams } },
    (request, reply) =>
      sendCachedAnswer(request, reply, seo.sitemapPage(base(request), request.params.page), xml),
  );
}

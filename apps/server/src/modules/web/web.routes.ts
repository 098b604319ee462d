import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AnswerKind, sendCachedAnswer } from '../../lib/cached-answer.js';
import type { App } from '../../lib/http.js';
import { IMMUTABLE, type ReadableStorage, isSafeKey } from '../../lib/storage.js';
import { siteBase } from '../../lib/urls.js';
import { type PageCatalogue, type Rendered, createPages } from './web.pages.js';
import { createWebApp } from './web.ssr.js';

/** Hashed file names (Vite's assets, uploads keyed by content hash) never change content. */
export { IMMUTABLE };
/** index.html names the current hashed assets: always revalidate it so a deploy shows at once. */
export const NO_CACHE = 'no-cache';
/** Pages whose URL holds a secret (a reset link's token): no cache, shared or not, may keep them. */
export const NO_STORE = 'no-store';
export const NOT_BUILT_MESSAGE = 'The web app is not built yet: run npm run build';

export interface WebRoutesOptions {
  /**
   * Rendered pages are kept under the catalogue's version, and until a product they show sells out or
   * comes back (issue 28): such a change is shown at once, a stock figure within the page's TTL.
   */
  catalogue: PageCatalogue;
  /**
   * How long a rendered page is fresh: the catalogue's own TTL (its answers are the page's data).
   * Then it is rendered again, unless its data shows the same but for stock (web.pages.ts).
   */
  pageTtlMs: number;
  webDistDir: string;
  uploadsDir: string;
  /** Images in a bucket (STORAGE_URL): `/uploads/<key>` streams them from it, not from `uploadsDir`. */
  uploadsFrom?: ReadableStorage | undefined;
  /** PUBLIC_URL: the base written into canonical URLs; else the request's origin (see siteBase). */
  publicUrl: string | undefined;
  port: number;
}

/** Pages are revalidated on every visit (a 304 when the ETag still holds): a change shows at once. */
const HTML_PAGE: AnswerKind = { contentType: 'text/html; charset=utf-8', cacheControl: NO_CACHE };

const isUnder = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`);

/** The built React app and the uploaded images, with the SPA fallback for client-side routes. */
export async function webRoutes(
  app: App,
  { catalogue, pageTtlMs, webDistDir, uploadsDir, uploadsFrom, publicUrl, port }: WebRoutesOptions,
) {
  const assetsDir = path.join(webDistDir, 'assets') + path.sep;

  if (uploadsFrom) {
    app.get('/uploads/*', { config: { access: 'public' } }, (request, reply) =>
      streamUpload(uploadsFrom, request, reply),
    );
  } else {
    // Created up front so the static plugin has a root to serve from on a fresh install.
    mkdirSync(uploadsDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: uploadsDir,
      prefix: '/uploads/',
      decorateReply: false,
      cacheControl: false,
      dotfiles: 'ignore',
      index: false,
      redirect: false,
      setHeaders: (reply) => reply.header('cache-control', IMMUTABLE),
    });
  }

  await app.register(fastifyStatic, {
    root: webDistDir,
    prefix: '/',
    // `/` is a page rendered on the server (below), not the static index.html.
    index: false,
    cacheControl: false,
    dotfiles: 'ignore',
    // The web app may be built after the server started: look files up per request.
    wildcard: true,
    suppressWarning: true,
    setHeaders: (reply, filePath) =>
      reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : NO_CACHE),
  });

  const currentWebApp = createWebApp(webDistDir, app.log);
  const pages = createPages({ app, catalogue, ttlMs: pageTtlMs });

  function notBuilt(reply: FastifyReply) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(NOT_BUILT_MESSAGE);
  }

  /** Client-side routes (/cart, /order/...) all boot the same page, drawn in the browser. */
  const shell = (reply: FastifyReply) => reply.code(200).sendFile('index.html', webDistDir);

  /**
   * The catalogue (home, categories, products; issue 33's search results) rendered on the server with its
   * data (issue 10): what a search engine, a link preview and a phone's first paint see without running
   * the app's JavaScript.
   */
  async function page(request: FastifyRequest, reply: FastifyReply) {
    const web = await currentWebApp();
    if (!web) return notBuilt(reply);
    const { ssr, template } = web;
    if (!ssr || !template) return shell(reply);
    const origin = siteBase(request, publicUrl, port);
    const key = `${web.version}\u0000${catalogue.version()}\u0000${origin}\u0000${request.url}`;
    let outcome: Rendered;
    try {
      outcome = await pages.get(key, ssr, template, request.url, origin);
    } catch (error) {
      // The browser can still draw the page: never an error page for a render that failed.
      request.log.error({ err: error }, 'server render failed; sending the page to be drawn in the browser');
      return shell(reply);
    }
    if (outcome.kind === 'shell') return shell(reply);
    if (outcome.kind === 'redirect') return reply.redirect(outcome.location, outcome.status);
    if (outcome.status === 404) reply.header('x-robots-tag', 'noindex');
    reply.code(outcome.status);
    return sendCachedAnswer(request, reply, outcome.answer, HTML_PAGE);
  }

  // Compressed once per kept page (sendCachedAnswer), not per request.
  app.get('/', { config: { access: 'public' }, compress: false }, page);
  app.get('/shop/*', { config: { access: 'public' }, compress: false }, page);
  // Issue 33: the shop-wide search's results, rendered like a category page.
  app.get('/search', { config: { access: 'public' }, compress: false }, page);

  /**
   * A password reset link (issue 11) is drawn in the browser like any other page, but its path is the
   * token: no proxy or browser cache may store the answer under it. Referrer-Policy: no-referrer (the
   * page policy, on every page) keeps the path out of requests the page makes.
   */
  // Issue 36: an e-mail verification link carries its token in the path the same way.
  for (const linkPath of ['/reset-password/*', '/verify-email/*']) {
    app.get(
      linkPath,
      {
        config: { access: 'public' },
        // After the static plugin's own cache header (set as the file is sent), so this one wins.
        onSend: (_request, reply, payload, done) => {
          reply.header('cache-control', NO_STORE);
          done(null, payload);
        },
      },
      async (_request, reply) => ((await currentWebApp()) ? shell(reply) : notBuilt(reply)),
    );
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?', 1)[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isUnder(url, '/api') &&
      !isUnder(url, '/uploads') &&
      !isUnder(url, '/assets');
    if (!isPage) return reply.code(404).send({ message: 'Not found' });
    const web = await currentWebApp();
    return web ? shell(reply) : notBuilt(reply);
  });
}

const headerText = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * An image kept in a bucket, served at the same path local disk uses (issue 13): the browser's
 * conditional request is passed on, the object's type, length, ETag and date come back with it. A key
 * the storage would refuse is a 404 like any other missing image, never an error.
 */
async function streamUpload(storage: ReadableStorage, request: FastifyRequest, reply: FastifyReply) {
  const key = (request.params as { '*'?: string })['*'] ?? '';
  if (!isSafeKey(key)) return reply.callNotFound();
  const since = headerText(request.headers['if-modified-since']);
  const sinceDate = since === undefined ? undefined : new Date(since);
  const found = await storage.get(key, {
    ifNoneMatch: headerText(request.headers['if-none-match']),
    ifModifiedSince: sinceDate && !Number.isNaN(sinceDate.getTime()) ? sinceDate : undefined,
  });
  if (!found) return reply.callNotFound();
  reply.header('cache-control', IMMUTABLE);
  if (found === 'not-modified') return reply.code(304).send();
  if (found.etag) reply.header('etag', found.etag);
  if (found.lastModified) reply.header('last-modified', found.lastModified.toUTCString());
  if (found.contentLength !== undefined) reply.header('content-length', found.contentLength);
  return reply.type(found.contentType ?? 'application/octet-stream').send(found.body);
}

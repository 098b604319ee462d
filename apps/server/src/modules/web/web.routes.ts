import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../lib/http.js';

/** Hashed file names (Vite's assets, uploads keyed by content hash) never change content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed assets: always revalidate it so a deploy shows at once. */
export const NO_CACHE = 'no-cache';
export const NOT_BUILT_MESSAGE = 'The web app is not built yet: run npm run build';

export interface WebRoutesOptions {
  webDistDir: string;
  uploadsDir: string;
}

const isUnder = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`);

/** The built React app and the uploaded images, with the SPA fallback for client-side routes. */
export async function webRoutes(app: App, { webDistDir, uploadsDir }: WebRoutesOptions) {
  // Created up front so the static plugin has a root to serve from on a fresh install.
  mkdirSync(uploadsDir, { recursive: true });
  const assetsDir = path.join(webDistDir, 'assets') + path.sep;

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

  await app.register(fastifyStatic, {
    root: webDistDir,
    prefix: '/',
    cacheControl: false,
    dotfiles: 'ignore',
    // The web app may be built after the server started: look files up per request.
    wildcard: true,
    suppressWarning: true,
    setHeaders: (reply, filePath) =>
      reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : NO_CACHE),
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?', 1)[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isUnder(url, '/api') &&
      !isUnder(url, '/uploads') &&
      !isUnder(url, '/assets');
    if (!isPage) return reply.code(404).send({ message: 'Not found' });

    const index = path.join(webDistDir, 'index.html');
    const built = await stat(index).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!built) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(NOT_BUILT_MESSAGE);
    }
    // Client-side routes (/shop/consoles, /order/...) all boot the same page.
    return reply.code(200).sendFile('index.html', webDistDir);
  });
}

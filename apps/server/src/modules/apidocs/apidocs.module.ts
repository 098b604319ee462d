import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { RouteOptions } from 'fastify';
import type { Config } from '../../config.js';
import { type CachedAnswer, cachedAnswer, sendCachedAnswer } from '../../lib/cached-answer.js';
import type { App } from '../../lib/http.js';
import { API_INFO, describeRoute, finishDocument, noteRoute } from './apidocs.describe.js';
import { DOCS_PAGE_HEADERS } from './apidocs.headers.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
/** The reference page, with and without its trailing slash (swagger-ui answers both). */
const DOCS_PAGES = new Set([DOCS_PATH, `${DOCS_PATH}/`]);

/**
 * Issue 37: the API described. GET /api/openapi.json (OpenAPI 3.1, generated from the zod schemas the
 * routes validate with, so it cannot drift) and /api/docs (a reference page for it). Registered before
 * every route, so it sees them all.
 *
 * Nothing is generated at startup (tests build hundreds of apps): @fastify/swagger only keeps a list
 * of the routes as they are added, and the document is made on the first GET of it, then kept.
 */
export async function registerApiDocs(app: App, { config }: { config: Pick<Config, 'publicUrl'> }) {
  // What a route's options alone do not say (is its scope's body multipart?), noted as it is added.
  app.addHook('onRoute', function (this: App, route: RouteOptions) {
    noteRoute(this, route);
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: API_INFO,
      // Relative first: "try it out" and generated clients call the host that served the document.
      servers: [
        { url: '/', description: 'This shop' },
        ...(config.publicUrl ? [{ url: config.publicUrl, description: 'PUBLIC_URL' }] : []),
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The `token` that POST /api/users/login (or /api/users) answers.',
          },
        },
      },
    },
    transform: describeRoute,
    transformObject: finishDocument,
  });

  // Made on the first request, then sent as the catalogue's answers are: its ETag (a 304 for a client
  // that has it) and its gzip and brotli forms made once. It changes only with the code.
  let document: CachedAnswer | undefined;
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'This document (OpenAPI 3.1)',
        doc: { answers: { 200: { mediaType: 'application/json', description: 'The OpenAPI 3.1 document' } } },
      },
      config: { access: 'public' },
      compress: false,
    },
    (request, reply) => {
      document ??= cachedAnswer(JSON.stringify(app.swagger()));
      return sendCachedAnswer(request, reply, document);
    },
  );

  // swagger-ui's routes (and @fastify/static's under them) take no route config, and every /api route
  // must say who may call it (lib/access.ts): in this scope each route added is public.
  await app.register(async (scope: App) => {
    const routable = scope as unknown as { route: (this: unknown, options: RouteOptions) => unknown };
    const route = routable.route;
    routable.route = function (options) {
      return route.call(this, { ...options, config: { ...options.config, access: 'public' } });
    };
    await scope.register(fastifySwaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: { deepLinking: true, tryItOutEnabled: false, persistAuthorization: false },
      // The page alone gets the docs page's policy instead of the API's default-src 'none' (set by
      // the app's first hook, replaced here): its scripts and styles, the document, stay the API's.
      uiHooks: {
        onRequest: (request, reply, done) => {
          if (DOCS_PAGES.has(request.routeOptions.url ?? '')) reply.headers(DOCS_PAGE_HEADERS);
          done();
        },
      },
      theme: { title: 'Pixel Vault API' },
    });
  });
}

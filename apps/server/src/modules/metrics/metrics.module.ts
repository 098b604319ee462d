import { createHash, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest, RouteOptions, onResponseHookHandler } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { FastObserver } from '../../lib/fast-answers.js';
import type { App } from '../../lib/http.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { createDatabaseMetrics } from './metrics.db.js';
import { CATALOGUE_ROUTES, UNMATCHED_ROUTE, catalogueRouteOf, createHttpMetrics } from './metrics.http.js';
import { createShopMetrics } from './metrics.shop.js';

/** Every series' name starts so (Prometheus naming: one prefix per application). */
export const METRICS_PREFIX = 'pixelvault_';
export const METRICS_PATH = '/metrics';

/**
 * Issue 37: the shop's health for Prometheus. GET /metrics (METRICS_TOKEN as a bearer token; unset,
 * the route does not exist and nothing is counted). docs/metrics.md lists the series.
 */
export interface MetricsModule {
  /** What the services tell (lib/signals.ts); does nothing when metrics are off. */
  signals: Signals;
  /** The catalogue fast path's hook (lib/fast-answers.ts); undefined when metrics are off. */
  observeFast: FastObserver | undefined;
  /**
   * Before every route: counts each route's requests by its pattern (an onRoute hook sees them as
   * they are added), and adds GET /metrics.
   */
  register(app: App): Promise<void>;
}

/**
 * The process's own figures (CPU, memory, heap, event-loop lag, handles), in a registry of their own,
 * made once per process on first use: they are the process's, not an app's, and prom-client starts an
 * event-loop monitor for them that it offers no way to stop, so one per app would pile up in a process
 * that builds many apps (the tests). Never prom-client's global registry.
 *
 * prom-client's default list without its GC histogram: the GC observer it needs cost the catalogue
 * about 3% of its requests per CPU second (bench/metrics.ts, PostgreSQL: 19.1 us of CPU per request
 * without metrics, 20.1 us with all of the defaults, 19.6 us without the GC one), more than the rest
 * of the metrics together. Each default is its own module in prom-client (lib/metrics/<name>.js, the
 * names collectDefaultMetrics.metricsList lists); should that layout change, all of them are taken.
 */
let processRegistry: Registry | undefined;
const LEFT_OUT_DEFAULTS = new Set(['gc']);
type DefaultMetric = (
  registry: Registry,
  config: { prefix: string; eventLoopMonitoringPrecision: number },
) => void;

function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registry = new Registry();
  const config = { prefix: METRICS_PREFIX, eventLoopMonitoringPrecision: 10 };
  try {
    const require = createRequire(import.meta.url);
    const defaults = (collectDefaultMetrics as unknown as { metricsList: string[] }).metricsList;
    const chosen = defaults
      .filter((name) => !LEFT_OUT_DEFAULTS.has(name))
      .map((name) => require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric);
    for (const start of chosen) start(registry, config);
  } catch {
    registry.clear();
    collectDefaultMetrics({ register: registry, ...config });
  }
  return (processRegistry = registry);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const BEARER = /^Bearer +(\S+) *$/i;

export function createMetricsModule(options: {
  config: Pick<Config, 'metricsToken'>;
  db: Database;
}): MetricsModule {
  const token = options.config.metricsToken;
  if (!token) {
    // Nothing is counted. The path answers as an unknown API URL does, never the web app's page.
    return {
      signals: NO_SIGNALS,
      observeFast: undefined,
      async register(app) {
        app.get(METRICS_PATH, { schema: { hide: true }, config: { access: 'public' } }, async () => {
          throw new AppError(404, 'Not found');
        });
      },
    };
  }

  const registry = new Registry();
  const http = createHttpMetrics(METRICS_PREFIX);
  for (const metric of http.metrics) registry.registerMetric(metric);
  const signals = createShopMetrics(registry, METRICS_PREFIX);
  let logError: (error: unknown) => void = () => {};
  const database = createDatabaseMetrics(registry, METRICS_PREFIX, options.db, (error) => logError(error));

  // The fast path's routes, found once: a fast answer costs a character test or two and the observe.
  const fastRoutes = CATALOGUE_ROUTES.map((pattern) => http.route(pattern));
  const observeFast: FastObserver = (url, status, seconds) =>
    http.observe(fastRoutes[catalogueRouteOf(url)]!, 'GET', status, seconds);

  /** Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first difference. */
  const expected = sha256(token);
  const authorized = (header: string | undefined) => {
    const given = header === undefined ? undefined : BEARER.exec(header)?.[1];
    return given !== undefined && timingSafeEqual(sha256(given), expected);
  };

  async function scrape(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    if (!authorized(request.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError(401, 'Not authorized! GET /metrics needs the METRICS_TOKEN as a bearer token');
    }
    await database.refresh();
    const [own, ofProcess] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return `${ofProcess}\n${own}`;
  }

  return {
    signals,
    observeFast,
    async register(app) {
      logError = (error) => app.log.warn({ err: error }, 'metrics: the mail outbox could not be read');
      const unmatched = http.route(UNMATCHED_ROUTE);
      // Each route's own hook, bound to its pattern's series: nothing is looked up by URL per request.
      app.addHook('onRoute', (route: RouteOptions) => {
        const series = http.route(route.url);
        const count: onResponseHookHandler = (request, reply, done) => {
          http.observe(series, request.method, reply.statusCode, reply.elapsedTime / 1000);
          done();
        };
        route.onResponse = [...[route.onResponse ?? []].flat(), count];
      });
      // Requests no route matched (fastify's 404 handler, which has no route hooks): one series.
      app.addHook('onResponse', (request, reply, done) => {
        if (request.is404)
          http.observe(unmatched, request.method, reply.statusCode, reply.elapsedTime / 1000);
        done();
      });
      app.get(METRICS_PATH, { schema: { hide: true }, config: { access: 'public' } }, scrape);
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { installAccessControl } from './lib/access.js';
import { type FastLookup, createFastAnswers } from './lib/fast-answers.js';
import { type Limiter, createLimiter } from './lib/limiter.js';
import { AppError, clientErrorHandler, errorHandler } from './lib/errors.js';
import type { App, RateLimit } from './lib/http.js';
import { apiSecurityHeaders, helmetOptions, securityHeaders } from './lib/security-headers.js';
import { type Storage, isReadableStorage } from './lib/storage.js';
import { parseQuery } from './lib/querystring.js';
import { publicUrls } from './lib/urls.js';
import { adminBackupRoutes, adminRoutes } from './modules/admin/admin.routes.js';
import { registerApiDocs } from './modules/apidocs/apidocs.module.js';
import { createBackupService } from './modules/admin/admin.backup.js';
import { createAdminService } from './modules/admin/admin.service.js';
import { createProductsImportService } from './modules/admin/admin.import.js';
import { createAlertsModule } from './modules/alerts/alerts.module.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { type AuditService, createAuditService } from './modules/audit/audit.service.js';
import { type AuthService, createAuthService } from './modules/auth/auth.service.js';
import { createCartModule } from './modules/cart/cart.module.js';
import { contactRoutes } from './modules/contact/contact.routes.js';
import { type ContactService, createContactService } from './modules/contact/contact.service.js';
import { giftCardsRoutes } from './modules/giftcards/giftcards.routes.js';
import { type GiftCardsService, createGiftCardsService } from './modules/giftcards/giftcards.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createMetricsModule } from './modules/metrics/metrics.module.js';
import type { Mailer } from './modules/mail/mail.worker.js';
import { ordersRoutes } from './modules/orders/orders.routes.js';
import { type OrdersService, createOrdersService } from './modules/orders/orders.service.js';
import { createDemoProvider } from './modules/payments/demo.provider.js';
import type { PaymentProvider } from './modules/payments/payment.provider.js';
import { paymentsRoutes } from './modules/payments/payments.routes.js';
import { type PaymentsService, createPaymentsService } from './modules/payments/payments.service.js';
import { createPayPalProvider } from './modules/payments/paypal.provider.js';
import { type RefundsService, createRefundsService } from './modules/payments/refunds.service.js';
import { currentOf } from './modules/products/products.answers.js';
import { productsRoutes } from './modules/products/products.routes.js';
import { CATALOGUE_CHANNEL, createCatalogueSync } from './modules/products/products.sync.js';
import { createPromotionsModule } from './modules/promotions/promotions.module.js';
import type { PromotionsService } from './modules/promotions/promotions.service.js';
import { reviewsRoutes } from './modules/reviews/reviews.routes.js';
import { type ReviewsService, createReviewsService } from './modules/reviews/reviews.service.js';
import { seoRoutes } from './modules/seo/seo.routes.js';
import { createSessionsModule } from './modules/sessions/sessions.module.js';
import {
  CATALOGUE_TTL_MS,
  type ProductsService,
  createProductsService,
} from './modules/products/products.service.js';
import { createTradeInsModule } from './modules/tradeins/tradeins.module.js';
import { createTwoFactorModule } from './modules/twofactor/twofactor.module.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createEmailVerification } from './modules/users/users.verify.js';
import { verifyRoutes } from './modules/users/users.verify.routes.js';
import { type UsersService, createUsersService } from './modules/users/users.service.js';
import { webRoutes } from './modules/web/web.routes.js';
import { createWebhooksModule } from './modules/webhooks/webhooks.module.js';
import { createWishlistModule } from './modules/wishlist/wishlist.module.js';

export interface RateLimits {
  /** Failed logins per account, from any address (kept in the database: all instances share it). */
  login: RateLimit;
  /** Failed logins per address, whatever e-mail they name (one password sprayed over many accounts). */
  loginAddress: RateLimit;
  /** Sign-ups per address (in the database). */
  register: RateLimit;
  /** Password reset mails asked for per e-mail, known or not, from any address (in the database). */
  forgotPassword: RateLimit;
  /** Password reset mails asked for per address, whatever e-mails they name (in the database). */
  forgotPasswordAddress: RateLimit;
  /** Failed password resets (used, expired or unknown links) per address (in the database). */
  resetPasswordAddress: RateLimit;
  /** Contact messages per address (in the database). */
  contact: RateLimit;
  /** Wrong gift-card codes per customer, on every route that takes a code (in the database). */
  giftCardCodes: RateLimit;
  /** Wrong gift-card codes per address, whichever customer sends them (in the database). */
  giftCardCodesAddress: RateLimit;
  /** Review writes (POST and PUT) per customer (in the database; issue 14). */
  reviews: RateLimit;
  /** Wrong discount codes per customer (issue 32; in the database, or Redis). */
  discountCodes: RateLimit;
  /** Wrong discount codes per address, whichever customer sends them. */
  discountCodesAddress: RateLimit;
  /** A visitor's back-in-stock subscribes per e-mail, known or not, from any address (issue 34). */
  alertSubscribe: RateLimit;
  /** A visitor's back-in-stock subscribes per address, whatever e-mails they name. */
  alertSubscribeAddress: RateLimit;
  /** Failed alert confirmation and unsubscribe links (unknown, used up, expired) per address. */
  alertTokensAddress: RateLimit;
  /** Issue 36: e-mail verification mails asked for per account, from any address. */
  verifyResend: RateLimit;
  /** Issue 36: e-mail verification mails asked for per address, whatever accounts ask. */
  verifyResendAddress: RateLimit;
  /** Issue 36: failed e-mail verification links (unknown, used, expired) per address. */
  verifyEmailAddress: RateLimit;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  login: { max: 10, windowMs: 15 * 60_000 },
  loginAddress: { max: 30, windowMs: 15 * 60_000 },
  register: { max: 20, windowMs: 60 * 60_000 },
  forgotPassword: { max: 5, windowMs: 60 * 60_000 },
  forgotPasswordAddress: { max: 20, windowMs: 60 * 60_000 },
  resetPasswordAddress: { max: 10, windowMs: 15 * 60_000 },
  contact: { max: 5, windowMs: 10 * 60_000 },
  giftCardCodes: { max: 10, windowMs: 15 * 60_000 },
  giftCardCodesAddress: { max: 30, windowMs: 15 * 60_000 },
  reviews: { max: 20, windowMs: 60 * 60_000 },
  discountCodes: { max: 10, windowMs: 15 * 60_000 },
  discountCodesAddress: { max: 30, windowMs: 15 * 60_000 },
  alertSubscribe: { max: 10, windowMs: 60 * 60_000 },
  alertSubscribeAddress: { max: 30, windowMs: 60 * 60_000 },
  alertTokensAddress: { max: 10, windowMs: 15 * 60_000 },
  verifyResend: { max: 5, windowMs: 60 * 60_000 },
  verifyResendAddress: { max: 20, windowMs: 60 * 60_000 },
  verifyEmailAddress: { max: 10, windowMs: 15 * 60_000 },
};

export interface AppDeps {
  config: Config;
  db: Database;
  storage: Storage;
  /** Told when a mail was queued, so it goes out now rather than at the next poll. */
  mailer: Mailer;
  /** Defaults to a pino logger at config.logLevel. */
  logger?: FastifyBaseLogger;
  /** Tests use small numbers. */
  limits?: Partial<RateLimits>;
  productsCacheTtlMs?: number;
  /** Issue 33: searches answered from the in-memory index (true by default; tests compare with SQL). */
  searchInMemory?: boolean;
  /** How long built sitemap files are kept (5 minutes); tests that change the catalogue use 0. */
  sitemapTtlMs?: number;
  /** Defaults to PayPal when configured, else the demo provider. */
  paymentProvider?: PaymentProvider;
  /** Tests move time (order holds, reset link expiry, rate limit windows). */
  clock?: () => Date;
  /**
   * LISTEN on the database (DatabaseHandle.listen). With it, a catalogue change on one instance drops
   * the cached catalogue of every other instance at once (issue 13); without it, they see the change
   * when their cache entries are refreshed (within 4 s: two of the cache's 2 s lifetimes).
   */
  listen?: DatabaseHandle['listen'];
  /** DatabaseHandle.takeReplies, called as each request arrives (PGlite). */
  takeDatabaseReplies?: DatabaseHandle['takeReplies'];
}

export { CATALOGUE_CHANNEL };

export interface Services {
  auth: AuthService;
  users: UsersService;
  products: ProductsService;
  contact: ContactService;
  orders: OrdersService;
  giftCards: GiftCardsService;
  payments: PaymentsService;
  refunds: RefundsService;
  audit: AuditService;
  reviews: ReviewsService;
  promotions: PromotionsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's services, for later modules and for tests (e.g. services.products.invalidate()). */
    services: Services;
  }
}

export const BODY_LIMIT = 1024 * 1024;

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\0') || hasNul(v));
  }
  return false;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** A proxy's or client's request id is kept when it is a plain token, so logs can be joined up. */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** One compact line per request instead of fastify's "incoming request" + "request completed". */
class OneLineRequestLog extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

/**
 * A front end on another origin (issue 8; spec section 7: "Base is the backend API host"). Only the
 * listed origins, never `*`, and no cookies: calls carry a bearer token, which a page of another
 * origin can only send if it already holds it. Unlisted origins get no grant at all.
 */
function corsOptions(origins: string[]) {
  const allowed = new Set(origins);
  return {
    origin: (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'If-None-Match'],
    exposedHeaders: ['ETag', 'X-Request-Id', 'Retry-After'],
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
    hideOptionsRoute: true,
    logLevel: 'silent' as const,
  };
}

/**
 * Which X-Forwarded-For entries to believe (issue 9). Fastify 5 refuses to read anything with a bare
 * hop count (it cannot tell the proxy from a client), so a count becomes proxy-addr's own rule:
 * the socket peer and the next count-1 entries, counted from the right, are proxies; the entry
 * before them is the client. Whatever a client writes further left is never read.
 */
export function trustProxyOption(trust: TrustProxy): FastifyHttpOptions<Server>['trustProxy'] {
  if (typeof trust === 'number') {
    const hops = trust;
    return hops > 0 ? (_address: string, index: number) => index < hops : false;
  }
  return trust;
}

/**
 * The URLs the fast path serves: every catalogue GET (a list, a page of it, a search, a product), read
 * as its route reads it (products.lookup.ts), so a URL the route would refuse (400) is its to answer.
 */
function catalogueLookup(products: ProductsService): FastLookup {
  return (url) => {
    const found = products.stockedAnswer(url);
    return found === undefined ? undefined : currentOf(found);
  };
}

/**
 * The HTTP application: every route, hook and plugin, wired to the given dependencies. It never
 * listens (main.ts does), so tests drive it with inject().
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };

  // Images may come from PUBLIC_URL's host (issue 8) and from a bucket's or CDN's (STORAGE_PUBLIC_URL, issue 13).
  const imageOrigins = [config.publicUrl, config.s3?.publicUrl].flatMap((url) =>
    url ? [new URL(url).origin] : [],
  );
  const pageHeaders = securityHeaders(helmetOptions([...new Set(imageOrigins)]));
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  // Product images may be shown by a front end on another origin (issue 8): `<img>` across origins.
  const uploadHeaders = { ...pageHeaders, 'cross-origin-resource-policy': 'cross-origin' };

  // Issue 37: GET /metrics for Prometheus (only with METRICS_TOKEN); first, as the fast path reports to it.
  const metrics = createMetricsModule({ config, db });
  const { signals } = metrics;

  // The catalogue's cached answers, sent ahead of fastify's lifecycle (issue 10). Bound to the
  // products service once it exists.
  let fastLookup: FastLookup = () => undefined;
  const fast = createFastAnswers({
    lookup: (url) => fastLookup(url),
    headers: apiHeaders,
    requestId,
    log: () => app.log,
    cors: config.corsOrigins.length > 0,
    observe: metrics.observeFast,
    beforeEach: deps.takeDatabaseReplies,
  });

  const options: FastifyHttpOptions<Server, FastifyBaseLogger> = {
    serverFactory: fast.serverFactory,
    // Requests node's parser refuses: fastify's answer, but a HEAD gets no body (issue 28).
    clientErrorHandler,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: requestId,
    requestIdHeader: false,
    logController: new OneLineRequestLog(),
    routerOptions: { maxParamLength: 200, querystringParser: parseQuery },
  };
  if (deps.logger) options.loggerInstance = deps.logger;
  else options.logger = { level: config.logLevel };
  const app = Fastify(options).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // Only JSON bodies exist in this API (multipart arrives later, per route); anything else is a 415.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      // PostgreSQL text cannot hold U+0000: refuse it here rather than fail (500) at the database.
      // In valid JSON it can only arrive escaped, so the cheap text test spares the walk.
      if (text.includes('\\u0000') && hasNul(value)) {
        return done(new AppError(400, 'Text must not contain NUL characters'), undefined);
      }
      done(null, value);
    });
  });

  const auth = createAuthService({
    db,
    jwtSecret: config.jwtSecret,
    ...(deps.clock ? { clock: deps.clock } : {}),
    onTouchError: (error) => app.log.warn({ err: error }, 'session last-used time not written'),
  });
  // Issue 36: every token belongs to a session the account's owner can see and end.
  const sessions = createSessionsModule({ db, clock: deps.clock });
  // Issue 36: two-factor sign-in; login asks it for a challenge (docs/two-factor.md).
  const twoFactor = createTwoFactorModule({
    db,
    jwtSecret: config.jwtSecret,
    mailer: deps.mailer,
    requireAdminTwoFactor: config.requireAdminTwoFactor,
    clock: deps.clock,
  });
  app.addHook('onClose', async () => auth.settle());
  const publicUrl = publicUrls(config.publicUrl);
  // Every instance on the database hears of the others' catalogue changes (issue 13).
  const sync = deps.listen
    ? createCatalogueSync({
        db,
        listen: deps.listen,
        onError: (error) => app.log.warn({ err: error }, 'catalogue change not broadcast'),
      })
    : undefined;
  const limiter = config.redisUrl
    ? await redisLimiter(config.redisUrl, app)
    : createLimiter({ db, ...(deps.clock ? { clock: deps.clock } : {}) });
  // Discount codes and scheduled sales (issue 32): the catalogue and the placement price from its book.
  const promotions = createPromotionsModule({
    db,
    limiter,
    codeLimits: { perAccount: limits.discountCodes, perAddress: limits.discountCodesAddress },
    clock: deps.clock,
    onSaleChanged: () => products.invalidate('details'),
    signals,
  });
  const products = createProductsService({
    db,
    sales: promotions.sales,
    storage: deps.storage,
    publicUrl,
    ...(deps.productsCacheTtlMs !== undefined ? { cacheTtlMs: deps.productsCacheTtlMs } : {}),
    ...(sync ? { tell: sync.tell } : {}),
    signals,
    onError: (error) => app.log.error({ err: error }, 'The search index could not be read'),
    ...(deps.searchInMemory !== undefined ? { searchInMemory: deps.searchInMemory } : {}),
  });
  if (sync) {
    const unlisten = await sync.listen(products);
    app.addHook('onClose', async () => unlisten());
  }
  // Issue 34: the logged-in shopper's cart and wishlist, priced from the same sale book.
  const cart = createCartModule({ db, sales: promotions.sales, publicUrl, clock: deps.clock });
  const wishlist = createWishlistModule({ db, sales: promotions.sales, publicUrl, clock: deps.clock });
  // Issue 34: back-in-stock alerts (mailed by the database on every restock: migration 0025).
  const alerts = createAlertsModule({ db, mailer: deps.mailer, limiter, limits, config, clock: deps.clock });
  // Issue 35: trade-ins for store credit (its expiry sweep runs while the app listens).
  const tradeIns = createTradeInsModule({
    db,
    mailer: deps.mailer,
    config,
    clock: deps.clock,
    onRestock: () => products.invalidate('details'),
    log: app.log.child({ worker: 'tradein-expiry' }),
  });
  // Issue 37: the shop's events sent to the owner's other systems, signed, retried for a day.
  const webhooks = createWebhooksModule({
    db,
    mailer: deps.mailer,
    config,
    clock: deps.clock,
    log: app.log.child({ worker: 'webhooks' }),
  });
  const orders = createOrdersService({
    db,
    codes: promotions.service,
    sales: promotions.sales,
    products,
    mailer: deps.mailer,
    holdMinutes: config.orderHoldMinutes,
    holdLimits: config.holdLimits,
    publicUrl,
    lowStock: { threshold: config.lowStockThreshold, to: config.contactTo },
    ...(deps.clock ? { clock: deps.clock } : {}),
    onPaid: cart.onOrderPaid,
    signals,
  });
  const giftCards = createGiftCardsService({
    db,
    orders,
    limiter,
    codeLimits: { perAccount: limits.giftCardCodes, perAddress: limits.giftCardCodesAddress },
    signals,
  });
  const provider =
    deps.paymentProvider ??
    (config.paypal
      ? createPayPalProvider({ ...config.paypal, log: app.log.child({ module: 'paypal' }) })
      : createDemoProvider({ db }));
  const services: Services = {
    auth,
    users: createUsersService({
      db,
      auth,
      sessions: sessions.service,
      mailer: deps.mailer,
      resetTokenMinutes: config.resetTokenMinutes,
      ...(deps.clock ? { clock: deps.clock } : {}),
      onAccountDeleting: tradeIns.onAccountDeleting,
      secondFactor: twoFactor.service,
    }),
    products,
    contact: createContactService({ db, mailer: deps.mailer, contactTo: config.contactTo }),
    orders,
    giftCards,
    payments: createPaymentsService({
      db,
      orders,
      giftCards,
      provider,
      log: app.log.child({ module: 'payments' }),
      signals,
    }),
    refunds: createRefundsService({
      db,
      orders,
      provider,
      onRestock: () => products.invalidate('details'),
      log: app.log.child({ module: 'refunds' }),
      signals,
    }),
    audit: createAuditService({ db }),
    reviews: createReviewsService({
      db,
      products,
      limiter,
      writeLimit: limits.reviews,
      ...(deps.clock ? { clock: deps.clock } : {}),
    }),
    promotions: promotions.service,
  };
  app.decorate('services', services);

  fastLookup = catalogueLookup(products);
  app.addHook('preClose', (done) => {
    fast.close();
    done();
  });

  // First hook, so refusals (401, 429, ...) carry the headers too.
  // Plain callback hook: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.headers(
      url.startsWith('/api/') ? apiHeaders : url.startsWith('/uploads/') ? uploadHeaders : pageHeaders,
    );
    reply.header('x-request-id', request.id);
    done();
  });

  // Before access control, so a preflight (OPTIONS, no token) is answered, and a refusal (401, 429)
  // still carries the grant its page needs to read the message.
  if (config.corsOrigins.length > 0) await app.register(fastifyCors, corsOptions(config.corsOrigins));

  installAccessControl(app, auth.authenticate, { requireAdminTwoFactor: config.requireAdminTwoFactor });

  await app.register(fastifyCompress, { threshold: 1024 });
  // Before every route (the documents' too): each route's requests are counted by its pattern.
  await metrics.register(app);
  // Before every route: the OpenAPI document is built from the routes as they are added (issue 37).
  await registerApiDocs(app, { config });

  await app.register(healthRoutes, { db });
  await app.register(usersRoutes, { users: services.users, limits, limiter, config });
  // Issue 36: verified e-mail addresses.
  await app.register(verifyRoutes, {
    verification: createEmailVerification({
      db,
      mailer: deps.mailer,
      ...(deps.clock ? { clock: deps.clock } : {}),
    }),
    limits,
    limiter,
    config,
  });
  await sessions.register(app);
  await twoFactor.register(app, { users: services.users, limits, limiter, config });
  await app.register(productsRoutes, { products: services.products, uploadMaxMb: config.uploadMaxMb });
  await app.register(reviewsRoutes, { reviews: services.reviews });
  await app.register(contactRoutes, { contact: services.contact, limits, limiter });
  await app.register(ordersRoutes, { orders: services.orders });
  await app.register(giftCardsRoutes, { giftCards: services.giftCards });
  await promotions.register(app, orders.quote);
  await cart.register(app);
  await wishlist.register(app);
  await alerts.register(app);
  await tradeIns.register(app);
  await webhooks.register(app);
  await app.register(paymentsRoutes, {
    payments: services.payments,
    refunds: services.refunds,
    shopCountry: config.shopCountry,
  });
  await app.register(auditRoutes, { audit: services.audit });
  await app.register(adminRoutes, {
    admin: createAdminService({
      db,
      timeZone: config.shopTimeZone,
      lowStockThreshold: config.lowStockThreshold,
      ...(deps.clock ? { clock: deps.clock } : {}),
      onStreamError: (error) => app.log.error({ err: error }, 'export stopped half-way'),
    }),
    productsImport: createProductsImportService({
      db,
      storage: deps.storage,
      invalidateCatalogue: () => products.invalidate(),
      publicUrl: config.publicUrl,
    }),
  });
  await app.register(adminBackupRoutes, {
    backup: createBackupService({
      db,
      storage: deps.storage,
      pgDumpPath: config.pgDumpPath,
      s3: config.s3,
      ...(deps.clock ? { clock: deps.clock } : {}),
      onStreamError: (error) => app.log.error({ err: error }, 'backup stopped half-way'),
    }),
  });
  await app.register(seoRoutes, {
    db,
    config,
    ...(deps.sitemapTtlMs !== undefined ? { sitemapTtlMs: deps.sitemapTtlMs } : {}),
  });
  await webRoutes(app, {
    catalogue: products,
    pageTtlMs: deps.productsCacheTtlMs ?? CATALOGUE_TTL_MS,
    webDistDir: config.webDistDir,
    uploadsDir: config.uploadsDir,
    uploadsFrom: isReadableStorage(deps.storage) ? deps.storage : undefined,
    publicUrl: config.publicUrl,
    port: config.port,
  });

  return app;
}

/**
 * REDIS_URL (issue 13): the rate limits counted in Redis, for shops that run one beside their
 * instances. Loaded only then, and connected before the shop listens: one that cannot reach it
 * refuses to start, as it does for its database.
 */
async function redisLimiter(url: string, app: App): Promise<Limiter> {
  const { connectRedis, createRedisLimiter } = await import('./lib/limiter-redis.js');
  const log = app.log.child({ module: 'redis' });
  const redis = await connectRedis(url, log);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return createRedisLimiter({ redis, log });
}

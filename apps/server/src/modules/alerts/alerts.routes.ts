import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ALERT_CONFIRM_SENT_MESSAGE,
  ALERT_UNSUBSCRIBED_MESSAGE,
  AlertConfirmBody,
  AlertConfirmed,
  AlertSubscribeBody,
  AlertUnsubscribeBody,
  AlertUnsubscribeParams,
  IdParams,
  MessageResponse,
  MostWanted,
  StockAlert,
  StockAlerts,
} from '@pixel-vault/shared';
import type { Config } from '../../config.js';
import { requireUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { App, RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor, rateLimited } from '../../lib/limiter.js';
import { siteBase } from '../../lib/urls.js';
import type { AlertsService } from './alerts.service.js';

export interface AlertsRoutesOptions {
  alerts: AlertsService;
  limiter: Limiter;
  /** The app's RateLimits entries of this module (app.ts, docs/back-in-stock.md). */
  limits: {
    /** A visitor's subscribes per e-mail, from any address (each may send a confirmation mail). */
    alertSubscribe: RateLimit;
    /** A visitor's subscribes per client address, whatever e-mails they name. */
    alertSubscribeAddress: RateLimit;
    /** Failed confirmation and unsubscribe links (unknown, used up, expired) per client address. */
    alertTokensAddress: RateLimit;
  };
  /** PUBLIC_URL, else the request's own origin, is where mailed links point (see siteBase). */
  config: Pick<Config, 'publicUrl' | 'port'>;
}

/** One-click unsubscribe bodies are read and dropped: a mail client's POST says nothing we need. */
const ONE_CLICK_BODY_LIMIT = 16 * 1024;

/** Issue 34: back-in-stock alerts (docs/back-in-stock.md). */
export async function alertsRoutes(app: App, { alerts, limiter, limits, config }: AlertsRoutesOptions) {
  const base = (request: FastifyRequest) => siteBase(request, config.publicUrl, config.port);
  const tokenBudget = (request: FastifyRequest) => [
    { key: `alert-token:addr:${request.ip}`, limit: limits.alertTokensAddress },
  ];
  const tooManyTokens = 'Too many invalid alert links. Please try again later.';

  /**
   * A logged-in shopper (bearer token) is subscribed at once: 201, or 200 when they were already.
   * A visitor sends an e-mail and always gets the same 202, whatever the address: a confirmation mail
   * goes out for a new alert (at most one an hour per address and variant), and nothing is waited
   * for until its link is opened. Every visitor's call counts, per e-mail and per address, as
   * password reset requests do. 409 for a variant in stock (nothing to wait for).
   */
  app.post(
    '/api/alerts',
    {
      schema: {
        body: AlertSubscribeBody,
        response: { 200: StockAlert, 201: StockAlert, 202: MessageResponse },
      },
      config: { access: 'visitor-or-user' },
    },
    async (request, reply) => {
      const { body } = request;
      if (request.user) {
        const { created, alert } = await alerts.subscribeUser(request.user, body, base(request));
        return reply.code(created ? 201 : 200).send(alert);
      }
      const { email } = body;
      if (email === undefined) {
        throw new AppError(
          400,
          'Please enter your e-mail address (or log in) to be told when it is back',
          'EMAIL_REQUIRED',
        );
      }
      const taken = await limiter.take(
        budgetsFor(
          'alert',
          { perAccount: limits.alertSubscribe, perAddress: limits.alertSubscribeAddress },
          { ip: request.ip, account: email },
        ),
      );
      if (!taken.allowed) {
        throw rateLimited('Too many alert requests. Please try again later.', taken.retryAfterSeconds);
      }
      await alerts.subscribeVisitor({ ...body, email }, base(request));
      return reply.code(202).send({ message: ALERT_CONFIRM_SENT_MESSAGE });
    },
  );

  /** The confirmation link's page (`/alerts/confirm/:token`) sends this. Failed tries count per address. */
  app.post(
    '/api/alerts/confirm',
    { schema: { body: AlertConfirmBody, response: { 200: AlertConfirmed } }, config: { access: 'public' } },
    async (request) =>
      limiter.guard(tokenBudget(request), tooManyTokens, () => alerts.confirm(request.body.token)),
  );

  /** The unsubscribe page (`/alerts/unsubscribe/:token`, linked from every alert mail) sends this. */
  app.post(
    '/api/alerts/unsubscribe',
    {
      schema: { body: AlertUnsubscribeBody, response: { 200: MessageResponse } },
      config: { access: 'public' },
    },
    async (request) => {
      await limiter.guard(tokenBudget(request), tooManyTokens, () => alerts.unsubscribe(request.body.token));
      return { message: ALERT_UNSUBSCRIBED_MESSAGE };
    },
  );

  /**
   * RFC 8058 one-click: the address of every alert mail's List-Unsubscribe header, which a mail client
   * POSTs `List-Unsubscribe=One-Click` to (form-encoded or multipart). Any body, of any type, is read
   * and dropped: the token in the path is all it takes. (A GET, which link checkers send, changes nothing.)
   */
  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    oneClick.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: ONE_CLICK_BODY_LIMIT },
      (_request, _body, done) => done(null, undefined),
    );
    oneClick.post(
      '/api/alerts/unsubscribe/:token',
      {
        schema: { params: AlertUnsubscribeParams, response: { 200: MessageResponse } },
        config: { access: 'public' },
      },
      async (request) => {
        await limiter.guard(tokenBudget(request), tooManyTokens, () =>
          alerts.unsubscribe(request.params.token),
        );
        return { message: ALERT_UNSUBSCRIBED_MESSAGE };
      },
    );
  });

  /** The caller's alerts, newest first (with product name, variant title, image and state). */
  app.get(
    '/api/alerts',
    { schema: { response: { 200: StockAlerts } }, config: { access: 'user' } },
    async (request) => alerts.list(requireUser(request)),
  );

  /** The caller's alert removed (any state); 404 for an id that is not theirs. Answers the list left. */
  app.delete(
    '/api/alerts/:id',
    { schema: { params: IdParams, response: { 200: StockAlerts } }, config: { access: 'user' } },
    async (request) => alerts.remove(requireUser(request), request.params.id),
  );

  /** Sold-out variants by waiting alerts (confirmed, not yet mailed), the top 50. */
  app.get(
    '/api/alerts/admin/most-wanted',
    { schema: { response: { 200: MostWanted } }, config: { access: 'admin' } },
    async () => alerts.mostWanted(),
  );
}

import {
  IdParams,
  Order,
  PaymentUpdateBody,
  PayPalCaptureBody,
  PayPalOrderResponse,
  RefundBody,
  ShopConfigResponse,
} from '@pixel-vault/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import type { PaymentsService } from './payments.service.js';
import type { RefundsService } from './refunds.service.js';

const WebhookAnswer = z.object({ received: z.boolean() });

export async function paymentsRoutes(
  app: App,
  {
    payments,
    refunds,
    shopCountry,
  }: {
    payments: PaymentsService;
    refunds: RefundsService;
    /** SHOP_COUNTRY, answered beside the payment settings for the checkout's country list (issue 30). */
    shopCountry: string;
  },
) {
  // Issue 12: the customer cancels their order (a paid one is refunded in full); an admin refunds.
  app.post(
    '/api/orders/:id/cancel',
    { schema: { params: IdParams, response: { 200: Order } }, config: { access: 'user' } },
    async (request) => refunds.cancel(requireUser(request), request.params.id),
  );

  app.post(
    '/api/orders/:id/refund',
    {
      schema: { params: IdParams, body: RefundBody, response: { 200: Order } },
      config: { access: 'admin' },
    },
    async (request) => refunds.refund(requireUser(request), request.params.id, request.body),
  );

  // Spec section 7: "response is the payment provider client id": the id itself, as text ('demo' in
  // demo mode). Our web app reads the same id, with the mode and the shop's country, from /api/config.
  const paypalIdSchema = {
    summary: 'The PayPal client id, as text',
    doc: {
      answers: { 200: { mediaType: 'text/plain', description: "The client id ('demo' in demo mode)" } },
    },
  };
  app.get(
    '/api/config/paypal',
    { schema: paypalIdSchema, config: { access: 'public' } },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(payments.config().clientId),
  );

  app.get(
    '/api/config',
    { schema: { response: { 200: ShopConfigResponse } }, config: { access: 'public' } },
    async () => ({ ...payments.config(), shopCountry }),
  );

  app.put(
    '/api/orders/:id/payment',
    {
      schema: { params: IdParams, body: PaymentUpdateBody, response: { 200: Order } },
      config: { access: 'user' },
    },
    async (request) =>
      payments.updatePayment({ user: requireUser(request), ip: request.ip }, request.params.id, request.body),
  );

  app.post(
    '/api/orders/:id/paypal',
    { schema: { params: IdParams, response: { 200: PayPalOrderResponse } }, config: { access: 'user' } },
    async (request) => payments.createProviderOrder(requireUser(request), request.params.id),
  );

  app.post(
    '/api/orders/:id/paypal/capture',
    {
      schema: { params: IdParams, body: PayPalCaptureBody, response: { 200: Order } },
      config: { access: 'user' },
    },
    async (request) => payments.capture(requireUser(request), request.params.id, request.body.paypalOrderId),
  );

  // The signature covers the exact bytes PayPal sent, so this route keeps the raw body.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, typeof body === 'string' ? body : body.toString('utf8'));
    });
    scope.post(
      '/api/payments/paypal/webhook',
      {
        schema: {
          body: z.string({ message: 'Expected a JSON body' }).max(256 * 1024),
          response: { 200: WebhookAnswer },
        },
        config: { access: 'public' },
      },
      async (request) => {
        if (request.body.includes('\u0000')) throw new AppError(400, 'Text must not contain NUL characters');
        await payments.webhook({ headers: request.headers, rawBody: request.body });
        return { received: true };
      },
    );
  });
}

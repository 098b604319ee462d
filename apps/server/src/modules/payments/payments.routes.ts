import {
  IdParams,
  Order,
  PayPalCaptureBody,
  PayPalConfigResponse,
  PayPalOrderResponse,
} from '@pixel-vault/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import type { PaymentsService } from './payments.service.js';

const WebhookAnswer = z.object({ received: z.boolean() });

export async function paymentsRoutes(app: App, { payments }: { payments: PaymentsService }) {
  app.get(
    '/api/config/paypal',
    { schema: { response: { 200: PayPalConfigResponse } }, config: { access: 'public' } },
    async () => payments.config(),
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

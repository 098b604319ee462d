import {
  CreateWebhookBody,
  IdParams,
  MessageResponse,
  UpdateWebhookBody,
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointsResponse,
} from '@pixel-vault/shared';
import type { App } from '../../lib/http.js';
import type { WebhooksService } from './webhooks.service.js';

export const WEBHOOKS_ADMIN_PATH = '/api/webhooks/admin';

const admin = { access: 'admin' as const };

/** Issue 37: the admin's webhook endpoints and their delivery log (docs/integrations.md). */
export async function webhooksRoutes(app: App, { webhooks }: { webhooks: WebhooksService }) {
  app.get(
    WEBHOOKS_ADMIN_PATH,
    { schema: { response: { 200: WebhookEndpointsResponse } }, config: admin },
    async () => ({ endpoints: await webhooks.list() }),
  );

  app.post(
    WEBHOOKS_ADMIN_PATH,
    { schema: { body: CreateWebhookBody, response: { 201: WebhookEndpointWithSecret } }, config: admin },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.body)),
  );

  app.get(
    `${WEBHOOKS_ADMIN_PATH}/:id`,
    { schema: { params: IdParams, response: { 200: WebhookEndpoint } }, config: admin },
    async (request) => webhooks.get(request.params.id),
  );

  app.put(
    `${WEBHOOKS_ADMIN_PATH}/:id`,
    {
      schema: {
        params: IdParams,
        body: UpdateWebhookBody,
        // With rotateSecret, the new secret (once); else the endpoint as GET answers it.
        response: { 200: WebhookEndpointWithSecret.or(WebhookEndpoint) },
      },
      config: admin,
    },
    async (request) => webhooks.update(request.params.id, request.body),
  );

  app.delete(
    `${WEBHOOKS_ADMIN_PATH}/:id`,
    { schema: { params: IdParams, response: { 200: MessageResponse } }, config: admin },
    async (request) => {
      await webhooks.remove(request.params.id);
      return { message: 'Webhook endpoint deleted' };
    },
  );

  app.get(
    `${WEBHOOKS_ADMIN_PATH}/:id/secret`,
    { schema: { params: IdParams, response: { 200: WebhookEndpointWithSecret } }, config: admin },
    async (request) => webhooks.secret(request.params.id),
  );

  app.post(
    `${WEBHOOKS_ADMIN_PATH}/:id/test`,
    { schema: { params: IdParams, response: { 202: WebhookDelivery } }, config: admin },
    async (request, reply) => reply.code(202).send(await webhooks.sendTest(request.params.id)),
  );

  app.get(
    `${WEBHOOKS_ADMIN_PATH}/:id/deliveries`,
    {
      schema: {
        params: IdParams,
        querystring: WebhookDeliveriesQuery,
        response: { 200: WebhookDeliveriesPage },
      },
      config: admin,
    },
    async (request) => webhooks.deliveries(request.params.id, request.query),
  );

  app.post(
    `${WEBHOOKS_ADMIN_PATH}/:id/deliveries/:deliveryId/retry`,
    { schema: { params: WebhookDeliveryParams, response: { 200: WebhookDelivery } }, config: admin },
    async (request) => webhooks.retry(request.params.id, request.params.deliveryId),
  );
}

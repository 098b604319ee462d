import type {
  CreateWebhookBody,
  MessageResponse,
  UpdateWebhookBody,
  WebhookDeliveriesPage,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointsResponse,
  WebhookEndpointWithSecret,
} from '@pixel-vault/shared';
import { api } from '../../app/api';

/** One endpoint's delivery log: a status (or every delivery), a page. */
export interface WebhookDeliveriesArgs {
  id: string;
  status?: WebhookDeliveryStatus;
  page?: number;
  limit?: number;
}

const LIST = { type: 'Webhook' as const, id: 'LIST' };
const deliveriesTag = (id: string) => ({ type: 'WebhookDelivery' as const, id });
const path = (id: string) => `api/webhooks/admin/${encodeURIComponent(id)}`;

/**
 * Issue 37: the admin's side of outgoing webhooks (docs/integrations.md): the endpoints, their secret
 * (answered whole only on creation, rotation and an explicit reveal, and never kept in the cache: those
 * are mutations), a test event, and each endpoint's delivery log with "retry now". A delivery changes
 * the endpoint's pending count and failure state, so every move reads the list again. The tags are
 * added here, as the promotions' and trade-ins' are.
 */
export const adminWebhooksApi = api
  .enhanceEndpoints({ addTagTypes: ['Webhook', 'WebhookDelivery'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getWebhooks: build.query<WebhookEndpointsResponse, void>({
        query: () => 'api/webhooks/admin',
        providesTags: [LIST],
      }),
      /** 201 with the whole secret: shown once. */
      createWebhook: build.mutation<WebhookEndpointWithSecret, CreateWebhookBody>({
        query: (body) => ({ url: 'api/webhooks/admin', method: 'POST', body }),
        invalidatesTags: [LIST],
      }),
      /** Only what is sent changes; with `rotateSecret` the answer carries the new secret. */
      updateWebhook: build.mutation<
        WebhookEndpoint | WebhookEndpointWithSecret,
        { id: string; body: UpdateWebhookBody }
      >({
        query: ({ id, body }) => ({ url: path(id), method: 'PUT', body }),
        invalidatesTags: [LIST],
      }),
      deleteWebhook: build.mutation<MessageResponse, string>({
        query: (id) => ({ url: path(id), method: 'DELETE' }),
        invalidatesTags: (_result, _error, id) => [LIST, deliveriesTag(id)],
      }),
      /** A GET, but asked for by a click and not cached: the secret stays out of the store. */
      revealWebhookSecret: build.mutation<WebhookEndpointWithSecret, string>({
        query: (id) => `${path(id)}/secret`,
      }),
      /** 202 with the delivery it queued (the worker sends it: its outcome shows in the log). */
      sendWebhookTest: build.mutation<WebhookDelivery, string>({
        query: (id) => ({ url: `${path(id)}/test`, method: 'POST', body: {} }),
        invalidatesTags: (_result, _error, id) => [LIST, deliveriesTag(id)],
      }),
      /** Newest first. */
      getWebhookDeliveries: build.query<WebhookDeliveriesPage, WebhookDeliveriesArgs>({
        query: ({ id, status, page, limit }) => ({
          url: `${path(id)}/deliveries`,
          params: {
            ...(status ? { status } : {}),
            page: page && page > 1 ? page : 1,
            ...(limit ? { limit } : {}),
          },
        }),
        providesTags: (_result, _error, { id }) => [deliveriesTag(id)],
      }),
      retryWebhookDelivery: build.mutation<WebhookDelivery, { id: string; deliveryId: string }>({
        query: ({ id, deliveryId }) => ({
          url: `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
          method: 'POST',
          body: {},
        }),
        invalidatesTags: (_result, _error, { id }) => [LIST, deliveriesTag(id)],
      }),
    }),
  });

export const {
  useGetWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRevealWebhookSecretMutation,
  useSendWebhookTestMutation,
  useGetWebhookDeliveriesQuery,
  useRetryWebhookDeliveryMutation,
} = adminWebhooksApi;

/**
 * Reads the endpoints again: the delivery log calls it when the deliveries it watched were tried, so
 * the list's pending count and "failing since" follow what the worker did.
 */
export const refreshWebhooksList = () => adminWebhooksApi.util.invalidateTags([LIST]);

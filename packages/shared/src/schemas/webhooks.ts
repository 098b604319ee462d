import { z } from 'zod';
import { Id, pagingQuery } from './common.js';

/**
 * Issue 37: outgoing webhooks (docs/integrations.md). What an admin can subscribe an endpoint to.
 * Each is written by the database in the transaction of the change (an outbox, like mail), so an
 * event is never lost to a crash and never sent for a change that rolled back.
 */
export const WEBHOOK_EVENTS = [
  'order.placed',
  'order.paid',
  'order.cancelled',
  'order.refunded',
  'order.delivered',
  'product.low_stock',
  'product.back_in_stock',
  'tradein.accepted',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS, { message: 'Unknown event' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The event "Send a test event" sends: to one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What each event means, for the admin's form and the docs. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'order.placed': 'An order was placed (not paid yet)',
  'order.paid': 'An order was paid',
  'order.cancelled': 'An order was cancelled',
  'order.refunded': 'Money was refunded on an order (in full or in part)',
  'order.delivered': 'An order was marked delivered',
  'product.low_stock': 'A variant fell to the low-stock threshold or below',
  'product.back_in_stock': 'A sold-out variant is in stock again',
  'tradein.accepted': 'A trade-in was accepted and credited',
};

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** At most this many endpoints per shop. */
export const WEBHOOK_ENDPOINTS_MAX = 20;

/**
 * Standard Webhooks secrets: `whsec_` and the base64 of 24 to 64 random bytes. The server makes one
 * when none is given.
 */
export const WebhookSecret = z
  .string({ message: 'secret must be text' })
  .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, {
    message: 'secret must be whsec_ followed by the base64 of 24 to 64 random bytes',
  });

/**
 * The address events are POSTed to: https (http only to 127.0.0.1 or localhost, and only when
 * WEBHOOKS_ALLOW_LOCAL=true, which the server checks; it also refuses hosts that resolve to private,
 * loopback or link-local addresses, at save time and at every delivery).
 */
export const WebhookUrl = z
  .string({ message: 'url must be text' })
  .trim()
  .min(1, { message: 'url is required' })
  .max(WEBHOOK_URL_MAX, { message: `url is at most ${WEBHOOK_URL_MAX} characters` })
  .refine((value) => URL.canParse(value), { message: 'url must be an absolute URL' });

const Events = z
  .array(WebhookEventType, { message: 'events must be a list' })
  .min(1, { message: 'Choose at least one event' })
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)]);

const Description = z
  .string({ message: 'description must be text' })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, { message: `description is at most ${WEBHOOK_DESCRIPTION_MAX} characters` });

/** POST /api/webhooks/admin */
export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  events: Events,
  secret: WebhookSecret.optional(),
  description: Description.optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/**
 * PUT /api/webhooks/admin/:id: only what is sent changes. `enabled: true` turns a disabled endpoint
 * back on (its failure window starts again); `rotateSecret: true` makes a new secret, answered once.
 */
export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  description: Description.optional(),
  enabled: z.boolean({ message: 'enabled must be true or false' }).optional(),
  rotateSecret: z.boolean({ message: 'rotateSecret must be true or false' }).optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookEndpoint = z.object({
  _id: Id,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** Why it was turned off: null while enabled, else e.g. "Failed for 24 hours" or "Turned off by an admin". */
  disabledReason: z.string().nullable(),
  /** When deliveries started failing without a success since (null when the last one succeeded). */
  failingSince: z.string().nullable(),
  /** The last 4 characters of the secret, to tell secrets apart. */
  secretHint: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Deliveries waiting for a try or a retry. */
  pending: z.number(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** POST (201), PUT with rotateSecret, and GET .../:id/secret: the endpoint with its whole secret. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointsResponse = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookEndpointsResponse = z.infer<typeof WebhookEndpointsResponse>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const WebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES, { message: 'Unknown status' });
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One event for one endpoint, however many attempts it took. */
export const WebhookDelivery = z.object({
  _id: Id,
  /** The `webhook-id` header: the same on every attempt, so a receiver can drop repeats. */
  eventId: z.string(),
  eventType: z.string(),
  status: WebhookDeliveryStatus,
  attempts: z.number(),
  /** The receiver's HTTP status at the last attempt (null: none yet, or no answer: timeout, refused). */
  responseStatus: z.number().nullable(),
  /** What went wrong at the last attempt, for a person ("Timed out after 10 s", "HTTP 500"). */
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** When the next try is due (null once it succeeded or failed for good). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  /** The JSON body sent (the same bytes on every attempt). */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** GET /api/webhooks/admin/:id/deliveries */
export const WebhookDeliveriesQuery = z.object({
  status: WebhookDeliveryStatus.optional(),
  ...pagingQuery(20, 100),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

export const WebhookDeliveriesPage = z.object({
  deliveries: z.array(WebhookDelivery),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPage>;

export const WebhookDeliveryParams = z.object({ id: Id, deliveryId: Id });
export type WebhookDeliveryParams = z.infer<typeof WebhookDeliveryParams>;

/**
 * What every delivery's body is (Standard Webhooks): the event's type, when it happened, and its data:
 * - order.*: the order as GET /api/orders/:id answers it (spec section 7), as it was when the event
 *   was first sent (normally within a second of the change; every attempt sends those same bytes);
 * - product.*: { productId, variantId, sku, name, stock, threshold? };
 * - tradein.accepted: the trade-in as GET /api/tradeins/:id answers it;
 * - webhook.test: { endpointId, message }.
 */
export const WebhookPayload = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@pixel-vault/shared';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema/index.js';

/** The endpoint as the admin reads it: never its secret (only GET .../secret and a creation answer it). */
export function endpointDto(row: WebhookEndpointRow, pending: number): WebhookEndpoint {
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    secretHint: row.secretHint,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    pending,
  };
}

export interface DeliveryWithEvent extends WebhookDeliveryRow {
  eventType: string;
  payload: string | null;
}

/**
 * One line of the delivery log. `payload` is empty until the first attempt built it (events are
 * written by the database, their body by the worker: webhooks.payload.ts); `nextAttemptAt` is null
 * once the delivery succeeded or failed for good.
 */
export function deliveryDto(row: DeliveryWithEvent): WebhookDelivery {
  return {
    _id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload ?? '',
  };
}

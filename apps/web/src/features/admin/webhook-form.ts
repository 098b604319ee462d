import {
  dateTimeFormat,
  WEBHOOK_EVENTS,
  type UpdateWebhookBody,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@pixel-vault/shared';

/**
 * The endpoint form as typed (issue 37), turned into the API's body by `createInput` / `updateInput`
 * and checked there by the shared schemas (CreateWebhookBody, UpdateWebhookBody).
 */
export interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
  /** Only on creation: the admin's own `whsec_…` secret; empty lets the server make one. */
  secret: string;
}

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = { url: '', description: '', events: [], secret: '' };

export function formFromEndpoint(endpoint: WebhookEndpoint): WebhookFormValues {
  return { url: endpoint.url, description: endpoint.description, events: [...endpoint.events], secret: '' };
}

/** The events ticked, in the shared list's order whichever box was ticked first. */
export function toggleEvent(
  events: readonly WebhookEventType[],
  event: WebhookEventType,
  checked: boolean,
): WebhookEventType[] {
  return WEBHOOK_EVENTS.filter((e) => (e === event ? checked : events.includes(e)));
}

/** POST /api/webhooks/admin's input: an empty description or secret is left out. */
export function createInput(values: WebhookFormValues): Record<string, unknown> {
  return {
    url: values.url.trim(),
    events: values.events,
    ...(values.description.trim() ? { description: values.description } : {}),
    ...(values.secret.trim() ? { secret: values.secret.trim() } : {}),
  };
}

/** PUT /api/webhooks/admin/:id's input: only what differs from the endpoint as read; `{}` for nothing. */
export function updateInput(values: WebhookFormValues, original: WebhookEndpoint): UpdateWebhookBody {
  const input: UpdateWebhookBody = {};
  if (values.url.trim() !== original.url) input.url = values.url.trim();
  if (values.description.trim() !== original.description) input.description = values.description;
  const sameEvents =
    values.events.length === original.events.length &&
    values.events.every((e) => original.events.includes(e));
  if (!sameEvents) input.events = values.events;
  return input;
}

/** How an endpoint is named in its buttons and messages: its description, else its address. */
export function endpointName(endpoint: Pick<WebhookEndpoint, 'url' | 'description'>): string {
  return endpoint.description.trim() || endpoint.url;
}

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** "Nov 27, 2026, 10:00:05 AM": a moment of the log in the admin's own time zone ('' if unreadable). */
export function momentText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/** The delivery's JSON body laid out for reading; as sent when it is not JSON. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus } from '@pixel-vault/shared';

/**
 * Issue 37: where the shop sends its events (docs/integrations.md). The secret signs every delivery
 * (Standard Webhooks); it is kept sealed with a key derived from JWT_SECRET, like a 2FA secret, since
 * the shop needs it back to sign.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives (shared WEBHOOK_EVENTS). */
    events: text('events').array().notNull(),
    /** The sealed `whsec_...` secret. */
    secretBox: text('secret_box').notNull(),
    /** Its last 4 characters, shown to tell secrets apart. */
    secretHint: text('secret_hint').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** The first failed attempt since the last success: 24 hours later the endpoint is turned off. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('webhook_endpoints_url_length', sql`char_length(${t.url}) <= 2000`),
    check('webhook_endpoints_description_length', sql`char_length(${t.description}) <= 200`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One thing that happened, written by the database in the transaction of the change (migration
 * triggers) when at least one enabled endpoint subscribes to its type. `subject` holds the facts the
 * trigger knew (ids, the stock it saw); `payload` is the body every endpoint is sent, built once, at the
 * first delivery attempt, and never changed after, so retries send the same bytes.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    subject: jsonb('subject').$type<Record<string, unknown>>().notNull(),
    payload: text('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/**
 * One event for one endpoint: the outbox row a worker claims (FOR UPDATE SKIP LOCKED, with a lease,
 * as mail does) and the delivery log the admin reads. Unique per event and endpoint, so an event can
 * be sent to an endpoint by one row only, and a succeeded row is never sent again.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_unique').on(t.eventId, t.endpointId),
    check('webhook_deliveries_status_valid', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    // The worker's query: due pending rows, oldest first.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // The admin's log: an endpoint's deliveries, newest first.
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * Settings of the running shop that the database's own code must know (migration 0030's triggers):
 * one row (id = 1), written by every instance at startup from its configuration (upsert). A row, not a
 * function re-created at startup: several instances starting at once would race on the catalog
 * (CREATE OR REPLACE FUNCTION fails with "tuple concurrently updated"), an upsert just takes turns.
 */
export const shopSettings = pgTable(
  'shop_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** LOW_STOCK_THRESHOLD: product.low_stock fires when a variant's stock falls to it or below. */
    lowStockThreshold: integer('low_stock_threshold').notNull().default(3),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('shop_settings_one_row', sql`${t.id} = 1`),
    check('shop_settings_threshold_non_negative', sql`${t.lowStockThreshold} >= 0`),
  ],
);

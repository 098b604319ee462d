import { randomBytes } from 'node:crypto';
import {
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveriesPage,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@pixel-vault/shared';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import {
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageTotals, windowTotal } from '../../lib/paging.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type DeliveryWithEvent, deliveryDto, endpointDto } from './webhooks.dto.js';
import { buildPayload } from './webhooks.payload.js';

/**
 * The admin's side of webhooks (issue 37): endpoints and their delivery log. Events themselves are
 * written by the database (migration 0030), deliveries sent by webhooks.worker.ts.
 */
export interface WebhooksService {
  list(): Promise<WebhookEndpoint[]>;
  create(body: CreateWebhookBody): Promise<WebhookEndpointWithSecret>;
  get(id: string): Promise<WebhookEndpoint>;
  update(id: string, body: UpdateWebhookBody): Promise<WebhookEndpoint | WebhookEndpointWithSecret>;
  remove(id: string): Promise<void>;
  secret(id: string): Promise<WebhookEndpointWithSecret>;
  sendTest(id: string): Promise<WebhookDelivery>;
  deliveries(id: string, query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesPage>;
  retry(id: string, deliveryId: string): Promise<WebhookDelivery>;
}

export const endpointNotFound = () => new AppError(404, 'Webhook endpoint not found', 'NOT_FOUND');
const deliveryNotFound = () => new AppError(404, 'Webhook delivery not found', 'NOT_FOUND');

/** Standard Webhooks: `whsec_` and the base64 of random bytes (32 here). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const pendingCount = sql<number>`(select count(*) from ${webhookDeliveries} d
  where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'pending')`.mapWith(Number);

const deliveryColumns = {
  ...getTableColumns(webhookDeliveries),
  eventType: webhookEvents.type,
  payload: webhookEvents.payload,
};

/** Fails an endpoint's waiting deliveries (it was turned off): they are not sent later in a flood. */
export async function failPending(tx: Executor, endpointId: string, why: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: why })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}

export function createWebhooksService(deps: {
  db: Database;
  box: SecretBox;
  /** Refuses (WebhookAddressError → 400) a URL the shop must not send to (webhooks.address.ts). */
  checkUrl: (url: string) => Promise<void>;
  /** A test event was queued: send it now. */
  kick: () => void;
  clock: () => Date;
}): WebhooksService {
  const { db, box, clock } = deps;

  async function row(ex: Executor, id: string): Promise<WebhookEndpointRow> {
    const [found] = await ex.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    if (!found) throw endpointNotFound();
    return found;
  }

  async function answer(id: string): Promise<WebhookEndpoint> {
    const [found] = await db
      .select({ ...getTableColumns(webhookEndpoints), pending: pendingCount })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id));
    if (!found) throw endpointNotFound();
    const { pending, ...endpoint } = found;
    return endpointDto(endpoint, pending);
  }

  const withSecret = (endpoint: WebhookEndpoint, secret: string): WebhookEndpointWithSecret => ({
    ...endpoint,
    secret,
  });

  async function delivery(endpointId: string, deliveryId: string): Promise<DeliveryWithEvent> {
    const [found] = await db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
    if (!found) throw deliveryNotFound();
    return found;
  }

  return {
    async list() {
      const rows = await db
        .select({ ...getTableColumns(webhookEndpoints), pending: pendingCount })
        .from(webhookEndpoints)
        .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
      return rows.map(({ pending, ...endpoint }) => endpointDto(endpoint, pending));
    },

    async create(body) {
      await deps.checkUrl(body.url);
      const secret = body.secret ?? newWebhookSecret();
      const id = await db.transaction(async (tx) => {
        // Two admins saving the 20th endpoint at once: the second waits, counts 20 and is refused.
        await tx.execute(sql`lock table ${webhookEndpoints} in share row exclusive mode`);
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(webhookEndpoints);
        if (n >= WEBHOOK_ENDPOINTS_MAX) {
          throw new AppError(
            409,
            `At most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: delete one first`,
            'WEBHOOK_LIMIT',
          );
        }
        const now = clock();
        const [created] = await tx
          .insert(webhookEndpoints)
          .values({
            url: body.url,
            events: body.events,
            description: body.description ?? '',
            secretBox: box.seal(secret),
            secretHint: secret.slice(-4),
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: webhookEndpoints.id });
        if (!created) throw new Error('webhook endpoint insert returned no row');
        return created.id;
      });
      return withSecret(await answer(id), secret);
    },

    get: answer,

    async update(id, body) {
      if (body.url !== undefined) await deps.checkUrl(body.url);
      const secret = body.rotateSecret ? newWebhookSecret() : undefined;
      await db.transaction(async (tx) => {
        const current = await row(tx, id);
        const now = clock();
        const turnedOn = body.enabled === true && !current.enabled;
        const turnedOff = body.enabled === false && current.enabled;
        await tx
          .update(webhookEndpoints)
          .set({
            ...(body.url !== undefined ? { url: body.url } : {}),
            ...(body.events !== undefined ? { events: body.events } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(secret !== undefined ? { secretBox: box.seal(secret), secretHint: secret.slice(-4) } : {}),
            // Back on: its 24-hour failure window starts again.
            ...(turnedOn ? { enabled: true, disabledReason: null, failingSince: null } : {}),
            ...(turnedOff ? { enabled: false, disabledReason: 'Turned off by an admin' } : {}),
            updatedAt: now,
          })
          .where(eq(webhookEndpoints.id, id));
        if (turnedOff) await failPending(tx, id, 'The endpoint was turned off');
      });
      const endpoint = await answer(id);
      return secret === undefined ? endpoint : withSecret(endpoint, secret);
    },

    async remove(id) {
      const removed = await db
        .delete(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id))
        .returning({ id: webhookEndpoints.id });
      if (removed.length === 0) throw endpointNotFound();
      // Events no endpoint is left to receive go with it.
      await db.execute(
        sql`delete from ${webhookEvents} e where not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id)`,
      );
    },

    async secret(id) {
      const found = await row(db, id);
      let secret: string;
      try {
        secret = box.open(found.secretBox);
      } catch {
        throw new AppError(
          409,
          'This secret cannot be read any more (the server key changed): rotate it to get a new one',
          'WEBHOOK_SECRET_UNREADABLE',
        );
      }
      return withSecret(await answer(id), secret);
    },

    async sendTest(id) {
      const deliveryId = await db.transaction(async (tx) => {
        await row(tx, id);
        const at = clock();
        const data = {
          endpointId: id,
          message: 'A test event from Pixel Vault: your endpoint is reachable.',
        };
        const [event] = await tx
          .insert(webhookEvents)
          .values({
            type: WEBHOOK_TEST_EVENT,
            subject: data,
            payload: buildPayload(WEBHOOK_TEST_EVENT, at, data),
            createdAt: at,
          })
          .returning({ id: webhookEvents.id });
        if (!event) throw new Error('webhook event insert returned no row');
        // Sent to this endpoint even while it is turned off: that is how an admin checks it before
        // turning it back on.
        const [created] = await tx
          .insert(webhookDeliveries)
          .values({ eventId: event.id, endpointId: id, nextAttemptAt: at, createdAt: at })
          .returning({ id: webhookDeliveries.id });
        if (!created) throw new Error('webhook delivery insert returned no row');
        return created.id;
      });
      deps.kick();
      return deliveryDto(await delivery(id, deliveryId));
    },

    async deliveries(id, { status, page, limit }) {
      await row(db, id);
      const where = and(
        eq(webhookDeliveries.endpointId, id),
        status ? eq(webhookDeliveries.status, status) : undefined,
      );
      const rows = await db
        .select({ ...deliveryColumns, total: windowTotal() })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit)
        .offset((page - 1) * limit);
      const { total, totalPage } = await pageTotals(db, rows, { from: webhookDeliveries, where }, limit);
      return {
        deliveries: rows.map(({ total: _total, ...r }) => deliveryDto(r)),
        page,
        pages: totalPage,
        total,
      };
    },

    async retry(id, deliveryId) {
      const endpoint = await row(db, id);
      const current = await delivery(id, deliveryId);
      if (current.status === 'succeeded') {
        throw new AppError(409, 'This delivery already succeeded', 'WEBHOOK_DELIVERED');
      }
      if (!endpoint.enabled && current.eventType !== WEBHOOK_TEST_EVENT) {
        throw new AppError(409, 'Turn the endpoint on before retrying its deliveries', 'WEBHOOK_DISABLED');
      }
      // Due now, for one more attempt at least: a failed one goes back to pending, and fails again
      // after this attempt if its 24 hours are over (webhooks.outcome.ts). Only a row not succeeded
      // is touched, and a worker marks success only on a pending row: never two successes.
      await db
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: clock() })
        .where(and(eq(webhookDeliveries.id, deliveryId), sql`${webhookDeliveries.status} <> 'succeeded'`));
      deps.kick();
      return deliveryDto(await delivery(id, deliveryId));
    },
  };
}

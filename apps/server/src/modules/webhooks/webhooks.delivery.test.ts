import { eq, inArray } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebhookPayload } from '@pixel-vault/shared';
import { webhookDeliveries } from '../../db/schema/index.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { relativeUrls } from '../../lib/urls.js';
import { NO_RATE_LIMITS, TEST_JWT_SECRET, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { type Receiver, createEndpoint, deliveriesOf, startReceiver } from '../../test/webhooks.js';
import { WEBHOOK_SECRET_PURPOSE } from './webhooks.module.js';
import { WEBHOOK_LEASE_MS, createWebhookWorker } from './webhooks.worker.js';

/**
 * Issue 37: deliveries to a real loopback receiver: signed (checked by the standardwebhooks package,
 * an independent implementation), sent exactly once per event and endpoint whatever several workers
 * do, still sent after a crash between the commit and the send, and never through a redirect.
 */
type Auth = { authorization: string };
let ctx: TestContext;
let admin: Auth;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOCAL: 'true' }, app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

/** Another instance's worker on the same database. */
const otherWorker = (clock?: () => Date) =>
  createWebhookWorker({
    db: ctx.db,
    box: createSecretBox(TEST_JWT_SECRET, WEBHOOK_SECRET_PURPOSE),
    publicUrl: relativeUrls,
    allowLocal: true,
    ownerEmail: ctx.config.contactTo,
    adminUrl: undefined,
    mailQueued: () => {},
    log: { warn() {}, error() {} },
    ...(clock ? { clock } : {}),
  });

async function orderOnce(auth: Auth) {
  const product = await insertProduct(ctx.db, { stock: 50 });
  return placeOrder(ctx.app, auth, [{ product: product.id, itemQuantity: 1 }]);
}

describe('a delivery', () => {
  it('is signed as Standard Webhooks says, with the event id and the same bytes as stored', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/signed'),
      events: ['order.placed'],
    });
    const customer = await insertUser(ctx.db);
    const order = await orderOnce(customer.auth);
    await ctx.app.webhooks.worker.drainOnce();
    const [hit, ...more] = receiver.hits('/signed');
    expect(more).toHaveLength(0);
    if (!hit) throw new Error('not delivered');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toBe('PixelVault-Webhooks/1.0');
    const payload = new Webhook(endpoint.secret).verify(
      hit.body,
      hit.headers as Record<string, string>,
    ) as WebhookPayload;
    expect(payload).toMatchObject({ type: 'order.placed', data: { _id: order._id } });
    // A body changed on the way, or another secret, is refused.
    expect(() =>
      new Webhook(endpoint.secret).verify(`${hit.body} `, hit.headers as Record<string, string>),
    ).toThrow();
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => new Webhook(other).verify(hit.body, hit.headers as Record<string, string>)).toThrow();

    const [row] = await deliveriesOf(ctx.db, endpoint._id);
    expect(hit.headers['webhook-id']).toBe(row?.eventId);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200, lastError: null });
    expect(Number(hit.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${endpoint._id}`, headers: admin });
  });

  it('reaches each endpoint exactly once per event while three workers race through a rush', async () => {
    const a = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/rush-a'),
      events: ['order.placed'],
    });
    const b = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/rush-b'),
      events: ['order.placed'],
    });
    const customers = await Promise.all(Array.from({ length: 10 }, () => insertUser(ctx.db)));
    const placed = await Promise.all(
      Array.from({ length: 30 }, (_, i) => orderOnce(customers[i % customers.length]!.auth)),
    );
    const workers = [ctx.app.webhooks.worker, otherWorker(), otherWorker()];
    const drainAll = async (worker: (typeof workers)[number]) => {
      for (let idle = 0; idle < 2;) {
        const { succeeded, retrying, failed } = await worker.drainOnce();
        idle = succeeded + retrying + failed === 0 ? idle + 1 : 0;
      }
    };
    await Promise.all(workers.map(drainAll));

    for (const [endpoint, path] of [
      [a, '/rush-a'],
      [b, '/rush-b'],
    ] as const) {
      const ids = receiver.hits(path).map((h) => h.headers['webhook-id']);
      expect(ids).toHaveLength(placed.length);
      expect(new Set(ids).size).toBe(placed.length);
      const orderIds = receiver.hits(path).map((h) => (JSON.parse(h.body) as WebhookPayload).data._id);
      expect(new Set(orderIds)).toEqual(new Set(placed.map((o) => o._id)));
      const rows = await deliveriesOf(ctx.db, endpoint._id);
      expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    }
    // Both endpoints got the same bytes for an event: the payload is built once.
    const bodyOf = (path: string, id: string | string[] | undefined) =>
      receiver.hits(path).find((h) => h.headers['webhook-id'] === id)?.body;
    const someId = receiver.hits('/rush-a')[0]?.headers['webhook-id'];
    expect(bodyOf('/rush-b', someId)).toBe(bodyOf('/rush-a', someId));
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${a._id}`, headers: admin });
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${b._id}`, headers: admin });
  });

  it('is still sent after a crash between the commit and the send, by a new app on the database', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/crash'),
      events: ['order.placed'],
    });
    const first = await ctx.newApp();
    const customer = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db, { stock: 5 });
    const order = await placeOrder(first, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    // Gone before its worker ran (it never listened: nothing was sent).
    await first.close();
    expect(receiver.hits('/crash')).toHaveLength(0);

    const second = await ctx.newApp();
    await second.webhooks.worker.drainOnce();
    const hits = receiver.hits('/crash');
    expect(hits).toHaveLength(1);
    expect((JSON.parse(hits[0]!.body) as WebhookPayload).data._id).toBe(order._id);
    await second.close();
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${endpoint._id}`, headers: admin });
  });

  it('is sent by another worker once a dead worker’s lease is over, not before', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/lease'),
      events: ['order.placed'],
    });
    const customer = await insertUser(ctx.db);
    await orderOnce(customer.auth);
    const [row] = await deliveriesOf(ctx.db, endpoint._id);
    // As a worker's claim leaves it, and then that worker died (kill -9) before sending.
    const claimedAt = new Date();
    await ctx.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(claimedAt.getTime() + WEBHOOK_LEASE_MS) })
      .where(eq(webhookDeliveries.id, row!.id));
    expect(await otherWorker(() => claimedAt).drainOnce()).toEqual({ succeeded: 0, retrying: 0, failed: 0 });
    const later = new Date(claimedAt.getTime() + WEBHOOK_LEASE_MS + 1000);
    expect((await otherWorker(() => later).drainOnce()).succeeded).toBe(1);
    expect(receiver.hits('/lease')).toHaveLength(1);
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${endpoint._id}`, headers: admin });
  });

  it('does not follow a redirect: a failure, and the target is never asked', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/moved'),
      events: ['order.placed'],
    });
    receiver.answers.push({ redirect: receiver.url('/target'), status: 302 });
    const customer = await insertUser(ctx.db);
    await orderOnce(customer.auth);
    await ctx.app.webhooks.worker.drainOnce();
    expect(receiver.hits('/moved')).toHaveLength(1);
    expect(receiver.hits('/target')).toHaveLength(0);
    const rows = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [endpoint._id]));
    expect(rows[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: 302,
      lastError: 'Redirects are not followed (HTTP 302)',
    });
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${endpoint._id}`, headers: admin });
  });

  it('is sent at once by a listening app when an admin sends a test event', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/live'),
      events: ['order.paid'],
    });
    const live = await ctx.newApp();
    await live.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await live.inject({
        method: 'POST',
        url: `/api/webhooks/admin/${endpoint._id}/test`,
        headers: admin,
      });
      expect(res.statusCode).toBe(202);
      await vi.waitFor(() => expect(receiver.hits('/live')).toHaveLength(1), { timeout: 5000, interval: 20 });
    } finally {
      await live.close();
    }
    await ctx.app.inject({ method: 'DELETE', url: `/api/webhooks/admin/${endpoint._id}`, headers: admin });
  });
});

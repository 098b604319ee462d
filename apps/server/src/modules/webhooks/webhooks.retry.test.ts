import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '@pixel-vault/shared';
import { mailOutbox } from '../../db/schema/index.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { relativeUrls } from '../../lib/urls.js';
import { NO_RATE_LIMITS, TEST_JWT_SECRET, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import {
  type Receiver,
  createEndpoint,
  deliveriesOf,
  movableClock,
  startReceiver,
} from '../../test/webhooks.js';
import { WEBHOOK_SECRET_PURPOSE } from './webhooks.module.js';
import { BACKOFF_MS, DISABLED_REASON, RETRY_WINDOW_MS, nextTry } from './webhooks.outcome.js';
import { createWebhookWorker } from './webhooks.worker.js';

/**
 * Issue 37: retries with exponential backoff for 24 hours after a non-2xx or a timeout, driven by an
 * injected clock; an endpoint failing for 24 hours is turned off and the owner mailed once.
 */
type Auth = { authorization: string };
const HOUR = 3_600_000;
let ctx: TestContext;
let admin: Auth;
let receiver: Receiver;
const clock = movableClock();

beforeAll(async () => {
  ctx = await createTestContext({
    env: { WEBHOOKS_ALLOW_LOCAL: 'true', CONTACT_TO: 'owner@pixelvault.test' },
    app: { limits: NO_RATE_LIMITS, clock: clock.now },
  });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const drain = () => ctx.app.webhooks.worker.drainOnce();
const sendTest = async (endpointId: string) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/webhooks/admin/${endpointId}/test`,
    headers: admin,
  });
  expect(res.statusCode).toBe(202);
};
const endpointOf = async (id: string) =>
  (
    await ctx.app.inject({ method: 'GET', url: `/api/webhooks/admin/${id}`, headers: admin })
  ).json<WebhookEndpoint>();

describe('the backoff', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, and tries last at 24 h, then gives up', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    let at = created;
    const waits: number[] = [];
    for (let attempts = 1; ; attempts += 1) {
      const next = nextTry(created, attempts, at);
      if (next === null) break;
      waits.push(next.getTime() - at.getTime());
      at = next;
    }
    expect(waits.slice(0, 6)).toEqual([...BACKOFF_MS]);
    expect(at.getTime() - created.getTime()).toBe(RETRY_WINDOW_MS);
    expect(waits).toHaveLength(7);
  });
});

describe('retries', () => {
  it('retries after a 500 once the backoff has passed, with the same id and body', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/500'),
      events: ['order.paid'],
    });
    receiver.answers.push(500);
    await sendTest(endpoint._id);
    await drain();
    let [row] = await deliveriesOf(ctx.db, endpoint._id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, lastError: 'HTTP 500' });
    expect(row!.nextAttemptAt.getTime() - clock.now().getTime()).toBe(BACKOFF_MS[0]);
    expect((await endpointOf(endpoint._id)).failingSince).not.toBeNull();

    // Not due yet.
    expect(await drain()).toEqual({ succeeded: 0, retrying: 0, failed: 0 });
    clock.advance(BACKOFF_MS[0]);
    expect((await drain()).succeeded).toBe(1);
    [row] = await deliveriesOf(ctx.db, endpoint._id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 200, lastError: null });
    const hits = receiver.hits('/500');
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['webhook-id']).toBe(hits[0]!.headers['webhook-id']);
    expect(hits[1]!.body).toBe(hits[0]!.body);
    expect(
      Number(hits[1]!.headers['webhook-timestamp']) - Number(hits[0]!.headers['webhook-timestamp']),
    ).toBe(5);
    // A success ends the endpoint's failure window.
    expect((await endpointOf(endpoint._id)).failingSince).toBeNull();
  });

  it('retries after a timeout', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/slow'),
      events: ['order.paid'],
    });
    const worker = createWebhookWorker({
      db: ctx.db,
      box: createSecretBox(TEST_JWT_SECRET, WEBHOOK_SECRET_PURPOSE),
      publicUrl: relativeUrls,
      allowLocal: true,
      ownerEmail: ctx.config.contactTo,
      adminUrl: undefined,
      mailQueued: () => {},
      log: { warn() {}, error() {} },
      clock: clock.now,
      timeoutMs: 300,
    });
    receiver.answers.push('hang');
    await sendTest(endpoint._id);
    expect(await worker.drainOnce()).toEqual({ succeeded: 0, retrying: 1, failed: 0 });
    let [row] = await deliveriesOf(ctx.db, endpoint._id);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: null,
      lastError: 'Timed out after 0.3 s',
    });
    clock.advance(BACKOFF_MS[0]);
    expect(await worker.drainOnce()).toEqual({ succeeded: 1, retrying: 0, failed: 0 });
    [row] = await deliveriesOf(ctx.db, endpoint._id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 200 });
    expect(receiver.hits('/slow')).toHaveLength(2);
  });
});

describe('an endpoint failing for 24 hours', () => {
  it('is turned off, its waiting deliveries failed, the owner mailed once; turning it on starts again', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/down'),
      events: ['order.paid'],
    });
    receiver.fallback = 500;
    try {
      const start = clock.now().getTime();
      await sendTest(endpoint._id);
      // An hour at a time for a day and a bit, with a new event half-way (events keep coming).
      for (let hour = 0; hour <= 26; hour += 1) {
        if (hour === 12) await sendTest(endpoint._id);
        await drain();
        clock.advance(HOUR);
      }
      const off = await endpointOf(endpoint._id);
      expect(off).toMatchObject({ enabled: false, disabledReason: DISABLED_REASON, pending: 0 });
      expect(new Date(off.failingSince!).getTime() - start).toBeLessThan(HOUR);
      const rows = await deliveriesOf(ctx.db, endpoint._id);
      expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
      const mails = await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.toAddress, 'owner@pixelvault.test'),
            eq(mailOutbox.subject, 'A webhook endpoint was turned off'),
          ),
        );
      expect(mails).toHaveLength(1);
      expect(mails[0]!.textBody).toContain(receiver.url('/down'));
      const tries = receiver.hits('/down').length;

      // Turned off: nothing is sent, nothing more mailed.
      clock.advance(24 * HOUR);
      await drain();
      expect(receiver.hits('/down')).toHaveLength(tries);

      const on = await ctx.app.inject({
        method: 'PUT',
        url: `/api/webhooks/admin/${endpoint._id}`,
        headers: admin,
        payload: { enabled: true },
      });
      expect(on.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    } finally {
      receiver.fallback = 200;
    }
  });
});

describe('one event failing for its whole 24 hours', () => {
  /** Drains at each due try until the endpoint's deliveries are all settled (a day and a bit). */
  async function untilSettled(endpointId: string) {
    for (let step = 0; step < 20; step += 1) {
      await drain();
      const rows = await deliveriesOf(ctx.db, endpointId);
      if (rows.every((r) => r.status !== 'pending')) return rows;
      const due = Math.min(
        ...rows.filter((r) => r.status === 'pending').map((r) => r.nextAttemptAt.getTime()),
      );
      clock.advance(Math.max(0, due - clock.now().getTime()));
    }
    throw new Error('the deliveries never settled');
  }
  const offMails = () =>
    ctx.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'A webhook endpoint was turned off'));

  it('turns a quiet endpoint off at its last try, and mails the owner', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/quiet'),
      events: ['order.paid'],
    });
    const mailsBefore = (await offMails()).length;
    receiver.fallback = 500;
    try {
      await sendTest(endpoint._id);
      // The worker's first try comes a moment after the event (its poll), as it does in a shop.
      clock.advance(1000);
      const rows = await untilSettled(endpoint._id);
      expect(rows.map((r) => r.status)).toEqual(['failed']);
      expect(rows[0]!.attempts).toBe(BACKOFF_MS.length + 2);
    } finally {
      receiver.fallback = 200;
    }
    expect(await endpointOf(endpoint._id)).toMatchObject({ enabled: false, disabledReason: DISABLED_REASON });
    expect((await offMails()).length).toBe(mailsBefore + 1);
  });

  it('leaves an endpoint on when other deliveries got through meanwhile', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/picky'),
      events: ['order.paid'],
    });
    const mailsBefore = (await offMails()).length;
    receiver.fallback = 500;
    try {
      await sendTest(endpoint._id);
      await drain();
      // A second event gets through once; the first keeps failing to the end of its day.
      receiver.answers.push(200);
      await sendTest(endpoint._id);
      await drain();
      const rows = await untilSettled(endpoint._id);
      expect(rows.map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
    } finally {
      receiver.fallback = 200;
    }
    expect(await endpointOf(endpoint._id)).toMatchObject({ enabled: true, disabledReason: null });
    expect((await offMails()).length).toBe(mailsBefore);
  });
});

describe('the log', () => {
  it('keeps events 30 days, and longer while one of their deliveries is pending', async () => {
    const endpoint = await createEndpoint(ctx.app, admin, {
      url: receiver.url('/log'),
      events: ['order.paid'],
    });
    await sendTest(endpoint._id);
    await drain();
    receiver.answers.push(500);
    await sendTest(endpoint._id);
    await drain();
    const worker = ctx.app.webhooks.worker;
    clock.advance(29 * 24 * HOUR);
    await worker.pruneOnce();
    const rows = await deliveriesOf(ctx.db, endpoint._id);
    // The one that failed once still waits for its next try (the worker did not run since).
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'succeeded']);
    clock.advance(2 * 24 * HOUR);
    expect(await worker.pruneOnce()).toBeGreaterThanOrEqual(1);
    const left = await deliveriesOf(ctx.db, endpoint._id);
    expect(left.map((r) => r.status)).toEqual(['pending']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  WebhookDeliveriesPage,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointsResponse,
} from '@pixel-vault/shared';
import { WEBHOOK_ENDPOINTS_MAX } from '@pixel-vault/shared';
import { eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { type Receiver, createEndpoint, startReceiver } from '../../test/webhooks.js';

/**
 * Issue 37: the admin's webhook routes: CRUD, validation, admin only, and the URL rules (https, no
 * credentials, no private, loopback or link-local address unless WEBHOOKS_ALLOW_LOCAL=true).
 */
let local: TestContext;
let strict: TestContext;
let admin: { authorization: string };
let strictAdmin: { authorization: string };
let receiver: Receiver;

beforeAll(async () => {
  local = await createTestContext({ env: { WEBHOOKS_ALLOW_LOCAL: 'true' } });
  strict = await createTestContext();
  admin = (await insertUser(local.db, { isAdmin: true })).auth;
  strictAdmin = (await insertUser(strict.db, { isAdmin: true })).auth;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await local.close();
  await strict.close();
});

const path = '/api/webhooks/admin';

describe('endpoints', () => {
  it('creates one with a generated whsec_ secret shown once, lists and reads it without the secret', async () => {
    const made = await createEndpoint(local.app, admin, {
      url: receiver.url(),
      events: ['order.paid', 'order.paid', 'product.low_stock'],
      description: '  Warehouse  ',
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(made.secret.slice(6), 'base64')).toHaveLength(32);
    expect(made).toMatchObject({
      url: receiver.url(),
      events: ['order.paid', 'product.low_stock'],
      description: 'Warehouse',
      enabled: true,
      disabledReason: null,
      failingSince: null,
      secretHint: made.secret.slice(-4),
      pending: 0,
    });
    // Sealed at rest: the database never holds the secret itself.
    const [row] = await local.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, made._id));
    expect(row?.secretBox).not.toContain(made.secret.slice(6, 20));

    const list = await local.app.inject({ method: 'GET', url: path, headers: admin });
    expect(list.statusCode).toBe(200);
    const { endpoints } = list.json<WebhookEndpointsResponse>();
    expect(endpoints.map((e) => e._id)).toContain(made._id);
    expect(list.body).not.toContain(made.secret);

    const one = await local.app.inject({ method: 'GET', url: `${path}/${made._id}`, headers: admin });
    expect(one.json<WebhookEndpoint>()).not.toHaveProperty('secret');
    const secret = await local.app.inject({
      method: 'GET',
      url: `${path}/${made._id}/secret`,
      headers: admin,
    });
    expect(secret.json<WebhookEndpointWithSecret>().secret).toBe(made.secret);
  });

  it('keeps a given secret, updates only what is sent, rotates the secret on demand', async () => {
    const given = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const made = await createEndpoint(local.app, admin, {
      url: receiver.url(),
      events: ['order.placed'],
      secret: given,
    });
    expect(made.secret).toBe(given);

    const put = await local.app.inject({
      method: 'PUT',
      url: `${path}/${made._id}`,
      headers: admin,
      payload: { events: ['order.cancelled'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ events: ['order.cancelled'], url: receiver.url() });
    expect(put.json()).not.toHaveProperty('secret');

    const rotated = await local.app.inject({
      method: 'PUT',
      url: `${path}/${made._id}`,
      headers: admin,
      payload: { rotateSecret: true },
    });
    const answer = rotated.json<WebhookEndpointWithSecret>();
    expect(answer.secret).toMatch(/^whsec_/);
    expect(answer.secret).not.toBe(given);
    expect(answer.secretHint).toBe(answer.secret.slice(-4));

    const off = await local.app.inject({
      method: 'PUT',
      url: `${path}/${made._id}`,
      headers: admin,
      payload: { enabled: false },
    });
    expect(off.json()).toMatchObject({ enabled: false, disabledReason: 'Turned off by an admin' });
    const on = await local.app.inject({
      method: 'PUT',
      url: `${path}/${made._id}`,
      headers: admin,
      payload: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('deletes one, then answers 404 with a message for it', async () => {
    const made = await createEndpoint(local.app, admin, { url: receiver.url(), events: ['order.placed'] });
    const del = await local.app.inject({ method: 'DELETE', url: `${path}/${made._id}`, headers: admin });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Webhook endpoint deleted' });
    for (const [method, url] of [
      ['GET', `${path}/${made._id}`],
      ['DELETE', `${path}/${made._id}`],
      ['GET', `${path}/${made._id}/secret`],
      ['POST', `${path}/${made._id}/test`],
      ['GET', `${path}/${made._id}/deliveries`],
    ] as const) {
      const res = await local.app.inject({ method, url, headers: admin });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('Webhook endpoint not found');
    }
  });

  it('refuses bad bodies with a 400 and a message', async () => {
    for (const payload of [
      { url: receiver.url(), events: [] },
      { url: receiver.url(), events: ['order.shipped'] },
      { url: 'not a url', events: ['order.paid'] },
      { url: receiver.url(), events: ['order.paid'], secret: 'hunter2' },
      { events: ['order.paid'] },
    ]) {
      const res = await local.app.inject({ method: 'POST', url: path, headers: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const badId = await local.app.inject({ method: 'GET', url: `${path}/nope`, headers: admin });
    expect(badId.statusCode).toBe(400);
  });

  it('is for admins only: 401 without a token, 403 for a customer', async () => {
    const customer = (await insertUser(local.db)).auth;
    const made = await createEndpoint(local.app, admin, { url: receiver.url(), events: ['order.paid'] });
    const calls = [
      ['GET', path],
      ['POST', path],
      ['GET', `${path}/${made._id}`],
      ['PUT', `${path}/${made._id}`],
      ['DELETE', `${path}/${made._id}`],
      ['GET', `${path}/${made._id}/secret`],
      ['POST', `${path}/${made._id}/test`],
      ['GET', `${path}/${made._id}/deliveries`],
      ['POST', `${path}/${made._id}/deliveries/${made._id}/retry`],
    ] as const;
    for (const [method, url] of calls) {
      const anonymous = await local.app.inject({ method, url, payload: {} });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const shopper = await local.app.inject({ method, url, headers: customer, payload: {} });
      expect(shopper.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe('the URL rules', () => {
  const refused = async (ctx: TestContext, auth: { authorization: string }, url: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: auth,
      payload: { url, events: ['order.paid'] },
    });
    expect(res.statusCode, url).toBe(400);
    return res.json<{ message: string }>().message;
  };

  it('refuses http, private, loopback and link-local addresses without WEBHOOKS_ALLOW_LOCAL', async () => {
    expect(await refused(strict, strictAdmin, 'http://127.0.0.1:9/hook')).toMatch(/must use https/);
    expect(await refused(strict, strictAdmin, 'http://example.com/hook')).toMatch(/must use https/);
    expect(await refused(strict, strictAdmin, 'ftp://example.com/hook')).toMatch(/must use https/);
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://172.20.0.1/hook',
      'https://192.168.1.10/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      // localhost is a name: refused for what it resolves to.
      'https://localhost/hook',
    ]) {
      expect(await refused(strict, strictAdmin, url)).toMatch(/private or loopback address/);
    }
    for (const url of [
      'https://169.254.169.254/latest',
      'https://[fe80::1]/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
    ]) {
      expect(await refused(strict, strictAdmin, url)).toMatch(/reserved or link-local address/);
    }
  });

  it('refuses a user name or password in the URL', async () => {
    expect(await refused(strict, strictAdmin, 'https://user:secret@example.com/hook')).toMatch(
      /user name or password/,
    );
    expect(
      await refused(local, admin, `http://user:secret@127.0.0.1:${new URL(receiver.base).port}/`),
    ).toMatch(/user name or password/);
  });

  it('with WEBHOOKS_ALLOW_LOCAL, allows http to this machine only, and never link-local', async () => {
    await createEndpoint(local.app, admin, { url: 'http://localhost:9/hook', events: ['order.paid'] });
    await createEndpoint(local.app, admin, { url: 'https://10.1.2.3/hook', events: ['order.paid'] });
    expect(await refused(local, admin, 'http://10.1.2.3/hook')).toMatch(/must use https/);
    expect(await refused(local, admin, 'https://169.254.169.254/')).toMatch(/reserved or link-local/);
  });

  it('checks a new URL on update too', async () => {
    const made = await createEndpoint(local.app, admin, { url: receiver.url(), events: ['order.paid'] });
    const res = await local.app.inject({
      method: 'PUT',
      url: `${path}/${made._id}`,
      headers: admin,
      payload: { url: 'https://169.254.169.254/' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('the limit, the test event and the log', () => {
  it(`refuses more than ${WEBHOOK_ENDPOINTS_MAX} endpoints with a 409`, async () => {
    const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOCAL: 'true' } });
    try {
      const auth = (await insertUser(ctx.db, { isAdmin: true })).auth;
      await Promise.all(
        Array.from({ length: WEBHOOK_ENDPOINTS_MAX }, () =>
          createEndpoint(ctx.app, auth, { url: receiver.url(), events: ['order.paid'] }),
        ),
      );
      const res = await ctx.app.inject({
        method: 'POST',
        url: path,
        headers: auth,
        payload: { url: receiver.url(), events: ['order.paid'] },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/At most 20/);
    } finally {
      await ctx.close();
    }
  });

  it('sends a test event (202), logs it, and answers the log newest first with paging', async () => {
    const made = await createEndpoint(local.app, admin, {
      url: receiver.url('/test'),
      events: ['order.paid'],
    });
    const first = await local.app.inject({ method: 'POST', url: `${path}/${made._id}/test`, headers: admin });
    expect(first.statusCode, first.body).toBe(202);
    const queued = first.json<WebhookDelivery>();
    expect(queued).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    expect(JSON.parse(queued.payload)).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: made._id, message: expect.any(String) },
    });
    await local.app.inject({ method: 'POST', url: `${path}/${made._id}/test`, headers: admin });
    await local.app.webhooks.worker.drainOnce();
    expect(receiver.hits('/test')).toHaveLength(2);

    const log = await local.app.inject({
      method: 'GET',
      url: `${path}/${made._id}/deliveries?limit=1`,
      headers: admin,
    });
    const page = log.json<WebhookDeliveriesPage>();
    expect(page).toMatchObject({ page: 1, pages: 2, total: 2 });
    expect(page.deliveries[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect(page.deliveries[0]?._id).not.toBe(queued._id);
    const failed = await local.app.inject({
      method: 'GET',
      url: `${path}/${made._id}/deliveries?status=failed`,
      headers: admin,
    });
    expect(failed.json<WebhookDeliveriesPage>().total).toBe(0);
  });

  it('retries a failed delivery now, and refuses to retry one that succeeded (409)', async () => {
    const made = await createEndpoint(local.app, admin, {
      url: receiver.url('/retry'),
      events: ['order.paid'],
    });
    receiver.answers.push(500);
    const test = (
      await local.app.inject({ method: 'POST', url: `${path}/${made._id}/test`, headers: admin })
    ).json<WebhookDelivery>();
    await local.app.webhooks.worker.drainOnce();
    const after500 = await local.app.inject({
      method: 'GET',
      url: `${path}/${made._id}/deliveries`,
      headers: admin,
    });
    expect(after500.json<WebhookDeliveriesPage>().deliveries[0]).toMatchObject({
      _id: test._id,
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    const retry = await local.app.inject({
      method: 'POST',
      url: `${path}/${made._id}/deliveries/${test._id}/retry`,
      headers: admin,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json<WebhookDelivery>().status).toBe('pending');
    await local.app.webhooks.worker.drainOnce();
    const hits = receiver.hits('/retry');
    expect(hits).toHaveLength(2);
    expect(hits[1]?.headers['webhook-id']).toBe(hits[0]?.headers['webhook-id']);
    expect(hits[1]?.body).toBe(hits[0]?.body);

    const again = await local.app.inject({
      method: 'POST',
      url: `${path}/${made._id}/deliveries/${test._id}/retry`,
      headers: admin,
    });
    expect(again.statusCode).toBe(409);
    const unknown = await local.app.inject({
      method: 'POST',
      url: `${path}/${made._id}/deliveries/${made._id}/retry`,
      headers: admin,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Webhook delivery not found');
  });

  it('turning an endpoint off fails its waiting deliveries; they are retried only once it is on again', async () => {
    const made = await createEndpoint(local.app, admin, {
      url: receiver.url('/off'),
      events: ['order.paid'],
    });
    receiver.answers.push(500);
    await local.app.inject({ method: 'POST', url: `${path}/${made._id}/test`, headers: admin });
    await local.app.webhooks.worker.drainOnce();
    const put = (enabled: boolean) =>
      local.app.inject({ method: 'PUT', url: `${path}/${made._id}`, headers: admin, payload: { enabled } });
    expect((await put(false)).json()).toMatchObject({ enabled: false, pending: 0 });
    const log = await local.app.inject({
      method: 'GET',
      url: `${path}/${made._id}/deliveries`,
      headers: admin,
    });
    const [delivery] = log.json<WebhookDeliveriesPage>().deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      lastError: 'The endpoint was turned off',
      nextAttemptAt: null,
    });
    // A test event is not what the endpoint subscribes to, but it is how an admin checks it: allowed.
    const retryUrl = `${path}/${made._id}/deliveries/${delivery!._id}/retry`;
    const orders = await local.db
      .insert(webhookEvents)
      .values({ type: 'order.paid', subject: {} })
      .returning();
    const [real] = await local.db
      .insert(webhookDeliveries)
      .values({ eventId: orders[0]!.id, endpointId: made._id, status: 'failed' })
      .returning();
    const refused = await local.app.inject({
      method: 'POST',
      url: `${path}/${made._id}/deliveries/${real!.id}/retry`,
      headers: admin,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Turn the endpoint on/);
    expect((await local.app.inject({ method: 'POST', url: retryUrl, headers: admin })).statusCode).toBe(200);
    await put(true);
    const again = await local.app.inject({
      method: 'POST',
      url: `${path}/${made._id}/deliveries/${real!.id}/retry`,
      headers: admin,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<WebhookDelivery>()).toMatchObject({ status: 'pending', eventType: 'order.paid' });
  });
});

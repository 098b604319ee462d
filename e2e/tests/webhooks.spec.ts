import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, expectNoSeriousA11yViolations, logInAsAdmin, productsIn, uniqueEmail } from './helpers';

/**
 * Issue 37: outgoing webhooks, end to end. The receiver is a real HTTP server on loopback inside the
 * test (playwright.config.ts starts the shop with WEBHOOKS_ALLOW_LOCAL=true, the only way the shop
 * sends to 127.0.0.1); it checks each delivery's Standard Webhooks signature itself, with node:crypto,
 * independently of the shop's code.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close: () => Promise<void>;
}

/** A receiver on 127.0.0.1 at a random port that answers 204 to every POST and keeps what came. */
async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/**
 * Standard Webhooks: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * (space-separated when there are several), keyed with the base64-decoded secret after `whsec_`.
 */
function expectSigned(delivery: Received, secret: string) {
  const id = header(delivery.headers, 'webhook-id');
  const timestamp = header(delivery.headers, 'webhook-timestamp');
  expect(id).not.toBe('');
  expect(timestamp).toMatch(/^\d+$/);
  // Seconds since the epoch, now (a receiver refuses old ones against replays).
  expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300);
  expect(header(delivery.headers, 'content-type')).toMatch(/^application\/json/);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  const signatures = header(delivery.headers, 'webhook-signature')
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  expect(signatures.length).toBeGreaterThan(0);
  expect(signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected))).toBe(true);
}

function bodyOf(delivery: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  return JSON.parse(delivery.body) as { type: string; timestamp: string; data: Record<string, unknown> };
}

async function adminHeaders(request: APIRequestContext) {
  const login = await (await request.post('/api/users/login', { data: ADMIN })).json();
  return { authorization: `Bearer ${login.token as string}` };
}

async function openWebhooks(page: Page) {
  await page.goto('/admin/dashboard');
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('button', { name: 'Webhooks' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();
  await expect(page).toHaveURL(/section=webhooks/);
}

/** A customer added by the admin places an unpaid order of one in-stock puzzle, through the API. */
async function placeOrder(request: APIRequestContext, admin: Record<string, string>): Promise<string> {
  const product = (await productsIn(request, 'puzzles')).find((p) => p.stockQuantity >= 1)!;
  const email = uniqueEmail('hooked');
  const password = 'webhook-journey-1';
  const added = await request.post('/api/users/admin/add', {
    data: { name: 'Wendy Webhook', email, password },
    headers: admin,
  });
  expect(added.status()).toBe(201);
  const login = await (await request.post('/api/users/login', { data: { email, password } })).json();
  const placed = await request.post('/api/orders', {
    headers: { authorization: `Bearer ${login.token as string}` },
    data: {
      orderItems: [{ product: product._id, itemQuantity: 1 }],
      shippingAddress: { address: '1 Hook Lane', city: 'Sacramento', postalCode: '95814', country: 'USA' },
      paymentMethod: 'paypal',
    },
  });
  expect(placed.status()).toBe(201);
  return ((await placed.json()) as { _id: string })._id;
}

test('an admin adds an endpoint, its test event and a shopper’s order arrive signed at the receiver', async ({
  page,
  request,
}) => {
  const receiver = await startReceiver();
  const name = `E2E receiver ${Date.now().toString(36)}`;
  try {
    await logInAsAdmin(page);
    await openWebhooks(page);

    // Add: the receiver's address, order.placed and order.paid.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add endpoint' });
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel('Description').fill(name);
    const events = form.getByRole('group', { name: 'Events' });
    await events.getByRole('checkbox', { name: /^order\.placed/ }).check();
    await events.getByRole('checkbox', { name: /^order\.paid/ }).check();
    await expectNoSeriousA11yViolations(page);
    await form.getByRole('button', { name: 'Add Endpoint' }).click();

    // The secret, once, with what to do with it.
    const shown = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    await expect(shown).toContainText('Store it now');
    const secret = (await shown.getByText(/^whsec_/).textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    await expect(shown.getByRole('button', { name: 'Copy secret' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await expect(shown).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);

    const heading = page.getByRole('heading', { level: 3, name });
    await expect(heading).toBeFocused();
    const item = page
      .getByRole('list', { name: 'Webhook endpoints' })
      .getByRole('listitem')
      .filter({ has: heading });
    await expect(item).toContainText('order.placed, order.paid');
    await expect(item).toContainText(`ends in …${secret.slice(-4)}`);

    // A test event: sent, then seen to succeed in the log (which reads itself again while it waits).
    await item.getByRole('button', { name: `Send test event to ${name}` }).click();
    await expect(item).toContainText('Test event sent');
    const log = item.getByRole('list', { name: `Deliveries to ${name}` });
    const testRow = log.getByRole('listitem').filter({ hasText: 'webhook.test' });
    await expect(testRow).toContainText('Succeeded', { timeout: 20_000 });
    await expect(testRow).toContainText('HTTP 204');
    await expect(testRow).toContainText('Attempts:1');
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    const test = receiver.received.find((r) => bodyOf(r).type === 'webhook.test')!;
    expectSigned(test, secret);
    expect(bodyOf(test).data).toMatchObject({ endpointId: expect.any(String) });
    // The payload as sent, readable in the log.
    await testRow.getByText('Payload').click();
    await expect(testRow.locator('pre')).toContainText('"type": "webhook.test"');
    await expectNoSeriousA11yViolations(page);

    // A shopper's order: the database writes the event in the order's transaction; the worker sends it.
    const orderId = await placeOrder(request, await adminHeaders(request));
    await expect
      .poll(() => receiver.received.filter((r) => bodyOf(r).type === 'order.placed').length, {
        timeout: 30_000,
      })
      .toBe(1);
    const placed = receiver.received.find((r) => bodyOf(r).type === 'order.placed')!;
    expectSigned(placed, secret);
    expect(bodyOf(placed).data).toMatchObject({ _id: orderId, isPaid: false });
    // Each event once: no webhook-id came twice.
    const ids = receiver.received.map((r) => header(r.headers, 'webhook-id'));
    expect(new Set(ids).size).toBe(ids.length);

    // The log shows it too, after a refresh.
    await item.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('listitem').filter({ hasText: 'order.placed' })).toContainText('Succeeded');

    // Delete, after confirming: it leaves the list.
    await item.getByRole('button', { name: `Delete ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Delete ${name}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(heading).toHaveCount(0);
    await expect(page.getByText(`${name} deleted`)).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('the webhooks section and its delivery log fit a phone @phone', async ({ page, request }) => {
  const receiver = await startReceiver();
  const admin = await adminHeaders(request);
  const name = `Phone receiver ${Date.now().toString(36)}`;
  const created = await request.post('/api/webhooks/admin', {
    headers: admin,
    data: {
      url: `${receiver.url}/a-rather-long-path/that-should-wrap/on-a-phone`,
      events: ['order.paid'],
      description: name,
    },
  });
  expect(created.status()).toBe(201);
  const { _id: id } = (await created.json()) as { _id: string };
  try {
    await logInAsAdmin(page);
    await page.setViewportSize({ width: 412, height: 900 });
    await page.goto('/admin/dashboard?section=webhooks');
    const heading = page.getByRole('heading', { level: 3, name });
    const item = page
      .getByRole('list', { name: 'Webhook endpoints' })
      .getByRole('listitem')
      .filter({ has: heading });
    await item.getByRole('button', { name: `Send test event to ${name}` }).click();
    await expect(
      item
        .getByRole('list', { name: `Deliveries to ${name}` })
        .getByRole('listitem')
        .first(),
    ).toContainText('Succeeded', { timeout: 20_000 });
    await item.getByRole('listitem').first().getByText('Payload').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await item.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
    const save = dialog.getByRole('button', { name: 'Save Changes' });
    await save.scrollIntoViewIfNeeded();
    const panel = (await dialog.boundingBox())!;
    const box = (await save.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await request.delete(`/api/webhooks/admin/${id}`, { headers: admin });
    await receiver.close();
  }
});

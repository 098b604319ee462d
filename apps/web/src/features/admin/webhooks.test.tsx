import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { adminState, jsonBody } from './test-helpers';
import { createInput, EMPTY_WEBHOOK_FORM, toggleEvent, updateInput } from './webhook-form';
import { WebhooksSection } from './WebhooksSection';
import { DELIVERIES_POLL_MS, DELIVERIES_SLOW_POLL_MS, pollInterval } from './WebhooksSectionDeliveries';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const uuid = (n: number) => `00000000-0000-4000-c000-${String(n).padStart(12, '0')}`;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

let seq = 0;

function makeEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  seq += 1;
  return {
    _id: uuid(seq),
    url: `https://hooks.example.com/shop-${seq}`,
    description: '',
    events: ['order.paid'],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    secretHint: 'aSw=',
    createdAt: '2026-11-27T08:00:00.000Z',
    updatedAt: '2026-11-27T08:00:00.000Z',
    pending: 0,
    ...overrides,
  };
}

function makeDelivery(n: number, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    _id: uuid(500 + n),
    eventId: `msg_${n}`,
    eventType: 'order.paid',
    status: 'succeeded',
    attempts: 1,
    responseStatus: 200,
    lastError: null,
    lastAttemptAt: '2026-11-27T08:01:00.000Z',
    nextAttemptAt: null,
    createdAt: '2026-11-27T08:01:00.000Z',
    payload: JSON.stringify({ type: 'order.paid', timestamp: '2026-11-27T08:01:00.000Z', data: { n } }),
    ...overrides,
  };
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * The webhooks API as the contract (packages/shared/src/schemas/webhooks.ts) answers: the list, a
 * create with the secret (or a refusal), a PUT merging what is sent, DELETE, the secret, a test event
 * queued, a delivery log paged 10 a page by status, a retry.
 */
function serveWebhooks(
  initial: WebhookEndpoint[],
  {
    deliveries = [],
    refuseCreate,
  }: { deliveries?: WebhookDelivery[]; refuseCreate?: { status: number; body: unknown } } = {},
) {
  let endpoints = initial;
  let log = deliveries;
  const sent: Sent[] = [];
  const withSecret = (endpoint: WebhookEndpoint, secret: string): WebhookEndpointWithSecret => ({
    ...endpoint,
    secret,
  });
  const mock = stubFetch(async (request, url) => {
    const { pathname } = url;
    const method = request.method;
    const record = async () => {
      const text = await request.clone().text();
      sent.push({ method, path: pathname, ...(text ? { body: JSON.parse(text) as unknown } : {}) });
    };
    if (pathname === '/api/webhooks/admin' && method === 'GET') return jsonResponse({ endpoints });
    if (pathname === '/api/webhooks/admin' && method === 'POST') {
      await record();
      if (refuseCreate) return jsonResponse(refuseCreate.body, refuseCreate.status);
      const body = (await jsonBody(request)) as {
        url: string;
        events: WebhookEndpoint['events'];
        description?: string;
      };
      const created = makeEndpoint({
        url: body.url,
        events: body.events,
        description: body.description ?? '',
      });
      endpoints = [...endpoints, created];
      return jsonResponse(withSecret(created, SECRET), 201);
    }
    const match = /^\/api\/webhooks\/admin\/([^/]+)(\/.*)?$/.exec(pathname);
    const found = match && endpoints.find((e) => e._id === match[1]);
    if (!match || !found) return jsonResponse({ message: 'Webhook endpoint not found' }, 404);
    const rest = match[2] ?? '';
    if (rest === '' && method === 'PUT') {
      await record();
      const { rotateSecret, ...body } = (await jsonBody(request)) as Partial<WebhookEndpoint> & {
        rotateSecret?: boolean;
      };
      const next: WebhookEndpoint = {
        ...found,
        ...body,
        disabledReason:
          body.enabled === false ? 'Turned off by an admin' : body.enabled ? null : found.disabledReason,
        ...(rotateSecret ? { secretHint: '7oD' } : {}),
      };
      endpoints = endpoints.map((e) => (e._id === found._id ? next : e));
      return jsonResponse(rotateSecret ? withSecret(next, OTHER_SECRET) : next);
    }
    if (rest === '' && method === 'DELETE') {
      await record();
      endpoints = endpoints.filter((e) => e._id !== found._id);
      return jsonResponse({ message: 'Webhook endpoint deleted' });
    }
    if (rest === '/secret') return jsonResponse(withSecret(found, SECRET));
    if (rest === '/test' && method === 'POST') {
      await record();
      const delivery = makeDelivery(900, {
        eventType: 'webhook.test',
        status: 'pending',
        attempts: 0,
        responseStatus: null,
        lastAttemptAt: null,
        // Far off: the log reads itself again only every 10 s (longer than the test).
        nextAttemptAt: '2099-01-01T00:00:00.000Z',
      });
      log = [delivery, ...log];
      return jsonResponse(delivery, 202);
    }
    if (rest === '/deliveries' && method === 'GET') {
      const status = url.searchParams.get('status');
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const matching = log.filter((d) => !status || d.status === status);
      return jsonResponse({
        deliveries: matching.slice((page - 1) * limit, page * limit),
        page,
        pages: Math.max(1, Math.ceil(matching.length / limit)),
        total: matching.length,
      });
    }
    const retry = /^\/deliveries\/([^/]+)\/retry$/.exec(rest);
    if (retry && method === 'POST') {
      await record();
      const delivery = log.find((d) => d._id === retry[1]);
      if (!delivery) return jsonResponse({ message: 'Delivery not found' }, 404);
      if (delivery.status === 'succeeded')
        return jsonResponse({ message: 'This delivery succeeded already', code: 'WEBHOOK_DELIVERED' }, 409);
      const next = { ...delivery, status: 'pending' as const, nextAttemptAt: '2099-01-01T00:00:00.000Z' };
      log = log.map((d) => (d._id === delivery._id ? next : d));
      return jsonResponse(next);
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, sent };
}

function renderSection() {
  return renderWithProviders(<WebhooksSection />, { preloadedState: adminState });
}

async function itemOf(name: string) {
  const heading = await screen.findByRole('heading', { level: 3, name });
  return within(heading.closest('li')!);
}

describe('Webhooks section: the list', () => {
  it('shows each endpoint with its events, its state and why it is off, since when it fails, what waits and its secret hint', async () => {
    serveWebhooks([
      makeEndpoint({
        url: 'https://warehouse.example.com/hooks',
        description: 'Warehouse',
        events: ['order.placed', 'order.paid'],
        pending: 3,
        failingSince: '2026-11-27T07:00:00.000Z',
      }),
      makeEndpoint({
        url: 'https://books.example.com/in',
        enabled: false,
        disabledReason: 'Failed for 24 hours',
        secretHint: 'Zz9=',
      }),
    ]);
    renderSection();
    const warehouse = await itemOf('Warehouse');
    expect(warehouse.getByText('https://warehouse.example.com/hooks')).toBeInTheDocument();
    expect(warehouse.getByText('order.placed, order.paid')).toBeInTheDocument();
    expect(warehouse.getByText('On')).toBeInTheDocument();
    expect(warehouse.getByText('Failing since:')).toBeInTheDocument();
    expect(warehouse.getByText('Pending deliveries:').nextSibling).toHaveTextContent('3');
    expect(warehouse.getByRole('button', { name: 'Turn off Warehouse' })).toBeInTheDocument();

    const books = await itemOf('https://books.example.com/in');
    expect(books.getByText('Off')).toBeInTheDocument();
    expect(books.getByText('Failed for 24 hours')).toBeInTheDocument();
    expect(books.getByText('ends in …Zz9=')).toBeInTheDocument();
    expect(books.queryByText('Failing since:')).toBeNull();
    expect(books.getByRole('button', { name: 'Turn on https://books.example.com/in' })).toBeInTheDocument();
  });

  it('says so when there is no endpoint, and shows the server’s message when the list fails', async () => {
    serveWebhooks([]);
    const { unmount } = renderSection();
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
    unmount();
    stubFetch(() => jsonResponse({ message: 'Not authorized as an admin' }, 403));
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Not authorized as an admin');
  });
});

describe('Webhooks section: adding an endpoint', () => {
  it('sends the address, description and events ticked, then shows the secret once with a copy button', async () => {
    const user = userEvent.setup();
    const { sent } = serveWebhooks([]);
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = screen.getByRole('dialog', { name: 'Add endpoint' });
    await user.type(within(dialog).getByLabelText('URL'), ' https://erp.example.com/webhooks ');
    await user.type(within(dialog).getByLabelText('Description'), 'ERP');
    const events = within(dialog).getByRole('group', { name: 'Events' });
    // Ticked out of order: sent in the shared list's order.
    await user.click(within(events).getByRole('checkbox', { name: /^order\.paid/ }));
    await user.click(within(events).getByRole('checkbox', { name: /^order\.placed/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Endpoint' }));

    const shown = await screen.findByRole('dialog', { name: 'Endpoint added: its signing secret' });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/webhooks/admin',
        body: {
          url: 'https://erp.example.com/webhooks',
          events: ['order.placed', 'order.paid'],
          description: 'ERP',
        },
      },
    ]);
    expect(shown).toHaveAccessibleDescription(/Store it now/);
    expect(within(shown).getByText(SECRET)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toHaveFocus();
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(shown).getByText('Secret copied')).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Shown once: gone from the page; the new endpoint is listed, its heading focused, its hint only.
    expect(screen.queryByText(SECRET)).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { level: 3, name: 'ERP' })).toHaveFocus());
    expect((await itemOf('ERP')).getByText('ends in …aSw=')).toBeInTheDocument();
    expect(screen.getByText('ERP added')).toBeInTheDocument();
  });

  it('checks the form with the shared schema first, then shows the server’s refusal in it', async () => {
    const user = userEvent.setup();
    const { sent } = serveWebhooks([], {
      refuseCreate: { status: 400, body: { message: 'Only https addresses can receive webhooks' } },
    });
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = screen.getByRole('dialog', { name: 'Add endpoint' });
    await user.type(within(dialog).getByLabelText('URL'), 'not a url');
    await user.type(within(dialog).getByLabelText('Own secret'), 'hunter2');
    await user.click(within(dialog).getByRole('button', { name: 'Add Endpoint' }));
    const problems = within(dialog).getByRole('alert');
    expect(problems).toHaveTextContent('url must be an absolute URL');
    expect(problems).toHaveTextContent('Choose at least one event');
    expect(problems).toHaveTextContent('secret must be whsec_');
    expect(sent).toEqual([]);

    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'http://erp.example.com/hooks');
    await user.clear(within(dialog).getByLabelText('Own secret'));
    await user.type(within(dialog).getByLabelText('Own secret'), OTHER_SECRET);
    await user.click(within(dialog).getByRole('checkbox', { name: /^tradein\.accepted/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Endpoint' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only https addresses can receive webhooks',
    );
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/webhooks/admin',
        body: { url: 'http://erp.example.com/hooks', events: ['tradein.accepted'], secret: OTHER_SECRET },
      },
    ]);
    expect(screen.getByRole('dialog', { name: 'Add endpoint' })).toBeInTheDocument();
  });
});

describe('Webhooks section: one endpoint', () => {
  it('edits only what changed, turns it off and on, and reveals or rotates (after confirming) its secret', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Chat', events: ['order.paid'] });
    const { sent } = serveWebhooks([endpoint]);
    renderSection();
    const item = await itemOf('Chat');

    await user.click(item.getByRole('button', { name: 'Edit Chat' }));
    const edit = screen.getByRole('dialog', { name: 'Edit Chat' });
    expect(within(edit).getByLabelText('URL')).toHaveValue(endpoint.url);
    expect(within(edit).getByRole('checkbox', { name: /^order\.paid/ })).toBeChecked();
    expect(within(edit).queryByLabelText('Own secret')).toBeNull();
    await user.click(within(edit).getByRole('checkbox', { name: /^order\.refunded/ }));
    await user.click(within(edit).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await item.findByText('order.paid, order.refunded')).toBeInTheDocument();
    expect(item.getByRole('button', { name: 'Edit Chat' })).toHaveFocus();

    await user.click(item.getByRole('button', { name: 'Turn off Chat' }));
    expect(await item.findByText('Turned off by an admin')).toBeInTheDocument();
    expect(screen.getByText('Chat turned off')).toBeInTheDocument();
    expect(item.getByRole('button', { name: 'Turn on Chat' })).toHaveFocus();
    await user.click(item.getByRole('button', { name: 'Turn on Chat' }));
    expect(await item.findByText('On')).toBeInTheDocument();

    await user.click(item.getByRole('button', { name: 'Reveal the secret of Chat' }));
    const revealed = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(revealed).getByText(SECRET)).toBeInTheDocument();
    await user.click(within(revealed).getByRole('button', { name: 'Close' }));

    await user.click(item.getByRole('button', { name: 'Rotate the secret of Chat' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Rotate the secret of Chat?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await user.click(item.getByRole('button', { name: 'Rotate the secret of Chat' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Rotate the secret of Chat?' })).getByRole('button', {
        name: 'Rotate secret',
      }),
    );
    const rotated = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(rotated).getByText(OTHER_SECRET)).toBeInTheDocument();
    expect(rotated).toHaveAccessibleDescription(/Store it now/);

    expect(sent.map(({ method, body }) => ({ method, body }))).toEqual([
      { method: 'PUT', body: { events: ['order.paid', 'order.refunded'] } },
      { method: 'PUT', body: { enabled: false } },
      { method: 'PUT', body: { enabled: true } },
      { method: 'PUT', body: { rotateSecret: true } },
    ]);
  });

  it('deletes an endpoint only once confirmed', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Old ERP' });
    const { sent } = serveWebhooks([endpoint, makeEndpoint({ description: 'Kept' })]);
    renderSection();
    const item = await itemOf('Old ERP');
    await user.click(item.getByRole('button', { name: 'Delete Old ERP' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Old ERP?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(sent).toEqual([]);
    expect(item.getByRole('button', { name: 'Delete Old ERP' })).toHaveFocus();

    await user.click(item.getByRole('button', { name: 'Delete Old ERP' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Old ERP?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Old ERP' })).toBeNull());
    expect(sent).toEqual([{ method: 'DELETE', path: `/api/webhooks/admin/${endpoint._id}` }]);
    expect(screen.getByText('Old ERP deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Old ERP deleted').parentElement).toHaveFocus());
    expect(screen.getByRole('heading', { level: 3, name: 'Kept' })).toBeInTheDocument();
  });

  it('sends a test event, says it is on its way and shows it in the opened delivery log', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Receiver' });
    const { sent } = serveWebhooks([endpoint]);
    renderSection();
    const item = await itemOf('Receiver');
    await user.click(item.getByRole('button', { name: 'Send test event to Receiver' }));
    expect(await item.findByText(/Test event sent: pending/)).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'POST', path: `/api/webhooks/admin/${endpoint._id}/test`, body: {} }]);
    expect(item.getByRole('button', { name: 'Delivery log of Receiver' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const log = await item.findByRole('list', { name: 'Deliveries to Receiver' });
    const delivery = within(log).getByRole('listitem');
    expect(delivery).toHaveTextContent('webhook.test');
    expect(delivery).toHaveTextContent('Pending');
    expect(delivery).toHaveTextContent('Not tried yet');
  });
});

describe('Webhooks section: watching a test event', () => {
  it('reads the log again while the test waits for its try, then the list with its new pending count', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Live' });
    let sentTest = false;
    let delivered = false;
    let reads = 0;
    const queued = makeDelivery(1, {
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      lastAttemptAt: null,
      nextAttemptAt: new Date().toISOString(),
    });
    stubFetch((request, url) => {
      if (url.pathname === '/api/webhooks/admin')
        return jsonResponse({ endpoints: [{ ...endpoint, pending: sentTest && !delivered ? 1 : 0 }] });
      if (url.pathname.endsWith('/test')) {
        sentTest = true;
        return jsonResponse(queued, 202);
      }
      if (url.pathname.endsWith('/deliveries')) {
        reads += 1;
        // The worker sends it between the first read and the next.
        if (reads > 1) delivered = true;
        const shown = delivered
          ? { ...queued, status: 'succeeded' as const, attempts: 1, responseStatus: 204, nextAttemptAt: null }
          : queued;
        return jsonResponse({ deliveries: [shown], page: 1, pages: 1, total: 1 });
      }
      return jsonResponse({ message: `Unexpected ${request.method} ${url.pathname}` }, 404);
    });
    renderSection();
    const item = await itemOf('Live');
    expect(item.getByText('Pending deliveries:').nextSibling).toHaveTextContent('0');
    await user.click(item.getByRole('button', { name: 'Send test event to Live' }));
    const log = await item.findByRole('list', { name: 'Deliveries to Live' });
    await waitFor(() => expect(item.getByText('Pending deliveries:').nextSibling).toHaveTextContent('1'));
    await waitFor(() => expect(log).toHaveTextContent('Succeeded'), { timeout: 5000 });
    expect(log).toHaveTextContent('HTTP 204');
    expect(reads).toBeGreaterThanOrEqual(2);
    // Once nothing waits, the list is read again: its pending count follows.
    await waitFor(() => expect(item.getByText('Pending deliveries:').nextSibling).toHaveTextContent('0'));
    expect(delivered).toBe(true);
  });
});

describe('Webhooks section: the delivery log', () => {
  it('pages, filters by status, shows the attempts, answer, error and payload, and retries a failed one', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Hooks' });
    const failed = makeDelivery(1, {
      eventType: 'order.refunded',
      status: 'failed',
      attempts: 12,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    const many = Array.from({ length: 11 }, (_, i) => makeDelivery(10 + i));
    const { mock, sent } = serveWebhooks([endpoint], { deliveries: [...many, failed] });
    renderSection();
    const item = await itemOf('Hooks');
    await user.click(item.getByRole('button', { name: 'Delivery log of Hooks' }));
    const log = await item.findByRole('list', { name: 'Deliveries to Hooks' });
    expect(within(log).getAllByRole('listitem')).toHaveLength(10);
    // A succeeded delivery cannot be retried.
    expect(within(log).queryByRole('button', { name: /Retry now/ })).toBeNull();
    expect(item.getByText('(12)')).toBeInTheDocument();
    expect(calledUrls(mock)).toContain(`/api/webhooks/admin/${endpoint._id}/deliveries?page=1&limit=10`);

    await user.click(item.getByRole('button', { name: 'Next' }));
    expect(await item.findByText('Page 2 of 2')).toBeInTheDocument();
    expect(calledUrls(mock)).toContain(`/api/webhooks/admin/${endpoint._id}/deliveries?page=2&limit=10`);
    await waitFor(() =>
      expect(item.getByRole('list', { name: 'Deliveries to Hooks' })).toHaveTextContent('order.refunded'),
    );

    await user.selectOptions(item.getByLabelText('Status'), 'Failed');
    await waitFor(() =>
      expect(calledUrls(mock)).toContain(
        `/api/webhooks/admin/${endpoint._id}/deliveries?status=failed&page=1&limit=10`,
      ),
    );
    await waitFor(() =>
      expect(
        within(item.getByRole('list', { name: 'Deliveries to Hooks' })).getAllByRole('listitem'),
      ).toHaveLength(1),
    );
    const row = within(item.getByRole('list', { name: 'Deliveries to Hooks' }).querySelector('li')!);
    expect(row.getByText('12')).toBeInTheDocument();
    expect(row.getByText('Last error:').nextSibling).toHaveTextContent('HTTP 500');
    expect(row.getByText('Response:').nextSibling).toHaveTextContent('HTTP 500');
    await user.click(row.getByText('Payload'));
    expect(row.getByText(/"type": "order\.paid"/)).toBeVisible();

    await user.click(row.getByRole('button', { name: /^Retry now: order\.refunded/ }));
    expect(await item.findByText('Retrying order.refunded now')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: `/api/webhooks/admin/${endpoint._id}/deliveries/${failed._id}/retry`,
        body: {},
      },
    ]);
    // Read again: it is pending now, so it leaves the failed filter.
    await waitFor(() => expect(item.getByText('No deliveries with this status.')).toBeInTheDocument());
  });

  it('shows the server’s refusal of a retry', async () => {
    const user = userEvent.setup();
    const endpoint = makeEndpoint({ description: 'Hooks' });
    const pending = makeDelivery(1, {
      status: 'pending',
      attempts: 2,
      responseStatus: null,
      lastError: 'Timed out after 10 s',
      nextAttemptAt: '2099-01-01T00:00:00.000Z',
    });
    stubFetch((_request, url) =>
      url.pathname.endsWith('/retry')
        ? jsonResponse({ message: 'This endpoint is turned off', code: 'WEBHOOK_DISABLED' }, 409)
        : url.pathname.endsWith('/deliveries')
          ? jsonResponse({ deliveries: [pending], page: 1, pages: 1, total: 1 })
          : jsonResponse({ endpoints: [endpoint] }),
    );
    renderSection();
    const item = await itemOf('Hooks');
    await user.click(item.getByRole('button', { name: 'Delivery log of Hooks' }));
    const log = await item.findByRole('list', { name: 'Deliveries to Hooks' });
    expect(within(log).getByText('Response:').nextSibling).toHaveTextContent('No answer');
    expect(within(log).getByText('Last error:').nextSibling).toHaveTextContent('Timed out after 10 s');
    await user.click(within(log).getByRole('button', { name: /^Retry now: order\.paid/ }));
    expect(await item.findByRole('alert')).toHaveTextContent('Error: This endpoint is turned off');
  });
});

describe('webhook-form', () => {
  it('keeps the events in the shared order, leaves empty optional fields out and sends only what changed', () => {
    expect(toggleEvent(['order.paid'], 'order.placed', true)).toEqual(['order.placed', 'order.paid']);
    expect(toggleEvent(['order.placed', 'order.paid'], 'order.placed', false)).toEqual(['order.paid']);
    expect(
      createInput({ ...EMPTY_WEBHOOK_FORM, url: ' https://a.example ', events: ['order.paid'] }),
    ).toEqual({
      url: 'https://a.example',
      events: ['order.paid'],
    });
    const endpoint = makeEndpoint({
      url: 'https://a.example',
      description: 'A',
      events: ['order.paid', 'order.placed'],
    });
    expect(
      updateInput(
        { url: 'https://a.example', description: 'A', events: ['order.placed', 'order.paid'], secret: '' },
        endpoint,
      ),
    ).toEqual({});
    expect(
      updateInput(
        { url: 'https://b.example', description: '', events: ['order.paid'], secret: '' },
        endpoint,
      ),
    ).toEqual({
      url: 'https://b.example',
      description: '',
      events: ['order.paid'],
    });
  });

  it('polls the log fast while a delivery is due, slowly while one is pending later or being sent, not at all otherwise', () => {
    const now = Date.parse('2026-11-27T08:00:00.000Z');
    const pending = (nextAttemptAt: string | null) => makeDelivery(1, { status: 'pending', nextAttemptAt });
    expect(pollInterval([pending('2026-11-27T08:00:05.000Z')], now)).toBe(DELIVERIES_POLL_MS);
    expect(pollInterval([pending(null), makeDelivery(2)], now)).toBe(DELIVERIES_POLL_MS);
    // A worker's two-minute lease while it sends, or a retry later.
    expect(pollInterval([pending('2026-11-27T08:02:00.000Z')], now)).toBe(DELIVERIES_SLOW_POLL_MS);
    expect(pollInterval([makeDelivery(2), makeDelivery(3, { status: 'failed' })], now)).toBe(0);
  });
});

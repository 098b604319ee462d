import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A PayPal-compatible REST server on loopback for tests: OAuth token, Orders v2 create / capture /
 * get, Payments v2 capture refunds and webhook signature verification, with switches for the
 * failures the shop must survive.
 */
export interface FakePayPalOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  referenceId: string;
  currency: string;
  value: string;
  captureId?: string;
  capturedValue?: string;
  /** The capture's status once captured (COMPLETED unless a test says otherwise, e.g. PENDING). */
  captureStatus?: string;
}

/** What the buyer's browser did with PayPal's script (spec section 4: "PayPal approval captures the payment"). */
export interface BuyerPayment {
  /** The PayPal order id the spec's client sends as `order_id`. */
  id: string;
  captureId: string;
}

/** A refund PayPal made (once per PayPal-Request-Id). */
export interface FakePayPalRefund {
  id: string;
  captureId: string;
  value: string;
  currency: string;
  requestId: string | undefined;
}

export interface FakePayPalRequest {
  method: string;
  path: string;
  requestId: string | undefined;
}

export interface FakePayPal {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  orders: Map<string, FakePayPalOrder>;
  requests: FakePayPalRequest[];
  /** Every refund made, in order: a test can assert exactly one. */
  refunds: FakePayPalRefund[];
  /** Every connection is dropped without an answer: PayPal unreachable, until set back to false. */
  down: boolean;
  /** Next captures answer 422 INSTRUMENT_DECLINED. */
  declineCapture: boolean;
  /** Captures take this amount instead of the order's (amount mismatch). */
  captureValue: string | undefined;
  /** The next capture happens, but its answer is lost (a 500 reaches the shop). */
  loseNextCaptureReply: boolean;
  /** The next refund happens, but its answer is lost (a 500 reaches the shop); a retry with the same id answers it. */
  loseNextRefundReply: boolean;
  /** Refunds answer 422 REFUND_NOT_ALLOWED (PayPal refuses, nothing moves) while set. */
  declineRefunds: boolean;
  /** What verify-webhook-signature answers. */
  verification: 'SUCCESS' | 'FAILURE';
  /**
   * Awaited after a capture was made and before its answer is sent: a test can kill the shop's
   * instance that waits for it (the money taken, the answer never heard; issue 13's cluster test).
   */
  onCaptured: ((order: FakePayPalOrder) => Promise<void> | void) | undefined;
  /** The buyer approved the order in PayPal's window. */
  approve(id: string): void;
  /**
   * The spec's client side of a PayPal payment: PayPal's script in the browser creates an order for
   * `value`, the buyer approves it and the script captures it, all without the shop's server.
   */
  buyerPays(
    value: string,
    options?: { currency?: string; referenceId?: string; captureStatus?: string; status?: 'APPROVED' },
  ): BuyerPayment;
  count(pathPart: string): number;
  /** Stops listening: PayPal unreachable. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function orderJson(order: FakePayPalOrder) {
  return {
    id: order.id,
    status: order.status,
    payer: order.status === 'COMPLETED' ? { email_address: 'buyer@paypal.test' } : undefined,
    purchase_units: [
      {
        reference_id: order.referenceId,
        amount: { currency_code: order.currency, value: order.value },
        ...(order.captureId
          ? {
              payments: {
                captures: [
                  {
                    id: order.captureId,
                    status: order.captureStatus ?? 'COMPLETED',
                    amount: { currency_code: order.currency, value: order.capturedValue ?? order.value },
                  },
                ],
              },
            }
          : {}),
      },
    ],
  };
}

export async function startFakePayPal(): Promise<FakePayPal> {
  const clientId = 'fake-client-id';
  const clientSecret = 'fake-client-secret';
  const webhookId = 'WH-FAKE';
  const tokens = new Set<string>();
  const captureReplies = new Map<string, { status: number; body: unknown }>();
  const refundReplies = new Map<string, { status: number; body: unknown }>();
  const cents = (value: string) => Math.round(Number(value) * 100);

  const fake: Omit<FakePayPal, 'url' | 'close'> = {
    clientId,
    clientSecret,
    webhookId,
    orders: new Map(),
    requests: [],
    refunds: [],
    down: false,
    declineCapture: false,
    captureValue: undefined,
    loseNextCaptureReply: false,
    loseNextRefundReply: false,
    declineRefunds: false,
    verification: 'SUCCESS',
    onCaptured: undefined,
    approve(id) {
      const order = fake.orders.get(id);
      if (!order) throw new Error(`fake PayPal: no order ${id}`);
      order.status = 'APPROVED';
    },
    count(pathPart) {
      return fake.requests.filter((r) => r.path.includes(pathPart)).length;
    },
    buyerPays(value, options = {}) {
      const id = `PP${randomUUID().replaceAll('-', '').slice(0, 15).toUpperCase()}`;
      const captureId = `CAP-${randomUUID().slice(0, 8)}`;
      const approvedOnly = options.status === 'APPROVED';
      fake.orders.set(id, {
        id,
        status: approvedOnly ? 'APPROVED' : 'COMPLETED',
        referenceId: options.referenceId ?? 'default',
        currency: options.currency ?? 'USD',
        value,
        ...(approvedOnly ? {} : { captureId, captureStatus: options.captureStatus ?? 'COMPLETED' }),
      });
      return { id, captureId };
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (fake.down) {
      req.socket.destroy();
      return;
    }
    const path = req.url ?? '/';
    const requestId = req.headers['paypal-request-id'];
    fake.requests.push({
      method: req.method ?? '',
      path,
      requestId: typeof requestId === 'string' ? requestId : undefined,
    });
    const body = await readBody(req);

    if (path === '/v1/oauth2/token' && req.method === 'POST') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || body !== 'grant_type=client_credentials') {
        return send(res, 401, { error: 'invalid_client' });
      }
      const token = `A21-${randomUUID()}`;
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 32400 });
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return send(res, 401, { name: 'AUTHENTICATION_FAILURE' });

    if (path === '/v2/checkout/orders' && req.method === 'POST') {
      const input = JSON.parse(body) as {
        intent: string;
        purchase_units: { reference_id: string; amount: { currency_code: string; value: string } }[];
      };
      const unit = input.purchase_units[0];
      if (input.intent !== 'CAPTURE' || !unit) return send(res, 400, { name: 'INVALID_REQUEST' });
      const order: FakePayPalOrder = {
        id: `PP${randomUUID().replaceAll('-', '').slice(0, 15).toUpperCase()}`,
        status: 'CREATED',
        referenceId: unit.reference_id,
        currency: unit.amount.currency_code,
        value: unit.amount.value,
      };
      fake.orders.set(order.id, order);
      return send(res, 201, orderJson(order));
    }

    const capture = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path);
    if (capture && req.method === 'POST') {
      const key = typeof requestId === 'string' ? requestId : undefined;
      // PayPal-Request-Id: the same id answers the first answer again, without capturing twice.
      const replay = key ? captureReplies.get(key) : undefined;
      if (replay) return send(res, replay.status, replay.body);
      const order = fake.orders.get(decodeURIComponent(capture[1] ?? ''));
      let reply: { status: number; body: unknown };
      if (!order) reply = { status: 404, body: { name: 'RESOURCE_NOT_FOUND' } };
      else if (fake.declineCapture) {
        reply = {
          status: 422,
          body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'INSTRUMENT_DECLINED' }] },
        };
      } else if (order.status === 'COMPLETED') {
        reply = {
          status: 422,
          body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] },
        };
      } else if (order.status !== 'APPROVED') {
        reply = {
          status: 422,
          body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] },
        };
      } else {
        order.status = 'COMPLETED';
        order.captureId = `CAP-${randomUUID().slice(0, 8)}`;
        if (fake.captureValue) order.capturedValue = fake.captureValue;
        reply = { status: 201, body: orderJson(order) };
      }
      if (key && reply.status < 500) captureReplies.set(key, reply);
      if (order && reply.status === 201) await fake.onCaptured?.(order);
      if (fake.loseNextCaptureReply && reply.status === 201) {
        fake.loseNextCaptureReply = false;
        return send(res, 500, { name: 'INTERNAL_SERVER_ERROR' });
      }
      return send(res, reply.status, reply.body);
    }

    const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (refund && req.method === 'POST') {
      const key = typeof requestId === 'string' ? requestId : undefined;
      // PayPal-Request-Id: the same id answers the first refund again, without refunding twice.
      const replay = key ? refundReplies.get(key) : undefined;
      if (replay) return send(res, replay.status, replay.body);
      const captureId = decodeURIComponent(refund[1] ?? '');
      const order = [...fake.orders.values()].find((o) => o.captureId === captureId);
      const input = (body ? JSON.parse(body) : {}) as { amount?: { currency_code?: string; value?: string } };
      const unprocessable = (issue: string) => ({
        status: 422,
        body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] },
      });
      let reply: { status: number; body: unknown };
      if (!order) reply = { status: 404, body: { name: 'RESOURCE_NOT_FOUND' } };
      else if (fake.declineRefunds) {
        // Not remembered under the request id: PayPal refused, so a later attempt is a new question.
        return send(res, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_NOT_ALLOWED' }] });
      } else {
        const captured = cents(order.capturedValue ?? order.value);
        const refunded = fake.refunds
          .filter((r) => r.captureId === captureId)
          .reduce((sum, r) => sum + cents(r.value), 0);
        const value = input.amount?.value ?? ((captured - refunded) / 100).toFixed(2);
        if (refunded >= captured) reply = unprocessable('CAPTURE_FULLY_REFUNDED');
        else if ((input.amount?.currency_code ?? order.currency) !== order.currency) {
          reply = unprocessable('REFUND_CURRENCY_MISMATCH');
        } else if (!(cents(value) > 0) || refunded + cents(value) > captured) {
          reply = unprocessable('REFUND_AMOUNT_EXCEEDED');
        } else {
          const made = { id: `REF-${randomUUID().slice(0, 8)}`, captureId, value, currency: order.currency };
          fake.refunds.push({ ...made, requestId: key });
          order.captureStatus = refunded + cents(value) === captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
          reply = {
            status: 201,
            body: { id: made.id, status: 'COMPLETED', amount: { currency_code: made.currency, value } },
          };
        }
      }
      if (key) refundReplies.set(key, reply);
      if (fake.loseNextRefundReply && reply.status === 201) {
        fake.loseNextRefundReply = false;
        return send(res, 500, { name: 'INTERNAL_SERVER_ERROR' });
      }
      return send(res, reply.status, reply.body);
    }

    const get = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
    if (get && req.method === 'GET') {
      const order = fake.orders.get(decodeURIComponent(get[1] ?? ''));
      return order ? send(res, 200, orderJson(order)) : send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
    }

    if (path === '/v1/notifications/verify-webhook-signature' && req.method === 'POST') {
      const input = JSON.parse(body) as { webhook_id?: string; transmission_sig?: string };
      const ok =
        fake.verification === 'SUCCESS' &&
        input.webhook_id === webhookId &&
        input.transmission_sig === 'good-signature';
      return send(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }

    return send(res, 404, { name: 'NOT_FOUND' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { name: 'INTERNAL', message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Environment for createTestContext that points the app's real PayPal client at the fake. */
export function fakePayPalEnv(fake: FakePayPal): Record<string, string> {
  return {
    PAYPAL_CLIENT_ID: fake.clientId,
    PAYPAL_CLIENT_SECRET: fake.clientSecret,
    PAYPAL_API_BASE: fake.url,
    PAYPAL_WEBHOOK_ID: fake.webhookId,
  };
}

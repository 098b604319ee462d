import { AppError } from '../../lib/errors.js';
import {
  type PaymentProvider,
  type ProviderPayment,
  captureAlreadyRefunded,
  captureNotFound,
  formatAmount,
  parseAmountCents,
  paymentDeclined,
  providerUnreachable,
} from './payment.provider.js';

export interface PayPalProviderOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  webhookId: string | undefined;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
}

interface PayPalOrderJson {
  id?: string;
  status?: string;
  payer?: { email_address?: string };
  purchase_units?: {
    reference_id?: string;
    amount?: { currency_code?: string; value?: string };
    payments?: {
      captures?: { id?: string; status?: string; amount?: { currency_code?: string; value?: string } }[];
    };
  }[];
}

/** PayPal's order JSON -> what the shop checks: the capture's amount once captured, else the order's. */
export function readPayPalOrder(json: PayPalOrderJson): ProviderPayment {
  const unit = json.purchase_units?.[0];
  const capture =
    unit?.payments?.captures?.find((c) => c.status === 'COMPLETED') ?? unit?.payments?.captures?.[0];
  const amount = capture?.amount ?? unit?.amount;
  return {
    status: json.status ?? 'UNKNOWN',
    captureId: capture?.id ?? null,
    captureStatus: capture?.status ?? null,
    referenceId: unit?.reference_id ?? null,
    amountCents: parseAmountCents(amount?.value),
    currency: amount?.currency_code ?? '',
    payerEmail: json.payer?.email_address ?? null,
  };
}

const ALREADY_CAPTURED = 'PAYPAL_ALREADY_CAPTURED';

const TRANSMISSION_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

/** PayPal REST (Orders v2, Payments v2) over plain fetch: OAuth, create, capture, get, refund, webhooks. */
export function createPayPalProvider(options: PayPalProviderOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const base = options.apiBase.replace(/\/+$/, '');
  let token: { value: string; expiresAt: number } | undefined;

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      options.log?.warn({ err: error, path }, 'PayPal request failed');
      throw providerUnreachable();
    }
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > now()) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const json = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!res.ok || typeof json.access_token !== 'string') {
      options.log?.warn({ status: res.status }, 'PayPal refused our credentials');
      throw providerUnreachable();
    }
    // Renewed a minute before PayPal says it ends, so a request never carries an expired token.
    const lifetimeS = typeof json.expires_in === 'number' ? json.expires_in : 300;
    token = { value: json.access_token, expiresAt: now() + Math.max(0, lifetimeS - 60) * 1000 };
    return token.value;
  }

  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await send(path, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        'content-type': 'application/json',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => ({}))) as T & {
      name?: string;
      details?: { issue?: string }[];
    };
    if (res.status === 401) token = undefined;
    if (res.ok) return json;
    if (res.status === 422 && json.details?.some((d) => d.issue === 'ORDER_ALREADY_CAPTURED')) {
      throw new AppError(409, 'PayPal order already captured', ALREADY_CAPTURED);
    }
    if (res.status === 422 && json.details?.some((d) => d.issue === 'CAPTURE_FULLY_REFUNDED')) {
      throw captureAlreadyRefunded();
    }
    if (res.status === 422) {
      options.log?.warn({ path, name: json.name, issue: json.details?.[0]?.issue }, 'PayPal declined');
      throw paymentDeclined();
    }
    if (res.status === 404) throw new AppError(404, 'PayPal order not found', 'PAYPAL_ORDER_NOT_FOUND');
    options.log?.warn({ path, status: res.status, name: json.name }, 'PayPal answered an error');
    throw providerUnreachable();
  }

  return {
    mode: 'paypal',
    clientId: options.clientId,
    async createOrder({ amountCents, currency, referenceId, requestId }) {
      const json = await call<PayPalOrderJson>(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: referenceId,
              amount: { currency_code: currency, value: formatAmount(amountCents) },
            },
          ],
        },
        { 'PayPal-Request-Id': requestId },
      );
      if (typeof json.id !== 'string') throw providerUnreachable();
      return { id: json.id, status: json.status ?? 'CREATED' };
    },
    async captureOrder({ providerOrderId, requestId }) {
      const path = `/v2/checkout/orders/${encodeURIComponent(providerOrderId)}`;
      try {
        const json = await call<PayPalOrderJson>(
          'POST',
          `${path}/capture`,
          {},
          { 'PayPal-Request-Id': requestId, Prefer: 'return=representation' },
        );
        return readPayPalOrder(json);
      } catch (error) {
        // Captured already (by the webhook, or a retry under another id): answer that capture,
        // which the caller checks like any other.
        if (error instanceof AppError && error.code === ALREADY_CAPTURED) {
          return readPayPalOrder(await call<PayPalOrderJson>('GET', path));
        }
        throw error;
      }
    },
    async getOrder(providerOrderId) {
      return readPayPalOrder(
        await call<PayPalOrderJson>('GET', `/v2/checkout/orders/${encodeURIComponent(providerOrderId)}`),
      );
    },
    async refundCapture({ captureId, amountCents, currency, requestId }) {
      try {
        const json = await call<{ id?: string; status?: string }>(
          'POST',
          `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
          { amount: { currency_code: currency, value: formatAmount(amountCents) } },
          // The same id on a retry answers the first refund again instead of refunding twice.
          { 'PayPal-Request-Id': requestId },
        );
        if (typeof json.id !== 'string') throw providerUnreachable();
        return { id: json.id, status: json.status ?? 'PENDING' };
      } catch (error) {
        if (error instanceof AppError && error.code === 'PAYPAL_ORDER_NOT_FOUND') throw captureNotFound();
        throw error;
      }
    },
    async verifyWebhook({ headers, rawBody }) {
      if (!options.webhookId) return false;
      const values: Record<string, string> = {};
      for (const name of TRANSMISSION_HEADERS) {
        const value = headers[name];
        if (typeof value !== 'string' || value === '') return false;
        values[name] = value;
      }
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        return false;
      }
      const json = await call<{ verification_status?: string }>(
        'POST',
        '/v1/notifications/verify-webhook-signature',
        {
          auth_algo: values['paypal-auth-algo'],
          cert_url: values['paypal-cert-url'],
          transmission_id: values['paypal-transmission-id'],
          transmission_sig: values['paypal-transmission-sig'],
          transmission_time: values['paypal-transmission-time'],
          webhook_id: options.webhookId,
          webhook_event: event,
        },
      );
      return json.verification_status === 'SUCCESS';
    },
  };
}

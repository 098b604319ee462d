import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmountCents } from './payment.provider.js';
import { createPayPalProvider, readPayPalOrder } from './paypal.provider.js';

describe('PayPal amounts', () => {
  it('formats cents as PayPal values', () => {
    expect(formatAmount(3099)).toBe('30.99');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(100_000)).toBe('1000.00');
  });

  it('parses only plain amounts', () => {
    expect(parseAmountCents('30.99')).toBe(3099);
    expect(parseAmountCents('30.9')).toBe(3090);
    expect(parseAmountCents('30')).toBe(3000);
    for (const bad of ['-1.00', '1e3', '1.234', '', ' 1.00', 12.5, undefined]) {
      expect(parseAmountCents(bad)).toBeNaN();
    }
  });

  it("reads the capture's amount, not the order's, once captured", () => {
    const read = readPayPalOrder({
      id: 'X',
      status: 'COMPLETED',
      payer: { email_address: 'b@p.test' },
      purchase_units: [
        {
          reference_id: 'default',
          amount: { currency_code: 'USD', value: '10.00' },
          payments: {
            captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'USD', value: '0.01' } }],
          },
        },
      ],
    });
    expect(read).toEqual({
      status: 'COMPLETED',
      captureId: 'C',
      captureStatus: 'COMPLETED',
      referenceId: 'default',
      amountCents: 1,
      currency: 'USD',
      payerEmail: 'b@p.test',
    });
  });

  it('reports a capture that is not completed as such (a pending capture is no payment yet)', () => {
    const read = readPayPalOrder({
      id: 'X',
      status: 'COMPLETED',
      purchase_units: [
        {
          amount: { currency_code: 'USD', value: '10.00' },
          payments: {
            captures: [{ id: 'P', status: 'PENDING', amount: { currency_code: 'USD', value: '10.00' } }],
          },
        },
      ],
    });
    expect(read).toMatchObject({
      captureId: 'P',
      captureStatus: 'PENDING',
      referenceId: null,
      amountCents: 1000,
    });
  });
});

describe('PayPal client', () => {
  it('renews its OAuth token shortly before PayPal says it ends', async () => {
    let now = 0;
    const calls: string[] = [];
    const fetchStub = (async (url: string | URL | Request) => {
      const path = new URL(String(url)).pathname;
      calls.push(path);
      if (path === '/v1/oauth2/token') {
        return new Response(JSON.stringify({ access_token: `T${calls.length}`, expires_in: 3600 }), {
          status: 200,
        });
      }
      return new Response(JSON.stringify({ id: 'O1', status: 'CREATED' }), { status: 201 });
    }) as typeof fetch;
    const provider = createPayPalProvider({
      clientId: 'id',
      clientSecret: 'secret',
      apiBase: 'http://paypal.invalid/',
      webhookId: undefined,
      fetch: fetchStub,
      now: () => now,
    });
    const create = () =>
      provider.createOrder({ amountCents: 100, currency: 'USD', referenceId: 'r', requestId: 'q' });
    await create();
    now = 3_000_000; // 50 minutes: still valid
    await create();
    now = 3_560_000; // within the last minute: renewed
    await create();
    expect(calls.filter((c) => c === '/v1/oauth2/token')).toHaveLength(2);
    expect(await provider.verifyWebhook({ headers: {}, rawBody: '{}' })).toBe(false);
  });

  it("refunds a capture with the caller's PayPal-Request-Id, and reports one refunded already", async () => {
    const refunds: { path: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
      const path = new URL(String(url)).pathname;
      if (path === '/v1/oauth2/token') {
        return new Response(JSON.stringify({ access_token: 'T', expires_in: 3600 }), { status: 200 });
      }
      refunds.push({ path, init: init ?? {} });
      if (refunds.length === 1) {
        return new Response(JSON.stringify({ id: 'R1', status: 'COMPLETED' }), { status: 201 });
      }
      const issue = refunds.length === 2 ? 'CAPTURE_FULLY_REFUNDED' : 'REFUND_AMOUNT_EXCEEDED';
      return new Response(JSON.stringify({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] }), {
        status: 422,
      });
    }) as typeof fetch;
    const provider = createPayPalProvider({
      clientId: 'id',
      clientSecret: 'secret',
      apiBase: 'http://paypal.invalid',
      webhookId: undefined,
      fetch: fetchStub,
    });
    const input = { captureId: 'CAP 1', amountCents: 2099, currency: 'USD', requestId: 'refund-p1' };
    expect(await provider.refundCapture(input)).toEqual({ id: 'R1', status: 'COMPLETED' });
    const [first] = refunds;
    expect(first?.path).toBe('/v2/payments/captures/CAP%201/refund');
    expect(first?.init.method).toBe('POST');
    expect(new Headers(first?.init.headers).get('paypal-request-id')).toBe('refund-p1');
    expect(JSON.parse(String(first?.init.body))).toEqual({
      amount: { currency_code: 'USD', value: '20.99' },
    });
    await expect(provider.refundCapture(input)).rejects.toMatchObject({ code: 'PAYPAL_ALREADY_REFUNDED' });
    await expect(provider.refundCapture(input)).rejects.toMatchObject({ code: 'PAYMENT_DECLINED' });
  });
});

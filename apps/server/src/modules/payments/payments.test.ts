import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse } from '@pixel-vault/shared';
import { mailOutbox, orders, payments } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { type FakePayPal, fakePayPalEnv, startFakePayPal } from '../../test/fake-paypal.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

type Auth = { authorization: string };

async function orderFor(ctx: TestContext, auth: Auth, priceCents = 2000) {
  const p = await insertProduct(ctx.db, { priceCents, stock: 10 });
  return placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]);
}

const createPayPal = (ctx: TestContext, auth: Auth, orderId: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/orders/${orderId}/paypal`, headers: auth });
const capture = (ctx: TestContext, auth: Auth, orderId: string, paypalOrderId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/orders/${orderId}/paypal/capture`,
    headers: auth,
    payload: { paypalOrderId },
  });
const statusOf = async (ctx: TestContext, id: string) =>
  (await ctx.db.select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.s;

describe('PayPal (the real client against a PayPal-compatible server on loopback)', () => {
  let ctx: TestContext;
  let paypal: FakePayPal;

  beforeAll(async () => {
    paypal = await startFakePayPal();
    ctx = await createTestContext({ env: fakePayPalEnv(paypal) });
  });
  afterAll(async () => {
    await ctx.close();
    await paypal.close();
  });
  beforeEach(() => {
    paypal.declineCapture = false;
    paypal.captureValue = undefined;
    paypal.verification = 'SUCCESS';
    paypal.loseNextCaptureReply = false;
  });

  it('answers the client id: as bare text on the spec route, with the mode on /api/config', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config/paypal' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(paypal.clientId);
    const config = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json()).toEqual({
      clientId: paypal.clientId,
      mode: 'paypal',
      currency: 'USD',
      shopCountry: 'US',
    });
  });

  it('pays an order with PayPal alone and never captures a captured payment again', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const created = await createPayPal(ctx, auth, order._id);
    expect(created.statusCode).toBe(200);
    const { id } = created.json<PayPalOrderResponse>();
    expect(paypal.orders.get(id)).toMatchObject({ value: '30.99', currency: 'USD', referenceId: order._id });
    // Asking again for the same amount reuses the open PayPal order.
    expect((await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>().id).toBe(id);

    // Not approved yet: PayPal refuses, the order stays unpaid.
    expect((await capture(ctx, auth, order._id, id)).statusCode).toBe(402);
    paypal.approve(id);
    const res = await capture(ctx, auth, order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Order>()).toMatchObject({
      isPaid: true,
      amountDue: 0,
      paymentResult: { method: 'paypal', status: 'COMPLETED', payerEmail: 'buyer@paypal.test' },
    });
    const again = await capture(ctx, auth, order._id, id);
    expect(again.statusCode).toBe(200);
    const captures = paypal.requests.filter((r) => r.path === `/v2/checkout/orders/${id}/capture`);
    // The refused attempt, then the capture: an already captured payment is not sent again.
    expect(captures).toHaveLength(2);
    expect(captures[1]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // A refusal took no money, so it may rotate the id; the capture's id is the stored one.
    expect(captures[1]?.requestId).not.toBe(captures[0]?.requestId);
    // The spec's payment update afterwards answers the paid order.
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'paypal', status: 'COMPLETED', order_id: id },
    });
    expect(put.statusCode).toBe(200);
    expect(await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email))).toHaveLength(
      1,
    );
    // One OAuth token for all of it (cached).
    expect(paypal.count('/v1/oauth2/token')).toBe(1);
  });

  it('retries a capture whose answer was lost with the same PayPal-Request-Id, capturing once', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    paypal.loseNextCaptureReply = true;
    const lost = await capture(ctx, auth, order._id, id);
    expect(lost.statusCode).toBe(502);
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
    const retry = await capture(ctx, auth, order._id, id);
    expect(retry.statusCode).toBe(200);
    expect(retry.json<Order>().isPaid).toBe(true);
    const captures = paypal.requests.filter((r) => r.path === `/v2/checkout/orders/${id}/capture`);
    expect(captures).toHaveLength(2);
    expect(captures[0]?.requestId).toBeDefined();
    expect(captures[1]?.requestId).toBe(captures[0]?.requestId);
  });

  it('accepts a PayPal order captured elsewhere under another request id, after checking it', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    const fakeOrder = paypal.orders.get(id);
    if (!fakeOrder) throw new Error('no fake order');
    Object.assign(fakeOrder, { status: 'COMPLETED', captureId: 'CAP-ELSEWHERE' });
    const res = await capture(ctx, auth, order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Order>()).toMatchObject({ isPaid: true, paymentResult: { providerId: 'CAP-ELSEWHERE' } });
  });

  it('charges PayPal only the remainder after a gift card', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const order = await orderFor(ctx, auth);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10, orderId: order._id },
    });
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    expect(paypal.orders.get(id)?.value).toBe('20.99');
    paypal.approve(id);
    const res = await capture(ctx, auth, order._id, id);
    expect(res.json<Order>()).toMatchObject({
      isPaid: true,
      giftCardAmount: 10,
      paymentResult: { method: 'Gift Card + PayPal' },
    });
  });

  it('refuses to capture a PayPal order made before a gift card lowered the remainder', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const order = await orderFor(ctx, auth);
    const first = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(first.id);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10, orderId: order._id },
    });
    const stale = await capture(ctx, auth, order._id, first.id);
    expect(stale.statusCode).toBe(409);
    expect(paypal.count(`/${first.id}/capture`)).toBe(0);
    const second = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    expect(second.id).not.toBe(first.id);
    expect(paypal.orders.get(second.id)?.value).toBe('20.99');
    paypal.approve(second.id);
    expect((await capture(ctx, auth, order._id, second.id)).json<Order>().isPaid).toBe(true);
  });

  it("refuses to create or capture for another customer's order, or a PayPal order of another order", async () => {
    const owner = await insertUser(ctx.db);
    const stranger = await insertUser(ctx.db);
    const order = await orderFor(ctx, owner.auth);
    const strangerOrder = await orderFor(ctx, stranger.auth);
    expect((await createPayPal(ctx, stranger.auth, order._id)).statusCode).toBe(404);
    const { id } = (await createPayPal(ctx, owner.auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    expect((await capture(ctx, stranger.auth, order._id, id)).statusCode).toBe(404);
    expect((await capture(ctx, stranger.auth, strangerOrder._id, id)).statusCode).toBe(404);
    expect((await capture(ctx, owner.auth, order._id, 'PP-NOT-OURS')).statusCode).toBe(404);
    expect(paypal.count(`/${id}/capture`)).toBe(0);
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
  });

  it('leaves the order unpaid when PayPal declines the capture (402)', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    paypal.declineCapture = true;
    const res = await capture(ctx, auth, order._id, id);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: 'PayPal declined the payment' });
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
  });

  it('refuses a capture of a different amount (409) and keeps the order unpaid', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    paypal.captureValue = '0.01';
    const res = await capture(ctx, auth, order._id, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'Payment amount does not match the order' });
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
    const [payment] = await ctx.db.select().from(payments).where(eq(payments.providerOrderId, id));
    expect(payment?.status).toBe('failed');
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'paypal', status: 'COMPLETED' },
    });
    expect(put.statusCode).toBe(402);
  });

  it('settles from a verified webhook when the browser vanished, and refuses a bad signature', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    const event = JSON.stringify({
      id: 'WH-EVENT-1',
      event_type: 'CHECKOUT.ORDER.APPROVED',
      resource: {
        id,
        status: 'APPROVED',
        purchase_units: [{ amount: { currency_code: 'USD', value: '0.01' } }],
      },
    });
    const webhook = (signature: string, payload = event) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/paypal/webhook',
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': 'https://api.paypal.com/cert.pem',
          'paypal-transmission-id': 'T-1',
          'paypal-transmission-sig': signature,
          'paypal-transmission-time': new Date().toISOString(),
        },
        payload,
      });
    const bad = await webhook('forged');
    expect(bad.statusCode).toBe(400);
    expect(await statusOf(ctx, order._id)).toBe('unpaid');

    const good = await webhook('good-signature');
    expect(good.statusCode).toBe(200);
    expect(await statusOf(ctx, order._id)).toBe('paid');
    // PayPal delivers again, and the browser comes back: nothing changes, one mail.
    expect((await webhook('good-signature')).statusCode).toBe(200);
    const completed = JSON.stringify({
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAP-1', supplementary_data: { related_ids: { order_id: id } } },
    });
    expect((await webhook('good-signature', completed)).statusCode).toBe(200);
    expect((await capture(ctx, auth, order._id, id)).json<Order>().isPaid).toBe(true);
    expect(paypal.count(`/${id}/capture`)).toBe(1);
    expect(await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email))).toHaveLength(
      1,
    );
    // Events it does not handle are acknowledged.
    expect(
      (await webhook('good-signature', JSON.stringify({ event_type: 'BILLING.PLAN.CREATED' }))).statusCode,
    ).toBe(200);
  });

  it('answers 502 when PayPal is unreachable, and the order stays unpaid', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    paypal.approve(id);
    await paypal.close();
    const res = await capture(ctx, auth, order._id, id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ message: 'PayPal is not reachable right now. Please try again.' });
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
    const other = await orderFor(ctx, auth);
    expect((await createPayPal(ctx, auth, other._id)).statusCode).toBe(502);
  });
});

describe("the spec's PayPal sequence: captured in the browser, then PUT /payment with the PayPal order id", () => {
  let ctx: TestContext;
  let paypal: FakePayPal;

  beforeAll(async () => {
    paypal = await startFakePayPal();
    ctx = await createTestContext({ env: fakePayPalEnv(paypal) });
  });
  afterAll(async () => {
    await ctx.close();
    await paypal.close();
  });

  const pay = (auth: Auth, orderId: string, paypalOrderId: string) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/payment`,
      headers: auth,
      payload: {
        order_id: paypalOrderId,
        status: 'COMPLETED',
        updated_time: new Date().toISOString(),
        email_address: 'buyer@paypal.test',
        payment_method: 'paypal',
      },
    });
  const paymentsOf = (orderId: string) => ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
  const paymentsFor = (paypalOrderId: string) =>
    ctx.db.select().from(payments).where(eq(payments.providerOrderId, paypalOrderId));
  const mailsTo = (email: string) => ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  /** $20.00 + 15% tax + $7.99 shipping. */
  const TOTAL = '30.99';

  it('pays the order once, after reading the payment back from PayPal, and answers replays', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id, captureId } = paypal.buyerPays(TOTAL);
    const before = paypal.count(`/v2/checkout/orders/${id}`);

    const res = await pay(auth, order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Order>()).toMatchObject({
      isPaid: true,
      amountDue: 0,
      paymentResult: { method: 'paypal', providerId: captureId, status: 'COMPLETED' },
    });
    // The server asked PayPal itself, and captured nothing (the browser did).
    expect(paypal.count(`/v2/checkout/orders/${id}`)).toBe(before + 1);
    expect(paypal.count(`/v2/checkout/orders/${id}/capture`)).toBe(0);
    expect(await paymentsOf(order._id)).toMatchObject([
      { providerOrderId: id, captureId, status: 'captured', amountCents: 3099 },
    ]);

    for (let i = 0; i < 2; i += 1) {
      const again = await pay(auth, order._id, id);
      expect(again.statusCode).toBe(200);
      expect(again.json<Order>().paidAt).toBe(res.json<Order>().paidAt);
    }
    expect(await paymentsOf(order._id)).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('refuses payments PayPal has not completed, in another currency, above the amount due, or unknown, recording nothing', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const cases: [ReturnType<FakePayPal['buyerPays']> | { id: string }, number, string][] = [
      [paypal.buyerPays(TOTAL, { status: 'APPROVED' }), 402, 'PAYMENT_NOT_COMPLETED'],
      [paypal.buyerPays(TOTAL, { captureStatus: 'PENDING' }), 402, 'PAYMENT_NOT_COMPLETED'],
      [paypal.buyerPays(TOTAL, { currency: 'EUR' }), 409, 'PAYMENT_CURRENCY_MISMATCH'],
      [paypal.buyerPays('31.00'), 409, 'PAYMENT_AMOUNT_MISMATCH'],
      [{ id: 'PP0000000000000000' }, 402, 'PAYMENT_NOT_FOUND'],
    ];
    for (const [payment, status, code] of cases) {
      const res = await pay(auth, order._id, payment.id);
      expect(res.statusCode, code).toBe(status);
      expect(res.json<{ code: string; message: string }>().code).toBe(code);
      expect(await paymentsFor(payment.id)).toHaveLength(0);
    }
    expect((await pay(auth, order._id, 'not a paypal id!')).statusCode).toBe(400);
    expect(await statusOf(ctx, order._id)).toBe('unpaid');
    expect(await paymentsOf(order._id)).toHaveLength(0);
  });

  it('never lets one PayPal payment pay two orders, even offered for both at once', async () => {
    const { auth } = await insertUser(ctx.db);
    const a = await orderFor(ctx, auth);
    const b = await orderFor(ctx, auth);
    const { id } = paypal.buyerPays(TOTAL);
    const results = await Promise.all([pay(auth, a._id, id), pay(auth, b._id, id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.statusCode === 409);
    expect(refused?.json()).toMatchObject({
      message: 'This PayPal payment was already used for another order',
      code: 'PAYMENT_USED',
    });
    expect(await paymentsFor(id)).toHaveLength(1);
    expect([await statusOf(ctx, a._id), await statusOf(ctx, b._id)].sort()).toEqual(['paid', 'unpaid']);
    // Offered later, by another customer too: still refused.
    const stranger = await insertUser(ctx.db);
    const theirs = await orderFor(ctx, stranger.auth);
    expect((await pay(stranger.auth, theirs._id, id)).statusCode).toBe(409);
    expect(await statusOf(ctx, theirs._id)).toBe('unpaid');
  });

  it("refuses a PayPal order this shop made for another of its orders, and another customer's order", async () => {
    const { auth } = await insertUser(ctx.db);
    const mine = await orderFor(ctx, auth);
    const other = await orderFor(ctx, auth);
    const { id } = paypal.buyerPays(TOTAL, { referenceId: other._id });
    const res = await pay(auth, mine._id, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_USED' });
    const stranger = await insertUser(ctx.db);
    expect((await pay(stranger.auth, mine._id, paypal.buyerPays(TOTAL).id)).statusCode).toBe(404);
    expect(await paymentsOf(mine._id)).toHaveLength(0);
  });

  it('keeps a capture below the amount due on the order (402 with the rest); a gift card then completes it once', async () => {
    const { auth, user } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const order = await orderFor(ctx, auth);
    // The spec's combined checkout, PayPal first: PayPal paid the remainder after the card's $10.
    const { id } = paypal.buyerPays('20.99');
    const partial = await pay(auth, order._id, id);
    expect(partial.statusCode).toBe(402);
    expect(partial.json()).toEqual({
      message: 'Payment is not complete: $10.00 still due',
      code: 'PAYMENT_INCOMPLETE',
      amountDue: 10,
    });
    expect(await paymentsOf(order._id)).toMatchObject([{ status: 'captured', amountCents: 2099 }]);
    // A replay records nothing more.
    expect((await pay(auth, order._id, id)).statusCode).toBe(402);
    expect(await paymentsOf(order._id)).toHaveLength(1);

    const used = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: 10 },
    });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ orderId: order._id, applied: 10, amountDue: 0 });
    expect(await statusOf(ctx, order._id)).toBe('paid');
    expect(await mailsTo(user.email)).toHaveLength(1);
    const paidOrder = (
      await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth })
    ).json<Order>();
    expect(paidOrder.paymentResult?.method).toBe('Gift Card + PayPal');
  });

  it('records a capture offered for an expired order, so it can be refunded, and answers 409', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    await ctx.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order._id));
    // Overdue but not swept yet: the stock is still held, so the money pays the order.
    const late = paypal.buyerPays(TOTAL);
    expect((await pay(auth, order._id, late.id)).statusCode).toBe(200);

    const expiring = await orderFor(ctx, auth);
    await ctx.db
      .update(orders)
      .set({ status: 'expired', updatedAt: new Date() })
      .where(eq(orders.id, expiring._id));
    const { id, captureId } = paypal.buyerPays(TOTAL);
    const res = await pay(auth, expiring._id, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_EXPIRED' });
    expect(await paymentsOf(expiring._id)).toMatchObject([{ captureId, status: 'captured' }]);
    expect(await statusOf(ctx, expiring._id)).toBe('expired');
  });

  it("records our own PayPal order when PayPal's script captured it in the browser", async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const { id } = (await createPayPal(ctx, auth, order._id)).json<PayPalOrderResponse>();
    const fakeOrder = paypal.orders.get(id);
    if (!fakeOrder) throw new Error('no fake order');
    Object.assign(fakeOrder, { status: 'COMPLETED', captureId: 'CAP-IN-BROWSER' });
    const res = await pay(auth, order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Order>().paymentResult?.providerId).toBe('CAP-IN-BROWSER');
    expect(await paymentsOf(order._id)).toMatchObject([{ providerOrderId: id, status: 'captured' }]);
  });

  it('refuses a second PayPal payment for an order already paid, recording nothing', async () => {
    const { auth } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    expect((await pay(auth, order._id, paypal.buyerPays(TOTAL).id)).statusCode).toBe(200);
    const second = paypal.buyerPays(TOTAL);
    const res = await pay(auth, order._id, second.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_PAID' });
    expect(await paymentsFor(second.id)).toHaveLength(0);
  });
});

describe('demo mode (no PayPal credentials)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('completes a checkout end to end: create -> capture -> paid, once', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/config/paypal' })).body).toBe('demo');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ clientId: 'demo', mode: 'demo', currency: 'USD', shopCountry: 'US' });
    const { auth, user } = await insertUser(ctx.db);
    const order = await orderFor(ctx, auth);
    const created = await createPayPal(ctx, auth, order._id);
    expect(created.statusCode).toBe(200);
    const { id } = created.json<PayPalOrderResponse>();
    expect(id).toMatch(/^DEMO-/);
    const paid = await capture(ctx, auth, order._id, id);
    expect(paid.statusCode).toBe(200);
    expect(paid.json<Order>()).toMatchObject({
      isPaid: true,
      paymentResult: { method: 'demo', status: 'COMPLETED' },
    });
    expect((await capture(ctx, auth, order._id, id)).statusCode).toBe(200);
    expect((await createPayPal(ctx, auth, order._id)).statusCode).toBe(409);
    expect(await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email))).toHaveLength(
      1,
    );
  });

  it('declares who may call each checkout route, and refuses visitors on the private ones', async () => {
    const table = ctx.app.accessTable
      .filter((r) => /^\/api\/(orders|giftcards|config|payments)/.test(r.url))
      .map((r) => `${r.method} ${r.url} ${r.access}`)
      .sort();
    expect(table).toEqual(
      [
        'GET /api/config/paypal public',
        'GET /api/config public',
        'GET /api/giftcards/admin/getall admin',
        'GET /api/orders user',
        'GET /api/orders/:id user',
        'POST /api/giftcards/admin/create admin',
        'POST /api/giftcards/check-balance user',
        'POST /api/giftcards/use user',
        // Remove beside an applied gift card (issue 30).
        'POST /api/giftcards/remove user',
        'POST /api/orders user',
        'POST /api/orders/:id/paypal user',
        'POST /api/orders/:id/paypal/capture user',
        'POST /api/payments/paypal/webhook public',
        'PUT /api/orders/:id/payment user',
        // Admin dashboard (issue 4).
        'GET /api/orders/admin/vieworders admin',
        'PUT /api/orders/:id/delivery admin',
        'PUT /api/giftcards/admin/:id/add-balance admin',
        'DELETE /api/giftcards/admin/delete/:id admin',
        // Cancellations and refunds (issue 12).
        'POST /api/orders/:id/cancel user',
        'POST /api/orders/:id/refund admin',
      ].sort(),
    );
    const id = '00000000-0000-4000-8000-000000000000';
    for (const entry of ctx.app.accessTable.filter(
      (r) => r.access !== 'public' && /^\/api\/(orders|giftcards)/.test(r.url),
    )) {
      const res = await ctx.app.inject({
        method: entry.method as 'GET',
        url: entry.url.replace(':id', id),
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode, entry.url).toBe(401);
    }
  });

  it('has no webhook (404)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });

  it('sends one confirmation mail with the order and escaped customer text', async () => {
    const { auth, user } = await insertUser(ctx.db, { name: '<b>Eve</b>' });
    const p = await insertProduct(ctx.db, { name: 'Zelda <II> & "Link"', priceCents: 1999, stock: 5 });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: auth,
      payload: {
        orderItems: [{ product: p.id, itemQuantity: 2 }],
        shippingAddress: {
          address: '<script>alert(1)</script>',
          city: 'Paris',
          postalCode: '75001',
          country: 'France',
        },
      },
    });
    const order = res.json<Order>();
    const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: order.totalPrice, orderId: order._id },
    });
    for (let i = 0; i < 3; i++) {
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/payment`,
        headers: auth,
        payload: { payment_method: 'Gift Card' },
      });
    }
    await ctx.mail.worker.drainOnce();
    const mails = ctx.mail.sent.filter((m) => m.to === user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.subject).toBe(`Your Pixel Vault order #${order.orderNumber}`);
    expect(mail?.text).toContain(order._id);
    expect(mail?.text).toContain('Zelda <II> & "Link": 2 x $19.99 = $39.98');
    expect(mail?.text).toContain('Total: $53.97');
    expect(mail?.html).toContain('Zelda &lt;II&gt; &amp; &quot;Link&quot;');
    expect(mail?.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail?.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(mail?.html).not.toContain('<script>');
    expect(mail?.html).toContain('$39.98');
    expect(mail?.html).toContain('$7.99');
    expect(mail?.html).toContain('$6.00');
  });
});

import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { giftCardLedger, giftCards, mailOutbox, orders, payments } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { type FakePayPal, fakePayPalEnv, startFakePayPal } from '../../test/fake-paypal.js';
import {
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  stockOf as stockIn,
} from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';
import { createDemoProvider } from './demo.provider.js';
import type { PaymentProvider } from './payment.provider.js';
import { createPaymentReconciler } from './payments.reconciler.js';
import { createPayPalProvider } from './paypal.provider.js';

type Auth = { authorization: string };
const quiet = { info() {}, warn() {}, error() {} };
/** $20.00 + 15% tax + $7.99 shipping. */
const TOTAL_CENTS = 3099;

/** Shared by both providers: a shop on `ctx` whose provider `provider` the test can also call directly. */
function helpers(get: () => { ctx: TestContext; provider: PaymentProvider }) {
  const db = (): Database => get().ctx.db;
  const paymentOf = async (providerOrderId: string) =>
    (await db().select().from(payments).where(eq(payments.providerOrderId, providerOrderId)))[0];
  const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0];
  const stockOf = (id: string) => stockIn(db(), id);
  const mailsTo = (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const sweep = () => createOrderExpiry({ db: db(), log: quiet }).sweepOnce();
  const makeOverdue = (orderId: string) =>
    db()
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, orderId));
  /** A reconciler whose clock runs `minutes` ahead, so every payment here has been idle long enough. */
  const reconciler = (minutes = 2) =>
    createPaymentReconciler({
      db: db(),
      payments: get().ctx.app.services.payments,
      log: quiet,
      clock: () => new Date(Date.now() + minutes * 60_000),
    });

  async function shopper(stock = 10) {
    const { auth, user } = await insertUser(db());
    const product = await insertProduct(db(), { priceCents: 2000, stock });
    const order = await placeOrder(get().ctx.app, auth, [{ product: product.id, itemQuantity: 1 }]);
    return { auth, user, product, order };
  }

  async function providerOrder(auth: Auth, orderId: string): Promise<string> {
    const res = await get().ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/paypal`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    return res.json<PayPalOrderResponse>().id;
  }

  /** The provider captures, and the server dies before it records the capture (kill -9). */
  async function captureThenCrash(providerOrderId: string) {
    const payment = await paymentOf(providerOrderId);
    if (!payment) throw new Error('no payment row');
    const captured = await get().provider.captureOrder({ providerOrderId, requestId: payment.requestId });
    expect(captured).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED' });
    expect((await paymentOf(providerOrderId))?.status).toBe('created');
    return captured;
  }

  /**
   * The race this issue found: the browser asked for a PayPal order as the hold ran out.
   * createProviderOrder checked the order (unpaid) under its lock, the sweep then expired it, and
   * the payment row was written after (that insert holds no lock).
   */
  async function providerOrderAfterExpiry(orderId: string, amountCents: number): Promise<string> {
    const created = await get().provider.createOrder({
      amountCents,
      currency: 'USD',
      referenceId: orderId,
      requestId: randomUUID(),
    });
    await makeOverdue(orderId);
    await sweep();
    expect((await orderRow(orderId))?.status).toBe('expired');
    await db().insert(payments).values({
      orderId,
      provider: get().provider.mode,
      providerOrderId: created.id,
      amountCents,
      currency: 'USD',
      requestId: randomUUID(),
      raw: created,
    });
    return created.id;
  }

  async function useGiftCard(auth: Auth, orderId: string, balanceCents: number, dollars: number) {
    const card = await insertGiftCard(db(), { balanceCents });
    const res = await get().ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: auth,
      payload: { code: card.code, amount: dollars, orderId },
    });
    expect(res.statusCode).toBe(200);
    return card;
  }

  const cardRefunds = async (cardId: string) =>
    db()
      .select()
      .from(giftCardLedger)
      .where(and(eq(giftCardLedger.giftCardId, cardId), eq(giftCardLedger.kind, 'order_refund')));
  const balanceOf = async (cardId: string) =>
    (await db().select().from(giftCards).where(eq(giftCards.id, cardId)))[0]?.balanceCents;

  return {
    paymentOf,
    orderRow,
    stockOf,
    mailsTo,
    sweep,
    makeOverdue,
    reconciler,
    shopper,
    providerOrder,
    captureThenCrash,
    providerOrderAfterExpiry,
    useGiftCard,
    cardRefunds,
    balanceOf,
  };
}

describe('payment reconciler, PayPal (the real client against a PayPal-compatible server)', () => {
  let ctx: TestContext;
  let paypal: FakePayPal;
  let provider: PaymentProvider;
  const h = helpers(() => ({ ctx, provider }));
  const refundsOf = (captureId: string | null) => paypal.refunds.filter((r) => r.captureId === captureId);

  beforeAll(async () => {
    paypal = await startFakePayPal();
    provider = createPayPalProvider({
      clientId: paypal.clientId,
      clientSecret: paypal.clientSecret,
      apiBase: paypal.url,
      webhookId: paypal.webhookId,
    });
    ctx = await createTestContext({ env: fakePayPalEnv(paypal), app: { paymentProvider: provider } });
  });
  afterAll(async () => {
    await ctx.close();
    await paypal.close();
  });

  it('records a capture the server died before recording: the order is paid once, one mail, even with two reconcilers at once', async () => {
    const { auth, user, order } = await h.shopper();
    const id = await h.providerOrder(auth, order._id);
    paypal.approve(id);
    const captured = await h.captureThenCrash(id);

    await Promise.all([h.reconciler().reconcileOnce(), h.reconciler().reconcileOnce()]);
    expect(await h.orderRow(order._id)).toMatchObject({
      status: 'paid',
      paymentResultProviderId: captured.captureId,
    });
    expect(await h.paymentOf(id)).toMatchObject({ status: 'captured', captureId: captured.captureId });
    expect(await h.mailsTo(user.email)).toHaveLength(1);

    // Later runs find nothing to do: no second capture, no refund, no second mail.
    await h.reconciler(5).reconcileOnce();
    expect(await h.mailsTo(user.email)).toHaveLength(1);
    expect(paypal.count(`/${id}/capture`)).toBe(1);
    expect(refundsOf(captured.captureId)).toHaveLength(0);
  });

  it('captures a payment the buyer approved whose browser vanished, with its stored request id', async () => {
    const { auth, user, order } = await h.shopper();
    const id = await h.providerOrder(auth, order._id);
    paypal.approve(id);
    await h.reconciler().reconcileOnce();
    expect((await h.orderRow(order._id))?.status).toBe('paid');
    const payment = await h.paymentOf(id);
    expect(payment?.status).toBe('captured');
    const captures = paypal.requests.filter((r) => r.path === `/v2/checkout/orders/${id}/capture`);
    expect(captures.map((c) => c.requestId)).toEqual([payment?.requestId]);
    expect(await h.mailsTo(user.email)).toHaveLength(1);
  });

  it('refunds a capture made for an order that expired meanwhile: one refund, stock and gift card back once', async () => {
    const { auth, user, product, order } = await h.shopper(5);
    const card = await h.useGiftCard(auth, order._id, 1000, 10);
    expect(await h.stockOf(product.id)).toBe(4);
    const id = await h.providerOrderAfterExpiry(order._id, TOTAL_CENTS - 1000);
    paypal.approve(id);
    const captured = await h.captureThenCrash(id);

    await Promise.all([h.reconciler().reconcileOnce(), h.reconciler().reconcileOnce()]);
    const refunds = refundsOf(captured.captureId);
    expect(refunds).toMatchObject([{ value: '20.99', currency: 'USD' }]);
    expect(await h.paymentOf(id)).toMatchObject({
      status: 'refunded',
      captureId: captured.captureId,
      refundId: refunds[0]?.id,
    });
    expect((await h.orderRow(order._id))?.status).toBe('expired');
    expect(await h.stockOf(product.id)).toBe(5);
    expect(await h.balanceOf(card.id)).toBe(1000);
    expect(await h.cardRefunds(card.id)).toHaveLength(1);
    expect(await h.mailsTo(user.email)).toHaveLength(0);

    await h.reconciler(5).reconcileOnce();
    expect(refundsOf(captured.captureId)).toHaveLength(1);
    expect(await h.stockOf(product.id)).toBe(5);
    expect(await h.balanceOf(card.id)).toBe(1000);
  });

  it('refunds a capture recorded for an expired order (the spec client paid after expiry), once', async () => {
    const { auth, order } = await h.shopper();
    await h.makeOverdue(order._id);
    await h.sweep();
    const late = paypal.buyerPays('30.99');
    const pay = () =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/payment`,
        headers: auth,
        payload: { payment_method: 'paypal', status: 'COMPLETED', order_id: late.id },
      });
    expect((await pay()).statusCode).toBe(409);
    expect(await h.paymentOf(late.id)).toMatchObject({ status: 'captured', captureId: late.captureId });

    await Promise.all([h.reconciler().reconcileOnce(), h.reconciler().reconcileOnce()]);
    const refunds = refundsOf(late.captureId);
    expect(refunds).toHaveLength(1);
    expect(paypal.count(`/captures/${late.captureId}/refund`)).toBe(1);
    expect(await h.paymentOf(late.id)).toMatchObject({ status: 'refunded', refundId: refunds[0]?.id });

    // Offered again: still expired, and the refunded payment stays refunded.
    expect((await pay()).statusCode).toBe(409);
    await h.reconciler(5).reconcileOnce();
    expect(refundsOf(late.captureId)).toHaveLength(1);
    expect((await h.paymentOf(late.id))?.status).toBe('refunded');
  });

  it('keeps an overdue order with a payment in flight until the reconciler finds it never approved, then expires it', async () => {
    const { auth, product, order } = await h.shopper(3);
    const id = await h.providerOrder(auth, order._id);
    // Within its hold the buyer may still approve: the reconciler leaves it alone.
    await h.reconciler().reconcileOnce();
    expect((await h.paymentOf(id))?.status).toBe('created');

    await h.makeOverdue(order._id);
    await h.sweep();
    expect((await h.orderRow(order._id))?.status).toBe('unpaid');
    expect(await h.stockOf(product.id)).toBe(2);
    // Touching the order does not expire it either.
    const touch = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'paypal' },
    });
    expect(touch.json<{ code: string }>().code).toBe('PAYMENT_INCOMPLETE');
    expect((await h.orderRow(order._id))?.status).toBe('unpaid');

    await h.reconciler(3).reconcileOnce();
    expect((await h.paymentOf(id))?.status).toBe('failed');
    await h.sweep();
    expect((await h.orderRow(order._id))?.status).toBe('expired');
    expect(await h.stockOf(product.id)).toBe(3);
    expect(paypal.count(`/${id}/capture`)).toBe(0);
  });

  it('changes nothing while PayPal is unreachable, and records the capture on the next run', async () => {
    const { auth, user, order } = await h.shopper();
    const id = await h.providerOrder(auth, order._id);
    paypal.approve(id);
    await h.captureThenCrash(id);
    await h.makeOverdue(order._id);

    paypal.down = true;
    try {
      const report = await h.reconciler().reconcileOnce();
      expect(report.errors).toBeGreaterThanOrEqual(1);
      expect((await h.paymentOf(id))?.status).toBe('created');
      await h.sweep();
      expect((await h.orderRow(order._id))?.status).toBe('unpaid');
    } finally {
      paypal.down = false;
    }

    // A minute later PayPal answers: the money was taken while the stock was still held, so it pays.
    await h.reconciler(3).reconcileOnce();
    expect((await h.orderRow(order._id))?.status).toBe('paid');
    expect(await h.mailsTo(user.email)).toHaveLength(1);
    const dto = (
      await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: auth })
    ).json<Order>();
    expect(dto.isPaid).toBe(true);
  });
});

describe('payment reconciler, demo provider', () => {
  let ctx: TestContext;
  let provider: PaymentProvider;
  const h = helpers(() => ({ ctx, provider }));

  beforeAll(async () => {
    ctx = await createTestContext();
    // Another instance of the demo provider on the same database: what the app's one sees.
    provider = createDemoProvider({ db: ctx.db });
  });
  afterAll(() => ctx.close());

  it('records a demo capture the server died before recording, once', async () => {
    const { auth, user, order } = await h.shopper();
    const id = await h.providerOrder(auth, order._id);
    await h.captureThenCrash(id);
    await Promise.all([h.reconciler().reconcileOnce(), h.reconciler().reconcileOnce()]);
    expect((await h.orderRow(order._id))?.status).toBe('paid');
    expect((await h.paymentOf(id))?.status).toBe('captured');
    await h.reconciler(5).reconcileOnce();
    expect(await h.mailsTo(user.email)).toHaveLength(1);
  });

  it('refunds a demo capture made for an order that expired meanwhile, giving stock and gift card back once', async () => {
    const { auth, user, product, order } = await h.shopper(5);
    const card = await h.useGiftCard(auth, order._id, 1000, 10);
    const id = await h.providerOrderAfterExpiry(order._id, TOTAL_CENTS - 1000);
    const captured = await h.captureThenCrash(id);
    await Promise.all([h.reconciler().reconcileOnce(), h.reconciler().reconcileOnce()]);
    expect(await h.paymentOf(id)).toMatchObject({
      status: 'refunded',
      captureId: captured.captureId,
      refundId: expect.stringMatching(/^DEMO-REFUND-/) as unknown,
    });
    expect((await h.orderRow(order._id))?.status).toBe('expired');
    expect(await h.stockOf(product.id)).toBe(5);
    expect(await h.balanceOf(card.id)).toBe(1000);
    expect(await h.cardRefunds(card.id)).toHaveLength(1);
    expect(await h.mailsTo(user.email)).toHaveLength(0);
  });

  it('expires an overdue order whose demo payment was never completed, only once the reconciler failed it', async () => {
    const { auth, product, order } = await h.shopper(2);
    const id = await h.providerOrder(auth, order._id);
    await h.makeOverdue(order._id);
    await h.sweep();
    expect((await h.orderRow(order._id))?.status).toBe('unpaid');
    expect(await h.stockOf(product.id)).toBe(1);
    await h.reconciler().reconcileOnce();
    expect((await h.paymentOf(id))?.status).toBe('failed');
    await h.sweep();
    expect((await h.orderRow(order._id))?.status).toBe('expired');
    expect(await h.stockOf(product.id)).toBe(2);
  });
});

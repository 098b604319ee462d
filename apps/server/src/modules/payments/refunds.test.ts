import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order, PayPalOrderResponse } from '@pixel-vault/shared';
import {
  auditLog,
  giftCardLedger,
  giftCards,
  mailOutbox,
  orderRefunds,
  orders,
} from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { type FakePayPal, fakePayPalEnv, startFakePayPal } from '../../test/fake-paypal.js';
import {
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  stockOf as stockIn,
} from '../../test/factories.js';
import { createPaymentReconciler } from './payments.reconciler.js';

type Auth = { authorization: string };
const quiet = { info() {}, warn() {}, error() {} };
/** One $20.00 item: + 15% tax + $7.99 shipping. */
const TOTAL_CENTS = 3099;

/**
 * Issue 12: cancellations and refunds move money back exactly once, against a PayPal-compatible server
 * on loopback, on PGlite and (npm run test:pg) PostgreSQL.
 */
describe('cancellations and refunds', () => {
  let ctx: TestContext;
  let paypal: FakePayPal;
  let admin: Auth;

  beforeAll(async () => {
    paypal = await startFakePayPal();
    ctx = await createTestContext({ env: fakePayPalEnv(paypal), app: { limits: NO_RATE_LIMITS } });
    admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  });
  afterAll(async () => {
    await ctx.close();
    await paypal.close();
  });
  beforeEach(() => {
    paypal.loseNextRefundReply = false;
    paypal.declineRefunds = false;
  });

  const post = (url: string, headers: Auth, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const cancel = (auth: Auth, id: string) => post(`/api/orders/${id}/cancel`, auth);
  const refund = (id: string, payload: object) => post(`/api/orders/${id}/refund`, admin, payload);

  const stockOf = (id: string) => stockIn(ctx.db, id);
  const balanceOf = async (id: string) =>
    (await ctx.db.select({ b: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, id)))[0]?.b;
  /** An order's mails whose subject starts so (a subject ends with the order's number, issue 30). */
  const mailsFor = async (order: { orderNumber: number }, subjectStart: string) =>
    ctx.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `${subjectStart}%#${order.orderNumber}`));
  const refundsAtPayPal = (captureId: string) => paypal.refunds.filter((r) => r.captureId === captureId);
  const reconciler = () =>
    createPaymentReconciler({
      db: ctx.db,
      payments: ctx.app.services.payments,
      refunds: ctx.app.services.refunds,
      log: quiet,
      clock: () => new Date(Date.now() + 60_000),
    });

  /** An order for one $20 item, placed by a new customer; `stock` units on the shelf before it. */
  async function newOrder(options: { stock?: number; name?: string } = {}) {
    const customer = await insertUser(ctx.db, options.name ? { name: options.name } : {});
    const product = await insertProduct(ctx.db, { priceCents: 2000, stock: options.stock ?? 10 });
    const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    return { auth: customer.auth, product, order };
  }

  async function payWithGiftCard(auth: Auth, orderId: string, balanceCents: number) {
    const card = await insertGiftCard(ctx.db, { balanceCents });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/payment`,
      headers: auth,
      payload: { payment_method: 'Gift Card', gift_card_code: card.code },
    });
    expect([200, 402]).toContain(res.statusCode);
    return card;
  }

  /** Creates the shop's PayPal order for what is due and has the buyer approve it. */
  async function approvedPayPal(auth: Auth, orderId: string): Promise<string> {
    const created = await post(`/api/orders/${orderId}/paypal`, auth);
    expect(created.statusCode).toBe(200);
    const { id } = created.json<PayPalOrderResponse>();
    paypal.approve(id);
    return id;
  }

  async function payWithPayPal(auth: Auth, orderId: string): Promise<string> {
    const id = await approvedPayPal(auth, orderId);
    const res = await post(`/api/orders/${orderId}/paypal/capture`, auth, { paypalOrderId: id });
    expect(res.statusCode).toBe(200);
    const captureId = paypal.orders.get(id)?.captureId;
    if (!captureId) throw new Error('no capture');
    return captureId;
  }

  /** Paid $10 by gift card and $20.99 by PayPal. */
  async function mixedPaidOrder(options: { stock?: number; name?: string } = {}) {
    const placed = await newOrder(options);
    const card = await payWithGiftCard(placed.auth, placed.order._id, 1000);
    const captureId = await payWithPayPal(placed.auth, placed.order._id);
    return { ...placed, card, captureId };
  }

  describe('the customer cancels', () => {
    it('an unpaid order at once: stock and the gift-card money held come back, one mail, and again changes nothing', async () => {
      const { auth, product, order } = await newOrder({ stock: 5 });
      const card = await payWithGiftCard(auth, order._id, 1000);
      expect(await balanceOf(card.id)).toBe(0);
      expect(await stockOf(product.id)).toBe(4);

      const res = await cancel(auth, order._id);
      expect(res.statusCode).toBe(200);
      const cancelled = res.json<Order>();
      expect(cancelled).toMatchObject({ status: 'cancelled', isPaid: false, refundedPrice: 0, amountDue: 0 });
      expect(cancelled.timeline?.map((e) => [e.event, e.by])).toEqual([
        ['placed', 'customer'],
        ['cancelled', 'customer'],
      ]);
      expect(cancelled.timeline?.at(-1)?.note).toMatch(/^\$10\.00 back to gift card ending [0-9A-Z]{4}$/);
      expect(await stockOf(product.id)).toBe(5);
      expect(await balanceOf(card.id)).toBe(1000);

      const again = await cancel(auth, order._id);
      expect(again.statusCode).toBe(200);
      expect(again.json<Order>().status).toBe('cancelled');
      expect(await stockOf(product.id)).toBe(5);
      expect(await balanceOf(card.id)).toBe(1000);
      const mails = await mailsFor(order, 'Your Pixel Vault order was cancelled');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.textBody).toContain('$10.00 back to gift card ending');
      // Paying a cancelled order is refused.
      const pay = await post(`/api/orders/${order._id}/paypal`, auth);
      expect(pay.statusCode).toBe(409);
      expect(pay.json()).toMatchObject({ message: 'This order was cancelled' });
    });

    it('a paid order with a full refund: PayPal part refunded once, gift card credited, stock back', async () => {
      const { auth, product, order, card, captureId } = await mixedPaidOrder({ stock: 3 });
      expect(await stockOf(product.id)).toBe(2);

      const res = await cancel(auth, order._id);
      expect(res.statusCode).toBe(200);
      expect(res.json<Order>()).toMatchObject({
        status: 'cancelled',
        isPaid: true,
        refundedPrice: 30.99,
        giftCardAmount: 10,
      });
      expect(refundsAtPayPal(captureId)).toEqual([
        expect.objectContaining({ value: '20.99', requestId: expect.stringMatching(/^order-refund-/) }),
      ]);
      expect(await balanceOf(card.id)).toBe(1000);
      expect(await stockOf(product.id)).toBe(3);
      const ledger = await ctx.db
        .select()
        .from(giftCardLedger)
        .where(and(eq(giftCardLedger.orderId, order._id), eq(giftCardLedger.kind, 'order_refund')));
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({ amountCents: 1000, balanceAfterCents: 1000 });
      expect(ledger[0]?.refundId).not.toBeNull();

      // Repeated: nothing moves again.
      expect((await cancel(auth, order._id)).statusCode).toBe(200);
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(await balanceOf(card.id)).toBe(1000);
      expect(await stockOf(product.id)).toBe(3);
      const mails = await mailsFor(order, 'Your Pixel Vault order was cancelled');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.textBody).toContain('We refunded $30.99');
      expect(mails[0]?.textBody).toContain('$20.99 back to your PayPal account');
      // The reconciler finds nothing to give back twice.
      await reconciler().reconcileOnce();
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
    });

    it('not once delivered (409 saying to contact the shop), and only their own order', async () => {
      const { auth, order } = await mixedPaidOrder();
      const other = await insertUser(ctx.db);
      expect((await cancel(other.auth, order._id)).statusCode).toBe(404);
      expect((await cancel(admin, order._id)).statusCode).toBe(404);
      expect(
        (await ctx.app.inject({ method: 'POST', url: `/api/orders/${order._id}/cancel` })).statusCode,
      ).toBe(401);

      const delivered = await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/delivery`,
        headers: admin,
        payload: { isDelivered: true },
      });
      expect(delivered.json<Order>().status).toBe('delivered');
      const res = await cancel(auth, order._id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/delivered.*contact us/);
      expect(await mailsFor(order, 'Your Pixel Vault order was delivered')).toHaveLength(1);
      // Marking it delivered again queues no second mail.
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/delivery`,
        headers: admin,
        payload: { isDelivered: true },
      });
      expect(await mailsFor(order, 'Your Pixel Vault order was delivered')).toHaveLength(1);
    });
  });

  describe('an admin refunds', () => {
    it('in parts, gift card first, never more than is left; the last part makes the order refunded', async () => {
      const { order, card, captureId, product } = await mixedPaidOrder({ stock: 4 });

      const first = await refund(order._id, { amount: 6, reason: 'Box damaged' });
      expect(first.statusCode).toBe(200);
      expect(first.json<Order>()).toMatchObject({ status: 'paid', refundedPrice: 6 });
      expect(await balanceOf(card.id)).toBe(600);
      expect(refundsAtPayPal(captureId)).toHaveLength(0);

      // $4 left on the card, then PayPal.
      const second = await refund(order._id, { amount: 10, reason: 'Late delivery' });
      expect(second.statusCode).toBe(200);
      expect(second.json<Order>()).toMatchObject({ status: 'paid', refundedPrice: 16 });
      expect(await balanceOf(card.id)).toBe(1000);
      expect(refundsAtPayPal(captureId).map((r) => r.value)).toEqual(['6.00']);

      const tooMuch = await refund(order._id, { amount: 20, reason: 'x' });
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json().message).toBe('At most $14.99 can be refunded on this order');

      const rest = await refund(order._id, { reason: 'Returned', restock: true });
      expect(rest.statusCode).toBe(200);
      const final = rest.json<Order>();
      expect(final).toMatchObject({ status: 'refunded', refundedPrice: 30.99, isPaid: true });
      expect(refundsAtPayPal(captureId).map((r) => r.value)).toEqual(['6.00', '14.99']);
      expect(await stockOf(product.id)).toBe(4);
      expect(final.timeline?.filter((e) => e.event === 'refunded').map((e) => [e.amount, e.by])).toEqual([
        [6, 'admin'],
        [10, 'admin'],
        [14.99, 'admin'],
      ]);

      const after = await refund(order._id, { amount: 1, reason: 'x' });
      expect(after.statusCode).toBe(409);
      expect(after.json().message).toBe('This order was refunded in full');
      expect(await mailsFor(order, 'A refund for your Pixel Vault order')).toHaveLength(3);
      const audits = await ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, order._id), eq(auditLog.action, 'order.refund')));
      expect(audits).toHaveLength(3);
    });

    it('a delivered order in part, restocking once only', async () => {
      const { order, product } = await mixedPaidOrder({ stock: 2 });
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/delivery`,
        headers: admin,
        payload: { isDelivered: true },
      });
      const res = await refund(order._id, { amount: 5, reason: 'Returned', restock: true });
      expect(res.json<Order>()).toMatchObject({ status: 'delivered', isDelivered: true, refundedPrice: 5 });
      expect(await stockOf(product.id)).toBe(2);
      await refund(order._id, { amount: 5, reason: 'Returned again', restock: true });
      expect(await stockOf(product.id)).toBe(2);
    });

    it('refuses what it must: unpaid orders, bad bodies, non-admins', async () => {
      const { auth, order } = await newOrder();
      const unpaid = await refund(order._id, { reason: 'x' });
      expect(unpaid.statusCode).toBe(409);
      expect(unpaid.json().message).toBe('Only a paid order can be refunded');
      for (const body of [{}, { reason: '' }, { reason: 'x', amount: -1 }, { reason: 'x', amount: 1.234 }]) {
        const res = await refund(order._id, body);
        expect(res.statusCode).toBe(400);
        expect(typeof res.json().message).toBe('string');
      }
      expect((await post(`/api/orders/${order._id}/refund`, auth, { reason: 'mine' })).statusCode).toBe(403);
      expect((await refund('00000000-0000-4000-8000-000000000000', { reason: 'x' })).statusCode).toBe(404);
    });

    it('escapes the customer name in the refund mail', async () => {
      const { order } = await mixedPaidOrder({ name: '<script>alert(1)</script>' });
      await refund(order._id, { amount: 1, reason: '<b>why</b>' });
      const [mail] = await mailsFor(order, 'A refund for your Pixel Vault order');
      expect(mail?.htmlBody).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail?.htmlBody).toContain('&lt;b&gt;why&lt;/b&gt;');
      expect(mail?.htmlBody).not.toContain('<script>');
    });
  });

  describe('races and failures: money moves back exactly once', () => {
    it('two admins refunding at once: one refund, the other a 409', async () => {
      const { order, captureId, card } = await mixedPaidOrder();
      const answers = await Promise.all([
        refund(order._id, { reason: 'Admin A' }),
        refund(order._id, { reason: 'Admin B' }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(await balanceOf(card.id)).toBe(1000);
      const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
      expect(row).toMatchObject({ status: 'refunded', refundedCents: TOTAL_CENTS });
      expect(await mailsFor(order, 'A refund for your Pixel Vault order')).toHaveLength(1);
    });

    it('a lost PayPal answer: pending, then the retry completes the same refund', async () => {
      const { order, captureId, card } = await mixedPaidOrder();
      paypal.loseNextRefundReply = true;
      const lost = await refund(order._id, { amount: 15, reason: 'Retry me' });
      expect(lost.statusCode).toBe(502);
      expect(lost.json()).toMatchObject({ code: 'REFUND_PENDING' });
      // PayPal did refund; the shop has not counted it yet, nor credited the card.
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(await balanceOf(card.id)).toBe(0);
      const [pending] = await ctx.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order._id));
      expect(pending?.status).toBe('pending');

      // Another refund is refused while it is pending; the same one asked again completes it.
      expect((await refund(order._id, { amount: 1, reason: 'Other' })).statusCode).toBe(409);
      const retry = await refund(order._id, { amount: 15, reason: 'Retry me' });
      expect(retry.statusCode).toBe(200);
      expect(retry.json<Order>().refundedPrice).toBe(15);
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(refundsAtPayPal(captureId)[0]?.value).toBe('5.00');
      expect(await balanceOf(card.id)).toBe(1000);
      expect(await mailsFor(order, 'A refund for your Pixel Vault order')).toHaveLength(1);
    });

    it('a lost PayPal answer nobody retries: the reconciler completes it, once', async () => {
      const { auth, order, captureId, product } = await mixedPaidOrder({ stock: 1 });
      paypal.loseNextRefundReply = true;
      expect((await cancel(auth, order._id)).statusCode).toBe(502);
      expect(await stockOf(product.id)).toBe(0);
      const report = await reconciler().reconcileOnce();
      expect(report.refunded).toBeGreaterThanOrEqual(1);
      const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
      expect(row).toMatchObject({ status: 'cancelled', refundedCents: TOTAL_CENTS });
      expect(await stockOf(product.id)).toBe(1);
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      await reconciler().reconcileOnce();
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(await mailsFor(order, 'Your Pixel Vault order was cancelled')).toHaveLength(1);
    });

    it('PayPal refuses: nothing is given back, the timeline says so, and a later refund works', async () => {
      const { order, captureId, card } = await mixedPaidOrder();
      paypal.declineRefunds = true;
      const refused = await refund(order._id, { reason: 'Try' });
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ code: 'REFUND_DECLINED' });
      expect(await balanceOf(card.id)).toBe(0);
      const detail = await ctx.app.inject({ method: 'GET', url: `/api/orders/${order._id}`, headers: admin });
      expect(detail.json<Order>()).toMatchObject({ status: 'paid', refundedPrice: 0 });
      expect(detail.json<Order>().timeline?.at(-1)).toMatchObject({ event: 'refund_failed', by: 'system' });
      paypal.declineRefunds = false;
      expect((await refund(order._id, { reason: 'Try again' })).statusCode).toBe(200);
      expect(refundsAtPayPal(captureId)).toHaveLength(1);
      expect(await balanceOf(card.id)).toBe(1000);
    });

    it('cancel against pay: whichever wins, no money is kept and the stock comes back', async () => {
      for (let round = 0; round < 3; round += 1) {
        const { auth, order, product } = await newOrder({ stock: 1 });
        const paypalOrderId = await approvedPayPal(auth, order._id);
        await Promise.all([
          cancel(auth, order._id),
          post(`/api/orders/${order._id}/paypal/capture`, auth, { paypalOrderId }),
        ]);
        // A capture that landed on the cancelled order is given back by the reconciler.
        await reconciler().reconcileOnce();
        const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
        expect(row?.status).toBe('cancelled');
        expect(await stockOf(product.id)).toBe(1);
        const captureId = paypal.orders.get(paypalOrderId)?.captureId;
        const captured = captureId ? TOTAL_CENTS : 0;
        const refunded = captureId
          ? refundsAtPayPal(captureId).reduce((sum, r) => sum + Math.round(Number(r.value) * 100), 0)
          : 0;
        expect(refunded).toBe(captured);
      }
    });

    it('cancel against the webhook capture: the same', async () => {
      const { auth, order, product } = await newOrder({ stock: 1 });
      const paypalOrderId = await approvedPayPal(auth, order._id);
      const event = JSON.stringify({
        id: `WH-${paypalOrderId}`,
        event_type: 'CHECKOUT.ORDER.APPROVED',
        resource: { id: paypalOrderId, status: 'APPROVED' },
      });
      await Promise.all([
        ctx.app.inject({
          method: 'POST',
          url: '/api/payments/paypal/webhook',
          headers: {
            'content-type': 'application/json',
            'paypal-auth-algo': 'SHA256withRSA',
            'paypal-cert-url': 'https://api.paypal.com/cert.pem',
            'paypal-transmission-id': 'T-12',
            'paypal-transmission-sig': 'good-signature',
            'paypal-transmission-time': new Date().toISOString(),
          },
          payload: event,
        }),
        cancel(auth, order._id),
      ]);
      await reconciler().reconcileOnce();
      const [row] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
      // Cancelled first, or paid first and then cancelled with a full refund.
      expect(row?.status).toBe('cancelled');
      expect(await stockOf(product.id)).toBe(1);
      const captureId = paypal.orders.get(paypalOrderId)?.captureId;
      if (captureId) {
        const refunded = refundsAtPayPal(captureId).reduce(
          (s, r) => s + Math.round(Number(r.value) * 100),
          0,
        );
        expect(refunded).toBe(TOTAL_CENTS);
      }
    });
  });

  it('lets the admin list orders by status', async () => {
    const { auth, order } = await newOrder();
    await cancel(auth, order._id);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders/admin/vieworders?status=cancelled',
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const list = res.json<Order[]>();
    expect(list.map((o) => o._id)).toContain(order._id);
    expect(list.every((o) => o.status === 'cancelled')).toBe(true);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders/admin/vieworders?status=lost',
      headers: admin,
    });
    expect(bad.statusCode).toBe(400);
  });
});

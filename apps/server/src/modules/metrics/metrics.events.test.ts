import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayPalOrderResponse } from '@pixel-vault/shared';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { type Exposition, parseExposition, valueOf } from '../../test/prometheus.js';

type Auth = { authorization: string };
const TOKEN = 'metrics-token-for-the-events-test';

/**
 * Issue 37: each of the shop's event counters moves when its event happens (and only once it
 * committed), on PGlite and (npm run test:pg) PostgreSQL.
 */
describe('metrics of the shop events', () => {
  let ctx: TestContext;
  let admin: Auth;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { METRICS_TOKEN: TOKEN }, app: { limits: NO_RATE_LIMITS } });
    admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function scrape(): Promise<Exposition> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    return parseExposition(res.body);
  }
  /** How much each named series moved while `work` ran. */
  async function moved(names: Record<string, [string, Record<string, string>?]>, work: () => Promise<void>) {
    const before = await scrape();
    await work();
    const after = await scrape();
    return Object.fromEntries(
      Object.entries(names).map(([key, [name, labels]]) => [
        key,
        valueOf(after, name, labels) - valueOf(before, name, labels),
      ]),
    );
  }
  const post = (url: string, headers: Auth, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  async function newOrder() {
    const customer = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 10 });
    const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
    return { auth: customer.auth, product, order };
  }
  /** The demo provider: the shop's provider order, captured. */
  async function payByDemo(auth: Auth, orderId: string) {
    const created = await post(`/api/orders/${orderId}/paypal`, auth);
    expect(created.statusCode).toBe(200);
    const { id } = created.json<PayPalOrderResponse>();
    const captured = await post(`/api/orders/${orderId}/paypal/capture`, auth, { paypalOrderId: id });
    expect(captured.statusCode).toBe(200);
  }

  const series = {
    placed: ['pixelvault_orders_placed_total'],
    paid: ['pixelvault_orders_paid_total'],
    cancelled: ['pixelvault_orders_cancelled_total'],
    refunded: ['pixelvault_orders_refunded_total'],
    demoCaptured: ['pixelvault_payments_total', { provider: 'demo', outcome: 'captured' }],
  } satisfies Record<string, [string, Record<string, string>?]>;

  it('counts an order placed, and not one refused', async () => {
    const [first, second] = [await insertUser(ctx.db), await insertUser(ctx.db)];
    const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 1 });
    const delta = await moved(series, async () => {
      await placeOrder(ctx.app, first.auth, [{ product: product.id, itemQuantity: 1 }]);
      // Out of stock now: refused, rolled back, not counted.
      await expect(
        placeOrder(ctx.app, second.auth, [{ product: product.id, itemQuantity: 1 }]),
      ).rejects.toThrow(/409/);
    });
    expect(delta).toMatchObject({ placed: 1, paid: 0, cancelled: 0, refunded: 0 });
  });

  it('counts an order paid through the demo provider, with the provider outcome', async () => {
    const { auth, order } = await newOrder();
    const delta = await moved(series, () => payByDemo(auth, order._id));
    expect(delta).toMatchObject({ paid: 1, demoCaptured: 1, placed: 0 });
    // Paying again changes nothing: the order was paid once.
    const again = await moved(series, async () => {
      const res = await post(`/api/orders/${order._id}/paypal`, auth);
      expect(res.statusCode).toBe(409);
    });
    expect(again).toMatchObject({ paid: 0, demoCaptured: 0 });
  });

  it('counts an order paid by gift card alone', async () => {
    const { auth, order } = await newOrder();
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
    const delta = await moved(series, async () => {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/payment`,
        headers: auth,
        payload: { payment_method: 'Gift Card', gift_card_code: card.code },
      });
      expect(res.statusCode).toBe(200);
    });
    expect(delta).toMatchObject({ paid: 1, demoCaptured: 0 });
  });

  it("counts a customer's cancel of an unpaid and of a paid order, once each", async () => {
    const unpaid = await newOrder();
    const paid = await newOrder();
    await payByDemo(paid.auth, paid.order._id);
    const delta = await moved(series, async () => {
      expect((await post(`/api/orders/${unpaid.order._id}/cancel`, unpaid.auth)).statusCode).toBe(200);
      expect((await post(`/api/orders/${paid.order._id}/cancel`, paid.auth)).statusCode).toBe(200);
      // Cancelling again answers the cancelled order and counts nothing.
      expect((await post(`/api/orders/${unpaid.order._id}/cancel`, unpaid.auth)).statusCode).toBe(200);
    });
    expect(delta).toMatchObject({ cancelled: 2, refunded: 0 });
  });

  it("counts an admin's refunds, partial and full", async () => {
    const { auth, order } = await newOrder();
    await payByDemo(auth, order._id);
    const delta = await moved(series, async () => {
      const partial = await post(`/api/orders/${order._id}/refund`, admin, {
        amount: 5,
        reason: 'Scratched box',
      });
      expect(partial.statusCode).toBe(200);
      const rest = await post(`/api/orders/${order._id}/refund`, admin, { reason: 'Returned' });
      expect(rest.statusCode).toBe(200);
      // Nothing left: refused, not counted.
      expect((await post(`/api/orders/${order._id}/refund`, admin, { reason: 'Again' })).statusCode).toBe(
        409,
      );
    });
    expect(delta).toMatchObject({ refunded: 2, cancelled: 0 });
  });

  it('counts a wrong gift-card code and a wrong discount code as refusals', async () => {
    const customer = await insertUser(ctx.db);
    const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 10 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 1000 });
    const delta = await moved(
      {
        giftCard: ['pixelvault_giftcard_code_refusals_total', { reason: 'unknown' }],
        discount: ['pixelvault_discount_code_refusals_total', { reason: 'unknown' }],
      },
      async () => {
        const wrongCard = await post('/api/giftcards/check-balance', customer.auth, {
          code: 'NO-SUCH-CARD-1',
        });
        expect(wrongCard.statusCode).toBe(404);
        // A right code is no refusal.
        const rightCard = await post('/api/giftcards/check-balance', customer.auth, { code: card.code });
        expect(rightCard.statusCode).toBe(200);
        const wrongCode = await post('/api/promotions/check', customer.auth, {
          code: 'NOSUCHCODE42',
          orderItems: [{ product: product.id, itemQuantity: 1 }],
        });
        expect(wrongCode.statusCode).toBe(400);
      },
    );
    expect(delta).toEqual({ giftCard: 1, discount: 1 });
  });
});

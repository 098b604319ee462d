import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, GiftCard, Order } from '@pixel-vault/shared';
import { auditLog, giftCardLedger, giftCards } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
type OrdersPage = { orders: Order[]; page: number; totalPage: number; total: number };

async function orderFor(auth: Auth) {
  const p = await insertProduct(ctx.db, { priceCents: 2000, stock: 10 });
  return placeOrder(ctx.app, auth, [{ product: p.id, itemQuantity: 1 }]);
}

/** Paid in full with a gift card (settles in the same transaction). */
async function paidOrderFor(auth: Auth) {
  const order = await orderFor(auth);
  const card = await insertGiftCard(ctx.db, { balanceCents: 100_00 });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/giftcards/use',
    headers: auth,
    payload: { code: card.code, amount: order.totalPrice, orderId: order._id },
  });
  expect(res.statusCode).toBe(200);
  return order;
}

const deliver = (id: string, auth: Auth, payload: unknown = { isDelivered: true }) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/api/orders/${id}/delivery`,
    headers: auth,
    payload: payload as object,
  });

describe('GET /api/orders/admin/vieworders', () => {
  it('lists every order newest first with the customer as an id, as an array or paged, searchable by id prefix', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const a = await insertUser(ctx.db);
    const b = await insertUser(ctx.db);
    const first = await orderFor(a.auth);
    const second = await orderFor(b.auth);

    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders/admin/vieworders',
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    // No query: every order, as an array (spec section 7).
    const all = res.json<Order[]>();
    expect(all.map((o) => o._id)).toEqual([second._id, first._id]);
    expect(all.find((o) => o._id === first._id)?.user).toBe(a.user.id);

    const byPrefix = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/admin/vieworders?q=${first._id.slice(0, 13).toUpperCase()}&page=1`,
      headers: admin.auth,
    });
    expect(byPrefix.json<OrdersPage>().orders.map((o) => o._id)).toEqual([first._id]);

    for (const q of ['%25', '_', 'zz', "'"]) {
      const none = await ctx.app.inject({
        method: 'GET',
        url: `/api/orders/admin/vieworders?q=${q}&page=1`,
        headers: admin.auth,
      });
      expect(none.statusCode, q).toBe(200);
      expect(none.json<OrdersPage>()).toMatchObject({ orders: [], total: 0 });
      const unpaged = await ctx.app.inject({
        method: 'GET',
        url: `/api/orders/admin/vieworders?q=${q}`,
        headers: admin.auth,
      });
      expect(unpaged.json(), q).toEqual([]);
    }

    const paged = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders/admin/vieworders?limit=1&page=2',
      headers: admin.auth,
    });
    expect(paged.json<OrdersPage>()).toMatchObject({ page: 2, total: 2, totalPage: 2 });
    expect(paged.json<OrdersPage>().orders.map((o) => o._id)).toEqual([first._id]);
  });

  it('numbers orders in the order they were placed, and finds one by its number; cards name the customer', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const shopper = await insertUser(ctx.db, { name: 'Grace Hopper' });
    const earlier = await orderFor(shopper.auth);
    const later = await orderFor(shopper.auth);
    expect(Number.isInteger(earlier.orderNumber)).toBe(true);
    expect(earlier.orderNumber).toBeGreaterThanOrEqual(1001);
    expect(later.orderNumber).toBeGreaterThan(earlier.orderNumber);

    const search = async (q: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/orders/admin/vieworders?q=${encodeURIComponent(q)}&page=1`,
        headers: admin.auth,
      });
      expect(res.statusCode, q).toBe(200);
      return res.json<OrdersPage>().orders;
    };
    for (const q of [`#${later.orderNumber}`, String(later.orderNumber), ` ${later.orderNumber} `]) {
      const found = await search(q);
      expect(
        found.map((o) => o._id),
        q,
      ).toContain(later._id);
      expect(
        found.map((o) => o._id),
        q,
      ).not.toContain(earlier._id);
    }
    const [card] = await search(`#${later.orderNumber}`);
    expect(card).toMatchObject({
      orderNumber: later.orderNumber,
      user: shopper.user.id,
      customer: { name: 'Grace Hopper', email: shopper.user.email },
    });
    expect(await search('#99999999')).toEqual([]);
    expect(await search('#12a')).toEqual([]);
  });
});

describe('PUT /api/orders/:id/delivery', () => {
  it('refuses an unpaid order with 409', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const order = await orderFor(customer.auth);
    const res = await deliver(order._id, admin.auth);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe('Only a paid order can be delivered');
  });

  it('delivers a paid order once: repeating changes nothing and writes no second audit row', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const order = await paidOrderFor(customer.auth);
    const res = await deliver(order._id, admin.auth);
    expect(res.statusCode).toBe(200);
    const delivered = res.json<Order>();
    expect(delivered).toMatchObject({ _id: order._id, isPaid: true, isDelivered: true });
    expect(delivered.deliveredAt).not.toBeNull();

    const again = await deliver(order._id, admin.auth);
    expect(again.statusCode).toBe(200);
    expect(again.json<Order>().deliveredAt).toBe(delivered.deliveredAt);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, order._id));
    expect(audits.map((a) => a.action)).toEqual(['order.deliver']);

    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/api/orders/${order._id}`,
      headers: customer.auth,
    });
    expect(mine.json<Order>().isDelivered).toBe(true);
  });

  it('answers 400 for anything but isDelivered: true and 404 for an unknown order', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const order = await paidOrderFor(customer.auth);
    expect((await deliver(order._id, admin.auth, { isDelivered: false })).statusCode).toBe(400);
    expect((await deliver('7f1f4a4e-0000-4000-8000-000000000000', admin.auth)).statusCode).toBe(404);
  });
});

describe('PUT /api/giftcards/admin/:id/add-balance', () => {
  it('adds to the balance with a top_up ledger row and an audit row', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const card = await insertGiftCard(ctx.db, { balanceCents: 10_00 });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/giftcards/admin/${card.id}/add-balance`,
      headers: admin.auth,
      payload: { amount: 15.5 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<GiftCard>()).toMatchObject({ _id: card.id, code: card.code, balance: 25.5 });
    const ledger = await ctx.db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, card.id));
    expect(ledger.find((l) => l.kind === 'top_up')).toMatchObject({
      amountCents: 15_50,
      balanceAfterCents: 25_50,
      actorUserId: admin.user.id,
    });
    const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, card.id));
    expect(audit).toMatchObject({ action: 'giftcard.add_balance', before: { code: card.code, balance: 10 } });

    for (const amount of [0, -1, 1.001, 'x']) {
      const bad = await ctx.app.inject({
        method: 'PUT',
        url: `/api/giftcards/admin/${card.id}/add-balance`,
        headers: admin.auth,
        payload: { amount },
      });
      expect(bad.statusCode, String(amount)).toBe(400);
    }
    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: '/api/giftcards/admin/7f1f4a4e-0000-4000-8000-000000000000/add-balance',
      headers: admin.auth,
      payload: { amount: 1 },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('DELETE /api/giftcards/admin/delete/:id', () => {
  it('soft-deletes: gone from the list, unusable, ledger kept, audited', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 50_00 });
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/giftcards/admin/delete/${card.id}`,
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Gift card deleted' });

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/giftcards/admin/getall',
      headers: admin.auth,
    });
    expect(list.json<GiftCard[]>().map((c) => c._id)).not.toContain(card.id);
    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/check-balance',
      headers: customer.auth,
      payload: { code: card.code },
    });
    expect(check.statusCode).toBe(404);
    const order = await orderFor(customer.auth);
    const use = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/use',
      headers: customer.auth,
      payload: { code: card.code, amount: 1, orderId: order._id },
    });
    expect(use.statusCode).toBe(404);
    const topUp = await ctx.app.inject({
      method: 'PUT',
      url: `/api/giftcards/admin/${card.id}/add-balance`,
      headers: admin.auth,
      payload: { amount: 1 },
    });
    expect(topUp.statusCode).toBe(404);

    const [row] = await ctx.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(row?.deletedAt).not.toBeNull();
    expect(
      await ctx.db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, card.id)),
    ).toHaveLength(1);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/giftcards/admin/delete/${card.id}`,
      headers: admin.auth,
    });
    expect(again.statusCode).toBe(404);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, card.id));
    expect(audits.map((a) => a.action)).toEqual(['giftcard.delete']);
  });

  it('audits gift card creation', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/admin/create',
      headers: admin.auth,
      payload: { code: 'AUDIT-ME-1', balance: 12 },
    });
    expect(res.statusCode).toBe(201);
    const card = res.json<GiftCard>();
    const audit = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit', headers: admin.auth });
    const entries = audit.json<{ entries: AuditEntry[] }>().entries;
    // Newest first.
    expect(entries[0]).toMatchObject({
      action: 'giftcard.create',
      targetType: 'giftcard',
      targetId: card._id,
      after: { code: 'AUDIT-ME-1', balance: 12 },
      actor: { _id: admin.user.id },
    });
  });
});

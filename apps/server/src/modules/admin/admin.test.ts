import { eq, like, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStats, Order } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { mailOutbox, orderItems, orders, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  TEST_ADDRESS,
  clearProducts,
  createDiscountCode,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  setStock,
  stockOf,
} from '../../test/factories.js';
import { EXPORT_BATCH, addDays, databaseKnowsTimeZone, neutralise } from './admin.service.js';

type Status = 'unpaid' | 'paid' | 'expired' | 'cancelled' | 'refunded';

interface OrderSeed {
  createdAt: string;
  status: Status;
  totalCents?: number;
  refundedCents?: number;
  delivered?: boolean;
  expiresAt?: string;
  email?: string;
  items?: { productId: string | null; name: string; quantity: number; unitPriceCents: number }[];
}

/** An order straight in the database, at a known time and in a known state. */
async function insertOrder(db: Database, seed: OrderSeed): Promise<string> {
  const createdAt = new Date(seed.createdAt);
  const paid = seed.status === 'paid' || seed.status === 'refunded' || seed.status === 'cancelled';
  const total = seed.totalCents ?? 1000;
  const [row] = await db
    .insert(orders)
    .values({
      customerName: 'Stats Shopper',
      customerEmail: seed.email ?? 'stats@example.com',
      shipAddress: '1 Test Street',
      shipCity: 'Testville',
      shipPostalCode: '12345',
      shipCountry: 'Testland',
      itemsCents: total,
      taxCents: 0,
      shippingCents: 0,
      totalCents: total,
      paymentMethod: 'paypal',
      status: seed.status,
      paidAt: paid ? createdAt : null,
      isDelivered: seed.delivered ?? false,
      deliveredAt: seed.delivered ? createdAt : null,
      refundedCents: seed.refundedCents ?? (seed.status === 'refunded' ? total : 0),
      expiresAt: new Date(seed.expiresAt ?? createdAt.getTime() + 30 * 60_000),
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: orders.id });
  if (!row) throw new Error('insertOrder: no row');
  if (seed.items?.length) {
    await db.insert(orderItems).values(seed.items.map((item) => ({ ...item, orderId: row.id, image: '' })));
  }
  return row.id;
}

/**
 * An order placed through the API with a new discount code (issue 32) made by the admin, paid in full
 * with a gift card: the way a discounted order reaches the overview and the export.
 */
async function placePaidWithCode(
  ctx: TestContext,
  admin: { authorization: string },
  lines: { product: string; itemQuantity: number }[],
  promotion: Record<string, unknown>,
): Promise<Order> {
  const { code } = await createDiscountCode(ctx.app, admin, promotion);
  const { auth } = await insertUser(ctx.db);
  const placed = await ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: {
      orderItems: lines,
      shippingAddress: TEST_ADDRESS,
      paymentMethod: 'paypal',
      discountCode: code,
    },
  });
  if (placed.statusCode !== 201) throw new Error(`order: ${placed.statusCode} ${placed.body}`);
  const order = placed.json<Order>();
  const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
  const paid = await ctx.app.inject({
    method: 'PUT',
    url: `/api/orders/${order._id}/payment`,
    headers: auth,
    payload: { payment_method: 'Gift Card', gift_card_code: card.code },
  });
  if (!paid.json<Order>().isPaid) throw new Error(`payment: ${paid.statusCode} ${paid.body}`);
  return order;
}

describe('GET /api/admin/stats in a shop on Tokyo time (issue 15)', () => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let customer: { authorization: string };
  // 12:00 on 2026-03-10 in Tokyo (UTC+9).
  let now = new Date('2026-03-10T03:00:00Z');
  const ids: Record<string, string> = {};
  const defaults: Record<string, { id: string; sku: string }> = {};

  const stats = async (query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/admin/stats${query}`, headers: admin });

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { SHOP_TIMEZONE: 'Asia/Tokyo', LOW_STOCK_THRESHOLD: '3' },
      app: { clock: () => now, limits: NO_RATE_LIMITS },
    });
    await clearProducts(ctx.db);
    admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    customer = (await insertUser(ctx.db)).auth;
    for (const [key, name, stock] of [
      ['p1', 'Zelda II', 10],
      ['p2', 'Metroid', 3],
      ['p3', 'Catan', 0],
      ['p4', 'Tetris', 4],
      ['p5', 'Chess', 50],
    ] as const) {
      const product = await insertProduct(ctx.db, { name, stock, priceCents: 1000 });
      ids[key] = product.id;
      defaults[key] = product.variants[0]!;
    }
    await insertProduct(ctx.db, { name: 'Removed', stock: 0, deletedAt: new Date('2026-01-01T00:00:00Z') });
    const item = (key: string, quantity: number, unitPriceCents: number) => ({
      productId: ids[key] ?? null,
      name: `line of ${key}`,
      quantity,
      unitPriceCents,
    });
    // 23:30 UTC on the 8th is 08:30 on the 9th in Tokyo.
    await insertOrder(ctx.db, {
      createdAt: '2026-03-08T23:30:00Z',
      status: 'paid',
      totalCents: 10000,
      items: [item('p1', 2, 4000)],
    });
    // Delivered and partly refunded: counted, less the refund.
    await insertOrder(ctx.db, {
      createdAt: '2026-03-09T14:00:00Z',
      status: 'paid',
      delivered: true,
      totalCents: 5000,
      refundedCents: 1000,
      items: [item('p2', 1, 5000)],
    });
    // Midnight of the 8th in Tokyo: the first day of a 3-day range.
    await insertOrder(ctx.db, {
      createdAt: '2026-03-07T15:00:00Z',
      status: 'paid',
      totalCents: 2550,
      items: [item('p3', 1, 2550)],
    });
    // A minute before: the 7th, outside the range (but still to deliver).
    await insertOrder(ctx.db, {
      createdAt: '2026-03-07T14:59:00Z',
      status: 'paid',
      totalCents: 99999,
      items: [item('p4', 1, 99999)],
    });
    // Never paid, or no longer: none of them is revenue.
    await insertOrder(ctx.db, {
      createdAt: '2026-03-10T02:50:00Z',
      status: 'unpaid',
      totalCents: 77777,
      items: [item('p5', 1, 77777)],
    });
    await insertOrder(ctx.db, {
      createdAt: '2026-03-09T01:00:00Z',
      status: 'unpaid',
      totalCents: 77777,
      expiresAt: '2026-03-09T01:30:00Z',
      items: [item('p5', 1, 77777)],
    });
    await insertOrder(ctx.db, { createdAt: '2026-03-09T02:00:00Z', status: 'expired', totalCents: 77777 });
    await insertOrder(ctx.db, { createdAt: '2026-03-09T03:00:00Z', status: 'refunded', totalCents: 77777 });
    await insertOrder(ctx.db, {
      createdAt: '2026-03-09T04:00:00Z',
      status: 'cancelled',
      totalCents: 77777,
      refundedCents: 77777,
    });
  });
  afterAll(() => ctx.close());

  it('answers one entry per Tokyo day ending today, zeros included, paid orders only, net of refunds', async () => {
    const res = await stats('?days=3');
    expect(res.statusCode).toBe(200);
    const body = res.json<AdminStats>();
    expect(body.days).toEqual([
      { date: '2026-03-08', orders: 1, revenue: 25.5 },
      { date: '2026-03-09', orders: 2, revenue: 140 },
      { date: '2026-03-10', orders: 0, revenue: 0 },
    ]);
    // 165.50 / 3 = 55.1666...
    expect(body.totals).toEqual({ orders: 3, revenue: 165.5, averageOrder: 55.17 });
  });

  it('ranks the products that earned most in the range', async () => {
    const body = (await stats('?days=3')).json<AdminStats>();
    expect(body.topProducts).toEqual([
      { _id: ids.p1, productName: 'Zelda II', units: 2, revenue: 80 },
      { _id: ids.p2, productName: 'Metroid', units: 1, revenue: 50 },
      { _id: ids.p3, productName: 'Catan', units: 1, revenue: 25.5 },
    ]);
  });

  it('lists every live product at or below the threshold, lowest first', async () => {
    const body = (await stats('?days=3')).json<AdminStats>();
    // One row per variant (issue 31): these are sold in one form, with no title.
    const row = (key: string, productName: string, stockQuantity: number) => ({
      _id: ids[key],
      productName,
      stockQuantity,
      variant: defaults[key]?.id,
      variantTitle: '',
      sku: defaults[key]?.sku,
    });
    expect(body.lowStock).toEqual([row('p3', 'Catan', 0), row('p2', 'Metroid', 3)]);
  });

  it('counts unpaid orders still holding stock and paid orders not delivered', async () => {
    const body = (await stats('?days=3')).json<AdminStats>();
    expect(body.openOrders).toEqual({ unpaid: 1, toDeliver: 3 });
  });

  it('follows the clock: the next Tokyo day starts at 15:00 UTC', async () => {
    now = new Date('2026-03-10T15:00:00Z');
    try {
      const body = (await stats('?days=2')).json<AdminStats>();
      expect(body.days.map((d) => d.date)).toEqual(['2026-03-10', '2026-03-11']);
      expect(body.totals.orders).toBe(0);
      // The unpaid order's hold ran out at 03:20 UTC.
      expect(body.openOrders.unpaid).toBe(0);
    } finally {
      now = new Date('2026-03-10T03:00:00Z');
    }
  });

  it('defaults to 30 days and takes 1 to 366', async () => {
    const thirty = (await stats()).json<AdminStats>();
    expect(thirty.days).toHaveLength(30);
    expect(thirty.days[0]?.date).toBe('2026-02-09');
    expect(thirty.days[29]?.date).toBe('2026-03-10');
    expect(thirty.totals).toEqual({ orders: 4, revenue: 1165.49, averageOrder: 291.37 });
    const one = (await stats('?days=1')).json<AdminStats>();
    expect(one.days).toEqual([{ date: '2026-03-10', orders: 0, revenue: 0 }]);
    const year = (await stats('?days=366')).json<AdminStats>();
    expect(year.days).toHaveLength(366);
    expect(year.days[0]?.date).toBe(addDays('2026-03-10', -365));
  });

  it('refuses a range it cannot answer with a 400 and a message', async () => {
    for (const [query, message] of [
      ['?days=0', 'days must be at least 1'],
      ['?days=367', 'days must be at most 366'],
      ['?days=abc', 'days must be a number'],
      ['?days=1.5', 'days must be a whole number'],
      ['?days=-4', 'days must be at least 1'],
      ['?days=1&days=2', 'days must be a number'],
      ['?days=1e400', 'days must be a number'],
    ] as const) {
      const res = await stats(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message });
    }
  });

  it('is for admins only', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/stats' })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/stats', headers: customer })).statusCode,
    ).toBe(403);
  });
});

describe('SHOP_TIMEZONE checked against the database at start', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('knows the zones the overview counts days in, and not a name the database lacks', async () => {
    for (const zone of ['UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata']) {
      expect(await databaseKnowsTimeZone(ctx.db, zone), zone).toBe(true);
    }
    // A name that passes the configuration's pattern but is in no tz database: main.ts refuses it.
    expect(await databaseKnowsTimeZone(ctx.db, 'Mars/Olympus_Mons')).toBe(false);
  });
});

describe('GET /api/admin/stats: best sellers (issue 15)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { clock: () => new Date('2026-07-01T12:00:00Z') } });
  });
  afterAll(() => ctx.close());

  it('lists the 5 products that earned most, ahead of those that sold more units for less', async () => {
    const admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    const made: { id: string; name: string }[] = [];
    for (let i = 1; i <= 7; i += 1) {
      const product = await insertProduct(ctx.db, { name: `Seller ${i}`, stock: 50 });
      made.push({ id: product.id, name: product.name });
      // Seller i earns i * 10 dollars, in 8 - i units.
      await insertOrder(ctx.db, {
        createdAt: '2026-07-01T09:00:00Z',
        status: 'paid',
        items: [{ productId: product.id, name: product.name, quantity: 8 - i, unitPriceCents: 0 }],
      });
      await insertOrder(ctx.db, {
        createdAt: '2026-06-30T09:00:00Z',
        status: 'paid',
        items: [{ productId: product.id, name: product.name, quantity: 1, unitPriceCents: i * 1000 }],
      });
    }
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/stats?days=2', headers: admin });
    const body = res.json<AdminStats>();
    expect(body.topProducts).toEqual(
      [7, 6, 5, 4, 3].map((i) => ({
        _id: made[i - 1]?.id,
        productName: `Seller ${i}`,
        units: 9 - i,
        revenue: i * 10,
      })),
    );
  });

  it("names a best seller by the product's current name, not the name its order lines kept", async () => {
    const admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    const product = await insertProduct(ctx.db, { name: 'Old Box Name', stock: 50 });
    await insertOrder(ctx.db, {
      createdAt: '2026-07-01T10:00:00Z',
      status: 'paid',
      items: [{ productId: product.id, name: 'Old Box Name', quantity: 1, unitPriceCents: 900_000 }],
    });
    await ctx.db.update(products).set({ name: 'New Box Name' }).where(eq(products.id, product.id));
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/stats?days=1', headers: admin });
    expect(res.json<AdminStats>().topProducts[0]).toEqual({
      _id: product.id,
      productName: 'New Box Name',
      units: 1,
      revenue: 9000,
    });
  });
});

describe('GET /api/admin/stats: orders with a discount code (issue 32)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { clock: () => new Date('2026-11-27T12:00:00Z') } });
  });
  afterAll(() => ctx.close());

  it('counts what was paid, after the discount, in the revenue and in each best seller', async () => {
    const admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    const puzzle = await insertProduct(ctx.db, {
      name: 'Discounted Puzzle',
      category: 'puzzles',
      priceCents: 4000,
    });
    const game = await insertProduct(ctx.db, { name: 'Full Price Game', priceCents: 2000 });
    const order = await placePaidWithCode(
      ctx,
      admin,
      [
        { product: puzzle.id, itemQuantity: 2 },
        { product: game.id, itemQuantity: 1 },
      ],
      { code: 'STATS25', kind: 'percentage', value: 25, categories: ['puzzles'] },
    );
    // $100.00 of items, 25% off the $80.00 of puzzles: $80.00; tax $12.00; shipping $7.99: $99.99.
    expect(order).toMatchObject({ price: 100, discountPrice: 20, totalPrice: 99.99 });

    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/stats?days=1', headers: admin });
    const body = res.json<AdminStats>();
    expect(body.totals).toEqual({ orders: 1, revenue: 99.99, averageOrder: 99.99 });
    expect(body.topProducts).toEqual([
      { _id: puzzle.id, productName: 'Discounted Puzzle', units: 2, revenue: 60 },
      { _id: game.id, productName: 'Full Price Game', units: 1, revenue: 20 },
    ]);
  });
});

describe('low-stock mail (issue 15)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { LOW_STOCK_THRESHOLD: '3', CONTACT_TO: 'owner@example.com', HOLD_MAX_ORDERS: '1000' },
      app: { limits: NO_RATE_LIMITS },
    });
  });
  afterAll(() => ctx.close());

  const lowStockMails = async (name: string) =>
    ctx.db
      .select({ to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `Low stock: ${name} %`));

  it('mails the owner once when an order takes the stock to the threshold, and again after a restock', async () => {
    const product = await insertProduct(ctx.db, { name: 'Mail Once', stock: 5 });
    // A new customer each time: one placing the same cart again replaces their order (next test).
    const buy = async (n: number) =>
      placeOrder(ctx.app, (await insertUser(ctx.db)).auth, [{ product: product.id, itemQuantity: n }]);

    await buy(1); // 5 -> 4
    expect(await lowStockMails('Mail Once')).toHaveLength(0);
    await buy(1); // 4 -> 3: crosses
    const [mail] = await lowStockMails('Mail Once');
    expect(mail).toMatchObject({ to: 'owner@example.com', subject: 'Low stock: Mail Once (3 left)' });
    expect(mail?.text).toContain(product.id);
    await buy(2); // 3 -> 1: already low
    expect(await lowStockMails('Mail Once')).toHaveLength(1);

    await setStock(ctx.db, product.id, 10);
    await buy(6); // 10 -> 4
    expect(await lowStockMails('Mail Once')).toHaveLength(1);
    await buy(4); // 4 -> 0: crosses again
    const mails = await lowStockMails('Mail Once');
    expect(mails.map((m) => m.subject)).toEqual([
      'Low stock: Mail Once (3 left)',
      'Low stock: Mail Once (0 left)',
    ]);
    // Sent through the outbox like every other mail.
    await ctx.mail.worker.drainOnce();
    expect(ctx.mail.sent.filter((m) => m.subject.startsWith('Low stock: Mail Once'))).toHaveLength(2);
  });

  it('sends no second mail when a checkout is placed again and replaces its order', async () => {
    const product = await insertProduct(ctx.db, { name: 'Reloaded', stock: 4 });
    const shopper = (await insertUser(ctx.db)).auth;
    const first = await placeOrder(ctx.app, shopper, [{ product: product.id, itemQuantity: 1 }]); // 4 -> 3
    expect(await lowStockMails('Reloaded')).toHaveLength(1);
    // The same lines again: the first order gives its unit back (3 -> 4) and the new one takes it (4 -> 3).
    const again = await placeOrder(ctx.app, shopper, [{ product: product.id, itemQuantity: 1 }]);
    expect(again._id).not.toBe(first._id);
    expect(await stockOf(ctx.db, product.id)).toBe(3);
    expect(await lowStockMails('Reloaded')).toHaveLength(1);
  });

  it('sends nothing for an order refused for want of stock', async () => {
    const product = await insertProduct(ctx.db, { name: 'Refused Order', stock: 4 });
    const shopper = (await insertUser(ctx.db)).auth;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: shopper,
      payload: {
        orderItems: [{ product: product.id, itemQuantity: 5 }],
        shippingAddress: {
          address: '1 Test Street',
          city: 'Testville',
          postalCode: '12345',
          country: 'Testland',
        },
        paymentMethod: 'paypal',
      },
    });
    expect(res.statusCode).toBe(409);
    expect(await lowStockMails('Refused Order')).toHaveLength(0);
  });

  it('mails once per product an order takes below the threshold', async () => {
    const a = await insertProduct(ctx.db, { name: 'Pair A', stock: 4 });
    const b = await insertProduct(ctx.db, { name: 'Pair B', stock: 9 });
    const shopper = (await insertUser(ctx.db)).auth;
    await placeOrder(ctx.app, shopper, [
      { product: a.id, itemQuantity: 2 },
      { product: b.id, itemQuantity: 2 },
    ]);
    expect(await lowStockMails('Pair A')).toHaveLength(1);
    expect(await lowStockMails('Pair B')).toHaveLength(0);
  });

  it('mails exactly once when orders placed at the same moment cross the threshold together', async () => {
    for (let round = 0; round < 3; round += 1) {
      const name = `Rush ${round}`;
      const product = await insertProduct(ctx.db, { name, stock: 6 });
      const shoppers = await Promise.all([1, 2, 3, 4, 5].map(() => insertUser(ctx.db)));
      // 6 -> 1 one unit at a time, in whatever order the row lock lets them through.
      await Promise.all(
        shoppers.map((s) => placeOrder(ctx.app, s.auth, [{ product: product.id, itemQuantity: 1 }])),
      );
      expect(await stockOf(ctx.db, product.id)).toBe(1);
      const mails = await lowStockMails(name);
      expect(mails.map((m) => m.subject)).toEqual([`Low stock: ${name} (3 left)`]);
    }
  });
});

describe('CSV exports (issue 15)', () => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let customer: { authorization: string };
  const now = new Date('2026-05-02T12:00:00Z');

  const get = (url: string, headers: Record<string, string> = admin) =>
    ctx.app.inject({ method: 'GET', url, headers });
  const rowsOf = (body: string) => parse(body, { columns: true, bom: false }) as Record<string, string>[];

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { SHOP_TIMEZONE: 'America/New_York' },
      app: { clock: () => now, limits: NO_RATE_LIMITS },
    });
    await clearProducts(ctx.db);
    admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
    customer = (await insertUser(ctx.db)).auth;
  });
  afterAll(() => ctx.close());

  it('neutralises every cell a spreadsheet would run as a formula', () => {
    expect(neutralise('=1+1')).toBe("'=1+1");
    expect(neutralise('+44 20')).toBe("'+44 20");
    expect(neutralise('-2')).toBe("'-2");
    expect(neutralise('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralise('\t=1')).toBe("'\t=1");
    expect(neutralise('\r=1')).toBe("'\r=1");
    expect(neutralise('a=1')).toBe('a=1');
    expect(neutralise('')).toBe('');
    // A leading ' is escaped too, so the import can tell it from the one added here.
    expect(neutralise("'=1")).toBe("''=1");
    expect(neutralise("'Tis")).toBe("''Tis");
  });

  it('exports the orders placed between two shop days, both included', async () => {
    const product = await insertProduct(ctx.db, { name: 'Exported', priceCents: 1250 });
    // New York is UTC-4 in May: 2026-04-30 starts at 04:00 UTC.
    const before = await insertOrder(ctx.db, { createdAt: '2026-04-30T03:59:59Z', status: 'paid' });
    const first = await insertOrder(ctx.db, {
      createdAt: '2026-04-30T04:00:00Z',
      status: 'paid',
      delivered: true,
      totalCents: 3750,
      email: '=cmd|calc@example.com',
      items: [
        { productId: product.id, name: 'Exported', quantity: 2, unitPriceCents: 1250 },
        { productId: null, name: 'Old, "gone" thing', quantity: 1, unitPriceCents: 1250 },
      ],
    });
    const last = await insertOrder(ctx.db, { createdAt: '2026-05-01T03:59:59Z', status: 'unpaid' });
    const after = await insertOrder(ctx.db, { createdAt: '2026-05-01T04:00:00Z', status: 'paid' });

    const res = await get('/api/admin/export/orders.csv?from=2026-04-30&to=2026-04-30');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="orders-from-2026-04-30-to-2026-04-30.csv"',
    );
    const text = res.rawPayload.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      '_id,orderNumber,createdAt,email,itemsPrice,shippingPrice,taxPrice,totalPrice,isPaid,paidAt,isDelivered,deliveredAt,items,discountCode,discountPrice',
    );
    const rows = rowsOf(text);
    expect(rows.map((r) => r._id)).toEqual([first, last]);
    // Issue 30: the number people read, the one the order's pages and mails show.
    const numberOf = async (id: string) =>
      String((await ctx.db.select({ n: orders.number }).from(orders).where(eq(orders.id, id)))[0]?.n);
    expect(rows[0]).toEqual({
      _id: first,
      orderNumber: await numberOf(first),
      createdAt: '2026-04-30T04:00:00.000Z',
      email: "'=cmd|calc@example.com",
      itemsPrice: '37.50',
      shippingPrice: '0.00',
      taxPrice: '0.00',
      totalPrice: '37.50',
      isPaid: 'true',
      paidAt: '2026-04-30T04:00:00.000Z',
      isDelivered: 'true',
      deliveredAt: '2026-04-30T04:00:00.000Z',
      items: '2 x Exported @ 12.50; 1 x Old, "gone" thing @ 12.50',
      discountCode: '',
      discountPrice: '0.00',
    });
    expect(rows[1]).toMatchObject({
      isPaid: 'false',
      paidAt: '',
      isDelivered: 'false',
      deliveredAt: '',
      items: '',
    });

    const all = rowsOf((await get('/api/admin/export/orders.csv')).rawPayload.toString('utf8'));
    expect(all.map((r) => r._id)).toEqual(expect.arrayContaining([before, first, last, after]));
    const open = rowsOf(
      (await get('/api/admin/export/orders.csv?from=2026-05-01')).rawPayload.toString('utf8'),
    );
    expect(open.map((r) => r._id)).toEqual([after]);
  });

  it('refuses dates that are not days with a 400 and a message', async () => {
    for (const [query, message] of [
      ['?from=2026-02-30', 'from must be a date written YYYY-MM-DD'],
      ['?to=yesterday', 'to must be a date written YYYY-MM-DD'],
      ['?from=2026-5-1', 'from must be a date written YYYY-MM-DD'],
      ['?from=2026-05-02&to=2026-05-01', 'from must not be after to'],
      ['?from=2026-05-01&from=2026-05-02', 'from must be a date written YYYY-MM-DD'],
      ['?to=0000-01-01', 'to must be a date written YYYY-MM-DD'],
    ] as const) {
      const res = await get(`/api/admin/export/orders.csv${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message });
    }
  });

  it('is for admins only', async () => {
    for (const url of ['/api/admin/export/orders.csv', '/api/admin/export/products.csv']) {
      expect((await get(url, {})).statusCode, url).toBe(401);
      expect((await get(url, customer)).statusCode, url).toBe(403);
    }
  });

  it('streams thousands of orders in batches, every one exactly once, ties on the same instant included', async () => {
    const count = 2 * EXPORT_BATCH + 537;
    // Three orders share each instant (microseconds apart from the next three): the keyset must not
    // drop or repeat any of them at a batch boundary.
    await ctx.db.execute(sql`
      insert into ${orders} (customer_name, customer_email, ship_address, ship_city, ship_postal_code,
        ship_country, items_cents, tax_cents, shipping_cents, total_cents, payment_method, status,
        paid_at, expires_at, created_at, updated_at)
      select 'Bulk', 'bulk' || g || '@example.com', 'a', 'b', 'c', 'd', g, 0, 0, g, 'paypal', 'paid',
        t, t, t, t
      from generate_series(1, ${count}) g,
        lateral (select timestamptz '2026-03-01 10:00:00+00' + ((g / 3) * interval '1 microsecond') as t) x`);
    await ctx.db.execute(sql`
      insert into ${orderItems} (order_id, product_id, name, image, unit_price_cents, quantity)
      select id, null, 'Bulk line', '', total_cents, 1 from ${orders} where customer_name = 'Bulk'`);

    const res = await get('/api/admin/export/orders.csv?from=2026-03-01&to=2026-03-01');
    expect(res.statusCode).toBe(200);
    const rows = rowsOf(res.rawPayload.toString('utf8'));
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r._id)).size).toBe(count);
    const totals = rows.map((r) => Math.round(Number(r.totalPrice) * 100)).sort((a, b) => a - b);
    expect(totals).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    for (const r of rows) expect(r.items).toBe(`1 x Bulk line @ ${r.totalPrice}`);
  });

  it("exports a discounted order's code and what it took off, in the last two columns", async () => {
    const product = await insertProduct(ctx.db, { name: 'Coded', priceCents: 3000 });
    const order = await placePaidWithCode(ctx, admin, [{ product: product.id, itemQuantity: 1 }], {
      code: 'EXPORT5',
      kind: 'fixed',
      value: 5,
    });
    const res = await get('/api/admin/export/orders.csv?from=2026-05-02&to=2026-05-02');
    const [header, line] = res.rawPayload.toString('utf8').split('\r\n');
    expect(header?.split(',').slice(-2)).toEqual(['discountCode', 'discountPrice']);
    expect(line?.split(',').slice(-2)).toEqual(['EXPORT5', '5.00']);
    expect(rowsOf(res.rawPayload.toString('utf8'))).toEqual([
      expect.objectContaining({
        _id: order._id,
        // The spec's price before the code; the total is what is owed after it.
        itemsPrice: '30.00',
        shippingPrice: '7.99',
        taxPrice: '3.75',
        totalPrice: '36.74',
        isPaid: 'true',
        discountCode: 'EXPORT5',
        discountPrice: '5.00',
      }),
    ]);
  });
});

import { eq, inArray } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Order,
  PRODUCTS_EXPORT_COLUMNS,
  PRODUCTS_IMPORT_PATH,
  type ProductsImportResult,
} from '@pixel-vault/shared';
import { mailOutbox, orders, productVariants, products, stockAlerts } from '../../db/schema/index.js';
import { alertMailsTo, subscribe, subscribeUser, visitorAlert } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  type TestProduct,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
  setStock,
  stockOf,
} from '../../test/factories.js';
import { createOrderExpiry } from '../orders/orders.expiry.js';

/**
 * Issue 34: a variant's stock going from 0 to above 0 mails each of its confirmed, unused alerts once,
 * in the transaction of the change, by every path that restocks (the trigger of migration 0025), on
 * both engines. Each test reads the outbox rows themselves.
 */
let ctx: TestContext;
const now = new Date('2026-11-27T12:00:00Z');
let admin: Auth;

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };

let counter = 0;
const uniqueName = (what: string) => `${what} ${(counter += 1)}`;
const uniqueEmail = () => `fan-${(counter += 1)}-${Date.now()}@example.com`;

const customer = async () => {
  const { auth, user } = await insertUser(ctx.db);
  return { auth, email: user.email };
};

/** Who waits for a variant: two shoppers and a confirmed visitor, and a visitor who never confirmed. */
interface Audience {
  confirmed: string[];
  unconfirmed: string;
}

async function audience(product: string, variant?: string): Promise<Audience> {
  const [ann, bob] = [await customer(), await customer()];
  await subscribeUser(ctx.app, ann.auth, product, variant);
  await subscribeUser(ctx.app, bob.auth, product, variant);
  const visitor = uniqueEmail();
  await visitorAlert(ctx.app, ctx.db, visitor, product, variant);
  const unconfirmed = uniqueEmail();
  await visitorAlert(ctx.app, ctx.db, unconfirmed, product, variant, { confirmed: false });
  return { confirmed: [ann.email, bob.email, visitor], unconfirmed };
}

/** Each confirmed subscriber has exactly one alert mail about `name`, the unconfirmed one none. */
async function expectMailedOnce(who: Audience, name: string, variantId: string) {
  for (const email of who.confirmed) {
    const mails = await alertMailsTo(ctx.db, email, name);
    expect(mails, email).toHaveLength(1);
    expect(mails[0]?.textBody).toContain(`/product/`);
    expect(mails[0]?.textBody).toContain(`?variant=${variantId}`);
  }
  expect(await alertMailsTo(ctx.db, who.unconfirmed)).toEqual([]);
  const rows = await ctx.db.select().from(stockAlerts).where(eq(stockAlerts.variantId, variantId));
  expect(rows.filter((r) => r.status === 'notified')).toHaveLength(who.confirmed.length);
  expect(rows.filter((r) => r.status === 'pending')).toHaveLength(1);
  // Each used alert names the mail it was sent in, one mail each.
  const mailIds = rows.flatMap((r) => (r.mailId ? [r.mailId] : []));
  expect(new Set(mailIds).size).toBe(who.confirmed.length);
  const mails = await ctx.db.select().from(mailOutbox).where(inArray(mailOutbox.id, mailIds));
  expect(mails.map((m) => m.toAddress).sort()).toEqual([...who.confirmed].sort());
}

async function expectNoAlertMail(who: Audience, name: string) {
  for (const email of [...who.confirmed, who.unconfirmed]) {
    expect(await alertMailsTo(ctx.db, email, name), email).toEqual([]);
  }
}

const put = (url: string, payload: object) => ctx.app.inject({ method: 'PUT', url, headers: admin, payload });
const post = (url: string, headers: Auth, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

/** A product with one unit on the shelf, bought by a new customer: sold out, one unit held or sold. */
async function boughtOut(what: string): Promise<{ p: TestProduct; order: Order; buyer: Auth }> {
  const p = await insertProduct(ctx.db, { name: uniqueName(what), stock: 1, priceCents: 2000 });
  const buyer = (await customer()).auth;
  const order = await placeOrder(ctx.app, buyer, [{ product: p.id, itemQuantity: 1 }]);
  expect(await stockOf(ctx.db, p.id)).toBe(0);
  return { p, order, buyer };
}

async function payWithGiftCard(order: Order, buyer: Auth) {
  const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
  const paid = await ctx.app.inject({
    method: 'PUT',
    url: `/api/orders/${order._id}/payment`,
    headers: buyer,
    payload: { payment_method: 'Gift Card', gift_card_code: card.code },
  });
  expect(paid.statusCode, paid.body).toBe(200);
}

const expireNow = async (orderId: string) => {
  await ctx.db
    .update(orders)
    .set({ expiresAt: new Date(now.getTime() - 1000) })
    .where(eq(orders.id, orderId));
};
const sweep = () =>
  createOrderExpiry({ db: ctx.db, log: { info() {}, error() {} }, clock: () => now }).sweepOnce();

describe('every path that restocks a variant mails each waiting alert once', () => {
  it("an admin's product update (the default variant's stock)", async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Admin Restock'), stock: 0 });
    const who = await audience(p.id);
    const res = await put(`/api/products/update/${p.id}`, { stockQuantity: 4 });
    expect(res.statusCode, res.body).toBe(200);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it("an admin's variants update (one variant of a product with options)", async () => {
    const options = [{ name: 'Condition', values: ['Loose', 'Boxed'] }];
    const p = await insertProduct(ctx.db, {
      name: uniqueName('Variant Restock'),
      options,
      variants: [
        { options: { Condition: 'Loose' }, stock: 2, priceCents: 1000 },
        { options: { Condition: 'Boxed' }, stock: 0, priceCents: 3000 },
      ],
    });
    const [loose, boxed] = [p.variants[0]!, p.variants[1]!];
    const who = await audience(p.id, boxed.id);
    const res = await put(`/api/products/update/${p.id}`, {
      options,
      variants: [
        { _id: loose.id, options: { Condition: 'Loose' }, price: 10, stockQuantity: 2 },
        { _id: boxed.id, options: { Condition: 'Boxed' }, price: 30, stockQuantity: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectMailedOnce(who, `${p.name} (Boxed)`, boxed.id);
  });

  it('a CSV import', async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Imported Restock'), stock: 0 });
    const who = await audience(p.id);
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/export/products.csv',
      headers: admin,
    });
    const rows = parse(exported.rawPayload.toString('utf8'), { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r._id === p.id);
    expect(row).toBeDefined();
    const csv = stringify(
      [PRODUCTS_EXPORT_COLUMNS.map((c) => (c === 'variantStock' ? '5' : (row?.[c] ?? '')))],
      {
        header: true,
        columns: [...PRODUCTS_EXPORT_COLUMNS],
      },
    );
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'products.csv');
    const body = new Response(form);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${PRODUCTS_IMPORT_PATH}?dryRun=false`,
      headers: { ...admin, 'content-type': body.headers.get('content-type') ?? '' },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ProductsImportResult>()).toMatchObject({ updated: 1 });
    expect(await stockOf(ctx.db, p.id)).toBe(5);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it("an admin's refund that restocks", async () => {
    const { p, order, buyer } = await boughtOut('Refund Restock');
    await payWithGiftCard(order, buyer);
    const who = await audience(p.id);
    const res = await post(`/api/orders/${order._id}/refund`, admin, { reason: 'Returned', restock: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(ctx.db, p.id)).toBe(1);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it('a paid order cancelled by its customer', async () => {
    const { p, order, buyer } = await boughtOut('Paid Cancel Restock');
    await payWithGiftCard(order, buyer);
    const who = await audience(p.id);
    const res = await post(`/api/orders/${order._id}/cancel`, buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(ctx.db, p.id)).toBe(1);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it('an unpaid order cancelled by its customer', async () => {
    const { p, order, buyer } = await boughtOut('Unpaid Cancel Restock');
    const who = await audience(p.id);
    const res = await post(`/api/orders/${order._id}/cancel`, buyer);
    expect(res.statusCode, res.body).toBe(200);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it('an unpaid order expired by the sweeper', async () => {
    const { p, order } = await boughtOut('Expiry Restock');
    const who = await audience(p.id);
    await expireNow(order._id);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await stockOf(ctx.db, p.id)).toBe(1);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it("an overdue order released when its customer places another (the holds' release)", async () => {
    const { p, order, buyer } = await boughtOut('Hold Release Restock');
    const who = await audience(p.id);
    await expireNow(order._id);
    const other = await insertProduct(ctx.db, { stock: 10 });
    await placeOrder(ctx.app, buyer, [{ product: other.id, itemQuantity: 1 }]);
    expect(await stockOf(ctx.db, p.id)).toBe(1);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it('a direct update of the stock column (any path not written yet)', async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Direct Restock'), stock: 0 });
    const who = await audience(p.id);
    await setStock(ctx.db, p.id, 1);
    await expectMailedOnce(who, p.name, p.variantId);
  });
});

describe('what is not a restock', () => {
  it('a checkout placed again, which gives the stock back and takes it again in one transaction', async () => {
    const { p, order, buyer } = await boughtOut('Replaced Checkout');
    const who = await audience(p.id);
    // The same cart again (a reloaded checkout): the first order is released and the unit held again.
    await placeOrder(ctx.app, buyer, [{ product: p.id, itemQuantity: 1 }]);
    const [first] = await ctx.db.select().from(orders).where(eq(orders.id, order._id));
    expect(first).toMatchObject({ restocked: true });
    expect(first?.status).not.toBe('unpaid');
    expect(await stockOf(ctx.db, p.id)).toBe(0);
    await expectNoAlertMail(who, p.name);
    // The alerts still wait, and the next real restock mails them.
    await setStock(ctx.db, p.id, 2);
    await expectMailedOnce(who, p.name, p.variantId);
  });

  it('stock coming back to a variant that is no longer sold, or to a removed product', async () => {
    const options = [{ name: 'Edition', values: ['First', 'Second'] }];
    const p = await insertProduct(ctx.db, {
      name: uniqueName('Archived Restock'),
      options,
      variants: [
        { options: { Edition: 'First' }, stock: 5 },
        { options: { Edition: 'Second' }, stock: 1 },
      ],
    });
    const second = p.variants[1]!;
    const buyer = (await customer()).auth;
    const order = await placeOrder(ctx.app, buyer, [{ product: p.id, variant: second.id, itemQuantity: 1 }]);
    const who = await audience(p.id, second.id);
    // The admin drops the Second edition (archived: an order names it), then the order expires.
    const dropped = await put(`/api/products/update/${p.id}`, {
      options: [{ name: 'Edition', values: ['First'] }],
      variants: [{ _id: p.variants[0]!.id, options: { Edition: 'First' }, price: 19.99, stockQuantity: 5 }],
    });
    expect(dropped.statusCode, dropped.body).toBe(200);
    await expireNow(order._id);
    await sweep();
    const [row] = await ctx.db.select().from(productVariants).where(eq(productVariants.id, second.id));
    expect(row).toMatchObject({ stock: 1 });
    expect(row?.archivedAt).not.toBeNull();
    await expectNoAlertMail(who, p.name);

    const q = await insertProduct(ctx.db, { name: uniqueName('Removed Restock'), stock: 0 });
    const waiting = await audience(q.id);
    await ctx.db.update(products).set({ deletedAt: now }).where(eq(products.id, q.id));
    await setStock(ctx.db, q.id, 3);
    await expectNoAlertMail(waiting, q.name);
  });
});

describe('used once', () => {
  it('a repeated restock (0 -> 1 -> 0 -> 1) mails nobody twice, and only the alerts made between', async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Twice Restocked'), stock: 0 });
    const first = await audience(p.id);
    await setStock(ctx.db, p.id, 1);
    await expectMailedOnce(first, p.name, p.variantId);
    // 1 -> 3 is not a restock; 3 -> 0 -> 1 is, for the alerts made while it was sold out.
    await setStock(ctx.db, p.id, 3);
    await setStock(ctx.db, p.id, 0);
    const late = await customer();
    await subscribeUser(ctx.app, late.auth, p.id);
    await setStock(ctx.db, p.id, 1);
    for (const email of first.confirmed) expect(await alertMailsTo(ctx.db, email, p.name)).toHaveLength(1);
    expect(await alertMailsTo(ctx.db, late.email, p.name)).toHaveLength(1);
    await setStock(ctx.db, p.id, 0);
    await setStock(ctx.db, p.id, 1);
    expect(await alertMailsTo(ctx.db, late.email, p.name)).toHaveLength(1);
  });

  it('one mail to an address that waits both as an account and as a visitor', async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Both Ways'), stock: 0 });
    const shopper = await customer();
    await subscribeUser(ctx.app, shopper.auth, p.id);
    await visitorAlert(ctx.app, ctx.db, shopper.email, p.id);
    await setStock(ctx.db, p.id, 1);
    expect(await alertMailsTo(ctx.db, shopper.email, p.name)).toHaveLength(1);
    const rows = await ctx.db.select().from(stockAlerts).where(eq(stockAlerts.variantId, p.variantId));
    expect(rows.map((r) => r.status)).toEqual(['notified', 'notified']);
    expect(new Set(rows.map((r) => r.mailId)).size).toBe(1);
  });

  it('a restock of 1 unit with 200 waiting mails all 200, first come first served', async () => {
    const p = await insertProduct(ctx.db, { name: uniqueName('Two Hundred'), stock: 0 });
    const fans = await Promise.all(Array.from({ length: 200 }, () => customer()));
    for (let i = 0; i < fans.length; i += 20) {
      const answers = await Promise.all(
        fans.slice(i, i + 20).map((f) => subscribe(ctx.app, { product: p.id }, f.auth)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    }
    await setStock(ctx.db, p.id, 1);
    const mails = await ctx.db
      .select({ to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, `Back in stock: ${p.name}`));
    expect(mails.map((m) => m.to).sort()).toEqual(fans.map((f) => f.email).sort());
  });
});

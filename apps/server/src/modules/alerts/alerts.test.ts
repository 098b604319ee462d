import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_CONFIRM_SENT_MESSAGE,
  ALERT_TOKEN_INVALID_MESSAGE,
  ALERT_UNSUBSCRIBED_MESSAGE,
  type AlertConfirmed,
  type MostWanted,
  type StockAlert,
  type StockAlerts,
} from '@pixel-vault/shared';
import { productVariants, stockAlerts } from '../../db/schema/index.js';
import {
  alertMailsTo,
  confirm,
  confirmTokenIn,
  mailsTo,
  subscribe,
  subscribeUser,
  unsubscribeTokenIn,
  visitorAlert,
} from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { type TestProduct, insertProduct, insertUser, setStock } from '../../test/factories.js';

/**
 * Issue 34: back-in-stock alerts through the API, on both engines (npm test and npm run test:pg).
 * The shop's clock is the test's (confirmation links expire, mails are capped per hour); restocks
 * here are plain stock updates (every restock path is alerts.restock.test.ts's).
 */
let ctx: TestContext;
/** PUBLIC_URL: where mailed links point (and image URLs, absolute). */
const BASE = 'https://shop.example';
let now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;
let admin: Auth;

beforeAll(async () => {
  ctx = await createTestContext({ env: { PUBLIC_URL: BASE }, app: { clock, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };

let counter = 0;
const uniqueEmail = (who = 'visitor') => `${who}-${(counter += 1)}-${Date.now()}@example.com`;

/** A sold-out product (one variant) under a name of its own. */
const soldOut = (name = `Sold Out ${(counter += 1)}`) => insertProduct(ctx.db, { name, stock: 0 });

/** A product in two versions: Loose (sold out) and Boxed (2 in stock). */
const versioned = () =>
  insertProduct(ctx.db, {
    name: `Versioned Alert ${(counter += 1)}`,
    options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }],
    variants: [
      { options: { Condition: 'Loose' }, stock: 0 },
      { options: { Condition: 'Boxed' }, stock: 2 },
    ],
  });

const customer = async () => {
  const { auth, user } = await insertUser(ctx.db);
  return { auth, email: user.email, id: user.id };
};

const myAlerts = async (auth: Auth) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/alerts', headers: auth })).json<StockAlerts>().items;

const setVariantStock = (variantId: string, stock: number) =>
  ctx.db.update(productVariants).set({ stock }).where(eq(productVariants.id, variantId));

const rowsOf = (variantId: string) =>
  ctx.db.select().from(stockAlerts).where(eq(stockAlerts.variantId, variantId));

describe('a logged-in shopper subscribes', () => {
  it('is subscribed at once (201), and again is the same alert (200)', async () => {
    const shopper = await customer();
    const p = await soldOut();
    const first = await subscribe(ctx.app, { product: p.id }, shopper.auth);
    expect(first.statusCode, first.body).toBe(201);
    const alert = first.json<StockAlert>();
    expect(alert).toMatchObject({
      product: p.id,
      variant: p.variantId,
      name: p.name,
      status: 'waiting',
      countInStock: 0,
      notifiedAt: null,
    });
    expect(alert.image).toBe(`${BASE}${p.images[0]}`);
    expect(alert).not.toHaveProperty('variantTitle');

    const again = await subscribe(ctx.app, { product: p.id, variant: p.variantId }, shopper.auth);
    expect(again.statusCode).toBe(200);
    expect(again.json<StockAlert>()._id).toBe(alert._id);
    expect(await myAlerts(shopper.auth)).toEqual([alert]);
    expect(await rowsOf(p.variantId)).toHaveLength(1);
    // No mail for a shopper's own subscribe: they asked while logged in.
    expect(await mailsTo(ctx.db, shopper.email)).toEqual([]);
  });

  it('names the variant as the cart does: the only one, or the one chosen', async () => {
    const shopper = await customer();
    const p = await versioned();
    const loose = p.variants[0]!;
    const required = await subscribe(ctx.app, { product: p.id }, shopper.auth);
    expect(required.statusCode).toBe(400);
    expect(required.json()).toMatchObject({ code: 'VARIANT_REQUIRED' });
    expect(required.json<{ message: string }>().message).toContain(p.name);

    const chosen = await subscribe(ctx.app, { product: p.id, variant: loose.id.toUpperCase() }, shopper.auth);
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect(chosen.json<StockAlert>()).toMatchObject({ variant: loose.id, variantTitle: 'Loose' });

    const other = await soldOut();
    const mixed = await subscribe(ctx.app, { product: p.id, variant: other.variantId }, shopper.auth);
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toMatchObject({ code: 'VARIANT_UNAVAILABLE' });
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now, sku: `~${other.variantId}` })
      .where(eq(productVariants.id, other.variantId));
    expect((await subscribe(ctx.app, { product: other.id }, shopper.auth)).statusCode).toBe(404);
    const unknown = await subscribe(ctx.app, { product: crypto.randomUUID() }, shopper.auth);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Product not found' });
    const removed = await insertProduct(ctx.db, { stock: 0, deletedAt: now });
    expect((await subscribe(ctx.app, { product: removed.id }, shopper.auth)).statusCode).toBe(404);
  });

  it('refuses a variant in stock with 409: there is nothing to wait for', async () => {
    const shopper = await customer();
    const p = await versioned();
    const boxed = p.variants[1]!;
    for (const [payload, auth] of [
      [{ product: p.id, variant: boxed.id }, shopper.auth],
      [{ product: p.id, variant: boxed.id, email: uniqueEmail() }, undefined],
    ] as const) {
      const res = await subscribe(ctx.app, payload, auth);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'IN_STOCK',
        message: `${p.name} (Boxed) is in stock now, so there is nothing to wait for: add it to your cart.`,
      });
    }
    expect(await rowsOf(boxed.id)).toEqual([]);
  });

  it('waits for at most 100 variants at once', async () => {
    const shopper = await customer();
    const p = await soldOut();
    await ctx.db.insert(stockAlerts).values(
      Array.from({ length: 100 }, () => ({
        userId: shopper.id,
        variantId: p.variantId,
        status: 'notified' as const,
        linkBase: 'http://localhost',
      })),
    );
    // Used ones do not count; 100 waiting do.
    expect((await subscribe(ctx.app, { product: p.id }, shopper.auth)).statusCode).toBe(201);
    const others = await Promise.all(Array.from({ length: 99 }, () => soldOut()));
    await ctx.db.insert(stockAlerts).values(
      others.map((o) => ({
        userId: shopper.id,
        variantId: o.variantId,
        status: 'waiting' as const,
        linkBase: 'x',
      })),
    );
    const full = await subscribe(ctx.app, { product: (await soldOut()).id }, shopper.auth);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'ALERTS_FULL' });
  });
});

describe('a visitor subscribes with an e-mail and confirms it', () => {
  it('mails a confirmation link, and waits only once it is opened', async () => {
    const email = uniqueEmail();
    const p = await soldOut();
    const res = await subscribe(ctx.app, { product: p.id, email: `  ${email.toUpperCase()} ` });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: ALERT_CONFIRM_SENT_MESSAGE });
    const [mail, ...more] = await mailsTo(ctx.db, email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe(`Confirm your alert for ${p.name}`);
    const token = confirmTokenIn(mail!);
    expect(mail?.textBody).toContain(`\n${BASE}/alerts/confirm/${token}\n`);
    expect(mail?.htmlBody).toContain(`href="${BASE}/alerts/confirm/${token}"`);
    // Only the hash is kept.
    const [row] = await rowsOf(p.variantId);
    expect(row).toMatchObject({ email, status: 'pending', userId: null });
    expect(row?.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    // Unconfirmed: a restock mails nothing, and the alert stays unconfirmed.
    await setStock(ctx.db, p.id, 2);
    expect(await alertMailsTo(ctx.db, email)).toEqual([]);
    expect((await rowsOf(p.variantId))[0]?.status).toBe('pending');
    await setStock(ctx.db, p.id, 0);

    const confirmed = await confirm(ctx.app, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<AlertConfirmed>()).toMatchObject({
      product: p.id,
      variant: p.variantId,
      name: p.name,
      category: 'retro-games',
      status: 'waiting',
      inStock: false,
      message: `Confirmed: we will e-mail you once when ${p.name} is back in stock.`,
    });
    // Opened twice (a double click, a mail scanner): the same answer.
    expect((await confirm(ctx.app, token)).json<AlertConfirmed>().status).toBe('waiting');

    await setStock(ctx.db, p.id, 1);
    const [alert, ...twice] = await alertMailsTo(ctx.db, email, p.name);
    expect(twice).toEqual([]);
    expect(alert?.textBody).toContain(`${BASE}/shop/retro-games/product/${p.id}?variant=${p.variantId}`);
    expect((await confirm(ctx.app, token)).json<AlertConfirmed>()).toMatchObject({
      status: 'notified',
      inStock: true,
    });
  });

  it('refuses a subscribe without an e-mail (400), and a confirmation link that expired', async () => {
    const p = await soldOut();
    const missing = await subscribe(ctx.app, { product: p.id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'EMAIL_REQUIRED' });

    const email = uniqueEmail();
    const token = await visitorAlert(ctx.app, ctx.db, email, p.id, undefined, { confirmed: false });
    const start = now;
    try {
      now = new Date(start.getTime() + 24 * 60 * 60_000 + 1000);
      const late = await confirm(ctx.app, token);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({ message: ALERT_TOKEN_INVALID_MESSAGE, code: 'ALERT_TOKEN_INVALID' });
      // Asking again sends a new link (the hour is long over); the old one stays dead.
      const fresh = await visitorAlert(ctx.app, ctx.db, email, p.id);
      expect(fresh).not.toBe(token);
      expect((await confirm(ctx.app, token)).statusCode).toBe(400);
      expect((await rowsOf(p.variantId)).map((r) => r.status)).toEqual(['waiting']);
    } finally {
      now = start;
    }
  });

  it('mails the confirmation at most once an hour per address and variant', async () => {
    const email = uniqueEmail();
    const [p, q] = [await soldOut(), await soldOut()];
    for (let i = 0; i < 3; i += 1) {
      expect((await subscribe(ctx.app, { product: p.id, email })).statusCode).toBe(202);
    }
    expect(await mailsTo(ctx.db, email, 'Confirm')).toHaveLength(1);
    // Another variant is another alert.
    expect((await subscribe(ctx.app, { product: q.id, email })).statusCode).toBe(202);
    expect(await mailsTo(ctx.db, email, 'Confirm')).toHaveLength(2);
    const start = now;
    try {
      now = new Date(start.getTime() + 59 * 60_000);
      await subscribe(ctx.app, { product: p.id, email });
      expect(await mailsTo(ctx.db, email, 'Confirm')).toHaveLength(2);
      now = new Date(start.getTime() + 60 * 60_000);
      await subscribe(ctx.app, { product: p.id, email });
      const mails = await mailsTo(ctx.db, email, 'Confirm');
      expect(mails).toHaveLength(3);
      // The newer link is the live one.
      expect((await confirm(ctx.app, confirmTokenIn(mails[0]!))).statusCode).toBe(400);
      expect((await confirm(ctx.app, confirmTokenIn(mails[2]!))).statusCode).toBe(200);
      // Confirmed: asking again sends nothing at all, however late.
      now = new Date(start.getTime() + 5 * 60 * 60_000);
      expect((await subscribe(ctx.app, { product: p.id, email })).statusCode).toBe(202);
      expect(await mailsTo(ctx.db, email, 'Confirm')).toHaveLength(3);
    } finally {
      now = start;
    }
  });

  it('answers the same whether or not the e-mail has an account (no enumeration)', async () => {
    const p = await soldOut();
    const known = (await customer()).email;
    const unknown = uniqueEmail('nobody');
    const answers = [];
    for (const email of [known, unknown, known, unknown]) {
      const res = await subscribe(ctx.app, { product: p.id, email });
      const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
      answers.push({ status: res.statusCode, body: res.body, headers });
    }
    expect(answers[0]).toMatchObject({ status: 202 });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // The same work for both: one confirmation mail each, an alert waiting for neither.
    expect(await mailsTo(ctx.db, known)).toHaveLength(1);
    expect(await mailsTo(ctx.db, unknown)).toHaveLength(1);
    expect((await rowsOf(p.variantId)).map((r) => [r.email, r.userId, r.status]).sort()).toEqual(
      [
        [known, null, 'pending'],
        [unknown, null, 'pending'],
      ].sort(),
    );
    // A bad product answers alike too (its own 404, before any address is looked at).
    for (const email of [known, unknown]) {
      const res = await subscribe(ctx.app, { product: crypto.randomUUID(), email });
      expect([res.statusCode, res.json()]).toEqual([
        404,
        { message: 'Product not found', code: 'NOT_FOUND' },
      ]);
    }
  });
});

describe('limits', () => {
  it('answers 429 after the per-e-mail and the per-address limits, as password resets do', async () => {
    const limited = await ctx.newApp({
      clock,
      limits: {
        ...NO_RATE_LIMITS,
        alertSubscribe: { max: 3, windowMs: 60 * 60_000 },
        alertSubscribeAddress: { max: 5, windowMs: 60 * 60_000 },
      },
    });
    const p = await soldOut();
    const email = uniqueEmail();
    // One inbox from many addresses: the 4th is refused, whatever the address.
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await subscribe(limited, { product: p.id, email }, undefined, `198.51.100.${i + 1}`)).statusCode,
      ).toBe(202);
    }
    const refused = await subscribe(limited, { product: p.id, email }, undefined, '198.51.100.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Many inboxes from one address: the 6th is refused, and nothing is mailed for it.
    const ip = '198.51.100.77';
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await subscribe(limited, { product: p.id, email: uniqueEmail() }, undefined, ip)).statusCode,
      ).toBe(202);
    }
    const sixth = uniqueEmail();
    expect((await subscribe(limited, { product: p.id, email: sixth }, undefined, ip)).statusCode).toBe(429);
    expect(await mailsTo(ctx.db, sixth)).toEqual([]);
    // A logged-in shopper's subscribe is not a visitor's: not counted.
    const shopper = await customer();
    expect((await subscribe(limited, { product: p.id }, shopper.auth, ip)).statusCode).toBe(201);
  });

  it('answers 429 after too many bad confirmation or unsubscribe links from one address', async () => {
    const limited = await ctx.newApp({
      clock,
      limits: { ...NO_RATE_LIMITS, alertTokensAddress: { max: 3, windowMs: 15 * 60_000 } },
    });
    const ip = '203.0.113.44';
    const bad = 'A'.repeat(43);
    const tries = [
      () => confirm(limited, bad, ip),
      () =>
        limited.inject({
          method: 'POST',
          url: '/api/alerts/unsubscribe',
          payload: { token: 'a'.repeat(64) },
          remoteAddress: ip,
        }),
      () =>
        limited.inject({
          method: 'POST',
          url: `/api/alerts/unsubscribe/${'b'.repeat(64)}`,
          remoteAddress: ip,
        }),
    ];
    for (const attempt of tries) expect((await attempt()).statusCode).toBe(400);
    for (const attempt of tries) expect((await attempt()).statusCode).toBe(429);
    // A good link is still refused from there until the window ends (so guessing gains nothing).
    const p = await soldOut();
    const token = await visitorAlert(limited, ctx.db, uniqueEmail(), p.id, undefined, { confirmed: false });
    expect((await confirm(limited, token, ip)).statusCode).toBe(429);
    expect((await confirm(limited, token, '203.0.113.45')).statusCode).toBe(200);
  });
});

describe('my alerts', () => {
  it('are read and deleted by their owner only; another customer gets 404', async () => {
    const [ann, bob] = [await customer(), await customer()];
    const p = await versioned();
    const mine = await subscribeUser(ctx.app, ann.auth, p.id, p.variants[0]!.id);
    const notMine = await subscribeUser(ctx.app, bob.auth, p.id, p.variants[0]!.id);
    expect((await myAlerts(ann.auth)).map((a) => a._id)).toEqual([mine._id]);
    expect(await myAlerts(ann.auth)).toEqual([
      expect.objectContaining({
        name: p.name,
        variantTitle: 'Loose',
        status: 'waiting',
        category: 'retro-games',
      }),
    ]);

    const stolen = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/alerts/${notMine._id}`,
      headers: ann.auth,
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ message: 'Alert not found' });
    expect((await myAlerts(bob.auth)).map((a) => a._id)).toEqual([notMine._id]);

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/alerts/${mine._id}`,
      headers: ann.auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<StockAlerts>()).toEqual({ items: [] });
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/alerts/${mine._id}`, headers: ann.auth }))
        .statusCode,
    ).toBe(404);
    // Deleted before the restock: no mail.
    await setVariantStock(p.variants[0]!.id, 3);
    expect(await alertMailsTo(ctx.db, ann.email)).toEqual([]);
    expect(await alertMailsTo(ctx.db, bob.email, p.name)).toHaveLength(1);
    expect((await myAlerts(bob.auth))[0]).toMatchObject({ status: 'notified', countInStock: 3 });

    for (const res of [
      await ctx.app.inject({ method: 'GET', url: '/api/alerts' }),
      await ctx.app.inject({ method: 'DELETE', url: `/api/alerts/${notMine._id}` }),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    // A visitor's alert is nobody's list, even an account's with the same address.
    const q = await soldOut();
    await visitorAlert(ctx.app, ctx.db, ann.email, q.id);
    expect(await myAlerts(ann.auth)).toEqual([]);
  });

  it('says when a waited-for variant is no longer sold', async () => {
    const shopper = await customer();
    const p = await soldOut();
    await subscribeUser(ctx.app, shopper.auth, p.id);
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now, sku: `~${p.variantId}` })
      .where(eq(productVariants.id, p.variantId));
    expect((await myAlerts(shopper.auth))[0]?.status).toBe('discontinued');
  });
});

describe('unsubscribe', () => {
  it("stops every alert of the mail's address, by the link or one click, and says so every time", async () => {
    const shopper = await customer();
    const [p, q, r] = [await soldOut(), await soldOut(), await soldOut()];
    await subscribeUser(ctx.app, shopper.auth, p.id);
    await subscribeUser(ctx.app, shopper.auth, q.id);
    // The same address as a visitor too (confirmed from its inbox).
    await visitorAlert(ctx.app, ctx.db, shopper.email, r.id);

    await setStock(ctx.db, p.id, 1);
    const [mail] = await alertMailsTo(ctx.db, shopper.email, p.name);
    const token = unsubscribeTokenIn(mail!);
    expect(mail?.headers).toEqual({
      'List-Unsubscribe': `<${BASE}/api/alerts/unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail?.htmlBody).toContain(`href="${BASE}/alerts/unsubscribe/${token}"`);

    const res = await ctx.app.inject({ method: 'POST', url: '/api/alerts/unsubscribe', payload: { token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: ALERT_UNSUBSCRIBED_MESSAGE });
    // What a mail client sends (RFC 8058): a form body, to the header's address. Again: the same answer.
    const oneClick = await ctx.app.inject({
      method: 'POST',
      url: `/api/alerts/unsubscribe/${token.toUpperCase()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toEqual({ message: ALERT_UNSUBSCRIBED_MESSAGE });

    await setStock(ctx.db, q.id, 1);
    await setStock(ctx.db, r.id, 1);
    expect(await alertMailsTo(ctx.db, shopper.email)).toHaveLength(1);
    expect((await myAlerts(shopper.auth)).map((a) => [a.product, a.status]).sort()).toEqual(
      [
        [p.id, 'notified'],
        [q.id, 'cancelled'],
      ].sort(),
    );
    // Subscribing again later is a new alert, mailed at the next restock.
    await setStock(ctx.db, q.id, 0);
    await subscribeUser(ctx.app, shopper.auth, q.id);
    await setStock(ctx.db, q.id, 2);
    expect(await alertMailsTo(ctx.db, shopper.email, q.name)).toHaveLength(1);
  });

  it('refuses unknown and malformed tokens with 400; a GET changes nothing', async () => {
    const shopper = await customer();
    const p = await soldOut();
    await subscribeUser(ctx.app, shopper.auth, p.id);
    await setStock(ctx.db, p.id, 1);
    const token = unsubscribeTokenIn((await alertMailsTo(ctx.db, shopper.email))[0]!);
    await setStock(ctx.db, p.id, 0);
    await subscribeUser(ctx.app, shopper.auth, p.id);

    const get = await ctx.app.inject({ method: 'GET', url: `/api/alerts/unsubscribe/${token}` });
    expect(get.statusCode).toBe(404);
    for (const bad of ['c'.repeat(64), 'short', 'g'.repeat(64), '']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/alerts/unsubscribe',
        payload: { token: bad },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ message: ALERT_TOKEN_INVALID_MESSAGE });
    }
    expect((await myAlerts(shopper.auth)).map((a) => a.status).sort()).toEqual(['notified', 'waiting']);
  });
});

describe('most wanted (admin)', () => {
  it('counts waiting alerts of sold-out variants, most first, and is for admins only', async () => {
    const [a, b, c, inStock, archived] = [
      await soldOut(),
      await soldOut(),
      await soldOut(),
      await soldOut(),
      await soldOut(),
    ];
    const subscribers = async (p: TestProduct, n: number) => {
      for (let i = 0; i < n; i += 1) await subscribeUser(ctx.app, (await customer()).auth, p.id);
    };
    const start = now;
    try {
      // c's wait began an hour earlier than a's: of two variants as wanted, the longer wait comes first.
      now = new Date(start.getTime() - 60 * 60_000);
      await subscribers(c, 2);
    } finally {
      now = start;
    }
    await subscribers(a, 1);
    await subscribers(b, 3);
    await subscribers(inStock, 4);
    await subscribers(archived, 5);
    // Not counted: an unconfirmed visitor's, a used one (c's restock, then sold out again).
    await visitorAlert(ctx.app, ctx.db, uniqueEmail(), a.id, undefined, { confirmed: false });
    await visitorAlert(ctx.app, ctx.db, uniqueEmail(), a.id);
    await setStock(ctx.db, inStock.id, 1);
    await setStock(ctx.db, inStock.id, 0);
    await subscribers(inStock, 1);
    await setVariantStock(inStock.variantId, 6);
    await ctx.db
      .update(productVariants)
      .set({ archivedAt: now, sku: `~${archived.variantId}` })
      .where(eq(productVariants.id, archived.variantId));

    const res = await ctx.app.inject({ method: 'GET', url: '/api/alerts/admin/most-wanted', headers: admin });
    expect(res.statusCode).toBe(200);
    const mine = res
      .json<MostWanted>()
      .items.filter((i) => [a, b, c, inStock, archived].some((p) => p.id === i.product));
    expect(mine.map((i) => [i.name, i.waiting])).toEqual([
      [b.name, 3],
      [c.name, 2],
      [a.name, 2],
    ]);
    expect(mine[0]).toMatchObject({
      variant: b.variantId,
      image: `${BASE}${b.images[0]}`,
      category: 'retro-games',
    });
    expect(mine[0]?.sku).toMatch(/^PV-/);
    expect(mine[1]?.waitingSince).toBe(new Date(start.getTime() - 60 * 60_000).toISOString());

    const shopper = await customer();
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/alerts/admin/most-wanted', headers: shopper.auth }))
        .statusCode,
    ).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/alerts/admin/most-wanted' })).statusCode).toBe(
      401,
    );
  });
});

describe('garbage input', () => {
  it('never answers 500', async () => {
    const shopper = await customer();
    const p = await soldOut();
    const bodies: unknown[] = [
      {},
      { product: 'not-an-id' },
      { product: p.id, variant: 'nope' },
      { product: p.id, variant: 42 },
      { product: [p.id] },
      { product: p.id, email: 'not an e-mail' },
      { product: p.id, email: `${'a'.repeat(10_000)}@example.com` },
      { product: p.id, email: 12 },
      { product: p.id, email: null },
      { product: null, email: uniqueEmail() },
      { product: '00000000-0000-0000-0000-000000000000', email: uniqueEmail() },
      [],
      'text',
    ];
    for (const payload of bodies) {
      for (const auth of [undefined, shopper.auth]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/alerts',
          headers: { 'content-type': 'application/json', ...auth },
          payload: JSON.stringify(payload),
        });
        const label = `${JSON.stringify(payload).slice(0, 60)} ${auth ? 'user' : 'visitor'} -> ${res.body}`;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label).toBeLessThan(500);
        expect(res.json<{ message: string }>().message, label).toBeTruthy();
      }
    }
    for (const [method, url, payload] of [
      ['POST', '/api/alerts/confirm', {}],
      ['POST', '/api/alerts/confirm', { token: 'x'.repeat(5000) }],
      ['POST', '/api/alerts/confirm', { token: 42 }],
      ['POST', '/api/alerts/unsubscribe', { token: ['a'] }],
      ['POST', '/api/alerts/unsubscribe/%00', undefined],
      ['POST', `/api/alerts/unsubscribe/${'z'.repeat(300)}`, undefined],
      ['DELETE', '/api/alerts/not-an-id', undefined],
      ['DELETE', '/api/alerts/00000000-0000-0000-0000-000000000000', undefined],
    ] as const) {
      const res = await ctx.app.inject({
        method,
        url,
        headers: shopper.auth,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
    // A bearer token that is not valid is a 401, as on every logged-in route.
    const stale = await subscribe(ctx.app, { product: p.id }, { authorization: 'Bearer not.a.token' });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ message: 'Not authorized!' });
  });
});

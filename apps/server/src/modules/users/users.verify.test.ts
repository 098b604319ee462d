import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Order,
  type PublicUser,
  type UserInfo,
  VERIFY_TOKEN_INVALID_MESSAGE,
  type VerifyEmailResponse,
} from '@pixel-vault/shared';
import { emailVerificationTokens, mailOutbox, productVariants, users } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { hashToken } from '../../lib/tokens.js';
import { alertMailsTo, subscribeUser } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { TEST_ADDRESS, insertGiftCard, insertProduct, insertUser } from '../../test/factories.js';
import { acceptAll, adminMove, buyable, move, ok, quote } from '../../test/tradeins.js';

/**
 * Issue 36: verified e-mail addresses (docs/verified-email.md). The shop's clock is the test's, so
 * links can expire; mails are read from the outbox.
 */
const HOST = 'shop.test';
const SUBJECT = 'Confirm your Pixel Vault e-mail address';
const DAY_MS = 24 * 60 * 60_000;

let ctx: TestContext;
let now = new Date('2026-11-27T12:00:00Z');
let admin: Auth;
beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
const bearer = (info: { token: string }): Auth => ({ authorization: `Bearer ${info.token}` });
const freshEmail = (what = 'shopper') => `${what}-${randomUUID()}@example.com`;

const mailsTo = (email: string, subject?: string) =>
  ctx.db
    .select()
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.toAddress, email),
        subject === undefined ? undefined : eq(mailOutbox.subject, subject),
      ),
    );

function tokenIn(mail: { textBody: string } | undefined): string {
  const token = /\/verify-email\/([A-Za-z0-9_-]{43})\b/.exec(mail?.textBody ?? '')?.[1];
  if (!token) throw new Error(`No verification link in: ${mail?.textBody}`);
  return token;
}

/** The token of the newest verification mail to `email`. */
async function lastLinkTo(email: string): Promise<string> {
  const mails = await mailsTo(email, SUBJECT);
  expect(mails.length, `verification mails to ${email}`).toBeGreaterThan(0);
  return tokenIn(mails.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).at(-1));
}

async function register(email = freshEmail(), app: App = ctx.app): Promise<UserInfo> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { host: HOST },
    payload: { name: 'Vera Fied', email, password: 'a long password' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UserInfo>();
}

const verify = (token: unknown, app: App = ctx.app, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/users/verify', payload: { token }, remoteAddress: ip });
const resend = (auth: Auth | Record<string, never>, app: App = ctx.app, ip = '10.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/users/verify/resend',
    headers: { ...auth, host: HOST },
    remoteAddress: ip,
  });
const profile = async (auth: Auth) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: auth })).json<PublicUser>();

describe('registration', () => {
  it('answers the spec user info at once (the account works) and mails a link to {base}/verify-email/{token}', async () => {
    const email = freshEmail();
    const info = await register(email.toUpperCase());
    expect(info).toMatchObject({ email, isAdmin: false, emailVerified: false });
    const orders = await ctx.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(info) });
    expect(orders.statusCode).toBe(200);

    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([SUBJECT]);
    const token = tokenIn(mails[0]);
    expect(mails[0]!.textBody).toContain(`http://${HOST}/verify-email/${token}`);
    expect(mails[0]!.htmlBody).toContain(`http://${HOST}/verify-email/${token}`);
    expect(mails[0]!.textBody).toContain('24 hours');
    // Only the hash is kept.
    const [row] = await ctx.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, info._id));
    expect(row).toMatchObject({ tokenHash: hashToken(token), email, usedAt: null });
    expect(row!.expiresAt.getTime() - now.getTime()).toBe(DAY_MS);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await profile(bearer(info))).toMatchObject({ email, emailVerified: false });
  });

  it('queues nothing when the e-mail is taken (the same transaction)', async () => {
    const info = await register();
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'Twin', email: info.email, password: 'a long password' },
    });
    expect(again.statusCode).toBe(409);
    expect(await mailsTo(info.email)).toHaveLength(1);
  });
});

describe('POST /api/users/verify', () => {
  it('marks the address verified, answers { message, email }, and the same 200 when opened again', async () => {
    const info = await register();
    const token = await lastLinkTo(info.email);
    const res = await verify(token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<VerifyEmailResponse>();
    expect(Object.keys(body).sort()).toEqual(['email', 'message']);
    expect(body.email).toBe(info.email);
    expect(body.message).toContain('verified');
    expect(await profile(bearer(info))).toMatchObject({ emailVerified: true });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, info._id));
    expect(row!.emailVerifiedAt).toEqual(now);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: info.email, password: 'a long password' },
    });
    expect(login.json<UserInfo>().emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
  });

  it('refuses an unknown or malformed token with 400 and a clear message', async () => {
    for (const token of ['A'.repeat(43), 'short', 42, '../../etc/passwd'.padEnd(43, 'x')]) {
      const res = await verify(token);
      expect(res.statusCode, String(token)).toBe(400);
      expect(res.json()).toMatchObject({ message: VERIFY_TOKEN_INVALID_MESSAGE });
    }
  });

  it('refuses a link after 24 hours (the injected clock)', async () => {
    const info = await register();
    const token = await lastLinkTo(info.email);
    const start = now;
    try {
      now = new Date(start.getTime() + DAY_MS);
      const res = await verify(token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: VERIFY_TOKEN_INVALID_MESSAGE,
        code: 'VERIFY_TOKEN_INVALID',
      });
      now = new Date(start.getTime() + DAY_MS - 1);
      expect((await verify(token)).statusCode).toBe(200);
    } finally {
      now = start;
    }
  });

  it('keeps one live link per account: a newer one voids the older', async () => {
    const info = await register();
    const first = await lastLinkTo(info.email);
    const res = await resend(bearer(info));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sent: true });
    expect(res.json<{ message: string }>().message).toContain(info.email);
    const second = await lastLinkTo(info.email);
    expect(second).not.toBe(first);
    expect((await verify(first)).statusCode).toBe(400);
    expect((await verify(second)).statusCode).toBe(200);
    // The used link stays (opening it again answers 200); no unused one is left.
    const rows = await ctx.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, info._id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.usedAt).not.toBeNull();
  });

  it('counts failed links per address (429 past the limit)', async () => {
    const app = await ctx.newApp({
      clock: () => now,
      limits: { ...NO_RATE_LIMITS, verifyEmailAddress: { max: 2, windowMs: 60_000 } },
    });
    const ip = '10.9.9.1';
    expect((await verify('B'.repeat(43), app, ip)).statusCode).toBe(400);
    expect((await verify('C'.repeat(43), app, ip)).statusCode).toBe(400);
    expect((await verify('D'.repeat(43), app, ip)).statusCode).toBe(429);
    expect((await verify('D'.repeat(43), app, '10.9.9.2')).statusCode).toBe(400);
  });
});

describe('POST /api/users/verify/resend', () => {
  it('needs a login', async () => {
    expect((await resend({})).statusCode).toBe(401);
  });

  it('answers 200 saying so, and mails nothing, for a verified account', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const res = await resend(auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your e-mail address is already verified.', sent: false });
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('is limited per account and per address, like a forgotten password', async () => {
    const app = await ctx.newApp({
      clock: () => now,
      limits: {
        ...NO_RATE_LIMITS,
        verifyResend: { max: 2, windowMs: 60 * 60_000 },
        verifyResendAddress: { max: 3, windowMs: 60 * 60_000 },
      },
    });
    const one = await register(freshEmail(), app);
    expect((await resend(bearer(one), app, '10.8.0.1')).statusCode).toBe(200);
    expect((await resend(bearer(one), app, '10.8.0.2')).statusCode).toBe(200);
    // The account's budget is spent, from any address.
    const refused = await resend(bearer(one), app, '10.8.0.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/Too many verification mails/);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await mailsTo(one.email, SUBJECT)).toHaveLength(3);

    // One address asking for many accounts.
    const ip = '10.8.1.1';
    for (let i = 0; i < 3; i += 1) {
      const other = await register(freshEmail(), app);
      expect((await resend(bearer(other), app, ip)).statusCode).toBe(200);
    }
    const last = await register(freshEmail(), app);
    expect((await resend(bearer(last), app, ip)).statusCode).toBe(429);
    expect(await mailsTo(last.email, SUBJECT)).toHaveLength(1);
  });
});

describe('changing the e-mail on My Account', () => {
  const put = (auth: Auth, payload: object) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: { ...auth, host: HOST },
      payload,
    });

  it('verifies the new address before it replaces the old one', async () => {
    const { user, auth, password } = await insertUser(ctx.db);
    const email = freshEmail('new');
    const res = await put(auth, { email, currentPassword: password, name: 'Renamed' });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json<UserInfo & { message: string }>();
    expect(info).toMatchObject({
      name: 'Renamed',
      email: user.email,
      pendingEmail: email,
      emailVerified: true,
    });
    expect(info.message).toContain(`We sent a link to ${email}`);
    // The link goes to the new address, a notice to the old one.
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual([SUBJECT]);
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual([
      'Your Pixel Vault e-mail address is about to change',
    ]);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);
    expect(await profile(bearer(info))).toMatchObject({ email: user.email, pendingEmail: email });

    // A resend while it waits goes to the new address, and voids the first link.
    const first = await lastLinkTo(email);
    expect((await resend(bearer(info))).json()).toMatchObject({ sent: true });
    expect((await verify(first)).statusCode).toBe(400);

    const done = await verify(await lastLinkTo(email));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ email });
    const after = await profile(bearer(info));
    expect(after).toMatchObject({ email, emailVerified: true });
    expect(after.pendingEmail).toBeUndefined();
  });

  it('answers 409 when another account took the address meanwhile, and keeps the old one', async () => {
    const { user, auth, password } = await insertUser(ctx.db);
    const email = freshEmail('contested');
    const res = await put(auth, { email, currentPassword: password });
    expect(res.statusCode).toBe(200);
    const info = res.json<UserInfo>();
    const token = await lastLinkTo(email);
    await register(email);
    const taken = await verify(token);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    expect(await profile(bearer(info))).toMatchObject({ email: user.email });
  });

  it('keeps the spec profile update for the other fields (no link, no pending address)', async () => {
    const { auth } = await insertUser(ctx.db);
    const res = await put(auth, { name: 'Just A Name' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('pendingEmail');
    expect(res.json()).not.toHaveProperty('message');
  });

  it('counts an address staff set or add as verified (the admin vouches, as for ADMIN_EMAIL)', async () => {
    const { user } = await insertUser(ctx.db, { emailVerified: false });
    const email = freshEmail('by-admin');
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/admin/user/${user.id}`,
      headers: admin,
      payload: { name: user.name, email, isAdmin: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email, emailVerified: true });
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/admin/add',
      headers: admin,
      payload: { name: 'Added', email: freshEmail('added'), password: 'a long password' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ emailVerified: true });
  });
});

describe('an unverified address gets only the verification mail and its own orders', () => {
  it('gets no back-in-stock mail until verified; its alert keeps waiting for a later restock', async () => {
    const product = await insertProduct(ctx.db, { stock: 0 });
    const unverified = await register();
    const verified = await insertUser(ctx.db);
    await subscribeUser(ctx.app, bearer(unverified), product.id);
    await subscribeUser(ctx.app, verified.auth, product.id);
    const restock = (stock: number) =>
      ctx.db.update(productVariants).set({ stock }).where(eq(productVariants.id, product.variantId));

    await restock(3);
    expect(await alertMailsTo(ctx.db, verified.user.email)).toHaveLength(1);
    expect(await alertMailsTo(ctx.db, unverified.email)).toHaveLength(0);
    const alerts = await ctx.app.inject({ method: 'GET', url: '/api/alerts', headers: bearer(unverified) });
    expect(JSON.stringify(alerts.json())).toContain('waiting');

    expect((await verify(await lastLinkTo(unverified.email))).statusCode).toBe(200);
    await restock(0);
    await restock(2);
    expect(await alertMailsTo(ctx.db, unverified.email)).toHaveLength(1);
  });

  it('gets no trade-in mail, while the trade-in works and its page shows every step', async () => {
    const game = await buyable(ctx.db, { stock: 0 });
    const unverified = await register();
    const auth = bearer(unverified);
    const made = await quote(ctx.app, auth, [{ product: game.id, qty: 1 }]);
    await ok(move(ctx.app, auth, made._id, 'ship', { trackingNumber: 'TRACK-9' }));
    await ok(adminMove(ctx.app, admin, made._id, 'receive'));
    const inspected = await ok(adminMove(ctx.app, admin, made._id, 'inspect', acceptAll(made)));
    const page = await ok(ctx.app.inject({ method: 'GET', url: `/api/tradeins/${made._id}`, headers: auth }));
    expect(page.status).toBe(inspected.status);
    expect((await mailsTo(unverified.email)).map((m) => m.subject)).toEqual([SUBJECT]);

    // The same steps for a verified account mail each one.
    const verified = await insertUser(ctx.db);
    const other = await quote(ctx.app, verified.auth, [{ product: game.id, qty: 1 }]);
    await ok(move(ctx.app, verified.auth, other._id, 'ship', { trackingNumber: 'TRACK-10' }));
    expect((await mailsTo(verified.user.email)).length).toBeGreaterThanOrEqual(1);
  });

  it('gets the mails of the orders it placed, and no mail about a review it writes', async () => {
    const unverified = await register();
    const auth = bearer(unverified);
    const product = await insertProduct(ctx.db, { priceCents: 1999, stock: 5 });
    const placed = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: auth,
      payload: {
        orderItems: [{ product: product.id, itemQuantity: 1 }],
        shippingAddress: TEST_ADDRESS,
        paymentMethod: 'paypal',
      },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const order = placed.json<Order>();
    const card = await insertGiftCard(ctx.db, { balanceCents: 100_000 });
    const paid = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/payment`,
      headers: auth,
      payload: { payment_method: 'Gift Card', gift_card_code: card.code },
    });
    expect(paid.json<Order>().isPaid).toBe(true);
    const delivered = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/delivery`,
      headers: admin,
      payload: { isDelivered: true },
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    const review = await ctx.app.inject({
      method: 'POST',
      url: `/api/products/${product.id}/reviews`,
      headers: auth,
      payload: { rating: 5, title: 'Great', comment: 'Plays fine.' },
    });
    expect(review.statusCode, review.body).toBe(201);

    const subjects = (await mailsTo(unverified.email)).map((m) => m.subject);
    expect(subjects).toHaveLength(3);
    expect(subjects).toContain(SUBJECT);
    expect(subjects.filter((s) => /order/i.test(s))).toHaveLength(2);
    expect(subjects.join('\n')).not.toMatch(/review/i);
  });
});

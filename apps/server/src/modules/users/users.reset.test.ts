import { createHash, randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_MESSAGE, RESET_TOKEN_INVALID_MESSAGE, type UserInfo } from '@pixel-vault/shared';
import { auditLog, mailOutbox, passwordResetTokens, users } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';

const HOST = 'shop.test';
const LINK = /https?:\/\/[^\s"<]+\/reset-password\/([A-Za-z0-9_-]{43})/;

/** Test time: starts now, moved by hand (reset link expiry). */
let now = Date.now();
const clock = () => new Date(now);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS, clock } });
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;

const forgot = (email: string, headers: Headers = { host: HOST }, app: App = ctx.app, ip = '10.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/users/password/forgot',
    payload: { email },
    headers,
    remoteAddress: ip,
  });
const reset = (token: string, password: string, app: App = ctx.app, ip = '10.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/users/password/reset',
    payload: { token, password },
    headers: { host: HOST },
    remoteAddress: ip,
  });
const login = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password } });
const profile = (authorization: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization } });

const mailsTo = (email: string) =>
  ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));

/** The token of the newest reset mail to `email`, read from the outbox as a customer would read it. */
async function tokenFromMail(email: string): Promise<string> {
  const mails = (await mailsTo(email)).filter((m) => m.subject === 'Reset your Pixel Vault password');
  const token = mails[0] ? LINK.exec(mails[0].textBody)?.[1] : undefined;
  if (!token) throw new Error(`no reset mail to ${email}`);
  return token;
}

async function tokensOf(userId: string) {
  return ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
}

describe('POST /api/users/password/forgot and /reset: the round trip', () => {
  it('mails a link to the account, whose token sets the password, ends every session and logs in', async () => {
    const { user, auth, password } = await insertUser(ctx.db, { name: 'Ada' });
    const res = await forgot(user.email.toUpperCase());
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });

    const [mail, ...others] = await mailsTo(user.email);
    expect(others).toHaveLength(0);
    expect(mail).toMatchObject({ subject: 'Reset your Pixel Vault password', status: 'pending' });
    const match = LINK.exec(mail!.textBody);
    expect(match?.[0]).toBe(`http://${HOST}/reset-password/${match?.[1]}`);
    const token = match![1]!;
    expect(mail!.textBody).toContain('Hello Ada,');
    expect(mail!.textBody).toContain('for the next 30 minutes');
    expect(mail!.htmlBody).toContain(`href="http://${HOST}/reset-password/${token}"`);

    // Only the SHA-256 is stored, never the token.
    const rows = await tokensOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.usedAt).toBeNull();
    expect(rows[0]!.expiresAt.getTime() - now).toBe(30 * 60_000);

    const done = await reset(token, 'a brand new password');
    expect(done.statusCode).toBe(200);
    const info = done.json<UserInfo>();
    expect(Object.keys(info).sort()).toEqual([
      '_id',
      'createdAt',
      'email',
      'emailVerified',
      'isAdmin',
      'name',
      'token',
    ]);
    expect(info).toMatchObject({ _id: user.id, email: user.email, name: 'Ada', isAdmin: false });

    // Every session that existed ends; the answer's token is a working one.
    expect((await profile(auth.authorization)).statusCode).toBe(401);
    expect((await profile(`Bearer ${info.token}`)).statusCode).toBe(200);
    expect((await login(user.email, password)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new password')).statusCode).toBe(200);

    const [row] = await tokensOf(user.id);
    expect(row!.usedAt).not.toBeNull();
    const notice = (await mailsTo(user.email)).find(
      (m) => m.subject === 'Your Pixel Vault password was changed',
    );
    expect(notice?.textBody).toContain(`http://${HOST}/forgot-password`);
    expect(notice?.textBody).not.toMatch(LINK);
  });

  it('refuses a token used once already with 400 and the message', async () => {
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    const token = await tokenFromMail(user.email);
    expect((await reset(token, 'first new password')).statusCode).toBe(200);
    const again = await reset(token, 'second new password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: RESET_TOKEN_INVALID_MESSAGE });
    expect((await login(user.email, 'first new password')).statusCode).toBe(200);
  });

  it('refuses an expired token, and accepts one still inside its 30 minutes', async () => {
    const late = await insertUser(ctx.db);
    const inTime = await insertUser(ctx.db);
    await forgot(late.user.email);
    await forgot(inTime.user.email);
    const lateToken = await tokenFromMail(late.user.email);
    const inTimeToken = await tokenFromMail(inTime.user.email);
    const start = now;
    try {
      now = start + 29 * 60_000;
      expect((await reset(inTimeToken, 'made it in time')).statusCode).toBe(200);
      now = start + 30 * 60_000 + 1;
      const res = await reset(lateToken, 'too late for this');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: RESET_TOKEN_INVALID_MESSAGE });
    } finally {
      now = start;
    }
    // Nothing changed for the late one: its old password still works.
    expect((await login(late.user.email, late.password)).statusCode).toBe(200);
  });

  it('lets only the newest link of a user work', async () => {
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    const older = await tokenFromMail(user.email);
    now += 1000;
    await forgot(user.email);
    const newer = await tokenFromMail(user.email);
    expect(newer).not.toBe(older);
    expect(await tokensOf(user.id)).toHaveLength(1);
    expect((await reset(older, 'from the older link')).statusCode).toBe(400);
    expect((await reset(newer, 'from the newer link')).statusCode).toBe(200);
  });

  it('lets exactly one of five simultaneous resets with one token through', async () => {
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    const token = await tokenFromMail(user.email);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => reset(token, `concurrent password ${i}`, ctx.app, `10.0.1.${i}`)),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) {
      expect(r.json()).toMatchObject({ message: RESET_TOKEN_INVALID_MESSAGE });
    }
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.tokenVersion).toBe(1);
    const winner = results.findIndex((r) => r.statusCode === 200) + 1;
    expect((await login(user.email, `concurrent password ${winner}`)).statusCode).toBe(200);
  });

  it('answers an unknown e-mail exactly like a known one, and mails nothing', async () => {
    const { user } = await insertUser(ctx.db);
    const unknownEmail = `nobody-${randomUUID()}@example.com`;
    const known = await forgot(user.email);
    const unknown = await forgot(unknownEmail);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    const headerNames = (h: Record<string, unknown>) => Object.keys(h).sort();
    expect(headerNames(unknown.headers)).toEqual(headerNames(known.headers));
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    expect(await mailsTo(unknownEmail)).toHaveLength(0);
    expect(await mailsTo(user.email)).toHaveLength(1);
    const rows = await ctx.db.select().from(passwordResetTokens);
    expect(rows.every((r) => r.userId !== '00000000-0000-0000-0000-000000000000')).toBe(true);
  });

  it('refuses a made-up, malformed or missing token with 400 and the same message', async () => {
    const madeUp = Buffer.alloc(32, 7).toString('base64url');
    for (const token of [madeUp, 'short', `${madeUp}x`, '../../etc/passwd'.padEnd(43, 'a')]) {
      const res = await reset(token, 'whatever password');
      expect(res.statusCode, token).toBe(400);
      expect(res.json<{ message: string }>().message, token).toBe(RESET_TOKEN_INVALID_MESSAGE);
    }
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/password/reset',
      payload: { password: 'whatever password' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe(RESET_TOKEN_INVALID_MESSAGE);
  });

  it('holds the new password to the rules of registration, and keeps the link for a second try', async () => {
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    const token = await tokenFromMail(user.email);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: 'Password must be at least 8 characters' });
    expect((await reset(token, 'long enough now')).statusCode).toBe(200);
  });

  it('refuses a bad e-mail with 400 and its message', async () => {
    const res = await forgot('not an e-mail');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Please enter a valid email address' });
  });

  it('escapes the name in the HTML mail', async () => {
    const { user } = await insertUser(ctx.db, { name: '<script>alert(1)</script> & "Bob"' });
    await forgot(user.email);
    const [mail] = await mailsTo(user.email);
    expect(mail!.htmlBody).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bob&quot;,');
    expect(mail!.htmlBody).not.toContain('<script>');
    expect(mail!.textBody).toContain('Hello <script>alert(1)</script> & "Bob",');
  });

  it('links to PUBLIC_URL when it is set, whatever the Host, and never copies a Host that is not a host name', async () => {
    const withPublic = await ctx.newApp({
      config: { ...ctx.config, publicUrl: 'https://shop.example.com/store' },
    });
    const a = await insertUser(ctx.db);
    await forgot(a.user.email, { host: 'evil.example' }, withPublic);
    const linkA = LINK.exec((await mailsTo(a.user.email))[0]!.textBody)?.[0];
    expect(linkA).toMatch(/^https:\/\/shop\.example\.com\/store\/reset-password\/[A-Za-z0-9_-]{43}$/);

    const b = await insertUser(ctx.db);
    await forgot(b.user.email, { host: 'evil.example/steal?x=' });
    const textB = (await mailsTo(b.user.email))[0]!.textBody;
    expect(textB).not.toContain('evil');
    expect(LINK.exec(textB)?.[0]).toMatch(/^http:\/\/localhost(:\d+)?\/reset-password\//);
  });

  it("ends the links sent to an account's old address when an admin changes its e-mail", async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    const token = await tokenFromMail(user.email);
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/admin/user/${user.id}`,
      headers: admin.auth,
      payload: { name: user.name, email: `moved-${randomUUID()}@example.com`, isAdmin: false },
    });
    expect(moved.statusCode).toBe(200);
    expect((await reset(token, 'from the old mailbox')).statusCode).toBe(400);
  });

  it('drops the links of a deleted account with it', async () => {
    const { user } = await insertUser(ctx.db);
    await forgot(user.email);
    expect(await tokensOf(user.id)).toHaveLength(1);
    await ctx.db.delete(users).where(eq(users.id, user.id));
    expect(await tokensOf(user.id)).toHaveLength(0);
  });
});

describe('POST /api/users/admin/user/:id/password-reset', () => {
  const send = (id: string, authorization: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/users/admin/user/${id}/password-reset`,
      headers: { authorization, host: HOST },
    });

  it('mails the user a working reset link, tells the admin nothing of it, and audits it', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const target = await insertUser(ctx.db, { name: 'Forgetful' });
    const res = await send(target.user.id, admin.auth.authorization);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: 'Password reset link sent' });

    const [mail] = await mailsTo(target.user.email);
    expect(mail!.textBody).toContain('A Pixel Vault administrator sent you this link');
    const token = await tokenFromMail(target.user.email);
    expect(res.body).not.toContain(token);

    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, target.user.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: 'user.password_reset_link',
      actorUserId: admin.user.id,
      targetType: 'user',
      after: { mailedTo: target.user.email },
    });
    expect(JSON.stringify(audits)).not.toContain(token);

    // The admin's action changes nothing until the user uses the link.
    expect((await login(target.user.email, target.password)).statusCode).toBe(200);
    expect((await reset(token, 'chosen by the user')).statusCode).toBe(200);
    expect((await login(target.user.email, 'chosen by the user')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user and 403 to a customer, sending nothing', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const customer = await insertUser(ctx.db);
    const unknown = await send(randomUUID(), admin.auth.authorization);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'User not found' });

    const refused = await send(customer.user.id, customer.auth.authorization);
    expect(refused.statusCode).toBe(403);
    expect((await send(customer.user.id, 'Bearer nope')).statusCode).toBe(401);
    expect(await mailsTo(customer.user.email)).toHaveLength(0);
    expect(await tokensOf(customer.user.id)).toHaveLength(0);
  });
});

describe('rate limits of password resets', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      app: {
        limits: {
          forgotPassword: { max: 2, windowMs: 60_000 },
          forgotPasswordAddress: { max: 4, windowMs: 60_000 },
          resetPasswordAddress: { max: 3, windowMs: 60_000 },
        },
      },
    });
  });
  afterAll(() => limited.close());

  const ask = (email: string, ip: string) => forgot(email, { host: HOST }, limited.app, ip);

  it('answers 429 after too many requests for one e-mail from any address, known or not', async () => {
    const { user } = await insertUser(limited.db);
    const unknownEmail = `ghost-${randomUUID()}@example.com`;
    for (const email of [user.email, unknownEmail]) {
      expect((await ask(email, '10.8.0.1')).statusCode).toBe(202);
      expect((await ask(email, '10.8.0.2')).statusCode).toBe(202);
      const blocked = await ask(email.toUpperCase(), '10.8.0.3');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        message: 'Too many password reset requests. Please try again later.',
        code: 'RATE_LIMITED',
      });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    const sent = await limited.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(sent).toHaveLength(2);
  });

  it('answers 429 after too many requests from one address, whatever e-mails they name', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect((await ask(`spray${i}-${randomUUID()}@example.com`, '10.9.0.1')).statusCode).toBe(202);
    }
    expect((await ask(`spray-last-${randomUUID()}@example.com`, '10.9.0.1')).statusCode).toBe(429);
    expect((await ask(`spray-last-${randomUUID()}@example.com`, '10.9.0.2')).statusCode).toBe(202);
  });

  it('answers 429 after too many failed resets from one address; another address still resets', async () => {
    const { user } = await insertUser(limited.db);
    expect((await ask(user.email, '10.10.0.1')).statusCode).toBe(202);
    const [mail] = await limited.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    const token = LINK.exec(mail!.textBody)![1]!;
    for (let i = 0; i < 3; i += 1) {
      const madeUp = Buffer.alloc(32, i).toString('base64url');
      expect((await reset(madeUp, 'guessing away', limited.app, '10.10.0.9')).statusCode).toBe(400);
    }
    const blocked = await reset(token, 'the real one', limited.app, '10.10.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      message: 'Too many password reset attempts. Please try again later.',
    });
    expect((await reset(token, 'the real one', limited.app, '10.10.0.8')).statusCode).toBe(200);
  });
});

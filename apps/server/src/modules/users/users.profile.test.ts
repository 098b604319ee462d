import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@pixel-vault/shared';
import { mailOutbox, passwordResetTokens, users } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';

const HOST = 'shop.test';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
});
afterAll(() => ctx.close());

type Auth = { authorization: string };

const getProfile = (auth: Auth | Record<string, never>) =>
  ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: auth });
const putProfile = (
  auth: Auth | Record<string, never>,
  payload: unknown,
  app: App = ctx.app,
  ip = '10.0.0.1',
) =>
  app.inject({
    method: 'PUT',
    url: '/api/users/profile',
    headers: { ...auth, host: HOST },
    payload: payload as object,
    remoteAddress: ip,
  });
const login = (email: string, password: string, app: App = ctx.app, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password }, remoteAddress: ip });
const bearer = (info: UserInfo): Auth => ({ authorization: `Bearer ${info.token}` });

const mailsTo = (email: string) => ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
const freshEmail = () => `fresh-${randomUUID()}@example.com`;

describe('GET /api/users/profile', () => {
  it("answers the caller's own account, without secrets", async () => {
    const { user, auth } = await insertUser(ctx.db, { name: 'Me Myself' });
    const res = await getProfile(auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: user.id,
      name: 'Me Myself',
      email: user.email,
      isAdmin: false,
      createdAt: user.createdAt.toISOString(),
      emailVerified: true,
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('needs a login (401 Not authorized!)', async () => {
    const res = await getProfile({});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Not authorized!' });
    expect((await putProfile({}, { name: 'Nobody' })).statusCode).toBe(401);
  });
});

describe('PUT /api/users/profile', () => {
  it('changes the name alone without the password, and keeps every session', async () => {
    const { user, auth } = await insertUser(ctx.db, { name: 'Old Name' });
    const res = await putProfile(auth, { name: '  New Name ' });
    expect(res.statusCode).toBe(200);
    const info = res.json<UserInfo>();
    expect(Object.keys(info).sort()).toEqual([
      '_id',
      'createdAt',
      'email',
      'emailVerified',
      'isAdmin',
      'name',
      'token',
    ]);
    expect(info).toMatchObject({ _id: user.id, name: 'New Name', email: user.email });
    expect((await getProfile(auth)).json()).toMatchObject({ name: 'New Name' });
    expect((await getProfile(bearer(info))).statusCode).toBe(200);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('ignores isAdmin and other unknown fields', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const res = await putProfile(auth, { name: 'Sneaky', isAdmin: true, tokenVersion: 9 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isAdmin: false });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ isAdmin: false, tokenVersion: 0, name: 'Sneaky' });
  });

  it('refuses an empty change and a new password or e-mail without the current password', async () => {
    const { auth } = await insertUser(ctx.db);
    const empty = await putProfile(auth, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: 'Nothing to change' });
    for (const payload of [{ newPassword: 'a new password' }, { email: freshEmail() }]) {
      const res = await putProfile(auth, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Please enter your current password to change your email or password',
      });
    }
    const short = await putProfile(auth, { currentPassword: 'whatever', newPassword: 'short' });
    expect(short.json()).toEqual({ message: 'Password must be at least 8 characters' });
  });

  it('changes the password with the right current one: other sessions end, the answer carries a working token', async () => {
    const { user, auth, password } = await insertUser(ctx.db, { name: 'Pat' });
    const res = await putProfile(auth, { currentPassword: password, newPassword: 'a much better password' });
    expect(res.statusCode).toBe(200);
    const info = res.json<UserInfo>();
    expect((await getProfile(auth)).statusCode).toBe(401);
    expect((await getProfile(bearer(info))).statusCode).toBe(200);
    expect((await login(user.email, password)).statusCode).toBe(401);
    expect((await login(user.email, 'a much better password')).statusCode).toBe(200);
    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your Pixel Vault password was changed']);
    expect(mails[0]!.textBody).toContain(`http://${HOST}/forgot-password`);
  });

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const { user, auth, password } = await insertUser(ctx.db);
    for (const payload of [
      { currentPassword: 'not my password', newPassword: 'a new password' },
      { currentPassword: 'not my password', email: freshEmail() },
    ]) {
      const res = await putProfile(auth, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Current password is incorrect' });
    }
    expect((await getProfile(auth)).json()).toMatchObject({ email: user.email });
    expect((await login(user.email, password)).statusCode).toBe(200);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('changes the e-mail once the new address is confirmed: sessions end, both addresses hear of it, login uses the new one', async () => {
    const { user, auth, password } = await insertUser(ctx.db, { name: '<b>Eve</b> & "Co"' });
    const email = freshEmail();
    const res = await putProfile(auth, { email: email.toUpperCase(), currentPassword: password });
    expect(res.statusCode).toBe(200);
    const info = res.json<UserInfo & { message: string }>();
    // Issue 36: the old address stays until the new one's link is opened.
    expect(info).toMatchObject({ email: user.email, pendingEmail: email });
    expect(info.message).toContain(email);
    expect((await getProfile(auth)).statusCode).toBe(401);
    expect((await getProfile(bearer(info))).json()).toMatchObject({ email: user.email, pendingEmail: email });
    expect((await login(user.email, password)).statusCode).toBe(200);

    const [asked] = await mailsTo(user.email);
    expect(asked?.subject).toBe('Your Pixel Vault e-mail address is about to change');
    expect(asked?.htmlBody).toContain('Hello &lt;b&gt;Eve&lt;/b&gt; &amp; &quot;Co&quot;,');
    const [link] = await mailsTo(email);
    expect(link?.subject).toBe('Confirm your Pixel Vault e-mail address');
    expect(link?.htmlBody).not.toContain('<b>Eve');
    const token = /\/verify-email\/([A-Za-z0-9_-]{43})/.exec(link?.textBody ?? '')?.[1];
    expect(link?.textBody).toContain(`http://${HOST}/verify-email/`);
    const verified = await ctx.app.inject({ method: 'POST', url: '/api/users/verify', payload: { token } });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ email });

    expect((await getProfile(bearer(info))).json()).toMatchObject({ email, emailVerified: true });
    expect((await login(email, password)).statusCode).toBe(200);
    expect((await login(user.email, password)).statusCode).toBe(401);
    const toOld = (await mailsTo(user.email)).find(
      (m) => m.subject === 'Your Pixel Vault e-mail address was changed',
    );
    expect(toOld?.textBody).toContain(`changed from ${user.email} to ${email}.`);
    expect(toOld?.textBody).toContain('If you did not make this change');
  });

  it('refuses an e-mail another account has, whatever its case, with 409', async () => {
    const taken = await insertUser(ctx.db);
    const { user, auth, password } = await insertUser(ctx.db);
    const res = await putProfile(auth, { email: taken.user.email.toUpperCase(), currentPassword: password });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
    // Nothing changed, the session lives, no notice went out.
    expect((await getProfile(auth)).json()).toMatchObject({ email: user.email });
    expect(await mailsTo(user.email)).toHaveLength(0);
    expect(await mailsTo(taken.user.email)).toHaveLength(0);
  });

  it('treats the same e-mail in another case as no change: no password check, no notice, sessions kept', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const res = await putProfile(auth, {
      name: 'Same Mail',
      email: user.email.toUpperCase(),
      currentPassword: 'x',
    });
    expect(res.statusCode).toBe(200);
    expect((await getProfile(auth)).json()).toMatchObject({ name: 'Same Mail', email: user.email });
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('kills reset links mailed before a password or e-mail change', async () => {
    const { user, auth, password } = await insertUser(ctx.db);
    const ask = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/password/forgot',
      payload: { email: user.email },
    });
    expect(ask.statusCode).toBe(202);
    const linkOf = async () =>
      ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(await linkOf()).toHaveLength(1);
    expect(
      (await putProfile(auth, { currentPassword: password, newPassword: 'changed by hand' })).statusCode,
    ).toBe(200);
    expect(await linkOf()).toHaveLength(0);
  });
});

describe('a session ended while its change ran', () => {
  it('gets no fresh token: the change is refused with 401 and nothing is written', async () => {
    const { user } = await insertUser(ctx.db, { name: 'Before' });
    // The request was let in with version 0; a reset bumped the account to 1 before its transaction.
    await ctx.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, user.id));
    const change = ctx.app.services.users.updateProfile(
      { id: user.id, isAdmin: false, tokenVersion: 0 },
      { name: 'After' },
      { base: 'http://shop.test', guardPassword: (_email, check) => check() },
    );
    await expect(change).rejects.toMatchObject({ statusCode: 401 });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: 'Before', tokenVersion: 1 });
  });
});

describe('the current password check shares the failed-login budget', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      app: { limits: { login: { max: 3, windowMs: 60_000 }, loginAddress: { max: 100, windowMs: 60_000 } } },
    });
  });
  afterAll(() => limited.close());

  it('answers 429 once wrong current passwords used up the account budget, for the form and for login', async () => {
    const { user, auth, password } = await insertUser(limited.db);
    for (let i = 0; i < 3; i += 1) {
      const res = await putProfile(
        auth,
        { currentPassword: `guess ${i}`, newPassword: 'new password' },
        limited.app,
      );
      expect(res.statusCode).toBe(400);
    }
    const blocked = await putProfile(
      auth,
      { currentPassword: password, newPassword: 'new password' },
      limited.app,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      message: 'Too many wrong passwords. Please try again in 15 minutes.',
    });
    expect((await login(user.email, password, limited.app, '10.0.0.2')).statusCode).toBe(429);
    // A name change needs no password, so it is not held up.
    expect((await putProfile(auth, { name: 'Still Me' }, limited.app)).statusCode).toBe(200);
  });

  it('does not count a right current password', async () => {
    const { user, auth, password } = await insertUser(limited.db);
    let current = { auth, password };
    // More changes than the budget holds, all for one account: none is refused.
    for (let i = 0; i < 4; i += 1) {
      const next = `new password number ${i}`;
      const res = await putProfile(
        current.auth,
        { currentPassword: current.password, newPassword: next },
        limited.app,
      );
      expect(res.statusCode).toBe(200);
      current = { auth: bearer(res.json<UserInfo>()), password: next };
    }
    expect((await login(user.email, current.password, limited.app)).statusCode).toBe(200);
  });
});

import { and, eq, like } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, RECOVERY_CODE_COUNT } from '@pixel-vault/shared';
import {
  auditLog,
  mailOutbox,
  twoFactorChallenges,
  twoFactorRecoveryCodes,
  userSessions,
  userTwoFactor,
} from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { TWO_FACTOR_EXPIRED_MESSAGE } from './twofactor.service.js';

/** Test time, moved by hand: 10 s into a 30 s step, so "the previous step" is well defined. */
const STEP_MS = 30_000;
let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000;
const clock = () => new Date(now);
const later = (ms: number) => {
  now += ms;
};
/** The code of the step `stepsBack` before the test clock's. */
const codeAt = (secret: string, stepsBack = 0) =>
  generateSync({ secret, epoch: Math.floor(now / 1000) - stepsBack * 30 });

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS, clock } });
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
const post = (url: string, headers: Record<string, string>, payload?: object, app: App = ctx.app) =>
  payload
    ? app.inject({ method: 'POST', url, headers, payload })
    : app.inject({ method: 'POST', url, headers });
const login = (email: string, password: string, app: App = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0' },
    remoteAddress: '203.0.113.9',
  });
const secondStep = (challenge: string, code: string, app: App = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/users/login/2fa',
    payload: { challenge, code },
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0' },
    remoteAddress: '203.0.113.9',
  });

/** A user with 2FA on: their secret and recovery codes. The clock moves past the enabling code's step. */
async function userWith2fa(app: App = ctx.app, overrides: { isAdmin?: boolean } = {}) {
  const made = await insertUser(ctx.db, overrides);
  const setup = await post('/api/users/2fa/setup', made.auth, undefined, app);
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUrl } = setup.json() as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Pixel%20Vault:.*\?secret=[A-Z2-7]+&issuer=Pixel%20Vault/);
  const enabled = await post('/api/users/2fa/enable', made.auth, { code: codeAt(secret) }, app);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
  later(3 * STEP_MS);
  return { ...made, secret, recoveryCodes };
}

async function challengeOf(email: string, password: string, app: App = ctx.app): Promise<string> {
  const res = await login(email, password, app);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  return body.challenge as string;
}

const sessionsOf = async (userId: string) =>
  ctx.db.select().from(userSessions).where(eq(userSessions.userId, userId));
const mailsTo = async (email: string, subject: string) =>
  ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.subject, `%${subject}%`)));

describe('two-factor setup', () => {
  it('sets up, enables with a code, answers 10 recovery codes kept only hashed, and mails the owner', async () => {
    const made = await insertUser(ctx.db);
    const status0 = await ctx.app.inject({ method: 'GET', url: '/api/users/2fa', headers: made.auth });
    expect(status0.json()).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    const first = (await post('/api/users/2fa/setup', made.auth)).json();
    const second = (await post('/api/users/2fa/setup', made.auth)).json();
    expect(second.secret).not.toBe(first.secret);
    // The first pending secret was replaced.
    const wrong = await post('/api/users/2fa/enable', made.auth, { code: codeAt(first.secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('TWO_FACTOR_CODE_WRONG');
    const ok = await post('/api/users/2fa/enable', made.auth, { code: codeAt(second.secret) });
    expect(ok.statusCode).toBe(200);
    const codes = ok.json().recoveryCodes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const [row] = await ctx.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, made.user.id));
    expect(row?.secret).not.toContain(second.secret);
    expect(row?.secret).toMatch(/^v1\./);
    const kept = await ctx.db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, made.user.id));
    expect(kept).toHaveLength(RECOVERY_CODE_COUNT);
    for (const k of kept) for (const code of codes) expect(k.codeHash).not.toContain(code.replace('-', ''));
    const status = await ctx.app.inject({ method: 'GET', url: '/api/users/2fa', headers: made.auth });
    expect(status.json()).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(await mailsTo(made.user.email, 'Two-factor sign-in is on')).toHaveLength(1);
    // Already on: no new setup.
    expect((await post('/api/users/2fa/setup', made.auth)).statusCode).toBe(409);
  });
});

describe('login with two-factor sign-in', () => {
  it('issues no token and makes no session before the second factor', async () => {
    const u = await userWith2fa();
    const before = (await sessionsOf(u.user.id)).length;
    const res = await login(u.user.email, u.password);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['challenge', 'twoFactorRequired']);
    expect(res.body).not.toMatch(/token|eyJ/);
    expect(await sessionsOf(u.user.id)).toHaveLength(before);
    // The challenge is no bearer token.
    const asBearer = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${res.json().challenge}` },
    });
    expect(asBearer.statusCode).toBe(401);
    // A wrong password still answers as before.
    expect((await login(u.user.email, 'not the password')).statusCode).toBe(401);
  });

  it('answers a password reset of a 2FA account with a challenge, not a token', async () => {
    const u = await userWith2fa();
    expect((await post('/api/users/password/forgot', {}, { email: u.user.email })).statusCode).toBe(202);
    const [mail] = await mailsTo(u.user.email, 'Reset your Pixel Vault password');
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.textBody)?.[1];
    const before = (await sessionsOf(u.user.id)).length;
    const reset = await post('/api/users/password/reset', {}, { token, password: 'a new long password' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(await sessionsOf(u.user.id)).toHaveLength(before);
    const ok = await secondStep(reset.json().challenge as string, codeAt(u.secret));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toEqual(expect.any(String));
  });

  it('signs in with a TOTP code: the previous step accepted, two steps back refused, a replay refused', async () => {
    const u = await userWith2fa();
    const challenge = await challengeOf(u.user.email, u.password);
    const twoBack = await secondStep(challenge, codeAt(u.secret, 2));
    expect(twoBack.statusCode).toBe(401);
    expect(twoBack.json()).toMatchObject({
      code: 'TWO_FACTOR_CODE_WRONG',
      message: expect.stringMatching(/4 tries left/),
    });
    const previous = codeAt(u.secret, 1);
    const ok = await secondStep(challenge, previous);
    expect(ok.statusCode, ok.body).toBe(200);
    const info = ok.json();
    expect(info).toMatchObject({ _id: u.user.id, email: u.user.email, token: expect.any(String) });
    const sessions = await sessionsOf(u.user.id);
    expect(sessions.some((s) => s.device.includes('Firefox') && s.ip === '203.0.113.9')).toBe(true);
    const profile = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${info.token}` },
    });
    expect(profile.statusCode).toBe(200);
    // The challenge is used up.
    expect((await secondStep(challenge, codeAt(u.secret))).json().message).toBe(TWO_FACTOR_EXPIRED_MESSAGE);
    // The same code again, on a new login: refused (replay), and so is the current step's older sibling.
    const again = await challengeOf(u.user.email, u.password);
    expect((await secondStep(again, previous)).statusCode).toBe(401);
    // The current step's code is later than the one used: accepted once, then refused.
    const current = codeAt(u.secret);
    expect((await secondStep(again, current)).statusCode).toBe(200);
    const third = await challengeOf(u.user.email, u.password);
    expect((await secondStep(third, current)).statusCode).toBe(401);
  });

  it('accepts each recovery code once, and mails the owner when one is used', async () => {
    const u = await userWith2fa();
    const [code, other] = u.recoveryCodes;
    const challenge = await challengeOf(u.user.email, u.password);
    // Typed in capitals without the dash: the same code.
    const ok = await secondStep(challenge, code!.replace('-', '').toUpperCase());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toEqual(expect.any(String));
    const again = await challengeOf(u.user.email, u.password);
    const reused = await secondStep(again, code!);
    expect(reused.statusCode).toBe(401);
    expect((await secondStep(again, other!)).statusCode).toBe(200);
    const mails = await mailsTo(u.user.email, 'recovery code was used');
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => m.textBody).join()).toContain('8 of them are left');
    const status = await ctx.app.inject({ method: 'GET', url: '/api/users/2fa', headers: u.auth });
    expect(status.json().recoveryCodesLeft).toBe(8);
  });

  it('lets a challenge live 5 minutes', async () => {
    const u = await userWith2fa();
    const challenge = await challengeOf(u.user.email, u.password);
    later(5 * 60_000 + 1000);
    const res = await secondStep(challenge, codeAt(u.secret));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: TWO_FACTOR_EXPIRED_MESSAGE, code: 'TWO_FACTOR_EXPIRED' });
  });

  it('takes 5 wrong codes, then not even the right one', async () => {
    const u = await userWith2fa();
    const challenge = await challengeOf(u.user.email, u.password);
    const messages: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await secondStep(challenge, '000000');
      expect(res.statusCode).toBe(401);
      messages.push(res.json().message as string);
    }
    expect(messages.slice(0, 4)).toEqual([4, 3, 2, 1].map((n) => expect.stringContaining(`${n} tr`)));
    expect(messages[4]).toBe(TWO_FACTOR_EXPIRED_MESSAGE);
    const right = await secondStep(challenge, codeAt(u.secret));
    expect(right.json().message).toBe(TWO_FACTOR_EXPIRED_MESSAGE);
    expect(
      await ctx.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.userId, u.user.id)),
    ).toEqual([expect.objectContaining({ attemptsLeft: 0 })]);
    // A made-up challenge: the same answer.
    expect((await secondStep('made-up', '123456')).json().message).toBe(TWO_FACTOR_EXPIRED_MESSAGE);
  });

  it('counts wrong codes against the account login budget', async () => {
    const app = await ctx.newApp({
      limits: { ...NO_RATE_LIMITS, login: { max: 3, windowMs: 15 * 60_000 } },
    });
    const u = await userWith2fa(app);
    const challenge = await challengeOf(u.user.email, u.password, app);
    for (let i = 0; i < 3; i += 1) expect((await secondStep(challenge, '000000', app)).statusCode).toBe(401);
    // The account's budget is spent: the password alone is refused now, and so is a fourth code.
    const refused = await login(u.user.email, u.password, app);
    expect(refused.statusCode).toBe(429);
    expect((await secondStep(challenge, codeAt(u.secret), app)).statusCode).toBe(429);
  });
});

describe('disable and new recovery codes', () => {
  it('need the password and a current code; wrong ones count and change nothing', async () => {
    const u = await userWith2fa();
    const wrongPassword = await post('/api/users/2fa/disable', u.auth, {
      password: 'not it',
      code: codeAt(u.secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().code).toBe('WRONG_CURRENT_PASSWORD');
    const wrongCode = await post('/api/users/2fa/disable', u.auth, { password: u.password, code: '000000' });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().code).toBe('TWO_FACTOR_CODE_WRONG');
    expect((await post('/api/users/2fa/disable', u.auth, { password: u.password })).statusCode).toBe(400);

    const renewed = await post('/api/users/2fa/recovery-codes', u.auth, {
      password: u.password,
      code: codeAt(u.secret),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh).not.toContain(u.recoveryCodes[0]);
    // An old code is dead; a new one works (as the confirming code, too).
    const old = await post('/api/users/2fa/disable', u.auth, {
      password: u.password,
      code: u.recoveryCodes[0],
    });
    expect(old.statusCode).toBe(400);
    const off = await post('/api/users/2fa/disable', u.auth, { password: u.password, code: fresh[0] });
    expect(off.statusCode, off.body).toBe(200);
    expect(await mailsTo(u.user.email, 'Two-factor sign-in was turned off')).toHaveLength(1);
    const res = await login(u.user.email, u.password);
    expect(res.json()).toMatchObject({ token: expect.any(String) });
  });
});

describe('admin reset', () => {
  it('turns another user\u2019s 2FA off, audited and mailed', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const u = await userWith2fa();
    const res = await post(`/api/users/admin/user/${u.user.id}/2fa/reset`, admin.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect((await login(u.user.email, u.password)).json()).toMatchObject({ token: expect.any(String) });
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, u.user.id));
    expect(audits).toEqual([
      expect.objectContaining({
        actorUserId: admin.user.id,
        action: 'user.two_factor_reset',
        before: { twoFactorEnabled: true },
      }),
    ]);
    expect(await mailsTo(u.user.email, 'reset by the shop')).toHaveLength(1);
    const customer = await insertUser(ctx.db);
    expect((await post(`/api/users/admin/user/${u.user.id}/2fa/reset`, customer.auth)).statusCode).toBe(403);
  });
});

describe('login timing', () => {
  it('measures the login answer for 2FA and non-2FA accounts (printed, not asserted)', async () => {
    const plain = await insertUser(ctx.db);
    const twoFactor = await userWith2fa();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const times: Record<'plain' | 'twoFactor', number[]> = { plain: [], twoFactor: [] };
    for (let i = 0; i < 15; i += 1) {
      for (const [kind, u] of [
        ['plain', plain],
        ['twoFactor', twoFactor],
      ] as const) {
        const start = performance.now();
        const res = await login(u.user.email, u.password);
        times[kind].push(performance.now() - start);
        expect(res.statusCode).toBe(200);
      }
    }
    console.log(
      `login timing (median of 15): non-2FA ${median(times.plain).toFixed(1)} ms (token + session), ` +
        `2FA ${median(times.twoFactor).toFixed(1)} ms (challenge)`,
    );
  });
});

describe('REQUIRE_ADMIN_2FA', () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await createTestContext({
      env: { REQUIRE_ADMIN_2FA: 'true' },
      app: { limits: NO_RATE_LIMITS, clock },
    });
    await strict.app.ready();
  });
  afterAll(() => strict.close());

  it('refuses every admin route to an admin without 2FA, lets them log in and set it up, then in', async () => {
    const made = await insertUser(strict.db, { isAdmin: true });
    const adminRoutes = strict.app.accessTable.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(20);
    const call = (route: { method: string; url: string }, auth: Auth) => {
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      return strict.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:[A-Za-z]+/g, () => crypto.randomUUID()),
        headers: { ...auth, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        ...(hasBody ? { payload: '{}' } : {}),
      });
    };
    // Logging in still works: the answer is a token (no 2FA yet).
    const loggedIn = await login(made.user.email, made.password, strict.app);
    const auth = { authorization: `Bearer ${loggedIn.json().token as string}` };
    for (const route of adminRoutes) {
      const res = await call(route, auth);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toEqual({ message: ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, code: 'TWO_FACTOR_REQUIRED' });
    }
    const status = await strict.app.inject({ method: 'GET', url: '/api/users/2fa', headers: auth });
    expect(status.json()).toEqual({ enabled: false, recoveryCodesLeft: 0, required: true });
    // A customer's status says nothing is required of them.
    const customer = await insertUser(strict.db);
    const theirs = await strict.app.inject({ method: 'GET', url: '/api/users/2fa', headers: customer.auth });
    expect(theirs.json().required).toBe(false);

    const { secret } = (await post('/api/users/2fa/setup', auth, undefined, strict.app)).json();
    const enabled = await post('/api/users/2fa/enable', auth, { code: codeAt(secret) }, strict.app);
    expect(enabled.statusCode).toBe(200);
    for (const route of adminRoutes) {
      const res = await call(route, auth);
      expect([401, 403], `${route.method} ${route.url} -> ${res.statusCode} ${res.body}`).not.toContain(
        res.statusCode,
      );
    }
    const after = await strict.app.inject({ method: 'GET', url: '/api/users/2fa', headers: auth });
    expect(after.json()).toMatchObject({ enabled: true, required: false });
  });
});

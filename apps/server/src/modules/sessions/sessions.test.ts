import { eq, sql } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserSession } from '@pixel-vault/shared';
import { mailOutbox, userSessions, users } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import { NO_RATE_LIMITS, TEST_JWT_SECRET, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { deleteDeadSessions } from './sessions.repo.js';
import { SESSION_LIFETIME_MS } from './sessions.service.js';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const ENDED = { message: 'Not authorized!', code: 'SESSION_ENDED' };

/** Test time: starts now, moved by hand (last-used writes, cleanup). */
let now = Date.now();
const clock = () => new Date(now);
const later = (ms: number) => {
  now += ms;
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS, clock } });
});
afterAll(() => ctx.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(
  email: string,
  password: string,
  {
    userAgent = ANDROID_CHROME,
    ip = '203.0.113.7',
    app = ctx.app,
  }: { userAgent?: string; ip?: string; app?: App } = {},
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

/** A customer signed in from `devices.length` browsers: their tokens, in order. */
async function customerOn(...devices: string[]) {
  const made = await insertUser(ctx.db);
  const tokens: string[] = [];
  for (const userAgent of devices) tokens.push(await login(made.user.email, made.password, { userAgent }));
  return { ...made, tokens };
}

const list = (token: string, app: App = ctx.app) =>
  app.inject({ method: 'GET', url: '/api/users/sessions', headers: bearer(token) });
const sessionsOf = async (token: string): Promise<UserSession[]> => {
  const res = await list(token);
  expect(res.statusCode).toBe(200);
  return res.json().sessions as UserSession[];
};
const revoke = (token: string, id: string, app: App = ctx.app) =>
  app.inject({ method: 'DELETE', url: `/api/users/sessions/${id}`, headers: bearer(token) });
const revokeOthers = (token: string, app: App = ctx.app) =>
  app.inject({ method: 'POST', url: '/api/users/sessions/revoke-others', headers: bearer(token) });
const profile = (token: string, app: App = ctx.app) =>
  app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) });
const sidOf = (token: string) => decodeJwt(token).sid as string;
const rowOf = async (id: string) => {
  const [row] = await ctx.db.select().from(userSessions).where(eq(userSessions.id, id));
  return row;
};

describe('a session for every token', () => {
  it('makes a session at login, with the device, address and times, and the token carries its id', async () => {
    const { user, password } = await insertUser(ctx.db);
    const token = await login(user.email, password, { ip: '198.51.100.23' });
    const sid = sidOf(token);
    const sessions = await sessionsOf(token);
    expect(sessions).toEqual([
      {
        _id: sid,
        device: 'Chrome on Android',
        ip: '198.51.100.23',
        createdAt: new Date(now).toISOString(),
        lastUsedAt: new Date(now).toISOString(),
        current: true,
      },
    ]);
    const row = await rowOf(sid);
    expect(row).toMatchObject({ userId: user.id, userAgent: ANDROID_CHROME, revokedAt: null });
  });

  it('makes a session at sign-up', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      payload: {
        name: 'New Shopper',
        email: 'sessions-signup@example.com',
        password: 'a long enough password',
      },
      headers: { 'user-agent': MAC_FIREFOX },
      remoteAddress: '192.0.2.1',
    });
    expect(res.statusCode).toBe(201);
    const token = res.json().token as string;
    expect(await sessionsOf(token)).toEqual([
      expect.objectContaining({
        _id: sidOf(token),
        device: 'Firefox on macOS',
        ip: '192.0.2.1',
        current: true,
      }),
    ]);
  });

  it('keeps what a person needs of the user agent: cut to 512 characters, unknown when none was sent', async () => {
    const { user, password } = await insertUser(ctx.db);
    const long = await login(user.email, password, { userAgent: `${IPHONE_SAFARI} ${'x'.repeat(2000)}` });
    expect((await rowOf(sidOf(long)))?.userAgent).toHaveLength(512);
    const none = await login(user.email, password, { userAgent: '' });
    expect(await rowOf(sidOf(none))).toMatchObject({ userAgent: null, device: 'Unknown device' });
    const devices = (await sessionsOf(long)).map((s) => s.device).sort();
    expect(devices).toEqual(['Safari on iPhone', 'Unknown device']);
  });

  it("lists the live sessions newest used first, the caller's own marked current", async () => {
    const { tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const [phone, laptop] = tokens as [string, string];
    later(5 * 60_000);
    expect((await profile(laptop)).statusCode).toBe(200);
    await ctx.app.services.auth.settle();
    later(30_000);
    // The phone is used after it: it moves to the top (its last-used time is written, once a minute).
    expect((await profile(phone)).statusCode).toBe(200);
    await ctx.app.services.auth.settle();
    const fromLaptop = await sessionsOf(laptop);
    expect(fromLaptop.map((s) => [s._id, s.device, s.current])).toEqual([
      [sidOf(phone), 'Chrome on Android', false],
      [sidOf(laptop), 'Firefox on macOS', true],
    ]);
    expect(fromLaptop[0]?.lastUsedAt).toBe(new Date(now).toISOString());
  });

  it("continues the caller's session when a profile change answers a fresh token", async () => {
    const { tokens } = await customerOn(ANDROID_CHROME);
    const [phone] = tokens as [string];
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: bearer(phone),
      payload: { name: 'Renamed' },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    expect(sidOf(fresh)).toBe(sidOf(phone));
    // Both tokens of the one browser work, and it is listed once.
    expect((await profile(phone)).statusCode).toBe(200);
    expect(await sessionsOf(fresh)).toHaveLength(1);
  });
});

describe('signing a session out', () => {
  it("ends the revoked session's token with SESSION_ENDED while the other still works", async () => {
    const { tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const [phone, laptop] = tokens as [string, string];
    const res = await revoke(laptop, sidOf(phone));
    expect(res.statusCode).toBe(200);
    expect(res.json().sessions.map((s: UserSession) => s._id)).toEqual([sidOf(laptop)]);
    const refused = await profile(phone);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(ENDED);
    expect((await profile(laptop)).statusCode).toBe(200);
    expect((await rowOf(sidOf(phone)))?.revokedAt).toEqual(new Date(now));
  });

  it('signs the caller out when it revokes its own session', async () => {
    const { tokens } = await customerOn(ANDROID_CHROME);
    const [phone] = tokens as [string];
    expect((await revoke(phone, sidOf(phone))).statusCode).toBe(200);
    expect((await profile(phone)).json()).toEqual(ENDED);
  });

  it("answers 404 for someone else's session, an unknown one, or one already ended, and touches none", async () => {
    const mine = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const theirs = await customerOn(IPHONE_SAFARI);
    const [theirToken] = theirs.tokens as [string];
    const [myPhone, myLaptop] = mine.tokens as [string, string];
    const res = await revoke(myPhone, sidOf(theirToken));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Session not found', code: 'NOT_FOUND' });
    expect((await profile(theirToken)).statusCode).toBe(200);
    expect((await revoke(myPhone, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await revoke(myPhone, sidOf(myLaptop))).statusCode).toBe(200);
    expect((await revoke(myPhone, sidOf(myLaptop))).statusCode).toBe(404);
    expect((await revoke(myPhone, 'not-an-id')).statusCode).toBe(400);
  });

  it("signs out everywhere else: every other session ends, the caller's goes on", async () => {
    const { tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX, IPHONE_SAFARI);
    const [phone, laptop, iphone] = tokens as [string, string, string];
    const res = await revokeOthers(laptop);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      sessions: [expect.objectContaining({ _id: sidOf(laptop), current: true })],
    });
    expect((await profile(phone)).json()).toEqual(ENDED);
    expect((await profile(iphone)).json()).toEqual(ENDED);
    expect((await profile(laptop)).statusCode).toBe(200);
  });

  it('is seen at once by a second app instance on the same database', async () => {
    const other = await ctx.newApp();
    const { user, password } = await insertUser(ctx.db);
    const phone = await login(user.email, password, { app: other });
    const laptop = await login(user.email, password, { userAgent: MAC_FIREFOX });
    expect((await profile(phone, other)).statusCode).toBe(200);
    expect((await list(laptop, other)).json().sessions).toHaveLength(2);
    // Revoked through the first instance; the second refuses the token on its very next call.
    expect((await revoke(laptop, sidOf(phone))).statusCode).toBe(200);
    const refused = await profile(phone, other);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(ENDED);
    expect((await profile(laptop, other)).statusCode).toBe(200);
  });

  it("refuses a token naming another account's session", async () => {
    const mine = await customerOn(ANDROID_CHROME);
    const theirs = await customerOn(ANDROID_CHROME);
    const forged = await new SignJWT({ ver: 0, sid: sidOf(theirs.tokens[0]!) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(mine.user.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await profile(forged)).json()).toEqual(ENDED);
    const malformed = await new SignJWT({ ver: 0, sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(mine.user.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await profile(malformed)).json()).toEqual({ message: 'Not authorized!', code: 'NOT_AUTHORIZED' });
  });
});

describe('tokens from before sessions', () => {
  it('still accepts a token without a session id, which sees the list but is none of it', async () => {
    const { auth, user, password } = await insertUser(ctx.db);
    expect(decodeJwt(auth.authorization.slice('Bearer '.length)).sid).toBeUndefined();
    const legacy = auth.authorization.slice('Bearer '.length);
    expect((await profile(legacy)).statusCode).toBe(200);
    const phone = await login(user.email, password);
    expect((await sessionsOf(legacy)).map((s) => [s._id, s.current])).toEqual([[sidOf(phone), false]]);
    // Signing out everywhere else from an old token ends every session (it has none of its own).
    expect((await revokeOthers(legacy)).json()).toEqual({ sessions: [] });
    expect((await profile(phone)).json()).toEqual(ENDED);
    expect((await profile(legacy)).statusCode).toBe(200);
  });
});

describe('last used: written at most once a minute', () => {
  const xmin = async (id: string) => {
    const result = await ctx.db.execute<{ xmin: string }>(
      sql`select xmin::text as xmin from ${userSessions} where ${userSessions.id} = ${id}`,
    );
    return (result as unknown as { rows: { xmin: string }[] }).rows[0]?.xmin;
  };

  it('writes the time of use only when the last one is a minute old, and nothing in between', async () => {
    const { tokens } = await customerOn(ANDROID_CHROME);
    const [phone] = tokens as [string];
    const sid = sidOf(phone);
    const signedIn = new Date(now);
    const version = await xmin(sid);
    for (const step of [10_000, 20_000, 29_000]) {
      later(step);
      expect((await profile(phone)).statusCode).toBe(200);
      await ctx.app.services.auth.settle();
    }
    // 59 s of requests: the row was not written at all (not even a no-op update of it).
    expect((await rowOf(sid))?.lastUsedAt).toEqual(signedIn);
    expect(await xmin(sid)).toBe(version);
    later(1_000);
    expect((await profile(phone)).statusCode).toBe(200);
    await ctx.app.services.auth.settle();
    const firstWrite = new Date(now);
    expect((await rowOf(sid))?.lastUsedAt).toEqual(firstWrite);
    later(30_000);
    await Promise.all([profile(phone), profile(phone), profile(phone)]);
    await ctx.app.services.auth.settle();
    expect((await rowOf(sid))?.lastUsedAt).toEqual(firstWrite);
    later(31_000);
    // Many requests at once after the minute: one of them writes, the others' conditional updates find nothing.
    await Promise.all([profile(phone), profile(phone), profile(phone)]);
    await ctx.app.services.auth.settle();
    expect((await rowOf(sid))?.lastUsedAt).toEqual(new Date(now));
  });
});

describe('ending every other session with the token version', () => {
  const LINK = /\/reset-password\/([A-Za-z0-9_-]{43})/;

  it('marks every session revoked at a password reset; the reset signs in with a new one', async () => {
    const { user, tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const forgot = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/password/forgot',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(202);
    const [mail] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    const resetToken = LINK.exec(mail?.textBody ?? '')?.[1];
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/password/reset',
      payload: { token: resetToken, password: 'a brand new password' },
      headers: { 'user-agent': IPHONE_SAFARI },
      remoteAddress: '198.51.100.99',
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    for (const old of tokens) expect((await profile(old)).json()).toEqual(ENDED);
    for (const old of tokens) expect((await rowOf(sidOf(old)))?.revokedAt).not.toBeNull();
    expect(await sessionsOf(fresh)).toEqual([
      expect.objectContaining({
        _id: sidOf(fresh),
        device: 'Safari on iPhone',
        ip: '198.51.100.99',
        current: true,
      }),
    ]);
  });

  it("marks the others revoked at a password change, and the caller's session goes on", async () => {
    const { tokens, password } = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const [phone, laptop] = tokens as [string, string];
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: bearer(laptop),
      payload: { currentPassword: password, newPassword: 'another long password' },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    expect(sidOf(fresh)).toBe(sidOf(laptop));
    expect((await profile(phone)).json()).toEqual(ENDED);
    expect((await rowOf(sidOf(phone)))?.revokedAt).not.toBeNull();
    expect((await sessionsOf(fresh)).map((s) => [s._id, s.current])).toEqual([[sidOf(laptop), true]]);
  });

  it('marks every session revoked when an admin changes the role', async () => {
    const admin = await insertUser(ctx.db, { isAdmin: true });
    const { user, tokens } = await customerOn(ANDROID_CHROME);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/admin/user/${user.id}`,
      headers: admin.auth,
      payload: { name: user.name, email: user.email, isAdmin: true },
    });
    expect(res.statusCode).toBe(200);
    expect((await rowOf(sidOf(tokens[0]!)))?.revokedAt).not.toBeNull();
  });
});

describe('the cleanup', () => {
  it('deletes revoked sessions and those unused for longer than a token lives, and keeps the live ones', async () => {
    const { user, tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX, IPHONE_SAFARI);
    const [revoked, stale, live] = tokens as [string, string, string];
    expect((await revoke(live, sidOf(revoked))).statusCode).toBe(200);
    await ctx.db
      .update(userSessions)
      .set({ lastUsedAt: new Date(now - SESSION_LIFETIME_MS - 60_000) })
      .where(eq(userSessions.id, sidOf(stale)));
    expect(await deleteDeadSessions(ctx.db, clock(), SESSION_LIFETIME_MS)).toBeGreaterThanOrEqual(2);
    const left = await ctx.db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(left.map((s) => s.id)).toEqual([sidOf(live)]);
    // A deleted session's token is refused as a revoked one's is.
    expect((await profile(revoked)).json()).toEqual(ENDED);
    expect((await profile(live)).statusCode).toBe(200);
  });

  it('runs hourly while the app listens (and once at start), not while tests only inject()', async () => {
    const { tokens } = await customerOn(ANDROID_CHROME, MAC_FIREFOX);
    const [phone, laptop] = tokens as [string, string];
    expect((await revoke(laptop, sidOf(phone))).statusCode).toBe(200);
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(await rowOf(sidOf(phone))).toBeDefined();
    // Another app on the same database (closed with the context), listening as main.ts makes it.
    const app = await ctx.newApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await expect.poll(async () => rowOf(sidOf(phone))).toBeUndefined();
    expect(await rowOf(sidOf(laptop))).toBeDefined();
  });

  it('goes with the account', async () => {
    const { user, tokens } = await customerOn(ANDROID_CHROME);
    await ctx.db.delete(users).where(eq(users.id, user.id));
    expect(await rowOf(sidOf(tokens[0]!))).toBeUndefined();
  });

  it('lists every session route for logged-in callers only', async () => {
    const table = new Map(ctx.app.accessTable.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(table.get('GET /api/users/sessions')).toBe('user');
    expect(table.get('DELETE /api/users/sessions/:id')).toBe('user');
    expect(table.get('POST /api/users/sessions/revoke-others')).toBe('user');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users/sessions' })).statusCode).toBe(401);
  });
});

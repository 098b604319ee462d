import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema/index.js';
import { requireUser } from '../../lib/access.js';
import { TEST_JWT_SECRET, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';

const NOT_AUTHORIZED = { message: 'Not authorized!', code: 'NOT_AUTHORIZED' };

describe('bearer tokens and access control', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    // Tiny routes that exist only in this test, one per access level.
    ctx.app.get('/api/test/me', { config: { access: 'user' } }, async (request) => requireUser(request));
    ctx.app.get('/api/test/admin', { config: { access: 'admin' } }, async (request) => requireUser(request));
  });
  afterAll(() => ctx.close());

  const get = (url: string, authorization?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  const sign = (
    claims: Record<string, unknown>,
    options: { secret?: string; exp?: number | string; sub?: string },
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(options.sub ?? '00000000-0000-4000-8000-000000000000')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '1h')
      .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));

  it('lets a customer with a valid token through, as that user', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const res = await get('/api/test/me', auth.authorization);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: user.id, isAdmin: false, tokenVersion: 0 });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('accepts a token issued by login', async () => {
    const { password, user } = await insertUser(ctx.db, { email: 'login-token@example.com' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'login-token@example.com', password },
    });
    const res = await get('/api/test/me', `Bearer ${login.json().token}`);
    // Issue 36: a token from login belongs to a session.
    expect(res.json()).toEqual({
      id: user.id,
      isAdmin: false,
      tokenVersion: 0,
      sessionId: expect.any(String),
    });
  });

  it.each([
    ['no Authorization header', undefined],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed token', 'Bearer not.a.jwt'],
    ['garbage', 'Bearer %%%%'],
  ])('answers 401 Not authorized! for %s', async (_label, header) => {
    const res = await get('/api/test/me', header);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(NOT_AUTHORIZED);
  });

  it('answers 401 for a token signed with another secret', async () => {
    const { user } = await insertUser(ctx.db);
    const forged = await sign(
      { ver: 0 },
      { sub: user.id, secret: 'another-secret-of-at-least-32-characters!!' },
    );
    const res = await get('/api/test/me', `Bearer ${forged}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(NOT_AUTHORIZED);
  });

  it('answers 401 for an unsigned (alg none) token', async () => {
    const { user } = await insertUser(ctx.db);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: user.id, ver: 0, exp: 4102444800 })}.`;
    expect((await get('/api/test/me', `Bearer ${unsigned}`)).statusCode).toBe(401);
  });

  it('answers 401 for an expired token, with the code SESSION_EXPIRED beside the spec message', async () => {
    const { user } = await insertUser(ctx.db);
    const expired = await sign({ ver: 0 }, { sub: user.id, exp: Math.floor(Date.now() / 1000) - 60 });
    const res = await get('/api/test/me', `Bearer ${expired}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized!', code: 'SESSION_EXPIRED' });
    // Only a token the shop signed is told apart: an expired forgery is just not authorized.
    const forged = await sign(
      { ver: 0 },
      {
        sub: user.id,
        exp: Math.floor(Date.now() / 1000) - 60,
        secret: 'another-secret-of-at-least-32-characters!!',
      },
    );
    expect((await get('/api/test/me', `Bearer ${forged}`)).json()).toEqual(NOT_AUTHORIZED);
  });

  it('refuses a token it let through before once the token runs out (SESSION_EXPIRED)', async () => {
    const { user } = await insertUser(ctx.db);
    const token = await sign({ ver: 0 }, { sub: user.id, exp: '1h' });
    // Let through twice: the second time as a token already verified.
    for (let i = 0; i < 2; i += 1)
      expect((await get('/api/test/me', `Bearer ${token}`)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2 * 60 * 60 * 1000);
      const res = await get('/api/test/me', `Bearer ${token}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Not authorized!', code: 'SESSION_EXPIRED' });
    } finally {
      vi.useRealTimers();
    }
    expect((await get('/api/test/me', `Bearer ${token}`)).statusCode).toBe(200);
  });

  it('answers 401 for a token signed with the real secret but without an expiry', async () => {
    const { user } = await insertUser(ctx.db);
    const endless = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt()
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const res = await get('/api/test/me', `Bearer ${endless}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(NOT_AUTHORIZED);
  });

  it('answers 401 for a token issued in the future, beyond a minute of clock skew', async () => {
    const { user } = await insertUser(ctx.db);
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = (iat: number) =>
      new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 7 * 24 * 3600)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const future = await get('/api/test/me', `Bearer ${await issuedAt(now + 3600)}`);
    expect(future.statusCode).toBe(401);
    expect(future.json()).toEqual(NOT_AUTHORIZED);
    expect((await get('/api/test/me', `Bearer ${await issuedAt(now + 90)}`)).statusCode).toBe(401);
    // Another instance's clock a little ahead of this one's: still accepted.
    expect((await get('/api/test/me', `Bearer ${await issuedAt(now + 20)}`)).statusCode).toBe(200);
  });

  it('answers 401 for a token whose subject is not a user id', async () => {
    const token = await sign({ ver: 0 }, { sub: 'admin' });
    expect((await get('/api/test/me', `Bearer ${token}`)).statusCode).toBe(401);
  });

  it('answers 401 SESSION_ENDED once the token version was bumped (password change, logout everywhere)', async () => {
    const { user, auth } = await insertUser(ctx.db);
    expect((await get('/api/test/me', auth.authorization)).statusCode).toBe(200);
    await ctx.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
    const res = await get('/api/test/me', auth.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized!', code: 'SESSION_ENDED' });
  });

  it('answers 401 ACCOUNT_DELETED once the user is deleted', async () => {
    const { user, auth } = await insertUser(ctx.db);
    await ctx.db.delete(users).where(eq(users.id, user.id));
    const res = await get('/api/test/me', auth.authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized!', code: 'ACCOUNT_DELETED' });
  });

  it('issues tokens that expire after 7 days', async () => {
    const { password } = await insertUser(ctx.db, { email: 'ttl@example.com' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'ttl@example.com', password },
    });
    const [, payload] = (login.json().token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    expect(claims.ver).toBe(0);
  });

  it('answers 403 Admin access only to a customer on an admin route', async () => {
    const { auth } = await insertUser(ctx.db);
    const res = await get('/api/test/admin', auth.authorization);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Admin access only', code: 'ADMIN_ONLY' });
  });

  it('answers 401 (not 403) to a visitor on an admin route', async () => {
    expect((await get('/api/test/admin')).statusCode).toBe(401);
  });

  it('lets an admin through an admin route', async () => {
    const { user, auth } = await insertUser(ctx.db, { isAdmin: true });
    const res = await get('/api/test/admin', auth.authorization);
    expect(res.json()).toEqual({ id: user.id, isAdmin: true, tokenVersion: 0 });
  });

  it('answers 401 to a demoted admin whose token version was bumped', async () => {
    const { user, auth } = await insertUser(ctx.db, { isAdmin: true });
    await ctx.db.update(users).set({ isAdmin: false, tokenVersion: 1 }).where(eq(users.id, user.id));
    expect((await get('/api/test/admin', auth.authorization)).statusCode).toBe(401);
  });

  it('lists every /api route with its access level', () => {
    const table = ctx.app.accessTable;
    expect(table).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/api/health', access: 'public' },
        { method: 'POST', url: '/api/users', access: 'public' },
        { method: 'POST', url: '/api/users/login', access: 'public' },
        { method: 'GET', url: '/api/products', access: 'public' },
        { method: 'GET', url: '/api/products/:id', access: 'public' },
        { method: 'POST', url: '/api/contact', access: 'public' },
        { method: 'GET', url: '/api/test/admin', access: 'admin' },
      ]),
    );
  });
});

describe('route declarations', () => {
  it('refuses to start when an /api route does not declare who may call it', async () => {
    const ctx = await createTestContext();
    try {
      expect(() => ctx.app.get('/api/forgotten', async () => 'oops')).toThrow(/must declare config.access/);
    } finally {
      await ctx.close();
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';

const register = (ctx: TestContext, payload: unknown, ip = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/api/users', payload: payload as object, remoteAddress: ip });
const login = (ctx: TestContext, payload: unknown, ip = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: payload as object, remoteAddress: ip });

describe('accounts', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  describe('POST /api/users (register)', () => {
    it('creates a customer and answers 201 with the user info and a working token', async () => {
      const res = await register(ctx, {
        name: '  Ada Lovelace ',
        email: 'Ada@Example.com',
        password: 'analytical',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([
        '_id',
        'createdAt',
        'email',
        'emailVerified',
        'isAdmin',
        'name',
        'token',
      ]);
      expect(body).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', isAdmin: false });
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

      const [row] = await ctx.db.select().from(users).where(eq(users.id, body._id));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(row?.passwordHash).not.toContain('analytical');
    });

    it('ignores isAdmin and other unknown fields', async () => {
      const res = await register(ctx, {
        name: 'Mallory',
        email: 'mallory@example.com',
        password: 'letmein123',
        isAdmin: true,
        tokenVersion: 99,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().isAdmin).toBe(false);
      const [row] = await ctx.db.select().from(users).where(eq(users.email, 'mallory@example.com'));
      expect(row?.isAdmin).toBe(false);
      expect(row?.tokenVersion).toBe(0);
    });

    it('refuses an e-mail that already has an account, whatever its case, with 409', async () => {
      await insertUser(ctx.db, { email: 'taken@example.com' });
      const res = await register(ctx, { name: 'Again', email: 'TAKEN@Example.COM', password: 'password1' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        message: 'An account with this email already exists',
        code: 'EMAIL_TAKEN',
      });
    });

    it.each([
      [{ name: 'A', email: 'a@example.com', password: 'short' }, 'Password must be at least 8 characters'],
      [
        { name: 'A', email: 'a@example.com', password: 'x'.repeat(129) },
        'Password must be at most 128 characters',
      ],
      [{ name: 'A', email: 'nope', password: 'password1' }, 'Please enter a valid email address'],
      [{ name: '   ', email: 'a@example.com', password: 'password1' }, 'Name is required'],
      [{ email: 'a@example.com', password: 'password1' }, 'Name is required'],
      [{ name: 'A', password: 'password1' }, 'Email is required'],
      [{ name: 'A', email: 'a@example.com' }, 'Password is required'],
    ])('refuses %j with 400 %s', async (payload, message) => {
      const res = await register(ctx, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  describe('POST /api/users/login', () => {
    it('answers 200 with the user info for the right e-mail (any case) and password', async () => {
      const { user, password } = await insertUser(ctx.db, { email: 'grace@example.com', name: 'Grace' });
      const res = await login(ctx, { email: 'Grace@Example.com', password });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ _id: user.id, name: 'Grace', email: 'grace@example.com', isAdmin: false });
      expect(body.token).toEqual(expect.any(String));
      expect(body).not.toHaveProperty('passwordHash');
      expect(body).not.toHaveProperty('tokenVersion');
    });

    it('tells admins they are admins', async () => {
      const { password } = await insertUser(ctx.db, { email: 'boss@example.com', isAdmin: true });
      const res = await login(ctx, { email: 'boss@example.com', password });
      expect(res.json().isAdmin).toBe(true);
    });

    it('refuses a wrong password and an unknown e-mail with the same 401 message', async () => {
      await insertUser(ctx.db, { email: 'linus@example.com' });
      const wrong = await login(ctx, { email: 'linus@example.com', password: 'wrong password' });
      const unknown = await login(ctx, { email: 'nobody@example.com', password: 'wrong password' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Invalid email or password');
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('spends comparable time on an unknown e-mail as on a wrong password', async () => {
      await insertUser(ctx.db, { email: 'timing@example.com' });
      const time = async (email: string) => {
        const start = performance.now();
        await login(ctx, { email, password: 'wrong password' }, '10.9.9.9');
        return performance.now() - start;
      };
      await time('nobody-warmup@example.com');
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        known.push(await time('timing@example.com'));
        unknown.push(await time(`nobody${i}@example.com`));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] ?? 0;
      // Both verify an argon2 hash (~10 ms); without the dummy hash the unknown e-mail would take ~1 ms.
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    });

    it('refuses a missing password with 400', async () => {
      const res = await login(ctx, { email: 'a@example.com' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Password is required');
    });
  });
});

describe('rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      app: {
        limits: {
          login: { max: 3, windowMs: 60_000 },
          loginAddress: { max: 5, windowMs: 60_000 },
          register: { max: 2, windowMs: 60_000 },
        },
      },
    });
  });
  afterAll(() => ctx.close());

  it('answers 429 after too many failed logins for one account, from any address', async () => {
    const { password } = await insertUser(ctx.db, { email: 'target@example.com' });
    for (let i = 0; i < 3; i += 1) {
      const ip = `10.1.1.${i + 1}`;
      expect((await login(ctx, { email: 'target@example.com', password: 'guess' + i }, ip)).statusCode).toBe(
        401,
      );
    }
    // A guesser rotating addresses is still counted: even the right password waits out the window.
    const blocked = await login(ctx, { email: 'TARGET@example.com', password }, '10.1.1.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many login attempts. Please try again in 15 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Other accounts, from those addresses, are not locked out.
    const other = await insertUser(ctx.db, { email: 'other@example.com' });
    expect(
      (await login(ctx, { email: 'other@example.com', password: other.password }, '10.1.1.1')).statusCode,
    ).toBe(200);
  });

  it('counts sign-ups per address across instances on one database (issue 13)', async () => {
    const other = await ctx.newApp({ limits: { register: { max: 2, windowMs: 60_000 } } });
    const signUp = (app: typeof other, i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/users',
        remoteAddress: '10.9.9.9',
        payload: { name: 'Shared Limit', email: `shared-limit-${i}@example.com`, password: 'password1' },
      });
    expect((await signUp(ctx.app, 1)).statusCode).toBe(201);
    expect((await signUp(other, 2)).statusCode).toBe(201);
    const refused = await signUp(ctx.app, 3);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many accounts created. Please try again later.',
      code: 'RATE_LIMITED',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signUp(other, 4)).statusCode).toBe(429);
  });

  it('answers 429 after too many failed logins from one address, whatever e-mails they name', async () => {
    const sprayed = await insertUser(ctx.db, { email: 'sprayed@example.com' });
    // One password over many accounts: each e-mail tried once, the address counts them all.
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await login(ctx, { email: `victim${i}@example.com`, password: 'Summer2026!' }, '10.5.5.5'))
          .statusCode,
      ).toBe(401);
    }
    const blocked = await login(
      ctx,
      { email: 'sprayed@example.com', password: sprayed.password },
      '10.5.5.5',
    );
    expect(blocked.statusCode).toBe(429);
    // The refused try did not use up that account's own budget: from elsewhere it logs in.
    expect(
      (await login(ctx, { email: 'sprayed@example.com', password: sprayed.password }, '10.6.6.6')).statusCode,
    ).toBe(200);
  });

  it('never counts good logins', async () => {
    const user = await insertUser(ctx.db, { email: 'regular@example.com' });
    for (let i = 0; i < 8; i += 1) {
      expect(
        (await login(ctx, { email: 'regular@example.com', password: user.password }, '10.7.7.7')).statusCode,
      ).toBe(200);
    }
  });

  it('answers 429 after too many registrations from one address', async () => {
    const payload = (i: number) => ({ name: 'Bot', email: `bot${i}@example.com`, password: 'password1' });
    expect((await register(ctx, payload(1), '10.3.3.3')).statusCode).toBe(201);
    expect((await register(ctx, payload(2), '10.3.3.3')).statusCode).toBe(201);
    const blocked = await register(ctx, payload(3), '10.3.3.3');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many/);
    expect((await register(ctx, payload(4), '10.4.4.4')).statusCode).toBe(201);
  });
});

// Issue 9: what one hostile client can do to the limits, on PGlite and PostgreSQL alike.
import type * as Argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RateLimit } from './lib/http.js';
import { HASH_QUEUE_MAX } from './lib/passwords.js';
import { type TestContext, createTestContext } from './test/context.js';
import { insertGiftCard, insertUser } from './test/factories.js';

// Counts every password hash check, to prove refused logins never reach one.
const argon = vi.hoisted(() => ({ verifies: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof Argon2>();
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon.verifies += 1;
      return real.verify(...args);
    },
  };
});

const minute = (max: number): RateLimit => ({ max, windowMs: 60_000 });

type Headers = Record<string, string>;
const login = (
  ctx: TestContext,
  email: string,
  password: string,
  { ip = '10.0.0.1', headers = {} }: { ip?: string; headers?: Headers } = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: ip,
    headers,
  });
const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>(
    (acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }),
    {},
  );

describe('login limits under a flood', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ app: { limits: { login: minute(100), loginAddress: minute(10) } } });
  });
  afterAll(() => ctx.close());

  it('lets exactly the budget through when 40 wrong logins arrive at once, and hashes nothing for the rest', async () => {
    argon.verifies = 0;
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(ctx, `nobody${i}@example.com`, 'wrong password', { ip: '10.9.9.9' }),
      ),
    );
    expect(statuses(flood)).toEqual({ 401: 10, 429: 30 });
    // The 30 refused ones were answered before any hash was computed.
    expect(argon.verifies).toBe(10);
    // A customer on another address is not affected.
    const customer = await insertUser(ctx.db);
    expect((await login(ctx, customer.user.email, customer.password, { ip: '10.8.8.8' })).statusCode).toBe(
      200,
    );
  });
});

describe('password hashing under a flood from many addresses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => ctx.close());

  it('queues at most HASH_QUEUE_MAX hashes and tells the rest to come back (429), never a 5xx', async () => {
    argon.verifies = 0;
    // No address or account budget runs out: every login would cost a hash.
    const flood = await Promise.all(
      Array.from({ length: HASH_QUEUE_MAX + 40 }, (_, i) =>
        login(ctx, `botnet${i}@example.com`, 'wrong password', {
          ip: '10.0.0.2',
          headers: { 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` },
        }),
      ),
    );
    const busy = flood.filter((r) => r.statusCode === 429);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.json()).toEqual({
      message: 'Too many sign-ins right now. Please try again in a moment.',
      code: 'BUSY',
    });
    expect(flood.filter((r) => r.statusCode !== 429 && r.statusCode !== 401)).toEqual([]);
    // Only the admitted ones were hashed.
    expect(argon.verifies).toBe(flood.length - busy.length);
  });
});

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  const proxy = '10.0.0.2';
  async function contextWith(trustProxy: string | undefined) {
    return createTestContext({
      ...(trustProxy ? { env: { TRUST_PROXY: trustProxy } } : {}),
      app: { limits: { login: minute(100), loginAddress: minute(2) } },
    });
  }
  /** Spends an address's whole login budget (2 wrong logins) and answers the third try's status. */
  async function thirdTry(ctx: TestContext, chains: string[], socket = proxy) {
    const codes: number[] = [];
    for (const chain of chains) {
      const res = await login(ctx, 'victim@example.com', 'wrong', {
        ip: socket,
        headers: { 'x-forwarded-for': chain },
      });
      codes.push(res.statusCode);
    }
    return codes;
  }

  it('with a hop count of 1 reads the entry the proxy added, so a forged left part changes nothing', async () => {
    const ctx = await contextWith('1');
    try {
      // The client writes whatever it likes on the left; the proxy appends the real address.
      expect(
        await thirdTry(ctx, ['1.1.1.1, 203.0.113.5', '2.2.2.2, 203.0.113.5', '3.3.3.3, 203.0.113.5']),
      ).toEqual([401, 401, 429]);
      // Another real client behind the same proxy has its own budget (not the proxy's address).
      expect(await thirdTry(ctx, ['203.0.113.6'])).toEqual([401]);
    } finally {
      await ctx.close();
    }
  });

  it('with a hop count of 2 counts two proxies from the right', async () => {
    const ctx = await contextWith('2');
    try {
      expect(
        await thirdTry(ctx, [
          '9.9.9.1, 198.51.100.7, 10.0.0.1',
          '9.9.9.2, 198.51.100.7, 10.0.0.1',
          '9.9.9.3, 198.51.100.7, 10.0.0.1',
        ]),
      ).toEqual([401, 401, 429]);
      expect(await thirdTry(ctx, ['198.51.100.8, 10.0.0.1'])).toEqual([401]);
    } finally {
      await ctx.close();
    }
  });

  it('with a list of proxy addresses believes only what those proxies wrote', async () => {
    const ctx = await contextWith('10.0.0.0/24');
    try {
      // Through the proxy: the client is the right-most address that is not a listed proxy.
      expect(
        await thirdTry(ctx, ['7.7.7.1, 203.0.113.9', '7.7.7.2, 203.0.113.9, 10.0.0.3', '203.0.113.9']),
      ).toEqual([401, 401, 429]);
      // Straight from the internet (not a listed proxy): the header is the client's own, ignored.
      expect(await thirdTry(ctx, ['5.5.5.1', '5.5.5.2', '5.5.5.3'], '198.51.100.50')).toEqual([
        401, 401, 429,
      ]);
    } finally {
      await ctx.close();
    }
  });

  it('without TRUST_PROXY ignores X-Forwarded-For altogether', async () => {
    const ctx = await contextWith(undefined);
    try {
      expect(await thirdTry(ctx, ['1.1.1.1', '2.2.2.2', '3.3.3.3'])).toEqual([401, 401, 429]);
    } finally {
      await ctx.close();
    }
  });

  it('keys the sign-up limit on the real client too, so one busy client does not block the rest', async () => {
    const ctx = await createTestContext({
      env: { TRUST_PROXY: '1' },
      app: { limits: { register: minute(2) } },
    });
    try {
      const register = (i: number, client: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/users',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': `${i}.0.0.1, ${client}` },
          payload: { name: 'Someone', email: `someone${i}@example.com`, password: 'password1' },
        });
      expect([
        (await register(1, '203.0.113.1')).statusCode,
        (await register(2, '203.0.113.1')).statusCode,
        (await register(3, '203.0.113.1')).statusCode,
      ]).toEqual([201, 201, 429]);
      expect((await register(4, '203.0.113.2')).statusCode).toBe(201);
    } finally {
      await ctx.close();
    }
  });
});

describe('one wrong-code budget for every gift-card route', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      app: { limits: { giftCardCodes: minute(10), giftCardCodesAddress: minute(25) } },
    });
  });
  afterAll(() => ctx.close());

  const check = (auth: Headers, code: string, ip: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/giftcards/check-balance',
      headers: auth,
      payload: { code },
      remoteAddress: ip,
    });

  it('lets exactly 10 of 60 simultaneous wrong codes be looked up', async () => {
    const { auth } = await insertUser(ctx.db);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => check(auth, `WRONG-BURST-${i}`, '10.20.0.1')),
    );
    expect(statuses(burst)).toEqual({ 404: 10, 429: 50 });
  });

  it('shares one budget between check-balance, use and the payment update', async () => {
    const { auth } = await insertUser(ctx.db);
    const card = await insertGiftCard(ctx.db, { balanceCents: 500 });
    const ip = '10.20.0.2';
    const tries = [
      ...Array.from({ length: 4 }, (_, i) => () => check(auth, `WRONG-A-${i}`, ip)),
      ...Array.from(
        { length: 3 },
        (_, i) => () =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/giftcards/use',
            headers: auth,
            remoteAddress: ip,
            payload: { code: `WRONG-B-${i}`, amount: 1, orderId: '00000000-0000-4000-8000-000000000000' },
          }),
      ),
      ...Array.from(
        { length: 3 },
        (_, i) => () =>
          ctx.app.inject({
            method: 'PUT',
            url: '/api/orders/00000000-0000-4000-8000-000000000000/payment',
            headers: auth,
            remoteAddress: ip,
            payload: { payment_method: 'Gift Card', gift_card_code: `WRONG-C-${i}` },
          }),
      ),
    ];
    for (const attempt of tries) expect((await attempt()).statusCode).toBe(404);
    // Ten wrong codes spent, on three routes: now even the right code waits.
    expect((await check(auth, card.code, ip)).statusCode).toBe(429);
  });

  it('counts per address too, so many accounts on one address cannot multiply the budget', async () => {
    const ip = '10.20.0.3';
    const guessers = await Promise.all(Array.from({ length: 3 }, () => insertUser(ctx.db)));
    const codes: number[] = [];
    for (const [g, guesser] of guessers.entries()) {
      for (let i = 0; i < 9; i += 1)
        codes.push((await check(guesser.auth, `WRONG-${g}-${i}`, ip)).statusCode);
    }
    // 25 per address: the 26th and 27th wrong codes are refused though each account had room.
    expect(statuses(codes.map((statusCode) => ({ statusCode })))).toEqual({ 404: 25, 429: 2 });
    const card = await insertGiftCard(ctx.db, { balanceCents: 500 });
    const fresh = await insertUser(ctx.db);
    expect((await check(fresh.auth, card.code, '10.20.0.4')).statusCode).toBe(200);
  });
});

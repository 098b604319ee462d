// REDIS_URL (issue 13): the rate limits counted in Redis, shared by every instance that uses it.
// Needs Debian's redis-server (CI installs it; see test/redis.ts).
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHits } from './db/schema/index.js';
import { type TestContext, createTestContext } from './test/context.js';
import { insertGiftCard, insertUser } from './test/factories.js';
import { type LocalRedis, runRedisTests, startRedis } from './test/redis.js';

const LIMITS = {
  login: { max: 3, windowMs: 60_000 },
  loginAddress: { max: 100, windowMs: 60_000 },
  giftCardCodes: { max: 2, windowMs: 60_000 },
  giftCardCodesAddress: { max: 100, windowMs: 60_000 },
};

describe.runIf(runRedisTests)('rate limits in Redis (REDIS_URL)', () => {
  let redis: LocalRedis;
  // Two shops on two databases: Redis is the only thing they share.
  let first: TestContext;
  let second: TestContext;

  beforeAll(async () => {
    redis = await startRedis();
    const options = { env: { REDIS_URL: redis.url }, app: { limits: LIMITS } };
    first = await createTestContext(options);
    second = await createTestContext(options);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis?.close();
  });

  const login = (ctx: TestContext, email: string, password: string, ip: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      remoteAddress: ip,
      payload: { email, password },
    });

  it('gives a password guesser one budget across the instances, not one per instance', async () => {
    for (const [i, ctx] of [first, second, first].entries()) {
      expect((await login(ctx, 'guessed@example.com', `guess-${i}`, `10.7.0.${i + 1}`)).statusCode).toBe(401);
    }
    for (const ctx of [second, first]) {
      const blocked = await login(ctx, 'GUESSED@example.com', 'guess-again', '10.7.0.9');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        message: 'Too many login attempts. Please try again in 15 minutes.',
        code: 'RATE_LIMITED',
      });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Counted in Redis, not in either database.
    for (const ctx of [first, second]) {
      const [row] = await ctx.db.select({ n: count() }).from(rateLimitHits);
      expect(row?.n).toBe(0);
    }
  });

  it('counts only wrong gift-card codes: a customer who types the right one is never slowed', async () => {
    const { auth } = await insertUser(second.db);
    const card = await insertGiftCard(second.db, { balanceCents: 5_000 });
    const check = (code: string) =>
      second.app.inject({
        method: 'POST',
        url: '/api/giftcards/check-balance',
        headers: auth,
        remoteAddress: '10.8.0.1',
        payload: { code },
      });
    for (let i = 0; i < 5; i += 1) expect((await check(card.code)).statusCode).toBe(200);
    expect((await check('NOT-A-CARD-1')).statusCode).toBe(404);
    expect((await check('NOT-A-CARD-2')).statusCode).toBe(404);
    expect((await check(card.code)).statusCode).toBe(429);
  });
});

import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.js';
import { type TestContext, createTestContext, silentLog } from '../test/context.js';
import { type LocalRedis, runRedisTests, startRedis } from '../test/redis.js';
import { AppError } from './errors.js';
import { type Budget, type Limiter, budgetsFor, createLimiter } from './limiter.js';
import { REDIS_KEY_PREFIX, connectRedis, createRedisLimiter } from './limiter-redis.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const budget = (key: string, max: number, windowMs = 60_000): Budget => ({ key, limit: { max, windowMs } });

/** Where a limiter keeps its counters, and how a test reads them. */
interface Counting {
  limiter: Limiter;
  hitsOf(keys: string[]): Promise<Record<string, number>>;
}

async function inDatabase(): Promise<Counting> {
  return {
    limiter: createLimiter({ db: ctx.db }),
    async hitsOf(keys) {
      const rows = await queryRows<{ key: string; hits: number }>(
        ctx.db,
        sql`select key, hits from rate_limit_hits where key in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`,
      );
      return Object.fromEntries(rows.map((r) => [r.key, Number(r.hits)]));
    },
  };
}

let redisServer: LocalRedis | undefined;
let redis: Redis | undefined;
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.close();
});

async function inRedis(): Promise<Counting> {
  redisServer ??= await startRedis();
  redis ??= await connectRedis(redisServer.url, silentLog);
  const client = redis;
  return {
    limiter: createRedisLimiter({ redis: client, log: silentLog }),
    async hitsOf(keys) {
      const values = await Promise.all(keys.map((k) => client.get(`${REDIS_KEY_PREFIX}:${k}`)));
      return Object.fromEntries(keys.flatMap((k, i) => (values[i] === null ? [] : [[k, Number(values[i])]])));
    },
  };
}

const backends = [
  { name: 'the database', run: true, open: inDatabase },
  // Debian's redis-server; CI installs it (test/redis.ts).
  { name: 'Redis (REDIS_URL)', run: runRedisTests, open: inRedis },
];

for (const backend of backends) {
  describe.runIf(backend.run)(`limiter counting in ${backend.name}`, () => {
    it('refuses once a budget is used up, giving the other budgets their try back', async () => {
      const { limiter, hitsOf } = await backend.open();
      const address = budget('unit:addr:198.51.100.7', 2);
      const account = budget('unit:account:ada', 10);
      expect((await limiter.take([address, account])).allowed).toBe(true);
      expect((await limiter.take([address, account])).allowed).toBe(true);
      const refused = await limiter.take([address, account]);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(await hitsOf([address.key, account.key])).toEqual({ [address.key]: 3, [account.key]: 2 });
      await limiter.refund([account]);
      expect(await hitsOf([account.key])).toEqual({ [account.key]: 1 });
    });

    it('counts every try exactly when callers name the same budgets in different orders at once', async () => {
      // On PostgreSQL (npm run test:pg) these run on several connections: locking the rows in the
      // order each caller named them deadlocked, and PostgreSQL aborted one of them (a 500).
      const { limiter, hitsOf } = await backend.open();
      const keys = ['unit:order:a', 'unit:order:b', 'unit:order:c'].map((k) => budget(k, 1000));
      const orders = [keys, [...keys].reverse(), [keys[1]!, keys[2]!, keys[0]!]];
      const calls = 60;
      const taken = await Promise.all(
        Array.from({ length: calls }, (_, i) =>
          i % 4 === 3 ? limiter.refund(orders[i % 3]!).then(() => null) : limiter.take(orders[i % 3]!),
        ),
      );
      expect(taken.filter((t) => t !== null).every((t) => t.allowed)).toBe(true);
      const tries = taken.filter((t) => t !== null).length;
      const refunds = calls - tries;
      const hits = await hitsOf(keys.map((k) => k.key));
      // A refund that ran before any take of its key had nothing to give back: between the two bounds.
      for (const key of keys) {
        expect(hits[key.key]).toBeLessThanOrEqual(tries);
        expect(hits[key.key]).toBeGreaterThanOrEqual(tries - refunds);
      }
    });

    it('lets exactly `max` of a burst of concurrent tries through', async () => {
      const { limiter } = await backend.open();
      const code = budget('unit:burst:gift-card', 10);
      const taken = await Promise.all(Array.from({ length: 40 }, () => limiter.take([code])));
      expect(taken.filter((t) => t.allowed)).toHaveLength(10);
    });

    it('charges the address only for the tries the account allowed, under a burst of 60 at once', async () => {
      // Issue 28: one account guessed 60 times at once from one address. The account allows 10; the
      // 50 it refuses must not be charged to the address, or a bystander behind the same address is
      // refused too. On PostgreSQL (npm run test:pg) the tries run on several connections at once.
      const { limiter, hitsOf } = await backend.open();
      const limits = { perAccount: { max: 10, windowMs: 60_000 }, perAddress: { max: 30, windowMs: 60_000 } };
      const budgets = budgetsFor('unit-burst', limits, { ip: '198.51.100.60', account: 'ada@example.com' });
      const [address, account] = ['unit-burst:addr:198.51.100.60', 'unit-burst:acct:ada@example.com'];
      const taken = await Promise.all(Array.from({ length: 60 }, () => limiter.take(budgets)));
      expect(taken.filter((t) => t.allowed)).toHaveLength(10);
      // Every try counts against the account (the 50 past its max too); only the 10 it let through
      // count against the address.
      expect(await hitsOf([address, account])).toEqual({ [address]: 10, [account]: 60 });
    });

    it('gives back every try exactly while other tries are taken at once', async () => {
      const { limiter, hitsOf } = await backend.open();
      const keys = [budget('unit:exact:acct', 1000), budget('unit:exact:addr', 1000)];
      for (let i = 0; i < 30; i += 1) await limiter.take(keys);
      // 30 given back and 30 taken, interleaved as they come: whatever the order, the counts end at 30
      // (never below zero on the way: there are 30 to give back from the start).
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? limiter.refund(keys) : limiter.take(keys))),
      );
      expect(await hitsOf(keys.map((k) => k.key))).toEqual({ 'unit:exact:acct': 30, 'unit:exact:addr': 30 });
    });

    it('peeks without spending, and refuses a peek once any budget is used up, even in a burst', async () => {
      // Issue 32: a discount code found before is not charged, but must be refused like a wrong one
      // once the budget is gone, or a guesser could tell right codes (answered) from wrong (429).
      const { limiter, hitsOf } = await backend.open();
      const account = budget('unit:peek:acct', 3);
      const address = budget('unit:peek:addr', 100);
      for (let i = 0; i < 5; i += 1) expect((await limiter.peek([account, address])).allowed).toBe(true);
      expect((await hitsOf([account.key]))[account.key] ?? 0).toBe(0);
      // Wrong tries and peeks at once: every peek after the third try is refused; none spends a try.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0 ? limiter.take([account, address]) : limiter.peek([account, address]),
        ),
      );
      const takes = results.filter((_, i) => i % 2 === 0);
      expect(takes.filter((t) => t.allowed)).toHaveLength(3);
      const hits = await hitsOf([account.key, address.key]);
      expect(hits[account.key]).toBe(10);
      expect(hits[address.key]).toBe(3);
      const refused = await limiter.peek([account, address]);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    });

    it('never counts below zero: tries given back beyond those taken buy nothing', async () => {
      const { limiter, hitsOf } = await backend.open();
      const account = budget('unit:refund:grace', 2);
      await limiter.take([account]);
      await limiter.refund([account]);
      await limiter.refund([account]);
      await limiter.refund([account]);
      expect(await hitsOf([account.key])).toEqual({ [account.key]: 0 });
      expect((await limiter.take([account])).allowed).toBe(true);
      expect((await limiter.take([account])).allowed).toBe(true);
      expect((await limiter.take([account])).allowed).toBe(false);
    });
  });
}

describe.runIf(runRedisTests)('limiter counting in Redis: windows and outages', () => {
  it('opens a new window when the old one ends, and a try given back late does not carry over', async () => {
    const { limiter, hitsOf } = await inRedis();
    const code = budget('unit:window:code', 1, 1000);
    expect((await limiter.take([code])).allowed).toBe(true);
    const refused = await limiter.take([code]);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // The window ended: giving back the try now opens nothing and leaves no credit.
    await limiter.refund([code]);
    expect(await hitsOf([code.key])).toEqual({});
    expect((await limiter.take([code])).allowed).toBe(true);
    expect((await limiter.take([code])).allowed).toBe(false);
  });

  it('answers 503 (never a 500) while Redis is down, and counts again once it is back', async () => {
    const server = await startRedis();
    const client = await connectRedis(server.url, silentLog);
    try {
      const limiter = createRedisLimiter({ redis: client, log: silentLog });
      const login = budget('unit:outage:login', 5);
      expect((await limiter.take([login])).allowed).toBe(true);

      await server.kill();
      const failed = await limiter.take([login]).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(AppError);
      expect(failed).toMatchObject({ statusCode: 503, code: 'BUSY' });
      // The work a guard protects is not run while its tries cannot be counted.
      let ran = false;
      await expect(
        limiter.guard([login], 'Too many tries', async () => {
          ran = true;
        }),
      ).rejects.toMatchObject({ statusCode: 503 });
      expect(ran).toBe(false);

      // The same address again: ioredis reconnects by itself (an empty Redis: the window starts anew).
      const back = await startRedis(server.port);
      try {
        await expect
          .poll(
            () =>
              limiter.take([login]).then(
                (t) => t.allowed,
                () => 'down',
              ),
            { timeout: 10_000 },
          )
          .toBe(true);
      } finally {
        await back.close();
      }
    } finally {
      client.disconnect();
      await server.close();
    }
  });

  it('refuses to start without an answer from REDIS_URL, naming it without its password', async () => {
    const server = await startRedis();
    await server.close();
    const url = server.url.replace('redis://', 'redis://shop:s3cret@');
    const error = await connectRedis(url, silentLog).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^REDIS_URL redis:\/\/shop:\*\*\*@127\.0\.0\.1:\d+\/? did not answer/,
    );
    expect((error as Error).message).not.toContain('s3cret');
  });
});

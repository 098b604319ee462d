// Issue 28: a guesser refused by an account's budget must not use up the address it shares with
// everyone else behind it (an office, a school, a proxy). On PGlite, PostgreSQL (npm run test:pg)
// and, with REDIS_URL, in Redis.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from './test/context.js';
import { insertGiftCard, insertUser } from './test/factories.js';
import { type LocalRedis, runRedisTests, startRedis } from './test/redis.js';

// 10 failures per account (the shop's default), and one more per address: the bystander's try is
// that one only if not one of the burst's refused tries was charged to the address.
const WINDOW_MS = 15 * 60_000;
const LIMITS = {
  login: { max: 10, windowMs: WINDOW_MS },
  loginAddress: { max: 11, windowMs: WINDOW_MS },
  giftCardCodes: { max: 10, windowMs: WINDOW_MS },
  giftCardCodesAddress: { max: 11, windowMs: WINDOW_MS },
};
const BURST = 60;

let redis: LocalRedis | undefined;
afterAll(async () => redis?.close());

const stores = [
  { name: 'the database', run: true, env: async () => ({}) },
  {
    name: 'Redis (REDIS_URL)',
    run: runRedisTests,
    env: async () => {
      redis ??= await startRedis();
      return { REDIS_URL: redis.url };
    },
  },
];

const statusCounts = (codes: number[]) =>
  codes.reduce<Record<number, number>>(
    (counts, code) => ({ ...counts, [code]: (counts[code] ?? 0) + 1 }),
    {},
  );

for (const store of stores) {
  describe.runIf(store.run)(`a burst against one account, counted in ${store.name}`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext({ env: await store.env(), app: { limits: LIMITS } });
    });
    afterAll(async () => ctx?.close());

    /** Locks the counters' table (on PGlite: the whole database) until the answered function is called. */
    async function hold(): Promise<() => Promise<void>> {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = ctx.db.transaction(async (tx) => {
        await tx.execute(sql`lock table rate_limit_hits in exclusive mode`);
        locked();
        await released;
      });
      await isLocked;
      return async () => {
        release();
        await holding;
      };
    }

    /**
     * Sends the burst so that its tries are counted together, as on a busy PostgreSQL: made in one
     * process, requests otherwise reach PGlite one after the other and never overlap. A first hold
     * lets them gather at their first statement (a customer's sign-in read, or the count); a second,
     * queued behind those reads, makes them wait once more at the count.
     */
    async function atOnce<T>(burst: () => Promise<T>[]): Promise<T[]> {
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const releaseFirst = await hold();
      const answers = Promise.all(burst());
      await pause(150);
      const second = hold();
      await pause(10);
      await releaseFirst();
      const releaseSecond = await second;
      await pause(150);
      await releaseSecond();
      return answers;
    }

    const login = (email: string, password: string, ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: ip,
        payload: { email, password },
      });

    it('lets a bystander on the same address log in after 60 wrong passwords at once for another account', async () => {
      const ip = '203.0.113.28';
      const attacked = await insertUser(ctx.db, { email: 'attacked@example.com' });
      const bystander = await insertUser(ctx.db, { email: 'bystander@example.com' });

      const burst = await atOnce(() =>
        Array.from({ length: BURST }, (_, i) => login('attacked@example.com', `guess-${i}`, ip)),
      );
      // The account allows its 10 wrong passwords and refuses the rest before any hash.
      expect(statusCounts(burst.map((r) => r.statusCode))).toEqual({ 401: 10, 429: BURST - 10 });

      // Only those 10 count against the address: the bystander's is its 11th, and it logs in.
      const own = await login('bystander@example.com', bystander.password, ip);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ email: 'bystander@example.com' });
      // The attacked account stays locked, even for its right password.
      expect((await login('attacked@example.com', attacked.password, '198.51.100.1')).statusCode).toBe(429);
    });

    it("accepts a bystander's right gift-card code on the same address after 60 wrong codes at once from another customer", async () => {
      const ip = '203.0.113.29';
      const attacker = await insertUser(ctx.db);
      const bystander = await insertUser(ctx.db);
      const card = await insertGiftCard(ctx.db, { balanceCents: 2_500 });
      const check = (auth: { authorization: string }, code: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/giftcards/check-balance',
          headers: auth,
          remoteAddress: ip,
          payload: { code },
        });

      const burst = await atOnce(() =>
        Array.from({ length: BURST }, (_, i) => check(attacker.auth, `NOT-A-CARD-${i}`)),
      );
      expect(statusCounts(burst.map((r) => r.statusCode))).toEqual({ 404: 10, 429: BURST - 10 });

      const own = await check(bystander.auth, card.code);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual({ balance: 25 });
      // The attacker stays refused, even for a real code.
      expect((await check(attacker.auth, card.code)).statusCode).toBe(429);
    });
  });
}

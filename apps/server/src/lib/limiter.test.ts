import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.js';
import { type TestContext, createTestContext } from '../test/context.js';
import { type Budget, createLimiter } from './limiter.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const budget = (key: string, max: number): Budget => ({ key, limit: { max, windowMs: 60_000 } });

async function hitsOf(keys: string[]): Promise<Record<string, number>> {
  const rows = await queryRows<{ key: string; hits: number }>(
    ctx.db,
    sql`select key, hits from rate_limit_hits where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  );
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.hits)]));
}

describe('limiter', () => {
  it('refuses once a budget is used up, giving the other budgets their try back', async () => {
    const limiter = createLimiter({ db: ctx.db });
    const address = budget('unit:addr:198.51.100.7', 2);
    const account = budget('unit:account:ada', 10);
    expect((await limiter.take([address, account])).allowed).toBe(true);
    expect((await limiter.take([address, account])).allowed).toBe(true);
    const refused = await limiter.take([address, account]);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await hitsOf([address.key, account.key])).toEqual({ [address.key]: 3, [account.key]: 2 });
    await limiter.refund([account]);
    expect(await hitsOf([account.key])).toEqual({ [account.key]: 1 });
  });

  it('counts every try exactly when callers name the same budgets in different orders at once', async () => {
    // On PostgreSQL (npm run test:pg) these run on several connections: locking the rows in the
    // order each caller named them deadlocked, and PostgreSQL aborted one of them (a 500).
    const limiter = createLimiter({ db: ctx.db });
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
});

import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../test/context.js';

/**
 * Issue 28: PGlite answers each statement with a promise that is already resolved, so a transaction
 * of many statements ran start to end without the event loop turning once, and every request that
 * came in meanwhile waited for all of it (a cached catalogue answer waited ~35 ms behind ten
 * customers checking out). PGlite now runs on a thread of its own (db/pglite-remote.ts), so the loop
 * answers requests while it works. PostgreSQL's statements go over a socket, so the loop turns between
 * them anyway.
 */
describe.runIf(!process.env.TEST_DATABASE_URL)('PGlite leaves the event loop to the requests waiting', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { productsCacheTtlMs: 60_000 } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => ctx.close());

  it('answers a cached request while a long transaction runs, not after it', async () => {
    expect((await fetch(`${base}/api/products`)).status).toBe(200);
    const finished: string[] = [];
    const transaction = ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 1500; i += 1) await tx.execute(sql`select ${i}::int as n`);
      finished.push('transaction');
    });
    const answer = fetch(`${base}/api/products`).then(async (res) => {
      await res.arrayBuffer();
      finished.push('answer');
      return res.status;
    });
    expect(await answer).toBe(200);
    await transaction;
    expect(finished).toEqual(['answer', 'transaction']);
  });
});

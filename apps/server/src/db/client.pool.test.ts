import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the PostgreSQL pool', () => {
  /** The backends that answered `calls` statements sent at once, each holding its connection a while. */
  async function backendsOf(poolMax: number | undefined, calls: number): Promise<number> {
    const handle = await openDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL,
      dataDir: tmpdir(),
      poolMax,
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: calls }, () =>
          handle.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`),
        ),
      );
      const pids = answers.map((answer) => (answer as unknown as { rows: { pid: number }[] }).rows[0]!.pid);
      return new Set(pids).size;
    } finally {
      await handle.close();
    }
  }

  it('opens at most the connections it is given (DATABASE_POOL_SIZE), 10 when not told', async () => {
    expect(await backendsOf(2, 6)).toBe(2);
    expect(await backendsOf(undefined, 12)).toBe(10);
  });
});

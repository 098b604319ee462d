import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../test/context.js';
import { insertProduct } from '../test/factories.js';
import { queryRows } from './client.js';
import { createPgliteMaintenance } from './maintenance.js';

describe('embedded database maintenance (PGlite has no autovacuum)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('vacuums and analyzes at start: the planner learns the tables and can scan indexes only', async () => {
    for (let i = 0; i < 30; i += 1)
      await insertProduct(ctx.db, { category: 'puzzles', name: `Vacuum Puzzle ${i}` });
    const lines: { data: object; message: string }[] = [];
    const maintenance = createPgliteMaintenance({
      db: ctx.db,
      log: {
        info: (data, message) => lines.push({ data, message }),
        warn: (data, message) => lines.push({ data, message }),
      },
    });
    maintenance.start();
    await maintenance.stop();
    expect(lines).toEqual([
      { data: { ms: expect.any(Number) as number }, message: 'embedded database vacuumed and analyzed' },
    ]);
    // ANALYZE ran: the planner's row count for products is the real one, not a guess.
    const [stats] = await queryRows<{ reltuples: number }>(
      ctx.db,
      sql`select reltuples from pg_class where relname = 'products'`,
    );
    expect(Number(stats?.reltuples)).toBeGreaterThanOrEqual(30);
    // VACUUM ran: every page of products is marked all-visible (what index-only scans need).
    const [pages] = await queryRows<{ relallvisible: number; relpages: number }>(
      ctx.db,
      sql`select relallvisible, relpages from pg_class where relname = 'products'`,
    );
    expect(Number(pages?.relallvisible)).toBe(Number(pages?.relpages));
  });

  it('reports a failed run and keeps going', async () => {
    const warnings: string[] = [];
    const broken = {
      execute: () => Promise.reject(new Error('database is closed')),
    } as unknown as TestContext['db'];
    const maintenance = createPgliteMaintenance({
      db: broken,
      log: { info: () => {}, warn: (_data, message) => warnings.push(message) },
    });
    maintenance.start();
    await maintenance.stop();
    expect(warnings).toEqual(['embedded database maintenance failed']);
  });
});

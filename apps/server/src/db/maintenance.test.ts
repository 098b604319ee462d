import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  it("vacuums alone every sweep between two analyzes: a busy checkout's dead rows do not pile up", async () => {
    const dialect = new PgDialect();
    const statements: string[] = [];
    const logged: string[] = [];
    const recording = {
      execute: (query: SQL) => {
        statements.push(dialect.sqlToQuery(query).sql);
        return ctx.db.execute(query);
      },
    } as unknown as TestContext['db'];
    const maintenance = createPgliteMaintenance({
      db: recording,
      log: { info: (_data, message) => logged.push(message), warn: (_data, message) => logged.push(message) },
      intervalMs: 60 * 60_000,
      sweepMs: 20,
    });
    maintenance.start();
    await vi.waitFor(() => expect(statements.length).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    await maintenance.stop();
    expect(statements[0]).toBe('vacuum (analyze)');
    expect(new Set(statements.slice(1))).toEqual(new Set(['vacuum']));
    // Only the hourly one says so in the log.
    expect(logged).toEqual(['embedded database vacuumed and analyzed']);
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

import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockAlerts } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';
import {
  UNCONFIRMED_ALERT_RETENTION_MS,
  createAlertCleanup,
  deleteUnconfirmedAlerts,
} from './alerts.cleanup.js';

/** Unconfirmed visitors' alerts are deleted a day after their link expired; nothing else is. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const MINUTE = 60_000;
const now = new Date('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
let counter = 0;

describe('the unconfirmed alert cleanup', () => {
  it('deletes only pending visitor rows whose last mail (or the row) is past the retention', async () => {
    const { variantId } = await insertProduct(ctx.db, { name: `Cleanup ${(counter += 1)}`, stock: 0 });
    const { user } = await insertUser(ctx.db);
    const row = (label: string, values: Omit<typeof stockAlerts.$inferInsert, 'variantId' | 'linkBase'>) => ({
      label,
      values: { variantId, linkBase: 'https://shop.example', ...values },
    });
    const old = ago(UNCONFIRMED_ALERT_RETENTION_MS + MINUTE);
    const recent = ago(UNCONFIRMED_ALERT_RETENTION_MS - MINUTE);
    const rows = [
      row('stale pending', { email: 'a@example.com', status: 'pending', confirmSentAt: old, createdAt: old }),
      row('stale pending without mail', { email: 'b@example.com', status: 'pending', createdAt: old }),
      // Mailed again lately: its newest link still counts.
      row('re-sent pending', {
        email: 'c@example.com',
        status: 'pending',
        confirmSentAt: recent,
        createdAt: old,
      }),
      row('confirmed', { email: 'd@example.com', status: 'waiting', confirmSentAt: old, createdAt: old }),
      row('cancelled', { email: 'e@example.com', status: 'cancelled', confirmSentAt: old, createdAt: old }),
      row('account', { userId: user.id, status: 'waiting', createdAt: old }),
    ];
    const inserted = await ctx.db
      .insert(stockAlerts)
      .values(rows.map((r) => r.values))
      .returning({ id: stockAlerts.id, email: stockAlerts.email });
    const ids = inserted.map((r) => r.id);

    expect(await deleteUnconfirmedAlerts(ctx.db, now)).toBe(2);
    const left = await ctx.db
      .select({ email: stockAlerts.email, status: stockAlerts.status })
      .from(stockAlerts)
      .where(inArray(stockAlerts.id, ids));
    expect(left.map((r) => r.email).sort()).toEqual([
      'c@example.com',
      'd@example.com',
      'e@example.com',
      null,
    ]);
    // Nothing more on a second run.
    expect(await deleteUnconfirmedAlerts(ctx.db, now)).toBe(0);
  });

  it('runs at start as a job, and reports what it deleted', async () => {
    const { variantId } = await insertProduct(ctx.db, { name: `Cleanup ${(counter += 1)}`, stock: 0 });
    const old = ago(UNCONFIRMED_ALERT_RETENTION_MS + MINUTE);
    await ctx.db.insert(stockAlerts).values({
      variantId,
      linkBase: 'https://shop.example',
      email: 'job@example.com',
      status: 'pending',
      confirmSentAt: old,
      createdAt: old,
    });
    const logged: object[] = [];
    const job = createAlertCleanup({
      db: ctx.db,
      log: { info: (data) => logged.push(data), warn: () => undefined },
      clock: () => now,
    });
    job.start();
    await job.stop();
    expect(logged).toEqual([{ deleted: 1 }]);
  });

  it('runs while the app listens, not while tests only inject()', async () => {
    const { variantId } = await insertProduct(ctx.db, { name: `Cleanup ${(counter += 1)}`, stock: 0 });
    const old = new Date(Date.now() - UNCONFIRMED_ALERT_RETENTION_MS - MINUTE);
    const [row] = await ctx.db
      .insert(stockAlerts)
      .values({
        variantId,
        linkBase: 'https://shop.example',
        email: 'listening@example.com',
        status: 'pending',
        confirmSentAt: old,
        createdAt: old,
      })
      .returning({ id: stockAlerts.id });
    const stillThere = async () =>
      (
        await ctx.db
          .select()
          .from(stockAlerts)
          .where(inArray(stockAlerts.id, [row!.id]))
      ).length;
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(await stillThere()).toBe(1);
    // Another app on the same database (closed with the context), listening as main.ts makes it.
    const app = await ctx.newApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await expect.poll(stillThere).toBe(0);
  });
});

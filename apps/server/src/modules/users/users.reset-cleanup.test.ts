import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../../db/schema/index.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import {
  RESET_TOKEN_RETENTION_MS,
  createResetTokenCleanup,
  deleteStaleResetTokens,
  hashResetToken,
} from './users.reset.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const HOUR = 60 * 60_000;
const MINUTE = 60_000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
// Each test counts what one run deletes: no token of an earlier test may be in the way.
beforeEach(async () => {
  await ctx.db.delete(passwordResetTokens);
});

/** A reset token straight in the table, for a new user, with dates relative to `now`. */
async function insertToken(now: Date, { expiresIn, usedAgo }: { expiresIn: number; usedAgo?: number }) {
  const { user } = await insertUser(ctx.db);
  const [row] = await ctx.db
    .insert(passwordResetTokens)
    .values({
      userId: user.id,
      tokenHash: hashResetToken(randomUUID()),
      expiresAt: new Date(now.getTime() + expiresIn),
      usedAt: usedAgo === undefined ? null : new Date(now.getTime() - usedAgo),
      createdAt: new Date(now.getTime() + expiresIn - 30 * MINUTE),
    })
    .returning();
  if (!row) throw new Error('insertToken: no row');
  return row.id;
}

async function remaining(ids: string[]): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(inArray(passwordResetTokens.id, ids));
  return rows.map((r) => r.id).sort();
}

describe('deleting stale password reset tokens', () => {
  it('deletes tokens expired or used more than a day ago and keeps live, recently expired and recently used ones', async () => {
    const now = new Date('2030-03-01T12:00:00Z');
    const oldExpired = await insertToken(now, { expiresIn: -RESET_TOKEN_RETENTION_MS - MINUTE });
    const oldUsed = await insertToken(now, {
      expiresIn: -RESET_TOKEN_RETENTION_MS + 10 * MINUTE,
      usedAgo: RESET_TOKEN_RETENTION_MS + MINUTE,
    });
    const live = await insertToken(now, { expiresIn: 20 * MINUTE });
    const recentlyExpired = await insertToken(now, { expiresIn: -HOUR });
    // Used an hour ago: kept for the day like an expired token (it can never be claimed again).
    const recentlyUsed = await insertToken(now, { expiresIn: -HOUR + 10 * MINUTE, usedAgo: HOUR });
    const usedAndLive = await insertToken(now, { expiresIn: 20 * MINUTE, usedAgo: 5 * MINUTE });
    const all = [oldExpired, oldUsed, live, recentlyExpired, recentlyUsed, usedAndLive];

    expect(await deleteStaleResetTokens(ctx.db, now)).toBe(2);
    expect(await remaining(all)).toEqual([live, recentlyExpired, recentlyUsed, usedAndLive].sort());

    // A second run finds nothing more; a day later the recent ones are stale too, the live one
    // (expiring in 20 minutes) just as well.
    expect(await deleteStaleResetTokens(ctx.db, now)).toBe(0);
    const dayLater = new Date(now.getTime() + RESET_TOKEN_RETENTION_MS + 21 * MINUTE);
    expect(await deleteStaleResetTokens(ctx.db, dayLater)).toBe(4);
    expect(await remaining(all)).toEqual([]);
  });

  it('runs at start through the periodic job, with its clock, and logs what it deleted', async () => {
    const now = new Date('2031-05-01T08:00:00Z');
    const old = await insertToken(now, { expiresIn: -2 * RESET_TOKEN_RETENTION_MS });
    const live = await insertToken(now, { expiresIn: 30 * MINUTE });
    const lines: { data: object; message: string }[] = [];
    const cleanup = createResetTokenCleanup({
      db: ctx.db,
      clock: () => now,
      log: {
        info: (data, message) => lines.push({ data, message }),
        warn: (data, message) => lines.push({ data, message }),
      },
    });
    cleanup.start();
    await cleanup.stop();
    expect(await remaining([old, live])).toEqual([live]);
    expect(lines).toEqual([{ data: { deleted: 1 }, message: 'stale password reset tokens deleted' }]);
  });

  it('reports a failed run', async () => {
    const warnings: string[] = [];
    const broken = {
      select: () => {
        throw new Error('database is closed');
      },
    } as unknown as TestContext['db'];
    const cleanup = createResetTokenCleanup({
      db: broken,
      log: { info: () => {}, warn: (_data, message) => warnings.push(message) },
    });
    cleanup.start();
    await cleanup.stop();
    expect(warnings).toEqual(['password reset token cleanup failed']);
  });

  // PGlite has one connection: a second transaction cannot run beside the first there.
  describe.runIf(onPostgres)('on several instances at once (PostgreSQL)', () => {
    it('skips a stale row another transaction holds instead of waiting for it, and deletes it later', async () => {
      const now = new Date('2032-01-01T00:00:00Z');
      const held = await insertToken(now, { expiresIn: -2 * RESET_TOKEN_RETENTION_MS });
      const free = await insertToken(now, { expiresIn: -2 * RESET_TOKEN_RETENTION_MS });

      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = ctx.db.transaction(async (tx) => {
        await tx
          .select({ id: passwordResetTokens.id })
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.id, held))
          .for('update');
        locked();
        await released;
      });
      await isLocked;
      try {
        expect(await deleteStaleResetTokens(ctx.db, now)).toBe(1);
        expect(await remaining([held, free])).toEqual([held]);
      } finally {
        release();
        await holder;
      }
      expect(await deleteStaleResetTokens(ctx.db, now)).toBe(1);
      expect(await remaining([held, free])).toEqual([]);
    });

    it('lets concurrent runs share the work: each stale row is deleted once, with no error', async () => {
      const now = new Date('2033-01-01T00:00:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 20; i += 1)
        ids.push(await insertToken(now, { expiresIn: -2 * RESET_TOKEN_RETENTION_MS }));
      const counts = await Promise.all([1, 2, 3].map(() => deleteStaleResetTokens(ctx.db, now)));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
      expect(await remaining(ids)).toEqual([]);
    });
  });
});

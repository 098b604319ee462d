import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeIn } from '@pixel-vault/shared';
import { loadConfig } from '../../config.js';
import { tradeIns } from '../../db/schema/index.js';
import { mailsTo } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { type Auth, buyable, creditState, move, ok, quote } from '../../test/tradeins.js';
import { createTradeInExpiry } from './tradeins.expiry.js';

/**
 * Issue 35: a quote holds TRADEIN_QUOTE_DAYS; one not shipped by then expires, by the sweep (the
 * module's background job) or on the spot when its customer acts on it. The shop's clock is the test's.
 */
let ctx: TestContext;
let now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;
const DAY = 24 * 3600_000;
const later = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const sweep = () =>
  createTradeInExpiry({
    db: ctx.db,
    mailer: { kick() {} },
    log: { info() {}, error() {} },
    clock,
  }).sweepOnce();

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock, limits: NO_RATE_LIMITS } });
});
afterAll(() => ctx.close());

const customer = async () => {
  const { auth, user } = await insertUser(ctx.db);
  return { auth, email: user.email };
};
let counter = 0;
const game = () => buyable(ctx.db, { name: `Expiry Game ${(counter += 1)}` });
const quoteOne = async (auth: Auth) => quote(ctx.app, auth, [{ product: (await game()).id, qty: 1 }]);
const statusOf = async (id: string) =>
  (await ctx.db.select().from(tradeIns).where(eq(tradeIns.id, id)))[0]?.status;

describe('the expiry sweep', () => {
  it('expires quotes not shipped within TRADEIN_QUOTE_DAYS, once, with a timeline line and a mail', async () => {
    await sweep();
    const shopper = await customer();
    const waiting = await quoteOne(shopper.auth);
    const shipped = await quoteOne(shopper.auth);
    await ok(move(ctx.app, shopper.auth, shipped._id, 'ship'));
    later(7 * DAY - 1);
    expect(await sweep()).toBe(0);
    expect(await statusOf(waiting._id)).toBe('quoted');

    later(1);
    expect(await sweep()).toBe(1);
    expect(await statusOf(waiting._id)).toBe('expired');
    expect(await statusOf(shipped._id)).toBe('shipped');
    const state = await creditState(ctx.db, waiting._id);
    expect(state.kinds).toEqual(['quoted', 'expired']);
    expect(state.events[1]).toMatchObject({ actor: 'system', at: now });
    const mails = await mailsTo(ctx.db, shopper.email, 'Your trade-in quote expired');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.textBody).toContain('ask for a new quote');
    expect(await sweep()).toBe(0);

    const read = await ok(
      ctx.app.inject({ method: 'GET', url: `/api/tradeins/${waiting._id}`, headers: shopper.auth }),
    );
    expect(read.status).toBe('expired');
    expect(read.timeline.map((e) => e.kind)).toEqual(['quoted', 'expired']);
  });

  it('works through more quotes than one batch', async () => {
    await sweep();
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const shopper = await customer();
      for (let j = 0; j < 3; j += 1) ids.push((await quoteOne(shopper.auth))._id);
    }
    later(8 * DAY);
    expect(await sweep()).toBe(60);
    const statuses = await Promise.all(ids.map(statusOf));
    expect(new Set(statuses)).toEqual(new Set(['expired']));
  });

  it('runs as the module’s job while the app listens', async () => {
    const shopper = await customer();
    const made = await quoteOne(shopper.auth);
    later(8 * DAY);
    const app = await ctx.newApp({ clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let i = 0; i < 100 && (await statusOf(made._id)) !== 'expired'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await statusOf(made._id)).toBe('expired');
    } finally {
      await app.close();
    }
  });
});

describe('a quote whose time is up, not yet swept', () => {
  it('is expired on the spot when its customer acts on it (409 TRADE_IN_EXPIRED), and stays expired', async () => {
    await sweep();
    const shopper = await customer();
    const made = await quoteOne(shopper.auth);
    later(7 * DAY);
    for (const action of ['ship', 'cancel', 'ship'] as const) {
      const res = await move(ctx.app, shopper.auth, made._id, action, { trackingNumber: 'LATE' });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({
        message: 'This quote has expired: it was not shipped in time. Please ask for a new quote.',
        code: 'TRADE_IN_EXPIRED',
      });
    }
    const state = await creditState(ctx.db, made._id);
    expect(state.row).toMatchObject({ status: 'expired', trackingNumber: null });
    expect(state.kinds).toEqual(['quoted', 'expired']);
    expect(await mailsTo(ctx.db, shopper.email, 'Your trade-in quote expired')).toHaveLength(1);
    expect(await sweep()).toBe(0);
  });

  it('can still be shipped a moment before', async () => {
    const shopper = await customer();
    const made = await quoteOne(shopper.auth);
    later(7 * DAY - 1000);
    const shipped = await ok(move(ctx.app, shopper.auth, made._id, 'ship'));
    expect(shipped.status).toBe('shipped');
    later(DAY);
    expect(await sweep()).toBe(0);
    expect(await statusOf(made._id)).toBe('shipped');
  });
});

describe('TRADEIN_QUOTE_DAYS', () => {
  it('sets how long a quote holds (default 7, 1 to 90)', async () => {
    const app = await ctx.newApp({ clock, config: { ...ctx.config, tradeInQuoteDays: 2 } });
    const shopper = await customer();
    const res = await app.inject({
      method: 'POST',
      url: '/api/tradeins',
      headers: shopper.auth,
      payload: { items: [{ product: (await game()).id, qty: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<TradeIn>().expiresAt).toBe(new Date(now.getTime() + 2 * DAY).toISOString());

    const env = { DATA_DIR: ctx.config.dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(env).tradeInQuoteDays).toBe(7);
    expect(loadConfig({ ...env, TRADEIN_QUOTE_DAYS: '30' }).tradeInQuoteDays).toBe(30);
    expect(() => loadConfig({ ...env, TRADEIN_QUOTE_DAYS: '0' })).toThrow(/TRADEIN_QUOTE_DAYS/);
    expect(() => loadConfig({ ...env, TRADEIN_QUOTE_DAYS: '91' })).toThrow(/TRADEIN_QUOTE_DAYS/);
  });
});

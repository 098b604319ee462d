import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStats } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import {
  giftCardLedger,
  giftCards,
  tradeInEvents,
  tradeInItems,
  tradeIns,
  users,
} from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct, insertUser } from '../../test/factories.js';
import { optionsText } from './admin.tradeins.js';

/**
 * Issue 35, the shop owner's view of trade-ins: the overview's credit issued and items bought, and the
 * trade-ins export. The rows are written straight in the database, as the tradeins module would leave
 * them (this file does not go through that module).
 */

type Outcome = 'accepted' | 'lowered' | 'rejected' | null;
interface LineSeed {
  productId: string;
  variantId: string;
  name?: string;
  sku?: string;
  options?: Record<string, string>;
  qty: number;
  offeredCents: number;
  outcome?: Outcome;
  inspectedCents?: number | null;
  reason?: string | null;
}
interface TradeInSeed {
  userId: string;
  createdAt: string;
  status: typeof tradeIns.$inferInsert.status;
  lines: LineSeed[];
  /** When the trade-in was accepted: its 'accepted' step, and its credit on the customer's card. */
  acceptedAt?: string;
  trackingNumber?: string;
}

/** A trade-in straight in the database, at a known time and in a known state. */
async function insertTradeIn(db: Database, seed: TradeInSeed): Promise<string> {
  const createdAt = new Date(seed.createdAt);
  const quoted = seed.lines.reduce((sum, l) => sum + l.qty * l.offeredCents, 0);
  const inspected = seed.lines.every((l) => l.outcome)
    ? seed.lines.reduce((sum, l) => sum + l.qty * (l.inspectedCents ?? 0), 0)
    : null;
  const credited = seed.acceptedAt ? (inspected ?? 0) : 0;
  const [row] = await db
    .insert(tradeIns)
    .values({
      userId: seed.userId,
      customerName: 'Trading Customer',
      customerEmail: 'trader@example.com',
      status: seed.status,
      quotedCents: quoted,
      inspectedCents: inspected,
      creditedCents: credited,
      trackingNumber: seed.trackingNumber ?? null,
      expiresAt: new Date(createdAt.getTime() + 7 * 86_400_000),
      linkBase: 'http://shop.test',
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: tradeIns.id });
  if (!row) throw new Error('insertTradeIn: no row');
  await db.insert(tradeInItems).values(
    seed.lines.map((l, position) => ({
      tradeInId: row.id,
      position,
      productId: l.productId,
      variantId: l.variantId,
      productName: l.name ?? 'Traded game',
      options: l.options ?? {},
      sku: l.sku ?? `SKU-${position}`,
      qty: l.qty,
      offeredCents: l.offeredCents,
      outcome: l.outcome ?? null,
      inspectedCents: l.inspectedCents ?? null,
      reason: l.reason ?? null,
    })),
  );
  await db
    .insert(tradeInEvents)
    .values({ tradeInId: row.id, kind: 'quoted', actor: 'customer', at: createdAt });
  if (seed.acceptedAt) {
    const at = new Date(seed.acceptedAt);
    await db.insert(tradeInEvents).values([
      { tradeInId: row.id, kind: 'accepted', actor: 'customer', at },
      { tradeInId: row.id, kind: 'credited', actor: 'system', at, amountCents: credited },
    ]);
    const [card] = await db
      .insert(giftCards)
      .values({ code: `TRADE-${row.id.slice(0, 8)}`, balanceCents: credited })
      .returning({ id: giftCards.id });
    await db.insert(giftCardLedger).values({
      giftCardId: card!.id,
      kind: 'tradein_credit',
      amountCents: credited,
      balanceAfterCents: credited,
      tradeInId: row.id,
      createdAt: at,
    });
  }
  return row.id;
}

let ctx: TestContext;
let admin: { authorization: string };
let customer: { authorization: string };
let shopper: { id: string; email: string };
let game: { id: string; variants: { id: string }[] };
// 12:00 on 2026-03-10 in Tokyo (UTC+9).
const now = new Date('2026-03-10T03:00:00Z');

beforeAll(async () => {
  ctx = await createTestContext({
    env: { SHOP_TIMEZONE: 'Asia/Tokyo' },
    app: { clock: () => now, limits: NO_RATE_LIMITS },
  });
  await clearProducts(ctx.db);
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  customer = (await insertUser(ctx.db)).auth;
  shopper = (await insertUser(ctx.db, { email: 'seller@example.com' })).user;
  game = await insertProduct(ctx.db, {
    name: 'Super Mario 64',
    options: [
      { name: 'Condition', values: ['Loose', 'Boxed'] },
      { name: 'Region', values: ['NTSC-U', 'PAL'] },
    ],
    variants: [
      { options: { Condition: 'Loose', Region: 'NTSC-U' }, sku: 'SM64-L-U' },
      { options: { Condition: 'Boxed', Region: 'PAL' }, sku: 'SM64-B-P' },
    ],
  });
});
afterAll(() => ctx.close());

const line = (n: number, extra: Partial<LineSeed> = {}): LineSeed => ({
  productId: game.id,
  variantId: game.variants[n]!.id,
  qty: 1,
  offeredCents: 1800,
  ...extra,
});

describe('GET /api/admin/stats: trade-ins (issue 35)', () => {
  const stats = async (days: number) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/stats?days=${days}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminStats>().tradeIns;
  };

  it('counts zero before any trade-in', async () => {
    expect(await stats(30)).toEqual({ creditIssued: 0, itemsBought: 0 });
  });

  it('sums the credit issued and the items bought by the trade-ins accepted in the range', async () => {
    const u = shopper.id;
    // Accepted today (Tokyo): 2 accepted + 1 lowered bought, 1 rejected not; credit 2 x 18 + 10 = 46.
    await insertTradeIn(ctx.db, {
      userId: u,
      createdAt: '2026-03-01T00:00:00Z',
      status: 'accepted',
      acceptedAt: '2026-03-10T01:00:00Z',
      lines: [
        line(0, { qty: 2, outcome: 'accepted', inspectedCents: 1800 }),
        line(1, { offeredCents: 4000, outcome: 'lowered', inspectedCents: 1000, reason: 'Box torn' }),
        line(1, { offeredCents: 4000, outcome: 'rejected', inspectedCents: 0, reason: 'Fake' }),
      ],
    });
    // Midnight of the 8th in Tokyo: inside a 3-day range; 3 units, $30.
    await insertTradeIn(ctx.db, {
      userId: u,
      createdAt: '2026-03-05T00:00:00Z',
      status: 'accepted',
      acceptedAt: '2026-03-07T15:00:00Z',
      lines: [line(0, { qty: 3, offeredCents: 1000, outcome: 'accepted', inspectedCents: 1000 })],
    });
    // A minute before: the 7th, outside a 3-day range.
    await insertTradeIn(ctx.db, {
      userId: u,
      createdAt: '2026-03-05T00:00:00Z',
      status: 'accepted',
      acceptedAt: '2026-03-07T14:59:00Z',
      lines: [line(0, { qty: 5, offeredCents: 100, outcome: 'accepted', inspectedCents: 100 })],
    });
    // Inspected, not accepted (nor credited): nothing bought yet.
    await insertTradeIn(ctx.db, {
      userId: u,
      createdAt: '2026-03-09T00:00:00Z',
      status: 'inspected',
      lines: [line(0, { qty: 4, outcome: 'accepted', inspectedCents: 1800 })],
    });
    // Quoted only.
    await insertTradeIn(ctx.db, {
      userId: u,
      createdAt: '2026-03-10T00:00:00Z',
      status: 'quoted',
      lines: [line(0)],
    });

    expect(await stats(1)).toEqual({ creditIssued: 46, itemsBought: 3 });
    expect(await stats(3)).toEqual({ creditIssued: 76, itemsBought: 6 });
    expect(await stats(30)).toEqual({ creditIssued: 81, itemsBought: 11 });
  });
});

describe('GET /api/admin/export/tradeins.csv (issue 35)', () => {
  const get = (url: string, headers: Record<string, string> = admin) =>
    ctx.app.inject({ method: 'GET', url, headers });
  const rowsOf = (body: string) => parse(body, { columns: true, bom: false }) as Record<string, string>[];

  it('writes one row per line of each trade-in created between two shop days, oldest first', async () => {
    const seller = (await insertUser(ctx.db, { email: 'export@example.com' })).user;
    const first = await insertTradeIn(ctx.db, {
      userId: seller.id,
      // Midnight of 2026-02-10 in Tokyo.
      createdAt: '2026-02-09T15:00:00Z',
      status: 'accepted',
      acceptedAt: '2026-02-12T00:00:00Z',
      trackingNumber: '1Z999',
      lines: [
        line(0, {
          name: 'Super Mario 64',
          sku: 'SM64-L-U',
          options: { Region: 'NTSC-U', Condition: 'Loose' },
          qty: 2,
          outcome: 'accepted',
          inspectedCents: 1800,
        }),
        line(1, {
          name: 'Super Mario 64',
          sku: 'SM64-B-P',
          options: { Condition: 'Boxed', Region: 'PAL' },
          offeredCents: 4000,
          outcome: 'lowered',
          inspectedCents: 2500,
          reason: '=HYPERLINK("http://evil")',
        }),
      ],
    });
    const second = await insertTradeIn(ctx.db, {
      userId: seller.id,
      createdAt: '2026-02-11T14:59:59Z',
      status: 'quoted',
      lines: [
        line(0, {
          name: 'Super Mario 64',
          sku: 'SM64-L-U',
          options: { Condition: 'Loose', Region: 'NTSC-U' },
        }),
      ],
    });
    // Outside the range, on either side.
    const before = await insertTradeIn(ctx.db, {
      userId: seller.id,
      createdAt: '2026-02-09T14:59:59Z',
      status: 'cancelled',
      lines: [line(0)],
    });
    const after = await insertTradeIn(ctx.db, {
      userId: seller.id,
      createdAt: '2026-02-11T15:00:00Z',
      status: 'shipped',
      lines: [line(0)],
    });

    const res = await get('/api/admin/export/tradeins.csv?from=2026-02-10&to=2026-02-11');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="tradeins-from-2026-02-10-to-2026-02-11.csv"',
    );
    const text = res.rawPayload.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      'tradeInId,createdAt,status,email,product,sku,options,qty,offeredCredit,outcome,inspectedCredit,reason,creditedAmount,trackingNumber',
    );
    const rows = rowsOf(text);
    expect(rows.map((r) => r.tradeInId)).toEqual([first, first, second]);
    expect(rows[0]).toEqual({
      tradeInId: first,
      createdAt: '2026-02-09T15:00:00.000Z',
      status: 'accepted',
      email: 'export@example.com',
      product: 'Super Mario 64',
      sku: 'SM64-L-U',
      // In the order of the product's options, whatever order the line kept them in.
      options: 'Condition: Loose; Region: NTSC-U',
      qty: '2',
      offeredCredit: '18.00',
      outcome: 'accepted',
      inspectedCredit: '18.00',
      reason: '',
      creditedAmount: '61.00',
      trackingNumber: '1Z999',
    });
    // A cell a spreadsheet would run as a formula stays text.
    expect(rows[1]).toMatchObject({
      outcome: 'lowered',
      offeredCredit: '40.00',
      inspectedCredit: '25.00',
      reason: `'=HYPERLINK("http://evil")`,
      creditedAmount: '61.00',
    });
    expect(rows[2]).toMatchObject({
      status: 'quoted',
      outcome: '',
      inspectedCredit: '',
      creditedAmount: '0.00',
      trackingNumber: '',
    });

    const all = rowsOf((await get('/api/admin/export/tradeins.csv')).rawPayload.toString('utf8'));
    expect(all.map((r) => r.tradeInId)).toEqual(expect.arrayContaining([before, first, second, after]));
    const open = rowsOf(
      (await get('/api/admin/export/tradeins.csv?from=2026-02-11')).rawPayload.toString('utf8'),
    );
    expect(open.map((r) => r.tradeInId)).toEqual(expect.arrayContaining([second, after]));
    expect(open.map((r) => r.tradeInId)).not.toContain(first);
  });

  it('keeps the trade-ins of a deleted account, with the address as quoted', async () => {
    const leaving = (await insertUser(ctx.db, { email: 'leaving@example.com' })).user;
    const id = await insertTradeIn(ctx.db, {
      userId: leaving.id,
      createdAt: '2026-03-03T03:00:00Z',
      status: 'returned',
      lines: [line(0)],
    });
    await ctx.db.delete(users).where(eq(users.id, leaving.id));
    const res = await get('/api/admin/export/tradeins.csv?from=2026-03-03&to=2026-03-03');
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.rawPayload.toString('utf8')).filter((r) => r.tradeInId === id);
    expect(rows.map((r) => r.email)).toEqual(['trader@example.com']);
  });

  it('refuses dates that are not days with a 400 and a message', async () => {
    for (const [query, message] of [
      ['?from=2026-02-30', 'from must be a date written YYYY-MM-DD'],
      ['?from=2026-05-02&to=2026-05-01', 'from must not be after to'],
    ] as const) {
      const res = await get(`/api/admin/export/tradeins.csv${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message });
    }
  });

  it('is for admins only: a visitor 401, a customer 403', async () => {
    expect((await get('/api/admin/export/tradeins.csv', {})).statusCode).toBe(401);
    expect((await get('/api/admin/export/tradeins.csv', customer)).statusCode).toBe(403);
  });

  it('writes the options in the order of the product, then any it no longer has', () => {
    const options = [
      { name: 'Condition', values: [] },
      { name: 'Region', values: [] },
    ];
    expect(optionsText({ Region: 'PAL', Edition: 'Gold', Condition: 'Loose' }, options)).toBe(
      'Condition: Loose; Region: PAL; Edition: Gold',
    );
    expect(optionsText({}, options)).toBe('');
  });
});

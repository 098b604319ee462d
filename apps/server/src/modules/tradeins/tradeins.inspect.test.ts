import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradeIns } from '../../db/schema/index.js';
import { mailsTo } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { type Auth, adminMove, buyable, lowered, move, ok, tradeInsIn } from '../../test/tradeins.js';

/**
 * Issue 35: what the steps after a quote write and say, on both engines: the mails of receiving,
 * inspecting and returning, the answer after an inspection, and the inspections refused (400).
 */
let ctx: TestContext;
let admin: Auth;
const now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;
let tradeInIn: ReturnType<typeof tradeInsIn>;

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock, limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
  const games = [
    await buyable(ctx.db, { name: 'Moves Mario', creditCents: 1800 }),
    await buyable(ctx.db, { name: 'Moves Zelda', creditCents: 1000 }),
  ] as const;
  tradeInIn = tradeInsIn({ app: ctx.app, db: ctx.db, admin, games: () => [...games], clock });
});
afterAll(() => ctx.close());

describe('the steps say what happened', () => {
  it('mails received, inspected (the differences and reasons) and returned, with a link to the trade-in', async () => {
    const { auth, email, tradeIn } = await tradeInIn('shipped');
    await ok(adminMove(ctx.app, admin, tradeIn._id, 'receive'));
    const inspected = await ok(adminMove(ctx.app, admin, tradeIn._id, 'inspect', lowered(tradeIn)));
    expect(inspected).toMatchObject({
      status: 'inspected',
      totalCredit: 38,
      inspectedCredit: 30,
      creditedAmount: 0,
    });
    expect(inspected.items.map((i) => [i.outcome, i.inspectedCredit, i.reason])).toEqual([
      ['accepted', 18, null],
      ['lowered', 6, 'Label torn'],
    ]);
    expect(inspected.timeline.map((e) => [e.kind, e.actor, e.amount])).toEqual([
      ['quoted', 'customer', 38],
      ['shipped', 'customer', null],
      ['received', 'admin', null],
      ['inspected', 'admin', 30],
    ]);
    await ok(move(ctx.app, auth, tradeIn._id, 'decline'));
    const mails = await mailsTo(ctx.db, email);
    expect(mails.map((m) => m.subject.replace(/ \(trade-in \w+\)$/, ''))).toEqual([
      'Your trade-in quote: $38.00 store credit',
      'We received your trade-in',
      'Your trade-in was inspected: $30.00 offered',
      'Your trade-in items are on their way back',
    ]);
    const inspectedMail = mails[2]?.textBody ?? '';
    expect(inspectedMail).toContain('Moves Zelda x 2: $6.00 each instead of $10.00 (Label torn)');
    expect(inspectedMail).toContain('Moves Mario x 1: accepted at $18.00 each');
    expect(inspectedMail).toContain(`/tradeins/${tradeIn._id}`);
    expect(mails[3]?.textBody).toContain('Moves Zelda x 2');
  });

  it('refuses an inspection that misses, repeats or invents a line, or does not lower a lowered credit (400)', async () => {
    const { tradeIn } = await tradeInIn('received');
    const [mario, zelda] = tradeIn.items;
    if (!mario || !zelda) throw new Error('items');
    const bodies: [object, string][] = [
      [{ items: [{ _id: mario._id, outcome: 'accepted' }] }, 'missing'],
      [
        {
          items: [
            { _id: mario._id, outcome: 'accepted' },
            { _id: mario._id, outcome: 'accepted' },
            { _id: zelda._id, outcome: 'accepted' },
          ],
        },
        'listed twice',
      ],
      [
        {
          items: [
            { _id: mario._id, outcome: 'accepted' },
            { _id: zelda._id, outcome: 'accepted' },
            { _id: '00000000-0000-4000-8000-000000000000', outcome: 'accepted' },
          ],
        },
        'not part of this trade-in',
      ],
      [
        {
          items: [
            { _id: mario._id, outcome: 'lowered', credit: 18, reason: 'Scuffed' },
            { _id: zelda._id, outcome: 'accepted' },
          ],
        },
        'must be below its quote of $18.00',
      ],
      [
        {
          items: [
            { _id: mario._id, outcome: 'rejected' },
            { _id: zelda._id, outcome: 'accepted' },
          ],
        },
        'Say why',
      ],
      [
        {
          items: [
            { _id: mario._id, outcome: 'lowered', reason: 'x' },
            { _id: zelda._id, outcome: 'accepted' },
          ],
        },
        'lowered credit',
      ],
      [{ items: [] }, 'Inspect every item'],
    ];
    for (const [body, message] of bodies) {
      const res = await adminMove(ctx.app, admin, tradeIn._id, 'inspect', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const [row] = await ctx.db.select().from(tradeIns).where(eq(tradeIns.id, tradeIn._id));
    expect(row?.status).toBe('received');
  });

  it('an all-rejected inspection cannot be accepted (409), only declined', async () => {
    const { auth, tradeIn } = await tradeInIn('received');
    await ok(
      adminMove(ctx.app, admin, tradeIn._id, 'inspect', {
        items: tradeIn.items.map((i) => ({ _id: i._id, outcome: 'rejected', reason: 'Fake cartridge' })),
      }),
    );
    const refused = await move(ctx.app, auth, tradeIn._id, 'accept');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NOTHING_TO_CREDIT' });
    const declined = await ok(move(ctx.app, auth, tradeIn._id, 'decline'));
    expect(declined).toMatchObject({
      status: 'returned',
      inspectedCredit: 0,
      creditedAmount: 0,
      giftCardCode: null,
    });
  });
});

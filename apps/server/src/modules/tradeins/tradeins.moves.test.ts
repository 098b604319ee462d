import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeIn, TradeInStatus } from '@pixel-vault/shared';
import { auditLog, tradeIns } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertUser } from '../../test/factories.js';
import { type Auth, buyable, creditState, send as sendMove, tradeInsIn } from '../../test/tradeins.js';

/**
 * Issue 35: the whole transition table through the API, on both engines: every move from every
 * status, by its customer, by another customer (404), by a customer on an admin route (403) and by a
 * visitor (401). A move that already happened answers the trade-in as it is and changes nothing.
 */
let ctx: TestContext;
let admin: Auth;
let adminId: string;
const now = new Date('2026-11-27T12:00:00Z');
const clock = () => now;
let tradeInIn: ReturnType<typeof tradeInsIn>;

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock, limits: NO_RATE_LIMITS } });
  const made = await insertUser(ctx.db, { isAdmin: true });
  admin = made.auth;
  adminId = made.user.id;
  const games = [
    await buyable(ctx.db, { name: 'Moves Mario', creditCents: 1800 }),
    await buyable(ctx.db, { name: 'Moves Zelda', creditCents: 1000 }),
  ] as const;
  tradeInIn = tradeInsIn({ app: ctx.app, db: ctx.db, admin, games: () => [...games], clock });
});
afterAll(() => ctx.close());

const MOVES = ['ship', 'cancel', 'accept', 'decline', 'receive', 'inspect'] as const;
type Move = (typeof MOVES)[number];
const STATUSES: TradeInStatus[] = [
  'quoted',
  'shipped',
  'cancelled',
  'received',
  'inspected',
  'accepted',
  'returned',
  'expired',
];

/** The table, written out: the status a move leads to, 'done' (answered as it is), or the 409's code. */
const EXPECTED: Record<Move, Partial<Record<TradeInStatus, TradeInStatus | 'done'>>> = {
  ship: {
    quoted: 'shipped',
    shipped: 'done',
    received: 'done',
    inspected: 'done',
    accepted: 'done',
    returned: 'done',
  },
  cancel: { quoted: 'cancelled', shipped: 'cancelled', cancelled: 'done' },
  receive: { shipped: 'received', received: 'done', inspected: 'done', accepted: 'done', returned: 'done' },
  inspect: { received: 'inspected', inspected: 'done', accepted: 'done', returned: 'done' },
  accept: { inspected: 'accepted', accepted: 'done' },
  decline: { inspected: 'returned', returned: 'done' },
};
const REFUSAL_CODE = (status: TradeInStatus) =>
  status === 'expired' ? 'TRADE_IN_EXPIRED' : status === 'cancelled' ? 'TRADE_IN_CANCELLED' : undefined;

const send = (who: Auth | undefined, id: string, step: Move, tradeIn: TradeIn) =>
  sendMove(ctx.app, who, id, step, tradeIn);

describe('the transition table', () => {
  for (const step of MOVES) {
    for (const status of STATUSES) {
      const expected = EXPECTED[step][status];
      const label =
        expected === undefined ? '409' : expected === 'done' ? 'answers as it is' : `-> ${expected}`;
      it(`${step} from ${status}: ${label}`, async () => {
        const { auth, tradeIn } = await tradeInIn(status);
        const admins = step === 'receive' || step === 'inspect';
        const before = await creditState(ctx.db, tradeIn._id);
        const res = await send(admins ? admin : auth, tradeIn._id, step, tradeIn);
        const after = await creditState(ctx.db, tradeIn._id);
        if (expected === undefined) {
          expect(res.statusCode, res.body).toBe(409);
          const code = REFUSAL_CODE(status);
          if (code) expect(res.json().code).toBe(code);
          expect(res.json().message).toEqual(expect.any(String));
          expect(after.row).toEqual(before.row);
          expect(after.kinds).toEqual(before.kinds);
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        if (expected === 'done') {
          expect(res.json<TradeIn>().status).toBe(status);
          expect(after.row).toEqual(before.row);
          expect(after.kinds).toEqual(before.kinds);
          return;
        }
        expect(res.json<TradeIn>().status).toBe(expected);
        expect(after.row?.status).toBe(expected);
        // One timeline line (accept adds its credit's), by whoever moved it.
        const added = after.events.slice(before.events.length);
        expect(added.map((e) => e.kind)).toEqual(
          expected === 'accepted' ? ['accepted', 'credited'] : [expected],
        );
        expect(added[0]?.actor).toBe(admins ? 'admin' : 'customer');
        if (admins) {
          const audit = await ctx.db
            .select()
            .from(auditLog)
            .where(and(eq(auditLog.targetId, tradeIn._id), eq(auditLog.action, `tradein.${step}`)));
          expect(audit).toHaveLength(1);
          expect(audit[0]).toMatchObject({ actorUserId: adminId, targetType: 'tradein' });
        }
      });
    }
  }
});

describe('who may move a trade-in', () => {
  it('answers 404 to another customer and to an admin on the customer routes, 403 to a customer on the admin routes, 401 to a visitor', async () => {
    const { tradeIn } = await tradeInIn('quoted');
    const other = (await insertUser(ctx.db)).auth;
    for (const step of ['ship', 'cancel', 'accept', 'decline'] as const) {
      for (const who of [other, admin]) {
        const res = await send(who, tradeIn._id, step, tradeIn);
        expect(res.statusCode, `${step}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ message: 'Trade-in not found' });
      }
      expect((await send(undefined, tradeIn._id, step, tradeIn)).statusCode).toBe(401);
    }
    for (const step of ['receive', 'inspect'] as const) {
      expect((await send(other, tradeIn._id, step, tradeIn)).statusCode).toBe(403);
      expect((await send(undefined, tradeIn._id, step, tradeIn)).statusCode).toBe(401);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await send(admin, unknown, 'receive', tradeIn)).statusCode).toBe(404);
    const [row] = await ctx.db.select().from(tradeIns).where(eq(tradeIns.id, tradeIn._id));
    expect(row?.status).toBe('quoted');
  });
});

import { describe, expect, it } from 'vitest';
import { TRADE_IN_STATUSES } from '@pixel-vault/shared';
import type { AppError } from '../../lib/errors.js';
import { inspectionOf } from './tradeins.inspect.js';
import { priceLines } from './tradeins.quote.js';
import type { OfferProduct } from './tradeins.repo.js';
import { TRANSITIONS, type TradeInMove, checkMove } from './tradeins.transitions.js';

/** Issue 35: the pure rules of trade-ins: the transition table, pricing a quote, checking an inspection. */

const refusal = (move: TradeInMove, status: (typeof TRADE_IN_STATUSES)[number]) => {
  try {
    checkMove(move, status);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('the transition table', () => {
  it('leads every move from its statuses to its own, and treats a move already made as done', () => {
    const table = Object.fromEntries(
      (Object.keys(TRANSITIONS) as TradeInMove[]).map((move) => [
        move,
        Object.fromEntries(
          TRADE_IN_STATUSES.map((status) => {
            const refused = refusal(move, status);
            return [status, refused ? (refused as AppError).statusCode : checkMove(move, status)];
          }),
        ),
      ]),
    );
    expect(table).toEqual({
      ship: {
        quoted: 'proceed',
        shipped: 'done',
        cancelled: 409,
        received: 'done',
        inspected: 'done',
        accepted: 'done',
        returned: 'done',
        expired: 409,
      },
      cancel: {
        quoted: 'proceed',
        shipped: 'proceed',
        cancelled: 'done',
        received: 409,
        inspected: 409,
        accepted: 409,
        returned: 409,
        expired: 409,
      },
      receive: {
        quoted: 409,
        shipped: 'proceed',
        cancelled: 409,
        received: 'done',
        inspected: 'done',
        accepted: 'done',
        returned: 'done',
        expired: 409,
      },
      inspect: {
        quoted: 409,
        shipped: 409,
        cancelled: 409,
        received: 'proceed',
        inspected: 'done',
        accepted: 'done',
        returned: 'done',
        expired: 409,
      },
      accept: {
        quoted: 409,
        shipped: 409,
        cancelled: 409,
        received: 409,
        inspected: 'proceed',
        accepted: 'done',
        returned: 409,
        expired: 409,
      },
      decline: {
        quoted: 409,
        shipped: 409,
        cancelled: 409,
        received: 409,
        inspected: 'proceed',
        accepted: 409,
        returned: 'done',
        expired: 409,
      },
      expire: {
        quoted: 'proceed',
        shipped: 409,
        cancelled: 409,
        received: 409,
        inspected: 409,
        accepted: 409,
        returned: 409,
        expired: 'done',
      },
    });
  });

  it('says why in words, with a code', () => {
    expect(refusal('cancel', 'received')).toMatchObject({
      code: 'TRADE_IN_NOT_CANCELLABLE',
      message: expect.stringContaining('Decline the inspected offer'),
    });
    expect(refusal('accept', 'shipped')).toMatchObject({
      code: 'TRADE_IN_STATE',
      message: 'This trade-in is shipped: only an inspected trade-in can be accepted.',
    });
    expect(refusal('ship', 'expired')).toMatchObject({ code: 'TRADE_IN_EXPIRED' });
  });
});

const product = (over: Partial<OfferProduct> = {}): OfferProduct => ({
  id: 'p1',
  name: 'Mario',
  options: [],
  deleted: false,
  variants: [{ id: 'v1', sku: 'SKU-1', options: {}, creditCents: 1800 }],
  ...over,
});

describe('pricing a quote', () => {
  it('merges lines of one variant and keeps the order first named', () => {
    const offers = new Map([
      ['p1', product()],
      [
        'p2',
        product({
          id: 'p2',
          name: 'Zelda',
          variants: [{ id: 'v2', sku: 'S2', options: {}, creditCents: 500 }],
        }),
      ],
    ]);
    const lines = priceLines(
      [
        { product: 'p2', qty: 1 },
        { product: 'P1', variant: 'V1', qty: 2 },
        { product: 'p2', variant: 'v2', qty: 3 },
      ],
      offers,
    );
    expect(lines.map((l) => [l.position, l.variantId, l.qty, l.offeredCents])).toEqual([
      [0, 'v2', 4, 500],
      [1, 'v1', 2, 1800],
    ]);
  });

  it('takes the only live variant of a product with options, and names what it refuses', () => {
    const single = product({ options: [{ name: 'Condition', values: ['Loose', 'Boxed'] }] });
    expect(priceLines([{ product: 'p1', qty: 1 }], new Map([['p1', single]]))[0]?.variantId).toBe('v1');
    const notBought = product({ variants: [{ id: 'v1', sku: 'S', options: {}, creditCents: null }] });
    expect(() => priceLines([{ product: 'p1', qty: 1 }], new Map([['p1', notBought]]))).toThrow(
      'We do not buy this at the moment: Mario. Please remove it from your list.',
    );
  });
});

describe('checking an inspection', () => {
  const lines: { id: string; productName: string; options: Record<string, string>; offeredCents: number }[] =
    [
      { id: 'a', productName: 'Mario', options: {}, offeredCents: 1800 },
      { id: 'b', productName: 'Zelda', options: { Condition: 'Loose' }, offeredCents: 1000 },
    ];
  it('answers each line with its per-unit credit', () => {
    expect(
      inspectionOf(lines, {
        items: [
          { _id: 'B', outcome: 'lowered', credit: 0, reason: 'Broken' },
          { _id: 'a', outcome: 'accepted' },
        ],
      }),
    ).toEqual([
      { id: 'a', outcome: 'accepted', inspectedCents: 1800, reason: null },
      { id: 'b', outcome: 'lowered', inspectedCents: 0, reason: 'Broken' },
    ]);
  });
  it('names a line that is missing or not lowered', () => {
    expect(() => inspectionOf(lines, { items: [{ _id: 'a', outcome: 'accepted' }] })).toThrow(
      'Inspect every item of the trade-in: Zelda (Loose) missing.',
    );
    expect(() =>
      inspectionOf(lines, {
        items: [
          { _id: 'a', outcome: 'accepted' },
          { _id: 'b', outcome: 'lowered', credit: 12, reason: 'x' },
        ],
      }),
    ).toThrow('The lowered credit of Zelda (Loose) must be below its quote of $10.00.');
  });
});

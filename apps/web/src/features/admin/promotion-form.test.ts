import { describe, expect, it } from 'vitest';
import type { Promotion } from '@pixel-vault/shared';
import {
  createInput,
  EMPTY_PROMOTION_FORM,
  formFromPromotion,
  isoToLocalInput,
  localInputToIso,
  promotionName,
  shapeProblem,
  updateInput,
  valueProblem,
} from './promotion-form';
import { makePromotion } from './test-helpers';

describe('promotion form values', () => {
  it('reads a moment back as the datetime-local value it was typed as, in the browser time zone', () => {
    const iso = localInputToIso('2026-12-01T10:00');
    expect(iso).toBe(new Date(2026, 11, 1, 10, 0).toISOString());
    expect(isoToLocalInput(iso)).toBe('2026-12-01T10:00');
    expect(isoToLocalInput(null)).toBe('');
    // Seconds are kept when there are some, so an untouched field is the same moment.
    const withSeconds = new Date(2026, 0, 2, 3, 4, 5).toISOString();
    expect(localInputToIso(isoToLocalInput(withSeconds))).toBe(withSeconds);
    // Not a date: left as typed for the schema to refuse.
    expect(localInputToIso('soon')).toBe('soon');
  });

  it('leaves empty optional fields and a free-shipping value out of a new code', () => {
    expect(
      createInput({ ...EMPTY_PROMOTION_FORM, code: 'ship', kind: 'free_shipping', value: '12' }),
    ).toEqual({
      code: 'ship',
      kind: 'free_shipping',
      categories: [],
      products: [],
      active: true,
    });
    expect(createInput({ ...EMPTY_PROMOTION_FORM, code: 'x', value: '' }).value).toBeNaN();
  });

  it('answers no change for a form read from a promotion and left alone', () => {
    const promotion = makePromotion({
      code: 'RETRO10',
      minSubtotal: 25,
      startsAt: '2026-11-01T08:00:00.000Z',
      endsAt: '2026-12-01T08:00:30.000Z',
      usageLimit: 100,
      perCustomerLimit: 1,
      categories: ['puzzles', 'consoles'],
      products: ['00000000-0000-4000-a000-000000000999'],
    });
    const values = formFromPromotion(promotion);
    expect(updateInput(values, promotion)).toEqual({});
    // Case, spaces and the order of the boxes are no change either.
    expect(
      updateInput({ ...values, code: ' retro10 ', categories: ['consoles', 'puzzles'] }, promotion),
    ).toEqual({});
  });

  it('sends null for an emptied optional field, and the value again when the kind changes', () => {
    const promotion = makePromotion({
      kind: 'percentage',
      value: 10,
      usageLimit: 5,
      endsAt: '2026-12-01T08:00:00.000Z',
    });
    const values = formFromPromotion(promotion);
    expect(updateInput({ ...values, usageLimit: '', endsAt: '' }, promotion)).toEqual({
      usageLimit: null,
      endsAt: null,
    });
    expect(updateInput({ ...values, kind: 'fixed' }, promotion)).toEqual({ kind: 'fixed', value: 10 });
    expect(updateInput({ ...values, kind: 'free_shipping' }, promotion)).toEqual({ kind: 'free_shipping' });
    expect(updateInput({ ...values, active: false }, promotion)).toEqual({ active: false });
  });

  it('checks the value against the kind the code ends with (the update schema cannot)', () => {
    expect(valueProblem({ ...EMPTY_PROMOTION_FORM, kind: 'percentage', value: '10.5' })).toBe(
      'A percentage is a whole number from 1 to 100',
    );
    expect(valueProblem({ ...EMPTY_PROMOTION_FORM, kind: 'fixed', value: '10.5' })).toBeUndefined();
    expect(valueProblem({ ...EMPTY_PROMOTION_FORM, kind: 'free_shipping', value: '' })).toBeUndefined();
  });
});

describe('a scheduled sale in the promotion form (issue 32)', () => {
  const sale = (overrides: Partial<Promotion> = {}): Promotion => ({
    ...makePromotion(),
    code: null,
    kind: 'sale',
    value: 20,
    startsAt: '2026-11-27T08:00:00.000Z',
    endsAt: '2026-11-30T23:00:00.000Z',
    categories: ['puzzles'],
    state: 'scheduled',
    ...overrides,
  });

  it('sends no code, minimum subtotal or limits for a sale, whatever the hidden fields hold', () => {
    expect(
      createInput({
        ...EMPTY_PROMOTION_FORM,
        kind: 'sale',
        code: 'TYPED-BEFORE',
        value: '25',
        minSubtotal: '10',
        usageLimit: '5',
        perCustomerLimit: '1',
        startsAt: '2026-11-27T09:00',
        endsAt: '2026-11-30T18:00',
        categories: ['puzzles'],
      }),
    ).toEqual({
      kind: 'sale',
      value: 25,
      startsAt: new Date(2026, 10, 27, 9, 0).toISOString(),
      endsAt: new Date(2026, 10, 30, 18, 0).toISOString(),
      categories: ['puzzles'],
      products: [],
      active: true,
    });
  });

  it('reads a sale back unchanged, and sends only its changed end', () => {
    const promotion = sale();
    const values = formFromPromotion(promotion);
    expect(values.code).toBe('');
    expect(updateInput(values, promotion)).toEqual({});
    expect(updateInput({ ...values, endsAt: '2026-12-02T18:00' }, promotion)).toEqual({
      endsAt: new Date(2026, 11, 2, 18, 0).toISOString(),
    });
  });

  it('needs a start and an end for a sale, and a code for a code', () => {
    const values = formFromPromotion(sale());
    expect(shapeProblem(values)).toBeUndefined();
    expect(shapeProblem({ ...values, endsAt: '' })).toBe('A sale needs a start and an end');
    expect(shapeProblem({ ...EMPTY_PROMOTION_FORM, code: ' ' })).toBe('A discount code is required');
    expect(valueProblem({ ...values, value: '100' })).toBe(
      'A sale takes a whole number percent from 1 to 99 off',
    );
  });

  it('names a code by its code and a sale by what it does', () => {
    expect(promotionName(makePromotion({ code: 'RETRO10' }))).toBe('RETRO10');
    expect(promotionName(sale({ categories: ['puzzles', 'board-games'] }))).toBe(
      'Sale: 20% off puzzles and board games',
    );
    expect(promotionName(sale({ categories: [], products: ['a', 'b'] }))).toBe('Sale: 20% off 2 products');
    expect(promotionName(sale({ categories: [], value: 15 }))).toBe('Sale: 15% off everything');
  });
});

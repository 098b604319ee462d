import { describe, expect, it } from 'vitest';
import {
  createInput,
  EMPTY_PROMOTION_FORM,
  formFromPromotion,
  isoToLocalInput,
  localInputToIso,
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

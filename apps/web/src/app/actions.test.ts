import { describe, expect, expectTypeOf, it } from 'vitest';
import * as toolkit from '@reduxjs/toolkit';
import type { UnknownAction } from 'redux';
import { createAction, isAnyOf, type PayloadAction } from './actions';

// The type assertions (expectTypeOf, @ts-expect-error) are checked by `npm run typecheck`.

describe('createAction without prepare', () => {
  const opened = createAction('panel/opened');
  const renamed = createAction<string>('user/renamed');
  const answered = createAction<{ id: number } | undefined>('api/answered');

  it('makes { type, payload } from its one argument, as RTK does', () => {
    expect(renamed('Ada')).toStrictEqual({ type: 'user/renamed', payload: 'Ada' });
    expect(renamed('Ada')).toStrictEqual(toolkit.createAction<string>('user/renamed')('Ada'));
    expect(opened()).toStrictEqual({ type: 'panel/opened', payload: undefined });
    expect(opened()).toStrictEqual(toolkit.createAction('panel/opened')());
    expect(answered()).toStrictEqual({ type: 'api/answered', payload: undefined });
    expect(answered({ id: 1 })).toStrictEqual({ type: 'api/answered', payload: { id: 1 } });
  });

  it('has its type as `type` and as its string', () => {
    expect(renamed.type).toBe('user/renamed');
    expect(String(renamed)).toBe('user/renamed');
    expect(`${opened}`).toBe('panel/opened');
  });

  it('matches its own actions only, even passed on as a plain function', () => {
    const { match } = renamed;
    expect(match(renamed('Ada'))).toBe(true);
    expect(match({ type: 'user/renamed' })).toBe(true);
    expect(match(opened())).toBe(false);
    expect(match({ type: 'user/renamed/x', payload: 'Ada' })).toBe(false);
    expect(match(null)).toBe(false);
    expect(match('user/renamed')).toBe(false);
    expect(match(undefined)).toBe(false);
    expect([opened(), renamed('Ada'), renamed('Bob')].filter(match)).toHaveLength(2);
  });

  it('types its arguments and its actions', () => {
    expectTypeOf(opened).parameters.toEqualTypeOf<[]>();
    expectTypeOf(renamed).parameters.toEqualTypeOf<[payload: string]>();
    expectTypeOf(answered).parameters.toEqualTypeOf<[payload?: { id: number } | undefined]>();
    expectTypeOf(renamed('Ada')).toEqualTypeOf<PayloadAction<string>>();
    expectTypeOf(opened.type).toEqualTypeOf<'panel/opened'>();
    // @ts-expect-error: a creator without payload takes no argument
    opened('x');
    // @ts-expect-error: the payload is required
    renamed();
    // @ts-expect-error: the payload's type
    renamed(1);
    const action: UnknownAction = renamed('Ada');
    if (renamed.match(action)) expectTypeOf(action.payload).toEqualTypeOf<string>();
  });
});

describe('createAction with prepare', () => {
  const added = createAction('cart/added', (id: string, qty = 1) => ({
    payload: { id, qty },
    meta: { at: 3 },
  }));
  const failed = createAction('job/failed', (message: string) => ({
    payload: undefined,
    error: { message },
  }));
  const logout = createAction('auth/logout', (reason?: string) => ({ payload: reason }));

  it("makes the action from prepare's result: meta and error only when prepare gives them, as RTK does", () => {
    expect(added('a', 2)).toStrictEqual({
      type: 'cart/added',
      payload: { id: 'a', qty: 2 },
      meta: { at: 3 },
    });
    expect(added('a')).toStrictEqual(
      toolkit.createAction('cart/added', (id: string, qty = 1) => ({
        payload: { id, qty },
        meta: { at: 3 },
      }))('a'),
    );
    expect(failed('boom')).toStrictEqual({
      type: 'job/failed',
      payload: undefined,
      error: { message: 'boom' },
    });
    expect(logout()).toStrictEqual({ type: 'auth/logout', payload: undefined });
    expect('meta' in logout('SESSION_EXPIRED')).toBe(false);
    expect(logout.match(logout('SESSION_EXPIRED'))).toBe(true);
    expect(added.match(logout())).toBe(false);
  });

  it("takes prepare's arguments and types payload, meta and error", () => {
    expectTypeOf(added).parameters.toEqualTypeOf<[id: string, qty?: number]>();
    expectTypeOf(added('a').meta).toEqualTypeOf<{ at: number }>();
    expectTypeOf(added('a').payload).toEqualTypeOf<{ id: string; qty: number }>();
    expectTypeOf(failed('x').error).toEqualTypeOf<{ message: string }>();
    expectTypeOf(logout('x').payload).toEqualTypeOf<string | undefined>();
    expectTypeOf(logout('x')).not.toHaveProperty('meta');
    // @ts-expect-error: prepare's argument types
    added(1);
  });
});

describe('isAnyOf', () => {
  const a = createAction<number>('t/a');
  const b = createAction('t/b', (text: string) => ({ payload: text, meta: 'm' }));
  const c = createAction('t/c');
  const aOrB = isAnyOf(a, b);

  it("matches the actions of any of its creators, and nothing else's", () => {
    expect(aOrB(a(1))).toBe(true);
    expect(aOrB(b('x'))).toBe(true);
    expect(aOrB(c())).toBe(false);
    expect(aOrB({ type: 'other' })).toBe(false);
    expect(aOrB(null)).toBe(false);
    expect(isAnyOf()(a(1))).toBe(false);
  });

  it('narrows to the union of their actions', () => {
    const action: UnknownAction = a(1);
    if (aOrB(action)) {
      expectTypeOf(action.payload).toEqualTypeOf<number | string>();
      expectTypeOf(action.type).toEqualTypeOf<string>();
    }
  });
});

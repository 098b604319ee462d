import { describe, expect, it } from 'vitest';
import { restored, restoring, selectSessionRestored, sessionSlice } from './sessionSlice';

describe('session reducer', () => {
  it('starts restored: a store made without persistence has nothing to wait for', () => {
    expect(sessionSlice.reducer(undefined, { type: 'init' })).toEqual({ restored: true });
    expect(sessionSlice.reducerPath).toBe('session');
    expect([restoring.type, restored.type]).toEqual(['session/restoring', 'session/restored']);
  });

  it('is restoring until the stored state is read back, without changing the state it is given', () => {
    const before = Object.freeze({ restored: true });
    const during = Object.freeze(sessionSlice.reducer(before, restoring()));
    expect(during).toEqual({ restored: false });
    expect(selectSessionRestored({ session: during })).toBe(false);
    const after = sessionSlice.reducer(during, restored());
    expect(after).toEqual({ restored: true });
    expect(selectSessionRestored({ session: after })).toBe(true);
    expect(during.restored).toBe(false);
  });

  it('gives back the same state when nothing changes', () => {
    const state = Object.freeze({ restored: true });
    expect(sessionSlice.reducer(state, restored())).toBe(state);
    expect(sessionSlice.reducer(state, { type: 'cart/clearCart' })).toBe(state);
    const waiting = Object.freeze({ restored: false });
    expect(sessionSlice.reducer(waiting, restoring())).toBe(waiting);
  });
});

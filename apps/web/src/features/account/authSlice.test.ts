import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/users';
import {
  authSlice,
  loggedIn,
  logout,
  selectSessionEnded,
  sessionEndShown,
  setCredentials,
} from './authSlice';

const reduce = (...actions: Parameters<typeof authSlice.reducer>[1][]) =>
  actions.reduce(authSlice.reducer, authSlice.getInitialState());

describe('auth reducer: how a session ends (issue 30)', () => {
  it('Sign Out forgets the user and gives no reason', () => {
    const state = reduce(loggedIn(makeUser()), logout());
    expect(state).toEqual({ userInfo: null });
    expect(selectSessionEnded({ auth: state })).toBeNull();
  });

  it('a session the server ended keeps why, until the login page has said so', () => {
    let state = reduce(loggedIn(makeUser()), logout('ACCOUNT_DELETED'));
    expect(state).toEqual({ userInfo: null, sessionEnded: 'ACCOUNT_DELETED' });
    // A call refused afterwards (made without a token) does not hide it.
    state = authSlice.reducer(state, logout());
    expect(selectSessionEnded({ auth: state })).toBe('ACCOUNT_DELETED');
    state = authSlice.reducer(state, sessionEndShown());
    expect(state).toEqual({ userInfo: null });
  });

  it('a new login forgets it; a refreshed user info (same session) keeps the user', () => {
    const ada = makeUser();
    let state = reduce(loggedIn(ada), logout('SESSION_ENDED'), loggedIn(ada));
    expect(state).toEqual({ userInfo: ada });
    state = authSlice.reducer(state, setCredentials({ ...ada, name: 'Amazing Ada' }));
    expect(state.userInfo?.name).toBe('Amazing Ada');
  });

  it('reads state stored before the reason existed', () => {
    expect(selectSessionEnded({ auth: { userInfo: null } })).toBeNull();
  });
});

/** `value` and everything in it frozen: a reducer that wrote to it would throw (tests run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('auth actions', () => {
  it('keep their action types; logout carries the reason as its payload', () => {
    expect([loggedIn, setCredentials, logout, sessionEndShown].map((a) => a.type)).toEqual([
      'auth/loggedIn',
      'auth/setCredentials',
      'auth/logout',
      'auth/sessionEndShown',
    ]);
    expect(logout()).toEqual({ type: 'auth/logout', payload: undefined });
    expect(logout('SESSION_EXPIRED')).toEqual({ type: 'auth/logout', payload: 'SESSION_EXPIRED' });
    expect(authSlice.reducerPath).toBe('auth');
    expect(authSlice.reducer(undefined, { type: 'init' })).toEqual({ userInfo: null });
  });
});

describe('auth reducer never changes the state it is given', () => {
  const ada = makeUser();
  const ended = () => deepFreeze({ userInfo: null, sessionEnded: 'SESSION_EXPIRED' as const });
  const signedIn = () => deepFreeze({ userInfo: { ...ada } });

  it('a login replaces the user and drops the reason', () => {
    const before = ended();
    expect(authSlice.reducer(before, loggedIn(ada))).toEqual({ userInfo: ada });
    expect(before).toEqual({ userInfo: null, sessionEnded: 'SESSION_EXPIRED' });
  });

  it('a refreshed user info keeps the reason the last session ended for', () => {
    const before = ended();
    expect(authSlice.reducer(before, setCredentials(ada))).toEqual({
      userInfo: ada,
      sessionEnded: 'SESSION_EXPIRED',
    });
    expect(before.userInfo).toBeNull();
  });

  it('Sign Out and a session the server ended', () => {
    const before = signedIn();
    expect(authSlice.reducer(before, logout())).toEqual({ userInfo: null });
    expect(authSlice.reducer(before, logout('ACCOUNT_DELETED'))).toEqual({
      userInfo: null,
      sessionEnded: 'ACCOUNT_DELETED',
    });
    expect(before).toEqual({ userInfo: ada });
  });

  it('the login page having said why', () => {
    const before = ended();
    const after = authSlice.reducer(before, sessionEndShown());
    expect(Object.keys(after)).toEqual(['userInfo']);
    expect(before.sessionEnded).toBe('SESSION_EXPIRED');
  });
});

describe('auth reducer gives back the same state when nothing changes', () => {
  it('a refused call once logged out, nothing to have said, or an action not its own', () => {
    const state = deepFreeze({ userInfo: null });
    expect(authSlice.reducer(state, logout())).toBe(state);
    expect(authSlice.reducer(state, sessionEndShown())).toBe(state);
    expect(authSlice.reducer(state, { type: 'cart/clearCart' })).toBe(state);
    const withReason = deepFreeze({ userInfo: null, sessionEnded: 'SESSION_ENDED' as const });
    expect(authSlice.reducer(withReason, logout())).toBe(withReason);
  });
});

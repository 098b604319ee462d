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

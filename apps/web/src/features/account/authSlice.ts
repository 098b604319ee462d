import type { UnknownAction } from 'redux';
import { createAction } from '../../app/actions';
import type { SessionEndCode, UserInfo } from '@pixel-vault/shared';

// A plain reducer, not createSlice: that needs immer, 4 kB gzipped of the first download (issue 10).

/** Spec section 3: the login/registration response is held as userInfo and persisted. */
export interface AuthState {
  userInfo: UserInfo | null;
  /**
   * Why the server ended the session (issue 30: it expired, it was ended, the account was deleted),
   * kept until the login page has said so. Absent otherwise (and in state stored before it existed).
   */
  sessionEnded?: SessionEndCode;
}

const initialState: AuthState = { userInfo: null };

/**
 * A new session: login, registration (which also counts as login, spec section 4) and a password
 * reset. What the browser kept for checkout belongs to whoever used it before (app/cartSlice.ts).
 */
export const loggedIn = createAction<UserInfo>('auth/loggedIn');

/** The same session's user info again, e.g. with a fresh token after a profile change. */
export const setCredentials = createAction<UserInfo>('auth/setCredentials');

/**
 * Clears the stored userInfo; the data layer listens to this to drop cached private data (app/api.ts)
 * and the cart to forget the address (app/cartSlice.ts). Sign Out gives no reason; a call the server
 * refused gives the code of the session's end when it had one (issue 30).
 */
export const logout = createAction('auth/logout', (reason?: SessionEndCode) => ({ payload: reason }));

/** The login page has told the person why their session ended. */
export const sessionEndShown = createAction('auth/sessionEndShown');

/** `state` with this user; `state` itself when it has them already. */
function withUser(state: AuthState, userInfo: UserInfo | null): AuthState {
  return state.userInfo === userInfo ? state : { ...state, userInfo };
}

/** `state` with this reason for the session's end, or none; `state` itself when that is what it has. */
function withSessionEnded(state: AuthState, sessionEnded: SessionEndCode | undefined): AuthState {
  if (sessionEnded === undefined) {
    if (!('sessionEnded' in state)) return state;
    // The key goes (not left undefined): the state is stored as JSON and compared as it was read back.
    const next = { ...state };
    delete next.sessionEnded;
    return next;
  }
  return state.sessionEnded === sessionEnded ? state : { ...state, sessionEnded };
}

function reducer(state: AuthState = initialState, action: UnknownAction): AuthState {
  if (loggedIn.match(action)) return withSessionEnded(withUser(state, action.payload), undefined);
  if (setCredentials.match(action)) return withUser(state, action.payload);
  if (logout.match(action)) {
    // A refusal once logged out (a call made without a token) changes nothing, nor hides why.
    if (state.userInfo == null && action.payload === undefined) return state;
    return withSessionEnded(withUser(state, null), action.payload);
  }
  if (sessionEndShown.match(action)) return withSessionEnded(state, undefined);
  return state;
}

export const selectSessionEnded = (state: { auth: AuthState }) => state.auth.sessionEnded ?? null;

export const authSlice = {
  name: 'auth',
  reducerPath: 'auth',
  reducer,
  actions: { loggedIn, setCredentials, logout, sessionEndShown },
  selectors: { selectSessionEnded },
  getInitialState: () => initialState,
} as const;

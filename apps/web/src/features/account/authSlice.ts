import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionEndCode, UserInfo } from '@pixel-vault/shared';

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

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /**
     * A new session: login, registration (which also counts as login, spec section 4) and a password
     * reset. What the browser kept for checkout belongs to whoever used it before (app/cartSlice.ts).
     */
    loggedIn(state, action: PayloadAction<UserInfo>) {
      state.userInfo = action.payload;
      delete state.sessionEnded;
    },
    /** The same session's user info again, e.g. with a fresh token after a profile change. */
    setCredentials(state, action: PayloadAction<UserInfo>) {
      state.userInfo = action.payload;
    },
    /**
     * Clears the stored userInfo; the data layer listens to this to drop cached private data (app/api.ts)
     * and the cart to forget the address (app/cartSlice.ts). Sign Out gives no reason; a call the server
     * refused gives the code of the session's end when it had one (issue 30).
     */
    logout: {
      reducer(state, action: PayloadAction<SessionEndCode | undefined>) {
        // A refusal once logged out (a call made without a token) changes nothing, nor hides why.
        if (state.userInfo == null && action.payload === undefined) return;
        state.userInfo = null;
        if (action.payload) state.sessionEnded = action.payload;
        else delete state.sessionEnded;
      },
      prepare: (reason?: SessionEndCode) => ({ payload: reason }),
    },
    /** The login page has told the person why their session ended. */
    sessionEndShown(state) {
      delete state.sessionEnded;
    },
  },
  selectors: {
    selectSessionEnded: (state) => state.sessionEnded ?? null,
  },
});

export const { loggedIn, setCredentials, logout, sessionEndShown } = authSlice.actions;
export const { selectSessionEnded } = authSlice.selectors;

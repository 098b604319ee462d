import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserInfo } from '@pixel-vault/shared';

/** Spec section 3: the login/registration response is held as userInfo and persisted. */
export interface AuthState {
  userInfo: UserInfo | null;
}

const initialState: AuthState = { userInfo: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** Login and registration success (registration also counts as login, spec section 4). */
    setCredentials(state, action: PayloadAction<UserInfo>) {
      state.userInfo = action.payload;
    },
    /** Clears the stored userInfo; the data layer listens to this to drop cached private data (app/api.ts). */
    logout(state) {
      state.userInfo = null;
    },
  },
});

export const { setCredentials, logout } = authSlice.actions;

import { createSlice } from '@reduxjs/toolkit';

/**
 * Whether what the browser stored (spec section 4: the user and the cart under persist:root) has been
 * read back yet. A page rendered on the server is shown and hydrated before that: pages that depend on
 * who is logged in wait for it (RequireAuth), the others show at once. Never persisted itself.
 */
export interface SessionState {
  restored: boolean;
}

export const sessionSlice = createSlice({
  name: 'session',
  // A store made without persistence (tests, the server's render) has nothing to wait for.
  initialState: { restored: true } as SessionState,
  reducers: {
    restoring(state) {
      state.restored = false;
    },
    restored(state) {
      state.restored = true;
    },
  },
  selectors: {
    selectSessionRestored: (state) => state.restored,
  },
});

export const { restoring, restored } = sessionSlice.actions;
export const { selectSessionRestored } = sessionSlice.selectors;

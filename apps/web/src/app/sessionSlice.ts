import type { UnknownAction } from 'redux';
import { createAction } from './actions';

// A plain reducer, not createSlice: that needs immer, 4 kB gzipped of the first download (issue 10).

/**
 * Whether what the browser stored (spec section 4: the user and the cart under persist:root) has been
 * read back yet. A page rendered on the server is shown and hydrated before that: pages that depend on
 * who is logged in wait for it (RequireAuth), the others show at once. Never persisted itself.
 */
export interface SessionState {
  restored: boolean;
}

// A store made without persistence (tests, the server's render) has nothing to wait for.
const initialState: SessionState = { restored: true };

export const restoring = createAction('session/restoring');
export const restored = createAction('session/restored');

function reducer(state: SessionState = initialState, action: UnknownAction): SessionState {
  // The same state when nothing changes, so nothing that reads it renders again.
  if (restoring.match(action)) return state.restored ? { ...state, restored: false } : state;
  if (restored.match(action)) return state.restored ? state : { ...state, restored: true };
  return state;
}

export const selectSessionRestored = (state: { session: SessionState }) => state.session.restored;

export const sessionSlice = {
  name: 'session',
  reducerPath: 'session',
  reducer,
  actions: { restoring, restored },
  selectors: { selectSessionRestored },
  getInitialState: () => initialState,
} as const;

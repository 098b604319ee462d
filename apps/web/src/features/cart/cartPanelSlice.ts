import type { UnknownAction } from 'redux';
import { createAction } from '../../app/actions';

// A plain reducer, not createSlice: that needs immer, 4 kB gzipped of the first download (issue 10).

/** Whether the cart side panel is open. UI state only: not persisted (see app/store.ts). */
export interface CartPanelState {
  isOpen: boolean;
  /**
   * Issue 34: why lines of the cart were dropped when it was merged into the account's or reloaded
   * (`Zelda II (PAL) is no longer sold`), shown in the panel until dismissed. Absent: nothing to say.
   */
  notices?: string[];
}

const initialState: CartPanelState = { isOpen: false };
const NO_NOTICES: string[] = [];

export const openCart = createAction('cartPanel/openCart');
export const closeCart = createAction('cartPanel/closeCart');
/** Issue 34: the server dropped lines of the cart; these messages say which and why. */
export const showCartNotices = createAction<string[]>('cartPanel/showCartNotices');
export const dismissCartNotices = createAction('cartPanel/dismissCartNotices');

function reducer(state: CartPanelState = initialState, action: UnknownAction): CartPanelState {
  // The same state when nothing changes, so nothing that reads it renders again.
  if (openCart.match(action)) return state.isOpen ? state : { ...state, isOpen: true };
  if (closeCart.match(action)) return state.isOpen ? { ...state, isOpen: false } : state;
  if (showCartNotices.match(action)) {
    const notices = state.notices ?? NO_NOTICES;
    const fresh = action.payload.filter((message) => !notices.includes(message));
    return fresh.length === 0 ? state : { ...state, notices: [...notices, ...fresh] };
  }
  if (dismissCartNotices.match(action)) {
    if (state.notices === undefined) return state;
    const next = { ...state };
    delete next.notices;
    return next;
  }
  return state;
}

export const selectIsCartOpen = (state: { cartPanel: CartPanelState }) => state.cartPanel.isOpen;
export const selectCartNotices = (state: { cartPanel: CartPanelState }) =>
  state.cartPanel.notices ?? NO_NOTICES;

export const cartPanelSlice = {
  name: 'cartPanel',
  reducerPath: 'cartPanel',
  reducer,
  actions: { openCart, closeCart, showCartNotices, dismissCartNotices },
  selectors: { selectIsCartOpen, selectCartNotices },
  getInitialState: () => initialState,
} as const;

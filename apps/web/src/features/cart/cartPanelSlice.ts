import type { UnknownAction } from 'redux';
import { createAction } from '../../app/actions';

// A plain reducer, not createSlice: that needs immer, 4 kB gzipped of the first download (issue 10).

/** Whether the cart side panel is open. UI state only: not persisted (see app/store.ts). */
export interface CartPanelState {
  isOpen: boolean;
}

const initialState: CartPanelState = { isOpen: false };

export const openCart = createAction('cartPanel/openCart');
export const closeCart = createAction('cartPanel/closeCart');

function reducer(state: CartPanelState = initialState, action: UnknownAction): CartPanelState {
  // The same state when nothing changes, so nothing that reads it renders again.
  if (openCart.match(action)) return state.isOpen ? state : { ...state, isOpen: true };
  if (closeCart.match(action)) return state.isOpen ? { ...state, isOpen: false } : state;
  return state;
}

export const selectIsCartOpen = (state: { cartPanel: CartPanelState }) => state.cartPanel.isOpen;

export const cartPanelSlice = {
  name: 'cartPanel',
  reducerPath: 'cartPanel',
  reducer,
  actions: { openCart, closeCart },
  selectors: { selectIsCartOpen },
  getInitialState: () => initialState,
} as const;

import { createSlice } from '@reduxjs/toolkit';

/** Whether the cart side panel is open. UI state only: not persisted (see app/store.ts). */
export const cartPanelSlice = createSlice({
  name: 'cartPanel',
  initialState: { isOpen: false },
  reducers: {
    openCart(state) {
      state.isOpen = true;
    },
    closeCart(state) {
      state.isOpen = false;
    },
  },
  selectors: {
    selectIsCartOpen: (state) => state.isOpen,
  },
});

export const { openCart, closeCart } = cartPanelSlice.actions;
export const { selectIsCartOpen } = cartPanelSlice.selectors;

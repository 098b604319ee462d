import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { loggedIn, logout } from '../features/account/authSlice';

/** Spec section 3: a cart line. `price` is in dollars, as the API gives it; `product` is the product id. */
export interface CartItem {
  product: string;
  name: string;
  image: string;
  price: number;
  countInStock: number;
  qty: number;
}

/** Spec section 3: kept locally as shippingAddress. */
export interface ShippingAddress {
  address: string;
  city: string;
  postalCode: string;
  country: string;
}

/** Spec sections 3 and 4: paypal (default) or gift. */
export type PaymentMethod = 'paypal' | 'gift';

export interface CartState {
  cartItems: CartItem[];
  shippingAddress: ShippingAddress | null;
  paymentMethod: PaymentMethod;
}

export const initialCartState: CartState = { cartItems: [], shippingAddress: null, paymentMethod: 'paypal' };

/** Spec section 5: a quantity is a whole number from 1 up to the stock. */
export function clampQty(qty: number, countInStock: number): number {
  const whole = Number.isFinite(qty) ? Math.trunc(qty) : 1;
  return Math.min(Math.max(whole, 1), Math.max(countInStock, 1));
}

export const cartSlice = createSlice({
  name: 'cart',
  initialState: initialCartState,
  reducers: {
    /**
     * Spec section 4: adding replaces the existing line of the same product, otherwise appends.
     * An item with no stock cannot be bought, so it is not added.
     */
    addToCart(state, action: PayloadAction<CartItem>) {
      const item = action.payload;
      if (item.countInStock < 1) return;
      const line = { ...item, qty: clampQty(item.qty, item.countInStock) };
      const index = state.cartItems.findIndex((i) => i.product === item.product);
      if (index >= 0) state.cartItems[index] = line;
      else state.cartItems.push(line);
    },
    updateQty(state, action: PayloadAction<{ product: string; qty: number }>) {
      const line = state.cartItems.find((i) => i.product === action.payload.product);
      if (line) line.qty = clampQty(action.payload.qty, line.countInStock);
    },
    /** Spec section 4: remove deletes a line by product. */
    removeFromCart(state, action: PayloadAction<string>) {
      state.cartItems = state.cartItems.filter((i) => i.product !== action.payload);
    },
    clearCart(state) {
      state.cartItems = [];
    },
    saveShippingAddress(state, action: PayloadAction<ShippingAddress>) {
      state.shippingAddress = action.payload;
    },
    resetShippingAddress(state) {
      state.shippingAddress = null;
    },
    savePaymentMethod(state, action: PayloadAction<PaymentMethod>) {
      state.paymentMethod = action.payload;
    },
  },
  extraReducers: (builder) => {
    // Issue 30: the address and the payment method are the signed-in person's. Whoever uses the
    // browser next (a shared computer) must not find them after Sign Out or a session the server
    // ended, nor should a new login start from another person's: the checkout fills in the account's
    // own (its last order's, ShippingStep). The items stay, as a visitor's cart does (spec section 3).
    builder.addMatcher(isAnyOf(logout, loggedIn), (state) => {
      state.shippingAddress = null;
      state.paymentMethod = initialCartState.paymentMethod;
    });
  },
  selectors: {
    selectCartItems: (state) => state.cartItems,
    /** Total quantity, shown on the header badge. */
    selectCartCount: (state) => state.cartItems.reduce((sum, i) => sum + i.qty, 0),
  },
});

export const {
  addToCart,
  updateQty,
  removeFromCart,
  clearCart,
  saveShippingAddress,
  resetShippingAddress,
  savePaymentMethod,
} = cartSlice.actions;

export const { selectCartItems, selectCartCount } = cartSlice.selectors;

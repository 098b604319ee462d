import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { loggedIn, logout } from '../features/account/authSlice';

/**
 * Spec section 3: a cart line. `price` is in dollars, as the API gives it; `product` is the product id.
 * Issue 31: `variant` is which of the product's variants (its `_id`) and `variantTitle` its option values
 * (`Complete in box / PAL`); `price` and `countInStock` are that variant's. A line without `variant` (a
 * product without options, or a cart stored before variants) is the product's default variant, and is
 * ordered without naming one.
 */
export interface CartItem {
  product: string;
  variant?: string;
  variantTitle?: string;
  name: string;
  image: string;
  price: number;
  countInStock: number;
  qty: number;
}

/** What tells one cart line from another: the product and its variant (issue 31). */
export type CartLineKey = Pick<CartItem, 'product' | 'variant'>;

/** Whether `line` is the line of `key`; a missing variant is the product's default one (`defaultVariant`, when known). */
function isLine(line: CartLineKey, key: CartLineKey, defaultVariant?: string): boolean {
  return (
    line.product === key.product &&
    (line.variant ?? defaultVariant ?? null) === (key.variant ?? defaultVariant ?? null)
  );
}

/** A cart line's React key and identity as text. */
export const cartLineKey = (line: CartLineKey) => `${line.product}:${line.variant ?? ''}`;

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
  /**
   * Issue 32: the discount code applied at checkout (upper-case, as the server's check answered it),
   * sent with the order; absent in a cart stored before codes, and while none is applied.
   */
  discountCode?: string;
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
     * Spec section 4: adding replaces the existing line of the same product (issue 31: and variant),
     * otherwise appends. An item with no stock cannot be bought, so it is not added. `defaultVariant`,
     * the product's default variant's id when the adder knows it, makes a line stored without a variant
     * (before issue 31) the same line as that variant's.
     */
    addToCart: {
      reducer(state, action: PayloadAction<CartItem, string, { defaultVariant?: string }>) {
        const item = action.payload;
        if (item.countInStock < 1) return;
        const line = { ...item, qty: clampQty(item.qty, item.countInStock) };
        const index = state.cartItems.findIndex((i) => isLine(i, item, action.meta.defaultVariant));
        if (index >= 0) state.cartItems[index] = line;
        else state.cartItems.push(line);
      },
      prepare: (item: CartItem, defaultVariant?: string) => ({ payload: item, meta: { defaultVariant } }),
    },
    /** The quantity of the line of `product` and `variant` (left out: the line without one). */
    updateQty(state, action: PayloadAction<CartLineKey & { qty: number }>) {
      const line = state.cartItems.find((i) => isLine(i, action.payload));
      if (line) line.qty = clampQty(action.payload.qty, line.countInStock);
    },
    /** Spec section 4: remove deletes a line by product (issue 31: and variant; a bare id, the line without one). */
    removeFromCart(state, action: PayloadAction<CartLineKey | string>) {
      const key = typeof action.payload === 'string' ? { product: action.payload } : action.payload;
      state.cartItems = state.cartItems.filter((i) => !isLine(i, key));
    },
    /** After a paid order: its code went with it (issue 32). */
    clearCart(state) {
      state.cartItems = [];
      delete state.discountCode;
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
    saveDiscountCode(state, action: PayloadAction<string>) {
      state.discountCode = action.payload;
    },
    removeDiscountCode(state) {
      delete state.discountCode;
    },
  },
  extraReducers: (builder) => {
    // Issue 30: the address and the payment method are the signed-in person's. Whoever uses the
    // browser next (a shared computer) must not find them after Sign Out or a session the server
    // ended, nor should a new login start from another person's: the checkout fills in the account's
    // own (its last order's, ShippingStep). The items stay, as a visitor's cart does (spec section 3).
    // A discount code (issue 32) may be one person's (a per-customer code, a newsletter's): it goes too.
    builder.addMatcher(isAnyOf(logout, loggedIn), (state) => {
      state.shippingAddress = null;
      state.paymentMethod = initialCartState.paymentMethod;
      delete state.discountCode;
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
  saveDiscountCode,
  removeDiscountCode,
} = cartSlice.actions;

export const { selectCartItems, selectCartCount } = cartSlice.selectors;

import type { UnknownAction } from 'redux';
import { createAction, isAnyOf } from './actions';
import { loggedIn, logout } from '../features/account/authSlice';

// A plain reducer, not createSlice: that needs immer, 4 kB gzipped of the first download (issue 10).
// Every case returns new objects for what it changes, and the same state when it changes nothing (as
// immer did), so nothing that reads the cart renders again and nothing is written to storage.

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
  /**
   * Issue 34, a logged-in shopper's lines as the server answered them (app/cartSync.ts): the price when
   * the line was first added, whether it differs from `price` now, and whether fewer than `qty` are in
   * stock. Absent on a visitor's lines and on a line changed since the server's last answer.
   */
  addedPrice?: number;
  priceChanged?: boolean;
  stockShort?: boolean;
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

/**
 * Spec section 4: adding replaces the existing line of the same product (issue 31: and variant),
 * otherwise appends. An item with no stock cannot be bought, so it is not added. `defaultVariant`,
 * the product's default variant's id when the adder knows it, makes a line stored without a variant
 * (before issue 31) the same line as that variant's.
 */
export const addToCart = createAction('cart/addToCart', (item: CartItem, defaultVariant?: string) => ({
  payload: item,
  meta: { defaultVariant },
}));

/** The quantity of the line of `product` and `variant` (left out: the line without one). */
export const updateQty = createAction<CartLineKey & { qty: number }>('cart/updateQty');

/** Spec section 4: remove deletes a line by product (issue 31: and variant; a bare id, the line without one). */
export const removeFromCart = createAction<CartLineKey | string>('cart/removeFromCart');

/**
 * Issue 34: the lines of a logged-in shopper's cart as the server answered them (after the merge at
 * login, a save, or a reload): they replace the local ones, with the server's names, prices and stock.
 */
export const cartFromServer = createAction<CartItem[]>('cart/cartFromServer');

/** After a paid order: its code went with it (issue 32). */
export const clearCart = createAction('cart/clearCart');

export const saveShippingAddress = createAction<ShippingAddress>('cart/saveShippingAddress');
export const resetShippingAddress = createAction('cart/resetShippingAddress');
export const savePaymentMethod = createAction<PaymentMethod>('cart/savePaymentMethod');
export const saveDiscountCode = createAction<string>('cart/saveDiscountCode');
export const removeDiscountCode = createAction('cart/removeDiscountCode');

// Issue 30: the address and the payment method are the signed-in person's. Whoever uses the
// browser next (a shared computer) must not find them after Sign Out or a session the server
// ended, nor should a new login start from another person's: the checkout fills in the account's
// own (its last order's, ShippingStep). The items stay here, as a visitor's cart does (spec section 3);
// a logged-in shopper's leave the browser at logout and stay in the account (issue 34,
// app/cartSyncLoader.ts).
// A discount code (issue 32) may be one person's (a per-customer code, a newsletter's): it goes too.
const startsAnotherSession = isAnyOf(logout, loggedIn);

/** `state` with `changes`; `state` itself when they change nothing. To remove the code: withoutDiscountCode. */
function update(state: CartState, changes: Partial<CartState>): CartState {
  const same = (Object.keys(changes) as (keyof typeof changes)[]).every((key) => state[key] === changes[key]);
  return same ? state : { ...state, ...changes };
}

/** `state` without a discount code: the key goes (the cart is stored as JSON); `state` itself when it has none. */
function withoutDiscountCode(state: CartState): CartState {
  if (!('discountCode' in state)) return state;
  const next = { ...state };
  delete next.discountCode;
  return next;
}

/** `lines` with the one at `index` replaced by `line`, in a new list. */
function replaceLine(lines: CartItem[], index: number, line: CartItem): CartItem[] {
  return lines.map((other, i) => (i === index ? line : other));
}

function reducer(state: CartState = initialCartState, action: UnknownAction): CartState {
  if (addToCart.match(action)) {
    const item = action.payload;
    if (item.countInStock < 1) return state;
    const line = { ...item, qty: clampQty(item.qty, item.countInStock) };
    const index = state.cartItems.findIndex((i) => isLine(i, item, action.meta.defaultVariant));
    const cartItems = index >= 0 ? replaceLine(state.cartItems, index, line) : [...state.cartItems, line];
    return { ...state, cartItems };
  }
  if (updateQty.match(action)) {
    const index = state.cartItems.findIndex((i) => isLine(i, action.payload));
    const line = state.cartItems[index];
    if (line === undefined) return state;
    const qty = clampQty(action.payload.qty, line.countInStock);
    if (qty === line.qty) return state;
    return { ...state, cartItems: replaceLine(state.cartItems, index, { ...line, qty }) };
  }
  if (removeFromCart.match(action)) {
    const key = typeof action.payload === 'string' ? { product: action.payload } : action.payload;
    return { ...state, cartItems: state.cartItems.filter((i) => !isLine(i, key)) };
  }
  if (cartFromServer.match(action)) return { ...state, cartItems: action.payload };
  if (clearCart.match(action)) return withoutDiscountCode({ ...state, cartItems: [] });
  if (saveShippingAddress.match(action)) return update(state, { shippingAddress: action.payload });
  if (resetShippingAddress.match(action)) return update(state, { shippingAddress: null });
  if (savePaymentMethod.match(action)) return update(state, { paymentMethod: action.payload });
  if (saveDiscountCode.match(action)) return update(state, { discountCode: action.payload });
  if (removeDiscountCode.match(action)) return withoutDiscountCode(state);
  if (startsAnotherSession(action)) {
    return withoutDiscountCode(
      update(state, { shippingAddress: null, paymentMethod: initialCartState.paymentMethod }),
    );
  }
  return state;
}

export const selectCartItems = (state: { cart: CartState }) => state.cart.cartItems;

/** Total quantity, shown on the header badge. */
export const selectCartCount = (state: { cart: CartState }) =>
  state.cart.cartItems.reduce((sum, i) => sum + i.qty, 0);

export const cartSlice = {
  name: 'cart',
  reducerPath: 'cart',
  reducer,
  actions: {
    addToCart,
    updateQty,
    removeFromCart,
    clearCart,
    cartFromServer,
    saveShippingAddress,
    resetShippingAddress,
    savePaymentMethod,
    saveDiscountCode,
    removeDiscountCode,
  },
  selectors: { selectCartItems, selectCartCount },
  getInitialState: () => initialCartState,
} as const;

import { z } from 'zod';
import { Id } from './common.js';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from './orders.js';

/**
 * Issue 34: the cart of a logged-in shopper, kept on the server (a visitor's stays in the browser).
 * Its lines are what an order may hold: at most MAX_CART_LINES, each 1 to MAX_LINE_QUANTITY.
 */
export const MAX_CART_LINES = MAX_ORDER_LINES;

/**
 * One line as the web cart keeps it (`product`, `variant`, `qty`); its other fields (name, price, ...)
 * may be sent and are ignored: the server answers its own. No variant (or null): the product's only
 * variant; a product sold in several versions (it has options) needs one named.
 */
export const CartLineInput = z.object({
  product: Id,
  variant: Id.nullish(),
  qty: z
    .number({ message: 'Quantity must be a number' })
    .int({ message: 'Quantity must be a whole number' })
    .min(1, { message: 'Quantity must be at least 1' })
    .max(MAX_LINE_QUANTITY, { message: `Quantity must be at most ${MAX_LINE_QUANTITY}` }),
});
export type CartLineInput = z.infer<typeof CartLineInput>;

/**
 * PUT /api/cart (the whole cart) and POST /api/cart/merge (the visitor's cart at login). Two lines of
 * the same product and variant are one, their quantities added (at most MAX_LINE_QUANTITY).
 */
export const CartBody = z.object({
  items: z
    .array(CartLineInput, { message: 'Send the cart as a list of items' })
    .max(MAX_CART_LINES, { message: `A cart holds at most ${MAX_CART_LINES} lines` }),
});
export type CartBody = z.infer<typeof CartBody>;

/**
 * One line of the account's cart, as the server prices it now (dollars, as the rest of the API).
 * `price` is what the product page shows (the sale price while a sale runs); `addedPrice` was that
 * price when the line was first added, so a client can say the price changed since (`priceChanged`).
 * `stockShort`: fewer than `qty` are in stock (`countInStock`).
 */
export const CartLine = z.object({
  product: z.string(),
  /** Always named: a line sent without one is the product's only variant. */
  variant: z.string(),
  /** The variant's option values (`Complete in box / PAL`); absent for a product without options. */
  variantTitle: z.string().optional(),
  qty: z.number().int(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  countInStock: z.number().int(),
  addedPrice: z.number(),
  priceChanged: z.boolean(),
  stockShort: z.boolean(),
});
export type CartLine = z.infer<typeof CartLine>;

/**
 * Why a line sent or kept is not in the cart: its product was removed (or never existed), its variant
 * is no longer sold (or is not the product's), no variant was named for a product sold in several
 * versions, or a merge would have taken the cart past MAX_CART_LINES.
 */
export const CART_DROP_REASONS = [
  'product_unavailable',
  'variant_unavailable',
  'variant_required',
  'cart_full',
] as const;
export const CartDropReason = z.enum(CART_DROP_REASONS);
export type CartDropReason = z.infer<typeof CartDropReason>;

export const CartDroppedLine = z.object({
  product: z.string(),
  variant: z.string().nullable(),
  reason: CartDropReason,
  /** For a person: `Zelda II (PAL) is no longer sold`. */
  message: z.string(),
});
export type CartDroppedLine = z.infer<typeof CartDroppedLine>;

/**
 * GET, PUT /api/cart and POST /api/cart/merge. `version` counts the writes to the cart (0: never
 * written, `updatedAt` null); the newer write wins, so a client that sees another version reloads.
 */
export const Cart = z.object({
  items: z.array(CartLine),
  dropped: z.array(CartDroppedLine),
  version: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type Cart = z.infer<typeof Cart>;

import { z } from 'zod';
import { Id } from './common.js';
import { Category } from './products.js';

/** Issue 34: a logged-in shopper's wishlist holds at most this many products. */
export const MAX_WISHLIST_ITEMS = 200;

/** PUT and DELETE /api/wishlist/:productId */
export const WishlistParams = z.object({ productId: Id });
export type WishlistParams = z.infer<typeof WishlistParams>;

/**
 * A product on the wishlist as the catalogue shows it now: `price` is its page's (the default variant's,
 * the sale price while a sale runs), `countInStock` what all its versions hold together (above 0: some
 * version can be bought).
 */
export const WishlistItem = z.object({
  product: z.string(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  countInStock: z.number().int(),
  category: Category,
  addedAt: z.string(),
});
export type WishlistItem = z.infer<typeof WishlistItem>;

/** Every wishlist answer (GET, PUT, DELETE): the whole list, newest first. */
export const Wishlist = z.object({ items: z.array(WishlistItem) });
export type Wishlist = z.infer<typeof Wishlist>;

import { MAX_WISHLIST_ITEMS, type Category, type Wishlist, toDollars } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type SaleBook, type Sales, priceUnder } from '../promotions/promotions.sales.js';
import { addWish, removeWish, wishState, wishedProducts } from './wishlist.repo.js';
import { lockUser } from '../users/users.lock.js';

/**
 * Issue 34: the products a logged-in shopper keeps for later. Every answer is the whole list, newest
 * first, priced as the catalogue shows it now. There is no route that names a user: each caller
 * reads and writes only their own list.
 */
export interface WishlistService {
  list(user: AuthUser): Promise<Wishlist>;
  /** Idempotent: `created` false when the product was on the list already (the list is unchanged). */
  add(user: AuthUser, productId: string): Promise<{ created: boolean; wishlist: Wishlist }>;
  /** Idempotent: removing a product that is not on the list changes nothing. */
  remove(user: AuthUser, productId: string): Promise<Wishlist>;
}

export const wishlistFull = () =>
  new AppError(
    409,
    `Your wishlist holds at most ${MAX_WISHLIST_ITEMS} products. Remove one to add another.`,
    'WISHLIST_FULL',
  );

export function createWishlistService({
  db,
  sales,
  publicUrl,
  clock = () => new Date(),
}: {
  db: Database;
  /** Scheduled sales (issue 32): an item costs what its product page shows. */
  sales: Pick<Sales, 'book'>;
  publicUrl: PublicUrlOf;
  clock?: () => Date;
}): WishlistService {
  async function listOf(userId: string, book: SaleBook, at: number): Promise<Wishlist> {
    const rows = await wishedProducts(db, userId);
    return {
      items: rows.flatMap((row) =>
        row.priceCents === null
          ? []
          : [
              {
                product: row.productId,
                name: row.name,
                image: row.image ? publicUrl(row.image) : '',
                price: toDollars(
                  priceUnder(
                    row.priceCents,
                    book.termsFor({ id: row.productId, category: row.category }, at),
                  ),
                ),
                countInStock: row.stock,
                category: row.category as Category,
                addedAt: row.addedAt.toISOString(),
              },
            ],
      ),
    };
  }

  /** The sales book is read before any transaction: on PGlite one holds the only connection. */
  const bookNow = async () => ({ book: await sales.book(), now: clock() });

  return {
    async list(user) {
      const { book, now } = await bookNow();
      return listOf(user.id, book, now.getTime());
    },

    async add(user, id) {
      const productId = id.toLowerCase();
      const { book, now } = await bookNow();
      const created = await db.transaction(async (tx) => {
        if (!(await lockUser(tx, user.id))) throw notAuthorized();
        const state = await wishState(tx, user.id, productId);
        if (!state.live) throw notFound('Product not found');
        if (state.present) return false;
        if (state.count >= MAX_WISHLIST_ITEMS) throw wishlistFull();
        await addWish(tx, user.id, productId, now);
        return true;
      });
      return { created, wishlist: await listOf(user.id, book, now.getTime()) };
    },

    async remove(user, id) {
      const { book, now } = await bookNow();
      await removeWish(db, user.id, id.toLowerCase());
      return listOf(user.id, book, now.getTime());
    },
  };
}

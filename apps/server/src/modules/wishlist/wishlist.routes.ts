import { Wishlist, WishlistParams } from '@pixel-vault/shared';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { WishlistService } from './wishlist.service.js';

/** Issue 34: the caller's own wishlist; every answer is the whole list, newest first. */
export async function wishlistRoutes(app: App, { wishlist }: { wishlist: WishlistService }) {
  app.get(
    '/api/wishlist',
    { schema: { response: { 200: Wishlist } }, config: { access: 'user' } },
    async (request) => wishlist.list(requireUser(request)),
  );

  /** 201 when the product was added, 200 when it was there already; 404 unknown or removed; 409 full. */
  app.put(
    '/api/wishlist/:productId',
    {
      schema: { params: WishlistParams, response: { 200: Wishlist, 201: Wishlist } },
      config: { access: 'user' },
    },
    async (request, reply) => {
      const { created, wishlist: list } = await wishlist.add(requireUser(request), request.params.productId);
      return reply.code(created ? 201 : 200).send(list);
    },
  );

  /** 200 with the list, whether or not the product was on it. */
  app.delete(
    '/api/wishlist/:productId',
    { schema: { params: WishlistParams, response: { 200: Wishlist } }, config: { access: 'user' } },
    async (request) => wishlist.remove(requireUser(request), request.params.productId),
  );
}

import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { wishlistRoutes } from './wishlist.routes.js';
import { type WishlistService, createWishlistService } from './wishlist.service.js';

/** The wishlist module (issue 34) as the app wires it: its service and its routes. */
export interface WishlistModule {
  service: WishlistService;
  register(app: App): Promise<void>;
}

export function createWishlistModule(options: {
  db: Database;
  sales: Pick<Sales, 'book'>;
  publicUrl: PublicUrlOf;
  clock?: (() => Date) | undefined;
}): WishlistModule {
  const service = createWishlistService({
    db: options.db,
    sales: options.sales,
    publicUrl: options.publicUrl,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    service,
    async register(app) {
      await app.register(wishlistRoutes, { wishlist: service });
    },
  };
}

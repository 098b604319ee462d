import type { Product } from '@pixel-vault/shared';
import { api } from '../../app/api';

/**
 * The cart's own read of a product: spec section 4 says an item is refetched from the server for the
 * current price and stock before it is added, so this is never answered from a cache.
 */
export const cartApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCartProduct: build.query<Product, string>({
      query: (id) => `api/products/${encodeURIComponent(id)}`,
      keepUnusedDataFor: 0,
    }),
  }),
});

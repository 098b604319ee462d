import type { Wishlist } from '@pixel-vault/shared';
import { api } from '../../app/api';
import { wishlistLoaded } from '../../app/wishlistSlice';

/**
 * Issue 34, docs/cart-and-wishlist.md: the logged-in shopper's wishlist. Every answer is the whole list
 * (newest first), which becomes the cached list and the hearts' state at once.
 */
export const wishlistApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWishlist: build.query<Wishlist, void>({
      query: () => 'api/wishlist',
      providesTags: [{ type: 'Wishlist', id: 'LIST' }],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(wishlistLoaded(data.items.map((item) => item.product)));
      },
    }),
    setWishlisted: build.mutation<Wishlist, { productId: string; on: boolean }>({
      query: ({ productId, on }) => ({
        url: `api/wishlist/${encodeURIComponent(productId)}`,
        method: on ? 'PUT' : 'DELETE',
      }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(wishlistApi.util.upsertQueryData('getWishlist', undefined, data));
        dispatch(wishlistLoaded(data.items.map((item) => item.product)));
      },
    }),
  }),
});

export const { useGetWishlistQuery, useSetWishlistedMutation } = wishlistApi;

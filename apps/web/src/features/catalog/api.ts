import type { Category, Product, ProductListResponse } from '@pixel-vault/shared';
import { api } from '../../app/api';

export interface ProductListArgs {
  category?: Category;
  /** Name search, case-insensitive, done by the server. */
  q?: string;
  page?: number;
  limit?: number;
}

/**
 * Query string without empty values, so `{ q: '' }` and `{}` share one cache entry. It always names
 * a page: without one the server answers the spec's plain array of every product (docs/decisions/003),
 * and this app shows pages.
 */
function listParams(args: ProductListArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (args.category) params.category = args.category;
  const q = args.q?.trim();
  if (q) params.q = q;
  params.page = args.page && args.page > 1 ? args.page : 1;
  if (args.limit) params.limit = args.limit;
  return params;
}

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<ProductListResponse, ProductListArgs | void>({
      query: (args) => ({ url: 'api/products', params: listParams(args ?? {}) }),
      providesTags: (result) => [
        { type: 'Product' as const, id: 'LIST' },
        ...(result?.products ?? []).map((p) => ({ type: 'Product' as const, id: p._id })),
      ],
    }),
    getProduct: build.query<Product, string>({
      query: (id) => `api/products/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Product', id }],
    }),
  }),
});

export const { useGetProductsQuery, useGetProductQuery } = catalogApi;

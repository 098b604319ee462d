import type { Category, Product, ProductListResponse } from '@pixel-vault/shared';
import { api } from '../../app/api';

export interface ProductListArgs {
  category?: Category;
  /** Name search, case-insensitive, done by the server. */
  q?: string;
  page?: number;
  limit?: number;
}

/** Query string without empty values, so `{ q: '' }` and `{}` share one cache entry. */
function listParams(args: ProductListArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (args.category) params.category = args.category;
  const q = args.q?.trim();
  if (q) params.q = q;
  if (args.page && args.page > 1) params.page = args.page;
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

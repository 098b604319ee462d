import type { Category, Product, ProductListResponse } from '@pixel-vault/shared';
import { api, listParams, type ListArgs } from '../../app/api';

export interface ProductListArgs extends ListArgs {
  category?: Category;
}

function productListParams({ category, ...args }: ProductListArgs): Record<string, string | number> {
  return { ...(category ? { category } : {}), ...listParams(args) };
}

export const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<ProductListResponse, ProductListArgs | void>({
      query: (args) => ({ url: 'api/products', params: productListParams(args ?? {}) }),
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

import type { Category, Product, ProductListResponse, ProductSort } from '@pixel-vault/shared';
import { api, listParams, type ListArgs } from '../../app/api';

/** Issue 33: the filters a list and its facets take (undefined or empty: not filtered). */
export interface ProductFilters {
  category?: Category | undefined;
  q?: string | undefined;
  platform?: string | undefined;
  condition?: string | undefined;
  inStock?: boolean | undefined;
  /** Dollars. */
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

export interface ProductListArgs extends ListArgs, Omit<ProductFilters, 'q'> {
  sort?: ProductSort | undefined;
}

/**
 * The filters as query parameters, in one fixed order and without empty values, so the same list is
 * always the same URL (one cache entry here, one on the server, one rendered page).
 */
export function filterParams(filters: ProductFilters): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (filters.category) params.category = filters.category;
  const q = filters.q?.trim();
  if (q) params.q = q;
  if (filters.platform) params.platform = filters.platform;
  if (filters.condition) params.condition = filters.condition;
  if (filters.inStock) params.inStock = 'true';
  if (filters.minPrice !== undefined) params.minPrice = filters.minPrice;
  if (filters.maxPrice !== undefined) params.maxPrice = filters.maxPrice;
  return params;
}

function productListParams({
  sort,
  q,
  page,
  limit,
  ...filters
}: ProductListArgs): Record<string, string | number> {
  const params = filterParams({ ...filters, q });
  if (sort) params.sort = sort;
  return { ...params, ...listParams({ page, limit }) };
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

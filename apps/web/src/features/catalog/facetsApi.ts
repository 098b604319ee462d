import type { ProductFacets } from '@pixel-vault/shared';
import { api } from '../../app/api';
import { filterParams, type ProductFilters } from './api';

/**
 * Issue 33: how many products each filter value would give, the other filters kept. Apart from the
 * catalogue's calls in api.ts, which the home page loads first: only the list pages that show filters
 * (and the server's render of them) load this.
 */
export const facetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProductFacets: build.query<ProductFacets, ProductFilters>({
      query: (filters) => ({ url: 'api/products/facets', params: filterParams(filters) }),
      providesTags: [{ type: 'Product' as const, id: 'LIST' }],
    }),
  }),
});

export const { useGetProductFacetsQuery } = facetsApi;

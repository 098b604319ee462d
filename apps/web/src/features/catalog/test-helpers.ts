import type { ProductFacets, ProductListResponse } from '@pixel-vault/shared';
import { makeProductList } from '../../test/factories';
import { jsonResponse, stubFetch } from '../../test/fetch';

/** Facets with nothing in them, or what a test gives. */
export function makeFacets(overrides: Partial<ProductFacets> = {}): ProductFacets {
  return {
    total: 0,
    categories: [],
    platforms: [],
    conditions: [],
    price: null,
    inStock: 0,
    ...overrides,
  };
}

/**
 * The catalogue's API as a list page calls it (issue 33): `list` answers /api/products and `facets`
 * /api/products/facets, each with the call's query parameters.
 */
export function stubCatalogue({
  list = () => makeProductList([]),
  facets = () => makeFacets(),
}: {
  list?: (params: URLSearchParams) => ProductListResponse | Response;
  facets?: (params: URLSearchParams) => ProductFacets | Response;
}) {
  return stubFetch((_request, url) => {
    const answer =
      url.pathname === '/api/products/facets' ? facets(url.searchParams) : list(url.searchParams);
    return answer instanceof Response ? answer : jsonResponse(answer);
  });
}

/** The list calls among `urls` (the facets' left out). */
export const listCalls = (urls: string[]) => urls.filter((url) => url.startsWith('/api/products?'));

import type { ProductSuggestion } from '@pixel-vault/shared';
import { api } from '../../app/api';

/**
 * The header's search box (issue 33): at most 8 products for a text of 2 characters or more, typos
 * forgiven.
 */
export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchSuggestions: build.query<ProductSuggestion[], string>({
      query: (q) => ({ url: 'api/products/suggest', params: { q: q.trim() } }),
      // Typing back over a text (a deleted letter) finds its answer still here.
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSearchSuggestionsQuery } = searchApi;

import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Category } from '@pixel-vault/shared';
import { listingSearch, readListing, type Listing } from './listing';

export interface ListingControl {
  listing: Listing;
  /** A category page's (its path); undefined on the search page, where the category is a filter. */
  category: Category | undefined;
  /** A filter or the sort changed: from the first page, as a new history entry (Back undoes it). */
  change: (fields: Partial<Listing>) => void;
  /** Another page of the same list, as a new history entry. */
  goToPage: (page: number) => void;
  /** The category page's search box, while typing: replaces the entry (issue 33 keeps its behaviour). */
  search: (q: string) => void;
}

/** The list a page shows, read from and written to its URL (issue 33). */
export function useListing(category?: Category): ListingControl {
  const [params, setParams] = useSearchParams();
  const listing = useMemo(() => readListing(params, category), [params, category]);

  const go = useCallback(
    (next: Listing, replace: boolean) =>
      setParams(listingSearch(next, { categoryInPath: category !== undefined }), { replace }),
    [setParams, category],
  );
  const change = useCallback(
    (fields: Partial<Listing>) => go({ ...listing, ...fields, page: 1 }, false),
    [go, listing],
  );
  const goToPage = useCallback((page: number) => go({ ...listing, page }, false), [go, listing]);
  const search = useCallback((q: string) => go({ ...listing, q: q.trim(), page: 1 }, true), [go, listing]);
  return { listing, category, change, goToPage, search };
}

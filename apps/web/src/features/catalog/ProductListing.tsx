import { useCallback, useRef, type ReactNode } from 'react';
import { HOME_FAVOURITES } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Pager } from '../../ui/Pager';
import { useGetProductsQuery } from './api';
import { useGetProductFacetsQuery } from './facetsApi';
import { CardRating } from './CardRating';
import { FilterChips } from './FilterChips';
import { FilterPanel } from './FilterPanel';
import { FiltersDrawer } from './FiltersDrawer';
import {
  asListed,
  filterChips,
  filtersOf,
  listQuery,
  productCount,
  scopeFilters,
  withoutFilters,
} from './listing';
import { PRODUCT_GRID_CLASS, ProductCard, ProductGridSkeleton } from './ProductCard';
import { SortSelect } from './SortSelect';
import type { ListingControl } from './useListing';

export interface ProductListingProps {
  control: ListingControl;
  /** The grid's accessible name ("Retro Games products", "Search results"). */
  label: string;
  /** What is said when nothing matches; `filtered`: filters are chosen (removing one may help). */
  empty: (filtered: boolean) => ReactNode;
}

/**
 * Issue 33: a list of products with its sort menu and filters, its state in the URL: the category
 * pages and the search page. The filters are a side panel from 1024 px, a drawer below; the chosen
 * ones are chips above the grid. While the next list loads the previous one stays, dimmed.
 */
export function ProductListing({ control, label, empty }: ProductListingProps) {
  const { listing, change, goToPage } = control;
  const categoryPage = control.category !== undefined;
  const countRef = useRef<HTMLParagraphElement>(null);

  // `data` keeps the previous answer while the next one loads, so nothing flashes.
  const { data, error, isFetching } = useGetProductsQuery(listQuery(listing));
  const facets = useGetProductFacetsQuery(filtersOf(listing));
  const scope = useGetProductFacetsQuery(scopeFilters(listing, categoryPage));

  const chips = filterChips(listing, { categoryPage });
  const clearAll = () => change(withoutFilters(listing, { categoryPage }));
  const focusCount = useCallback(() => countRef.current?.focus(), []);

  const panel = (
    <FilterPanel
      listing={listing}
      categoryPage={categoryPage}
      facets={facets.data}
      scope={scope.data}
      // The list's own error says it already.
      error={error ? undefined : facets.error}
      onChange={change}
    />
  );

  function onPage(next: number) {
    goToPage(next);
    window.scrollTo({ top: 0 });
  }

  return (
    <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
      <aside aria-label="Filters" className="hidden lg:block">
        {panel}
      </aside>
      <div className="min-w-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {/* The count after each change, said politely (a screen reader hears what a filter did). */}
          <p
            ref={countRef}
            tabIndex={-1}
            role="status"
            className="text-zinc-300 outline-none focus-visible:outline-2"
          >
            {data ? `${productCount(data.total)} found` : ''}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <FiltersDrawer active={chips.length} total={facets.data?.total ?? data?.total} onClear={clearAll}>
              {panel}
            </FiltersDrawer>
            <SortSelect listing={listing} onChange={(sort) => change({ sort })} />
          </div>
        </div>
        <FilterChips
          chips={chips}
          onRemove={(chip) => change(chip.without)}
          onClear={clearAll}
          focusAfterAll={focusCount}
        />
        {error ? (
          <ErrorLine message={errorMessage(error)} />
        ) : !data ? (
          <ProductGridSkeleton count={HOME_FAVOURITES} />
        ) : data.products.length === 0 ? (
          empty(chips.length > 0)
        ) : (
          <>
            <ul
              aria-busy={isFetching}
              aria-label={label}
              className={`${PRODUCT_GRID_CLASS} transition-opacity ${isFetching ? 'opacity-60' : ''}`}
            >
              {data.products.map((product, index) => (
                <li key={product._id}>
                  <ProductCard
                    product={asListed(product, listing)}
                    priority={index === 0}
                    headingLevel={2}
                    rating={<CardRating product={product} />}
                  />
                </li>
              ))}
            </ul>
            <Pager
              page={listing.page}
              shownPage={data.page}
              totalPage={data.totalPage}
              label="Pages"
              previousText="Prev"
              busy={isFetching}
              onPage={onPage}
              className="mt-10"
            />
          </>
        )}
      </div>
    </div>
  );
}

import { useCallback, useEffect, useId, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { HOME_FAVOURITES, categoryTitle, isCategory, type Category } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Pager } from '../../ui/Pager';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetProductsQuery } from './api';
import { CardRating } from './CardRating';
import { PRODUCT_GRID_CLASS, ProductCard, ProductGridSkeleton } from './ProductCard';

export const CATEGORY_PAGE_SIZE = 24;
export const SEARCH_DEBOUNCE_MS = 250;

/** The category page's call for a search text and page; the server's render makes the same one. */
export function categoryQuery(category: Category, q: string, page: number) {
  return { category, q, page, limit: CATEGORY_PAGE_SIZE };
}

/** The page number in `?page=` (1 when absent or not a whole number above 0). */
export function pageParam(value: string | null): number {
  return Math.max(1, Math.trunc(Number(value)) || 1);
}

/** /shop/:category — an unknown category goes to / (spec section 2: any other path). */
export function CategoryRoute() {
  const { category = '' } = useParams();
  if (!isCategory(category)) return <Navigate to="/" replace />;
  return <CategoryPage key={category} category={category} />;
}

/**
 * Category listing (spec section 2). Search and page live in the URL (?q=&page=), so a refresh or the
 * back button keeps them; the search is done by the server, debounced while typing.
 */
export function CategoryPage({ category }: { category: Category }) {
  const heading = categoryTitle(category);
  useDocumentTitle(heading);
  const searchId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const page = pageParam(searchParams.get('page'));
  const [text, setText] = useState(q);
  // The URL can change under the box (back button, the header link): show what is searched.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== text.trim()) setText(q);
  }

  /** Searches for `value` (trimmed), from the first page. */
  const search = useCallback(
    (value: string) => {
      const wanted = value.trim();
      setSearchParams(wanted ? { q: wanted } : {}, { replace: true });
    },
    [setSearchParams],
  );

  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => search(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, search]);

  // `data` keeps the previous result while the next one loads, so the grid does not flash.
  const { data, error, isFetching } = useGetProductsQuery(categoryQuery(category, q, page));

  function goToPage(next: number) {
    const params: Record<string, string> = {};
    if (q) params.q = q;
    if (next > 1) params.page = String(next);
    setSearchParams(params);
    window.scrollTo({ top: 0 });
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="pixel-heading text-xl text-lime-300 sm:text-3xl">{heading}</h1>
        {/* A real form (issue 29): before the app starts, Enter asks the server for the searched page. */}
        <form
          role="search"
          action={`/shop/${category}`}
          method="get"
          className="w-full sm:w-80"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() !== q) search(text);
          }}
        >
          <label htmlFor={searchId} className="sr-only">
            Search {heading}
          </label>
          <input
            id={searchId}
            name="q"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={`Search ${heading}`}
            autoComplete="off"
            maxLength={100}
            className="field w-full"
          />
        </form>
      </div>

      {error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !data ? (
        <ProductGridSkeleton count={HOME_FAVOURITES} />
      ) : data.products.length === 0 ? (
        <p className="py-12 text-center text-lg text-zinc-300">No products found</p>
      ) : (
        <>
          <ul
            aria-busy={isFetching}
            aria-label={`${heading} products`}
            className={`${PRODUCT_GRID_CLASS} transition-opacity ${isFetching ? 'opacity-60' : ''}`}
          >
            {data.products.map((product, index) => (
              <li key={product._id}>
                <ProductCard
                  product={product}
                  priority={index === 0}
                  headingLevel={2}
                  rating={<CardRating product={product} />}
                />
              </li>
            ))}
          </ul>
          <Pager
            page={page}
            shownPage={data.page}
            totalPage={data.totalPage}
            label="Pages"
            previousText="Prev"
            busy={isFetching}
            onPage={goToPage}
            className="mt-10"
          />
        </>
      )}
    </section>
  );
}

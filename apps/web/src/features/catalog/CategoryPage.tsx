import { useEffect, useId, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { categoryTitle, isCategory, type Category } from '@pixel-vault/shared';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ProductListing } from './ProductListing';
import { useListing } from './useListing';
import { listingSearch } from './listing';

export const SEARCH_DEBOUNCE_MS = 250;

/** /shop/:category — an unknown category goes to / (spec section 2: any other path). */
export function CategoryRoute() {
  const { category = '' } = useParams();
  if (!isCategory(category)) return <Navigate to="/" replace />;
  return <CategoryPage key={category} category={category} />;
}

/**
 * Category listing (spec section 2). Search, filters, sort and page live in the URL (issue 33), so a
 * refresh or the back button keeps them; the search is done by the server, debounced while typing.
 */
export function CategoryPage({ category }: { category: Category }) {
  const heading = categoryTitle(category);
  useDocumentTitle(heading);
  const searchId = useId();
  const control = useListing(category);
  const { q } = control.listing;
  const search = control.search;
  const [text, setText] = useState(q);
  // What the form sends besides the text before the app starts: the filters and sort chosen, as the
  // app's own search keeps them (a new text starts at page 1).
  const kept = [
    ...new URLSearchParams(listingSearch({ ...control.listing, q: '', page: 1 }, { categoryInPath: true })),
  ];
  // The URL can change under the box (back button, the header link): show what is searched.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== text.trim()) setText(q);
  }

  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => search(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, search]);

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
          {kept.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
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

      <ProductListing
        control={control}
        label={`${heading} products`}
        empty={(filtered) => (
          <div className="py-12 text-center">
            <p className="text-lg text-zinc-300">No products found</p>
            {filtered && (
              <p className="mt-2 text-zinc-400">Try removing a filter above, or clear them all.</p>
            )}
          </div>
        )}
      />
    </section>
  );
}

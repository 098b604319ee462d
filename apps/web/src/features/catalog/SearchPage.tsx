import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CATEGORIES, SEARCH_MAX, categoryTitle } from '@pixel-vault/shared';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ProductListing } from './ProductListing';
import { useListing } from './useListing';

/** The search page's heading and tab title for a search text. */
export function searchTitle(q: string): string {
  return q ? `Results for “${q}”` : 'Search';
}

/**
 * Issue 33: /search?q= — the whole shop searched (typo-tolerant, on the server), with the category as
 * one more filter beside the platform, condition, price and stock, and the sort; all in the URL. An
 * empty search asks for one.
 */
export function SearchPage() {
  const control = useListing();
  const { q } = control.listing;
  const title = searchTitle(q);
  useDocumentTitle(title);
  const navigate = useNavigate();
  const inputId = useId();
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="pixel-heading text-xl break-words text-lime-300 sm:text-3xl">{title}</h1>
        {/* A real form: before the app starts, Enter asks the server for the searched page. */}
        <form
          role="search"
          aria-label="Search all products"
          action="/search"
          method="get"
          className="w-full sm:w-80"
          onSubmit={(event) => {
            event.preventDefault();
            const wanted = text.trim();
            // A new search starts afresh, as the header's box does.
            navigate(wanted ? `/search?${new URLSearchParams({ q: wanted })}` : '/search');
          }}
        >
          <label htmlFor={inputId} className="sr-only">
            Search all products
          </label>
          <input
            id={inputId}
            name="q"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search all products"
            autoComplete="off"
            maxLength={SEARCH_MAX}
            className="field w-full"
          />
        </form>
      </div>

      {q === '' ? (
        <div className="py-12 text-center">
          <p className="text-lg text-zinc-200">What are you looking for?</p>
          <p className="mt-2 text-zinc-400">
            Type a game, a console or a puzzle in the search box, or browse a category.
          </p>
          <CategoryLinks />
        </div>
      ) : (
        <ProductListing
          control={control}
          label="Search results"
          empty={(filtered) => (
            <div className="py-12 text-center">
              <p className="text-lg text-zinc-200">No products match “{q}”</p>
              <p className="mt-2 text-zinc-400">
                {filtered
                  ? 'Try removing a filter above, or clear them all.'
                  : 'Check the spelling, try a shorter or more general word, or browse a category.'}
              </p>
              {!filtered && <CategoryLinks />}
            </div>
          )}
        />
      )}
    </section>
  );
}

function CategoryLinks() {
  return (
    <nav aria-label="Categories" className="mt-6">
      <ul className="flex flex-wrap justify-center gap-3">
        {CATEGORIES.map((category) => (
          <li key={category}>
            <Link to={`/shop/${category}`} className="btn btn-secondary px-4 py-2">
              {categoryTitle(category)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default SearchPage;

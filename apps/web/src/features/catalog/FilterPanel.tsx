import { useId, useState } from 'react';
import { categoryTitle, isCategory, type FacetCount, type ProductFacets } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { facetValues, productCount, type Listing } from './listing';
import { PriceFilter } from './PriceFilter';

export interface FilterPanelProps {
  listing: Listing;
  /** A category page's category is its own: no category filter there. */
  categoryPage: boolean;
  /** The counts of the current filters (the previous ones while the next load). */
  facets: ProductFacets | undefined;
  /** The values of the page's scope (its category, its search), so one a filter leaves out still shows. */
  scope: ProductFacets | undefined;
  error: unknown;
  onChange: (fields: Partial<Listing>) => void;
}

/**
 * One facet's values as toggle buttons, each with how many products the list would hold with it (the
 * other filters kept). A value is pressed again to drop it. A value that would give nothing stays in
 * place but is disabled, unless it is the chosen one.
 */
function FacetGroup({
  legend,
  values,
  chosen,
  label = (value) => value,
  onChoose,
}: {
  legend: string;
  values: FacetCount[];
  chosen: string | undefined;
  label?: (value: string) => string;
  onChoose: (value: string | undefined) => void;
}) {
  if (values.length === 0) return null;
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold tracking-wide text-cyan-300 uppercase">{legend}</legend>
      <ul className="flex flex-col gap-1">
        {values.map(({ value, count }) => {
          const pressed = value === chosen;
          return (
            <li key={value}>
              <button
                type="button"
                aria-pressed={pressed}
                disabled={count === 0 && !pressed}
                onClick={() => onChoose(pressed ? undefined : value)}
                className={`flex min-h-11 w-full items-center justify-between gap-3 border-2 px-3 py-2 text-left text-sm disabled:cursor-not-allowed disabled:border-zinc-800 disabled:text-zinc-400 ${
                  pressed
                    ? 'border-lime-400 bg-lime-400/10 font-semibold text-lime-200'
                    : 'border-zinc-700 text-zinc-100 hover:border-cyan-300'
                }`}
              >
                <span className="min-w-0 break-words">
                  {pressed && <span aria-hidden="true">✓ </span>}
                  {label(value)}
                  <span className="sr-only">{`, ${productCount(count)}`}</span>
                </span>
                <span aria-hidden="true" className="shrink-0 text-zinc-300 tabular-nums">
                  {count}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * Issue 33: a list's filters, each with its counts from the facets: the category (search page only),
 * the platform, the condition, the price range and "In stock only". Changes apply at once (the
 * category page's side panel, the phone's drawer).
 */
export function FilterPanel({ listing, categoryPage, facets, scope, error, onChange }: FilterPanelProps) {
  const stockId = useId();
  // The box shows the press at once: the list's URL changes in a transition, and a controlled checkbox
  // would be drawn unticked until it commits (a flicker; a screen reader hears "not checked").
  const [stockTicked, setStockTicked] = useState(listing.inStock);
  const [shownInStock, setShownInStock] = useState(listing.inStock);
  if (shownInStock !== listing.inStock) {
    setShownInStock(listing.inStock);
    setStockTicked(listing.inStock);
  }
  const categories = facetValues(scope?.categories, facets?.categories, listing.category).filter((facet) =>
    isCategory(facet.value),
  );
  const platforms = facetValues(scope?.platforms, facets?.platforms, listing.platform);
  const conditions = facetValues(scope?.conditions, facets?.conditions, listing.condition);
  const inStockCount = facets?.inStock ?? 0;
  return (
    <div className="flex flex-col gap-6">
      {error ? <ErrorLine message={errorMessage(error)} /> : null}
      {!categoryPage && (
        <FacetGroup
          legend="Category"
          values={categories}
          chosen={listing.category}
          label={categoryTitle}
          onChoose={(value) => onChange({ category: value && isCategory(value) ? value : undefined })}
        />
      )}
      <FacetGroup
        legend="Platform"
        values={platforms}
        chosen={listing.platform}
        onChoose={(platform) => onChange({ platform })}
      />
      <FacetGroup
        legend="Condition"
        values={conditions}
        chosen={listing.condition}
        onChoose={(condition) => onChange({ condition })}
      />
      <PriceFilter
        minPrice={listing.minPrice}
        maxPrice={listing.maxPrice}
        range={facets?.price}
        onApply={(bounds) => onChange(bounds)}
      />
      <fieldset>
        <legend className="mb-2 text-sm font-semibold tracking-wide text-cyan-300 uppercase">
          Availability
        </legend>
        <div className="flex min-h-11 items-center gap-3">
          <input
            id={stockId}
            type="checkbox"
            checked={stockTicked}
            disabled={facets !== undefined && inStockCount === 0 && !listing.inStock}
            onChange={(event) => {
              setStockTicked(event.target.checked);
              onChange({ inStock: event.target.checked });
            }}
            className="h-5 w-5 accent-lime-400"
          />
          <label htmlFor={stockId} className="flex flex-1 justify-between gap-3 text-sm text-zinc-100">
            <span>
              In stock only
              {facets && <span className="sr-only">{`, ${productCount(inStockCount)}`}</span>}
            </span>
            {facets && (
              <span aria-hidden="true" className="text-zinc-300 tabular-nums">
                {inStockCount}
              </span>
            )}
          </label>
        </div>
      </fieldset>
    </div>
  );
}

import { useId } from 'react';
import type { ProductSort } from '@pixel-vault/shared';
import { shownSort, type Listing } from './listing';

/** The sort menu's choices in order (issue 33); relevance only means something for a search. */
const SORT_LABELS: readonly [ProductSort, string][] = [
  ['relevance', 'Relevance'],
  ['name', 'Name'],
  ['price_asc', 'Price: low to high'],
  ['price_desc', 'Price: high to low'],
  ['newest', 'Newest'],
  ['rating', 'Top rated'],
];

/** Issue 33: how the list is ordered, a labelled menu; a change starts again from the first page. */
export function SortSelect({
  listing,
  onChange,
}: {
  listing: Pick<Listing, 'q' | 'sort'>;
  onChange: (sort: ProductSort) => void;
}) {
  const id = useId();
  const options = SORT_LABELS.filter(([value]) => value !== 'relevance' || listing.q !== '');
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-sm font-semibold text-zinc-200">
        Sort by
      </label>
      <select
        id={id}
        value={shownSort(listing)}
        onChange={(event) => onChange(event.target.value as ProductSort)}
        className="field min-h-11 min-w-0 py-2"
      >
        {options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useId, useRef, useState } from 'react';
import { formatDollars, type Product } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useGetProductToEditQuery, useSearchProductsQuery } from './api';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { SearchBox } from './SearchBox';

/** How many matches the picker lists: enough to pick from, short enough for a form. */
export const PICKER_MATCHES = 8;

/** A chosen product by its name: the one it was picked with, or (a code read back) its own. */
function ChosenProduct({
  id,
  knownName,
  onRemove,
}: {
  id: string;
  knownName: string | undefined;
  onRemove: (name: string) => void;
}) {
  const { data, error } = useGetProductToEditQuery(id, { skip: knownName !== undefined });
  const name = knownName ?? data?.productName ?? (error ? `Unknown product ${id}` : 'Loading…');
  return (
    <li className="flex items-center justify-between gap-2 border-2 border-zinc-700 bg-zinc-950 px-3 py-2">
      <span className="min-w-0 break-words text-zinc-100">{name}</span>
      <button
        type="button"
        className="btn btn-secondary shrink-0 px-3 py-2"
        aria-label={`Remove ${name}`}
        onClick={() => onRemove(name)}
      >
        Remove
      </button>
    </li>
  );
}

/**
 * The products a code (or a sale) is limited to, picked by name (issue 32): a search of the shop's products (the
 * same as Update Product's), an Add button per match, and the chosen ones with a Remove button. The
 * ids are what the form sends. After an Add or a Remove the focus goes back to the search, and the
 * change is announced.
 */
export function ProductPicker({
  value,
  onChange,
  hint = 'Optional. With products or categories chosen, the discount comes off those lines only; with none, off the whole order.',
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  /** What choosing products does (a sale's differs from a code's). */
  hint?: string;
}) {
  const [text, setText] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [announcement, setAnnouncement] = useState('');
  const searchRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const q = useDebouncedValue(text).trim();
  const { currentData, error } = useSearchProductsQuery({ q, limit: PICKER_MATCHES }, { skip: q === '' });
  const pending = text.trim() !== q || (q !== '' && !currentData && !error);
  const matches = currentData?.products ?? [];

  const focusSearch = () => searchRef.current?.querySelector('input')?.focus();

  function add(product: Product) {
    if (!value.includes(product._id)) onChange([...value, product._id]);
    setNames((known) => ({ ...known, [product._id]: product.productName }));
    setAnnouncement(`Added ${product.productName}`);
    focusSearch();
  }

  function remove(id: string, name: string) {
    onChange(value.filter((chosen) => chosen !== id));
    setAnnouncement(`Removed ${name}`);
    focusSearch();
  }

  return (
    <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase">Products</legend>
      <p id={hintId} className="text-xs text-zinc-400">
        {hint}
      </p>
      {value.length === 0 ? (
        <p className="text-sm text-zinc-300">No products chosen</p>
      ) : (
        <ul aria-label="Chosen products" className="flex flex-col gap-2">
          {value.map((id) => (
            <ChosenProduct key={id} id={id} knownName={names[id]} onRemove={(name) => remove(id, name)} />
          ))}
        </ul>
      )}
      {/* Enter in the search must not submit the promotion's form. */}
      <div
        ref={searchRef}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.preventDefault();
        }}
      >
        <SearchBox
          label="Search products to add"
          placeholder="Search products to add"
          value={text}
          onChange={setText}
        />
      </div>
      {text.trim() === '' ? null : pending ? (
        <Spinner label="Loading products" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : matches.length === 0 ? (
        <p className="text-sm text-zinc-300">No products found</p>
      ) : (
        <ul aria-label="Matching products" className="flex flex-col gap-2">
          {matches.map((product) => {
            const chosen = value.includes(product._id);
            return (
              <li
                key={product._id}
                className="flex items-center justify-between gap-2 border-2 border-zinc-800 px-3 py-2"
              >
                <span className="min-w-0 break-words">
                  {product.productName}{' '}
                  <span className="text-zinc-400">{formatDollars(product.productPrice)}</span>
                </span>
                {chosen ? (
                  <span className="shrink-0 text-sm text-lime-300">Chosen</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary shrink-0 px-3 py-2"
                    aria-label={`Add ${product.productName}`}
                    onClick={() => add(product)}
                  >
                    Add
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}

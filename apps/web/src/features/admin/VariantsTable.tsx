import { useId, useState, type InputHTMLAttributes } from 'react';
import {
  generateCombinations,
  moveRow,
  removeRow,
  rowTitle,
  updateRow,
  type VariantRow,
  type VariantsDraft,
} from './variant-draft';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Issue 35: a variant's trade-in credit, the buy list's price (the variants table's and the one-form field's). */
export const TRADE_IN_CREDIT_LABEL = 'Trade-in credit ($)';
export const TRADE_IN_CREDIT_HINT =
  'Store credit paid for one in a trade-in. Leave it empty if the shop does not buy it.';

/** One of a row's inputs, its visible label short ("SKU"), its name for a screen reader whole ("SKU for Loose / PAL"). */
function RowInput({
  label,
  title,
  value,
  onChange,
  wide = false,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange' | 'value'> & {
  label: string;
  title: string;
  value: string;
  onChange: (value: string) => void;
  /** The whole card's width while the cards are stacked. */
  wide?: boolean;
}) {
  const id = useId();
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${wide ? 'col-span-2 @2xl:col-span-1' : ''}`}>
      <label htmlFor={id} className="text-xs font-semibold tracking-wide text-cyan-300 uppercase">
        {label} <span className="sr-only">for {title}</span>
      </label>
      <input
        id={id}
        className="field w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
    </div>
  );
}

/**
 * The variants (issue 31): one card per combination of the option values, in order, the first being
 * the default; its values read-only, its SKU, price and stock typed. Each card is a table row once the
 * form is wide enough (a container query: the same editor is in a page and in a modal), and stacks its
 * fields otherwise, down to a 360 px phone. "Generate combinations" adds what is missing and removes nothing.
 */
export function VariantsTable({
  draft,
  onChange,
  announce,
  focusLater,
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  announce: (message: string) => void;
  focusLater: (target: string) => void;
}) {
  const hintId = useId();
  const [generateProblem, setGenerateProblem] = useState<string | null>(null);
  const only = draft.rows.length === 1;

  function onGenerate() {
    const result = generateCombinations(draft);
    if ('problem' in result) {
      setGenerateProblem(result.problem);
      return;
    }
    setGenerateProblem(null);
    onChange(result.draft);
    announce(
      result.added > 0 ? `Added ${plural(result.added, 'variant')}.` : 'Every combination is there already.',
    );
  }

  function onMove(row: VariantRow, by: -1 | 1) {
    const next = moveRow(draft, row.key, by);
    onChange(next);
    const position = next.rows.findIndex((r) => r.key === row.key);
    const title = rowTitle(next, row);
    announce(`${title} is now number ${position + 1}${position === 0 ? ', the default' : ''}.`);
    // Focus stays on the button pressed, or goes to the other one when this one can go no further.
    const end = by < 0 ? position === 0 : position === next.rows.length - 1;
    focusLater(`${row.key}-${by < 0 !== end ? 'up' : 'down'}`);
  }

  function onRemove(row: VariantRow, index: number) {
    const next = removeRow(draft, row.key);
    onChange(next);
    announce(`Removed ${rowTitle(draft, row)}.`);
    const neighbour = next.rows[Math.min(index, next.rows.length - 1)];
    focusLater(next.rows.length > 1 && neighbour ? `${neighbour.key}-remove` : 'generate');
  }

  return (
    <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase">Variants</legend>
      <p id={hintId} className="text-sm text-zinc-400">
        One per combination of the option values, each with its SKU, price and stock, and the store credit
        paid for one in a trade-in (empty: not bought). The first is the default: the shop shows it first, and
        its price and stock are the product&apos;s. Leave a SKU empty to have one made.
      </p>
      <button
        type="button"
        className="btn btn-secondary self-start"
        onClick={onGenerate}
        data-focus="generate"
      >
        Generate combinations
      </button>
      {generateProblem && (
        <p role="alert" className="text-red-500">
          {generateProblem}
        </p>
      )}
      <ol aria-label="Variants" className="flex flex-col gap-3">
        {draft.rows.map((row, index) => {
          const title = rowTitle(draft, row);
          const set = (key: 'sku' | 'price' | 'stockQuantity' | 'tradeInCredit') => (value: string) =>
            onChange(updateRow(draft, row.key, { [key]: value }));
          return (
            <li
              key={row.key}
              className="grid min-w-0 grid-cols-2 gap-3 border-2 border-zinc-700 p-3 @2xl:grid-cols-[minmax(0,1fr)_10rem_7rem_6rem_7rem] @2xl:items-end"
            >
              <p className="col-span-2 flex min-w-0 flex-wrap items-center gap-2 self-center font-semibold break-words text-zinc-100 @2xl:col-span-1">
                <span className="text-zinc-400">{index + 1}.</span>
                <span className="min-w-0">{title}</span>
                {index === 0 && (
                  <span className="border border-lime-400 px-1.5 text-xs tracking-wide text-lime-300 uppercase">
                    Default
                  </span>
                )}
              </p>
              <RowInput
                label="SKU"
                title={title}
                wide
                value={row.sku}
                onChange={set('sku')}
                autoComplete="off"
                spellCheck={false}
                placeholder={row._id ? undefined : 'Made for you'}
              />
              <RowInput
                label="Price"
                title={title}
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                value={row.price}
                onChange={set('price')}
                required
              />
              <RowInput
                label="Stock"
                title={title}
                type="number"
                step="1"
                min="0"
                value={row.stockQuantity}
                onChange={set('stockQuantity')}
                required
              />
              <RowInput
                label={TRADE_IN_CREDIT_LABEL}
                title={title}
                wide
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                value={row.tradeInCredit}
                onChange={set('tradeInCredit')}
                placeholder="Not bought"
              />
              <div className="col-span-2 flex flex-wrap gap-2 @2xl:col-span-5">
                <button
                  type="button"
                  className="btn btn-secondary px-3 py-2"
                  aria-label={`Move up ${title}`}
                  disabled={index === 0}
                  onClick={() => onMove(row, -1)}
                  data-focus={`${row.key}-up`}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="btn btn-secondary px-3 py-2"
                  aria-label={`Move down ${title}`}
                  disabled={index === draft.rows.length - 1}
                  onClick={() => onMove(row, 1)}
                  data-focus={`${row.key}-down`}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="btn btn-secondary px-3 py-2"
                  aria-label={`Remove ${title}`}
                  disabled={only}
                  onClick={() => onRemove(row, index)}
                  data-focus={`${row.key}-remove`}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}

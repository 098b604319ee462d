import { useId, useState, type FormEvent } from 'react';
import { checkPrice, priceInputText } from './listing';

export interface PriceFilterProps {
  minPrice: number | undefined;
  maxPrice: number | undefined;
  /** The cheapest and dearest price of what the other filters match (the inputs' hints). */
  range: { min: number; max: number } | null | undefined;
  onApply: (bounds: { minPrice: number | undefined; maxPrice: number | undefined }) => void;
}

/**
 * Issue 33: the price range, two amounts in dollars, applied when the form is sent (Enter, Apply) or
 * an input is left. What is not an amount, or a min above the max, is said beside the inputs and not
 * applied.
 */
export function PriceFilter({ minPrice, maxPrice, range, onApply }: PriceFilterProps) {
  const id = useId();
  const [minText, setMinText] = useState(priceInputText(minPrice));
  const [maxText, setMaxText] = useState(priceInputText(maxPrice));
  const [error, setError] = useState<{ field: 'min' | 'max'; message: string } | null>(null);
  // The URL can change under the inputs (a chip removed, Back): show what is applied.
  const [shown, setShown] = useState({ minPrice, maxPrice });
  if (shown.minPrice !== minPrice || shown.maxPrice !== maxPrice) {
    setShown({ minPrice, maxPrice });
    setMinText(priceInputText(minPrice));
    setMaxText(priceInputText(maxPrice));
    setError(null);
  }

  function apply() {
    const checked = checkPrice(minText, maxText);
    if (!checked.ok) {
      setError({ field: checked.field, message: checked.message });
      return;
    }
    setError(null);
    if (checked.minPrice !== minPrice || checked.maxPrice !== maxPrice) {
      onApply({ minPrice: checked.minPrice, maxPrice: checked.maxPrice });
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    apply();
  }

  const errorId = `${id}-error`;
  const input = (field: 'min' | 'max') => {
    const invalid = error?.field === field;
    return {
      id: `${id}-${field}`,
      type: 'number',
      inputMode: 'decimal' as const,
      min: 0,
      step: 0.01,
      value: field === 'min' ? minText : maxText,
      onChange: (event: { target: { value: string } }) =>
        (field === 'min' ? setMinText : setMaxText)(event.target.value),
      onBlur: apply,
      placeholder: range ? String(Math.floor(field === 'min' ? range.min : range.max)) : undefined,
      'aria-invalid': invalid || undefined,
      'aria-describedby': invalid ? errorId : undefined,
      className: `field w-full min-w-0 ${invalid ? 'border-red-500' : ''}`,
    };
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold tracking-wide text-cyan-300 uppercase">Price</legend>
        <div className="grid grid-cols-2 gap-2">
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor={`${id}-min`} className="text-sm text-zinc-300">
              Min ($)
            </label>
            <input {...input('min')} />
          </div>
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor={`${id}-max`} className="text-sm text-zinc-300">
              Max ($)
            </label>
            <input {...input('max')} />
          </div>
        </div>
        <button type="submit" className="btn btn-secondary mt-2 w-full px-3 py-2">
          Apply
        </button>
        {error && (
          <p id={errorId} role="alert" className="mt-2 text-sm text-red-400">
            {error.message}
          </p>
        )}
      </fieldset>
    </form>
  );
}

import { useId } from 'react';
import type { Product, ProductOption, ProductVariant } from '@pixel-vault/shared';
import { optionValueChoices, priceDifferenceText, VALUE_STATUS_TEXT } from './variants';

/**
 * One option's values as a radio group (issue 31): the native radios, drawn as segmented buttons, so Tab
 * reaches the group, the arrow keys choose, and a tap before the app starts is picked up like any field
 * (issue 29; the border follows `:checked`, so it shows at once). Each value says its price against the
 * chosen variant, and, dimmed, why it cannot be bought with the other choices ("Sold out", "Not
 * available"); such a value stays choosable (it picks the best variant having it, as Shopify's and
 * Amazon's pickers do), so it is not marked disabled. Only a value no variant has at all is: choosing it
 * changes nothing.
 */
function OptionGroup({
  product,
  option,
  current,
  onChoose,
}: {
  product: Product;
  option: ProductOption;
  current: ProductVariant;
  onChoose: (variant: ProductVariant) => void;
}) {
  const name = useId();
  const choices = optionValueChoices(product, current, option.name, option.values);
  return (
    <fieldset className="flex min-w-0 flex-col">
      <legend className="mb-2 text-sm font-semibold text-zinc-300">{option.name}</legend>
      <div className="flex flex-wrap gap-2">
        {choices.map(({ value, status, variant, difference }) => {
          const checked = current.options[option.name] === value;
          const reason = VALUE_STATUS_TEXT[status];
          const price = checked ? '' : priceDifferenceText(difference);
          return (
            <label
              key={value}
              className={`relative flex min-h-11 cursor-pointer flex-col justify-center border-2 px-3 py-1.5 text-left leading-snug has-[:checked]:border-lime-400 has-[:checked]:bg-lime-400/10 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-cyan-300 ${
                reason
                  ? 'border-dashed border-zinc-700 text-zinc-400 hover:border-zinc-500'
                  : 'border-zinc-600 text-zinc-100 hover:border-zinc-400'
              }`}
            >
              <input
                type="radio"
                name={name}
                value={value}
                checked={checked}
                aria-disabled={variant ? undefined : true}
                onChange={() => {
                  if (variant) onChoose(variant);
                }}
                className="sr-only"
              />
              <span className={`font-semibold ${reason ? '' : 'text-zinc-50'}`}>{value}</span>
              {/* The spaces part what a screen reader hears: "Complete in box +$100.00 Sold out". */}
              {(price || reason) && ' '}
              {(price || reason) && (
                <span className="flex flex-wrap items-baseline gap-x-2">
                  {price && <span className="text-sm tabular-nums">{price}</span>}
                  {price && reason && ' '}
                  {reason && <span className="text-xs font-semibold tracking-wide uppercase">{reason}</span>}
                </span>
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The product's options, one radio group each, on the `current` variant; `onChoose` gets the variant picked. */
export function VariantPicker({
  product,
  current,
  onChoose,
}: {
  product: Product;
  current: ProductVariant;
  onChoose: (variant: ProductVariant) => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      {product.options.map((option) => (
        <OptionGroup
          key={option.name}
          product={product}
          option={option}
          current={current}
          onChoose={onChoose}
        />
      ))}
    </div>
  );
}

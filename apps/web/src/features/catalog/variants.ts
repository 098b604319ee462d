import { formatCents, toCents, type Cents, type Product, type ProductVariant } from '@pixel-vault/shared';

/**
 * The product page's choice of a variant (issue 31, docs/decisions/007-variants.md): one radio group per
 * option; the choice lives in the URL as `?variant=<id>`.
 */

/** The variant `id` names, or the default one (the first, decision 007) for no id or an unknown one. */
export function selectedVariant(product: Product, id: string | null): ProductVariant | undefined {
  return product.variants.find((v) => v._id === id) ?? product.variants[0];
}

/** The variant with exactly these values for the product's options; not every combination exists. */
export function variantWith(product: Product, values: Readonly<Record<string, string>>) {
  return product.variants.find((v) => product.options.every((o) => v.options[o.name] === values[o.name]));
}

/**
 * What choosing `value` for the option `name` picks, from the `current` variant: the one with that value
 * and the other current values; if that combination does not exist, the best one having that value: in
 * stock first, then sharing the most other current values, then the first by position. Undefined when
 * no variant has that value.
 */
export function variantChoosing(
  product: Product,
  current: ProductVariant,
  name: string,
  value: string,
): ProductVariant | undefined {
  const exact = variantWith(product, { ...current.options, [name]: value });
  if (exact) return exact;
  const others = product.options.filter((o) => o.name !== name);
  const rank = (v: ProductVariant) =>
    (v.stockQuantity > 0 ? others.length + 1 : 0) +
    others.filter((o) => v.options[o.name] === current.options[o.name]).length;
  let best: ProductVariant | undefined;
  for (const v of product.variants) {
    if (v.options[name] === value && (!best || rank(v) > rank(best))) best = v;
  }
  return best;
}

/**
 * How a value stands beside the current choice of the other options: `available`; `sold-out` (that
 * combination exists, with no stock); `unavailable` (that combination does not exist).
 */
export type ValueStatus = 'available' | 'sold-out' | 'unavailable';

export interface OptionValueChoice {
  value: string;
  status: ValueStatus;
  /** What choosing it picks (undefined: no variant has this value at all). */
  variant: ProductVariant | undefined;
  /** That variant's price against the current one's, in cents (0 for the current one). */
  difference: Cents;
}

/** Each value of the option `name`, as the radio group shows it, from the `current` variant. */
export function optionValueChoices(
  product: Product,
  current: ProductVariant,
  name: string,
  values: readonly string[],
): OptionValueChoice[] {
  return values.map((value) => {
    const exact = variantWith(product, { ...current.options, [name]: value });
    const variant = exact ?? variantChoosing(product, current, name, value);
    const status: ValueStatus = !exact ? 'unavailable' : exact.stockQuantity < 1 ? 'sold-out' : 'available';
    const difference = variant ? toCents(variant.price) - toCents(current.price) : 0;
    return { value, status, variant, difference };
  });
}

/** "+$100.00", "−$20.00" (a minus sign, which a screen reader says), or nothing when equal. */
export function priceDifferenceText(difference: Cents): string {
  if (difference === 0) return '';
  return `${difference > 0 ? '+' : '−'}${formatCents(Math.abs(difference))}`;
}

/** The reason a value is shown dimmed, in words (read with its name). */
export const VALUE_STATUS_TEXT: Record<ValueStatus, string> = {
  available: '',
  'sold-out': 'Sold out',
  unavailable: 'Not available',
};

import { z } from 'zod';
import { Id } from './common.js';
import { count, jsonField, money, text } from './fields.js';
import { TradeInCreditInput } from './tradeins.js';

/**
 * What an admin sends to give a product options and variants (issue 31, decision 007): on
 * `POST /api/products/add-new` and `PUT /api/products/update/{id}`, as JSON or as JSON text in the
 * multipart form's `options` and `variants` fields. `variants` is the whole list, in order (the first
 * is the default, whose price and stock the spec's fields show): one with `_id` is that variant
 * changed, one without is new, and a live variant left out is removed (archived when orders name it).
 */

export const MAX_PRODUCT_OPTIONS = 3;
export const MAX_OPTION_VALUES = 100;
export const MAX_PRODUCT_VARIANTS = 100;
export const MAX_SKU_LENGTH = 48;

const OptionName = text('Option name', 40);
const OptionValue = text('Option value', 60);

/** Letters, digits and `. _ - /`, starting with a letter or digit; compared without case. */
export const Sku = z
  .string({ message: 'SKU must be text' })
  .trim()
  .min(1, { message: 'SKU is required' })
  .max(MAX_SKU_LENGTH, { message: `A SKU is at most ${MAX_SKU_LENGTH} characters` })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, {
    message: 'A SKU holds letters, digits and . _ - / only, and starts with a letter or digit',
  });

export const ProductOptionInput = z.object({
  name: OptionName,
  values: z
    .array(OptionValue, { message: 'Option values must be a list' })
    .min(1, { message: 'An option needs at least one value' })
    .max(MAX_OPTION_VALUES, { message: `An option has at most ${MAX_OPTION_VALUES} values` }),
});
export type ProductOptionInput = z.infer<typeof ProductOptionInput>;

export const ProductVariantInput = z.object({
  /** The variant changed; left out, a new one. */
  _id: Id.optional(),
  /** Left out or empty: one is made (`PV-` and the variant's id). */
  sku: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), Sku.optional()),
  // Trimmed as the options' names and values are, so `" Condition"` is the option `Condition`.
  options: z
    .record(z.string(), z.string(), { message: 'A variant’s options must be an object' })
    .default({})
    .transform((values) =>
      Object.fromEntries(Object.entries(values).map(([name, value]) => [name.trim(), value.trim()])),
    ),
  price: money('Variant price'),
  stockQuantity: count('Variant stock'),
  /**
   * Issue 35: the store credit the shop offers per unit in a trade-in, dollars; null or '' = not bought.
   * Left out: an existing variant keeps what it has, a new one is not bought.
   */
  tradeInCredit: TradeInCreditInput.optional(),
});
export type ProductVariantInput = z.infer<typeof ProductVariantInput>;

export const ProductOptionsInput = z
  .array(ProductOptionInput, { message: 'Options must be a list' })
  .max(MAX_PRODUCT_OPTIONS, { message: `A product has at most ${MAX_PRODUCT_OPTIONS} options` });

export const ProductVariantsInput = z
  .array(ProductVariantInput, { message: 'Variants must be a list' })
  .min(1, { message: 'A product needs at least one variant' })
  .max(MAX_PRODUCT_VARIANTS, { message: `A product has at most ${MAX_PRODUCT_VARIANTS} variants` });

/** The fields beside the spec's product fields. */
export const VariantFields = {
  options: jsonField('Options', ProductOptionsInput).optional(),
  variants: jsonField('Variants', ProductVariantsInput).optional(),
};

const fold = (text: string) => text.trim().toLowerCase();

/**
 * Why `variants` cannot be the variants of a product with `options`, or null when they can: option
 * names and each option's values are distinct (case aside); every variant has a value of each option
 * and nothing else, from that option's values; no combination is there twice, nor any SKU; `_id`s are
 * distinct. A product without options has exactly one variant, with no values.
 */
export function variantsProblem(
  options: readonly ProductOptionInput[],
  variants: readonly Pick<ProductVariantInput, '_id' | 'sku' | 'options'>[],
): string | null {
  const names = new Set<string>();
  for (const option of options) {
    if (names.has(fold(option.name))) return `Option "${option.name}" is there twice`;
    names.add(fold(option.name));
    const values = new Set<string>();
    for (const value of option.values) {
      if (values.has(fold(value))) return `Option "${option.name}" has the value "${value}" twice`;
      values.add(fold(value));
    }
  }
  if (options.length === 0 && variants.length > 1) {
    return 'A product without options has one variant: add an option to sell it in several forms';
  }
  const combinations = new Set<string>();
  const skus = new Set<string>();
  const ids = new Set<string>();
  for (const [index, variant] of variants.entries()) {
    const label = `Variant ${index + 1}`;
    const keys = Object.keys(variant.options);
    for (const key of keys) {
      if (!options.some((o) => o.name === key))
        return `${label} has a value for "${key}", which is not an option`;
    }
    for (const option of options) {
      const value = variant.options[option.name];
      if (value === undefined) return `${label} needs a value for "${option.name}"`;
      if (!option.values.includes(value)) return `${label}: "${value}" is not one of ${option.name}'s values`;
    }
    const combination = JSON.stringify(options.map((o) => variant.options[o.name]));
    if (combinations.has(combination)) return `${label} is the same combination as an earlier one`;
    combinations.add(combination);
    if (variant.sku !== undefined) {
      if (skus.has(fold(variant.sku))) return `SKU ${variant.sku} is there twice`;
      skus.add(fold(variant.sku));
    }
    if (variant._id !== undefined) {
      if (ids.has(variant._id.toLowerCase())) return `${label} names a variant already named`;
      ids.add(variant._id.toLowerCase());
    }
  }
  return null;
}

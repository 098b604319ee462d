import {
  MAX_OPTION_VALUES,
  MAX_PRODUCT_VARIANTS,
  type ProductOption,
  type ProductOptionInput,
  type ProductVariantInput,
  toCents,
  variantsProblem,
} from '@pixel-vault/shared';
import type { ProductVariantRow } from '../../db/schema/index.js';
import type { Fail } from './admin.import.csv.js';
import type { ProductRows, VariantRow } from './admin.import.groups.js';
import { numbersOf } from './admin.import.prices.js';
import { type SkuClaim, skuClaims } from './admin.import.skus.js';

/**
 * A product's rows in a file with the variant columns (issue 31, docs/admin-import.md), read as the
 * whole list of its variants in order, as the admin's product form sends them: a row with `variantId`
 * is that variant, one without a new one, and a live variant no row names is archived. Checked with
 * the shared rules (variantsProblem), each problem named by its row, and compared with the product as
 * stored: only a product whose options or variants change is written with writeVariants.
 */

/** What the product has now: its options and its live variants in position order. */
export interface StoredVariants {
  options: readonly ProductOption[];
  variants: readonly ProductVariantRow[];
}

export interface VariantPrice {
  variantId: string;
  priceCents: number;
  stock: number;
}

/** Issue 35: a variant kept in place whose trade-in credit changes (null: no longer bought). */
export interface VariantCredit {
  variantId: string;
  cents: number | null;
}

export interface VariantsPlan {
  options: ProductOptionInput[];
  variants: ProductVariantInput[];
  /**
   * `none`: as stored; `prices`: only prices and stock of variants in place change (a batched update);
   * `write`: options, SKUs or the list itself change (writeVariants).
   */
  change: 'none' | 'prices' | 'write';
  prices: VariantPrice[];
  /** Credits that change on variants kept in place (a `write` change writes them with the variants). */
  credits: VariantCredit[];
  /** The answer's changed columns: productPrice, stockQuantity, options, variants, sku, variantPrice... */
  fields: string[];
  skus: SkuClaim[];
}

const fold = (text: string) => text.trim().toLowerCase();
const sortedJson = (values: Record<string, string>) =>
  JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The variant each row names: one of the product's live ones, each once; undefined for a new one. */
function variantIds(rows: VariantRow[], stored: StoredVariants | undefined, fail: Fail) {
  const ids = rows.map((r) => r.variantId);
  // Sold in one form, and still: its row is its one variant, named or not (an old-style row).
  const [only] = stored?.variants ?? [];
  if (
    stored?.options.length === 0 &&
    stored.variants.length === 1 &&
    rows.length === 1 &&
    !rows[0]?.names.length
  ) {
    ids[0] ??= only?.id;
  }
  const named = new Map<string, number>();
  rows.forEach((r, i) => {
    const id = ids[i];
    if (id === undefined) return;
    if (!stored) fail(r.row, `variantId ${id}: a new product's variants are new, leave variantId empty`);
    else if (!stored.variants.some((v) => v.id === id)) {
      fail(
        r.row,
        `Variant ${id} is not one of this product's (was it removed?): leave variantId empty to add it`,
      );
    } else if (named.has(id)) fail(r.row, `Variant ${id} is already in row ${named.get(id)}`);
    else named.set(id, r.row);
  });
  return ids;
}

/** Each option's values: the product's (for a name it keeps), then the new ones in order of appearance. */
function optionsOf(rows: VariantRow[], stored: StoredVariants | undefined, fail: Fail): ProductOptionInput[] {
  const names = rows[0]?.names ?? [];
  if (names.length === 0 && rows[1]) {
    fail(
      rows[1].row,
      'A product without options has one variant: name an option (option1Name) to sell it in several forms',
    );
  }
  const combinations = new Map<string, number>();
  for (const r of names.length > 0 ? rows : []) {
    const first = combinations.get(JSON.stringify(r.values));
    if (first !== undefined)
      fail(r.row, `${r.values.join(' / ')} is already in row ${first}: each combination once`);
    else combinations.set(JSON.stringify(r.values), r.row);
  }
  return names.map((name, n) => {
    const values = [...(stored?.options.find((o) => o.name === name)?.values ?? [])];
    for (const r of rows) {
      const value = r.values[n] ?? '';
      if (values.includes(value)) continue;
      const alike = values.find((v) => fold(v) === fold(value));
      if (alike !== undefined) fail(r.row, `${name} has the value "${alike}": write "${value}" the same way`);
      else if (values.push(value) === MAX_OPTION_VALUES + 1)
        fail(r.row, `${name} has at most ${MAX_OPTION_VALUES} values`);
    }
    return { name, values };
  });
}

/** The first problem of the shared rules, named by the row of the first variant that shows it. */
function sharedProblem(
  options: ProductOptionInput[],
  variants: ProductVariantInput[],
  rows: VariantRow[],
  fail: Fail,
) {
  if (variantsProblem(options, variants) === null) return false;
  for (let k = 0; k <= variants.length; k += 1) {
    const problem = variantsProblem(options, variants.slice(0, k));
    if (problem) {
      fail(rows[Math.max(k - 1, 0)]?.row ?? 0, problem);
      break;
    }
  }
  return true;
}

/**
 * The options and variants `product`'s rows ask for, and how they differ from `stored` (undefined for
 * a new product); undefined when a row has an error (reported through `fail`).
 */
export function planVariants(
  product: ProductRows,
  productId: string | undefined,
  stored: StoredVariants | undefined,
  fail: Fail,
): VariantsPlan | undefined {
  const rows = product.variants ?? [];
  if (rows.length === 0 || rows.some((r) => !r.ok)) return undefined;
  const extra = rows[MAX_PRODUCT_VARIANTS];
  if (extra) {
    fail(
      extra.row,
      `A product has at most ${MAX_PRODUCT_VARIANTS} variants (this one has ${rows.length} rows)`,
    );
    return undefined;
  }
  let ok = true;
  const wrong: Fail = (row, message) => {
    fail(row, message);
    ok = false;
  };
  const ids = variantIds(rows, stored, wrong);
  const options = optionsOf(rows, stored, wrong);
  const byId = new Map((stored?.variants ?? []).map((v) => [v.id, v]));
  const variants = rows.flatMap((r, i): ProductVariantInput[] => {
    const own = byId.get(ids[i] ?? '');
    const first = i === 0 ? { cells: product.cells, default: stored?.variants[0], own } : undefined;
    const { price, stock } = numbersOf(r, first, wrong);
    if (price === undefined || stock === undefined) return [];
    const values = Object.fromEntries(options.map(({ name }, n) => [name, r.values[n] ?? '']));
    return [
      {
        ...(ids[i] === undefined ? {} : { _id: ids[i] }),
        ...(r.sku === undefined ? {} : { sku: r.sku }),
        options: values,
        price,
        stockQuantity: stock,
        // Issue 35: only in a file with the column; without, every variant keeps its credit.
        ...(r.tradeInCreditCents === undefined
          ? {}
          : { tradeInCredit: r.tradeInCreditCents === null ? null : r.tradeInCreditCents / 100 }),
      },
    ];
  });
  if (!ok || sharedProblem(options, variants, rows, fail)) return undefined;
  const skus = skuClaims(
    productId,
    variants,
    rows.map((r) => r.row),
    byId,
  );
  if (!stored) return { options, variants, change: 'write', prices: [], credits: [], fields: [], skus };
  return { options, variants, skus, ...differences(options, variants, stored) };
}

/** How the asked-for options and variants differ from the stored ones. */
function differences(options: ProductOptionInput[], variants: ProductVariantInput[], stored: StoredVariants) {
  const fields = new Set<string>();
  const storedOptions = stored.options.map(({ name, values }) => ({ name, values }));
  if (JSON.stringify(options) !== JSON.stringify(storedOptions)) fields.add('options');
  const kept = new Set(variants.map((v) => v._id));
  if (variants.length !== stored.variants.length || stored.variants.some((v) => !kept.has(v.id))) {
    fields.add('variants');
  }
  const prices: VariantPrice[] = [];
  const credits: VariantCredit[] = [];
  variants.forEach((variant, i) => {
    const row = stored.variants.find((v) => v.id === variant._id);
    if (
      !row ||
      stored.variants[i]?.id !== row.id ||
      sortedJson(variant.options) !== sortedJson(row.options)
    ) {
      fields.add('variants');
    }
    if (!row) return;
    if (variant.sku !== undefined && variant.sku !== row.sku) fields.add('sku');
    if (variant.tradeInCredit !== undefined) {
      const cents = variant.tradeInCredit === null ? null : toCents(variant.tradeInCredit);
      if (cents !== row.tradeInCreditCents) {
        credits.push({ variantId: row.id, cents });
        fields.add('tradeInCredit');
      }
    }
    const priceCents = toCents(variant.price);
    if (priceCents === row.priceCents && variant.stockQuantity === row.stock) return;
    prices.push({ variantId: row.id, priceCents, stock: variant.stockQuantity });
    if (i > 0 && priceCents !== row.priceCents) fields.add('variantPrice');
    if (i > 0 && variant.stockQuantity !== row.stock) fields.add('variantStock');
  });
  // The spec's productPrice and stockQuantity: the first variant's, whichever that is now.
  const [first] = variants;
  const [storedFirst] = stored.variants;
  if (first && storedFirst && toCents(first.price) !== storedFirst.priceCents) fields.add('productPrice');
  if (first && storedFirst && first.stockQuantity !== storedFirst.stock) fields.add('stockQuantity');

  const reshaped = fields.has('options') || fields.has('variants') || fields.has('sku');
  const change: VariantsPlan['change'] = reshaped ? 'write' : prices.length > 0 ? 'prices' : 'none';
  return { change, prices, credits, fields: [...fields] };
}

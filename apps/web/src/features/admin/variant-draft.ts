import {
  MAX_PRODUCT_OPTIONS,
  MAX_PRODUCT_VARIANTS,
  ProductOptionsInput,
  ProductVariantInput,
  ProductVariantsInput,
  variantsProblem,
  variantTitle,
  type Product,
} from '@pixel-vault/shared';

/**
 * The admin's options and variants as they are being edited (issue 31, decision 007), shared by Add
 * Product and Update Product. Text stays text until it is checked with the shared schemas. A row keeps
 * its option values by the option's `key`, not its name, so renaming an option keeps every row's values.
 *
 * Invariants the operations below keep: there is always at least one row (with no options, it is the
 * product's one variant, whose price and stock the spec's Price and Stock fields edit); every row has a
 * value of each option that has values; no two rows are the same combination.
 */
export interface OptionDraft {
  key: string;
  name: string;
  values: string[];
}

export interface VariantRow {
  key: string;
  /** The variant this row edits (Update Product); a new row has none. */
  _id?: string;
  sku: string;
  price: string;
  stockQuantity: string;
  /** Issue 35: the store credit paid for one in a trade-in, dollars as typed; empty: not bought. */
  tradeInCredit: string;
  /** The credit the variant has (Update Product): a product without options sends it only when it changes. */
  savedTradeInCredit?: string;
  /** Option key -> value. */
  values: Record<string, string>;
}

export interface VariantsDraft {
  options: OptionDraft[];
  rows: VariantRow[];
}

let seq = 0;
const newKey = (prefix: string) => `${prefix}${++seq}`;

function blankRow(): VariantRow {
  return { key: newKey('row'), sku: '', price: '', stockQuantity: '', tradeInCredit: '', values: {} };
}

/** A new product's draft: no options, one variant with no price or stock yet. */
export function emptyDraft(): VariantsDraft {
  return { options: [], rows: [blankRow()] };
}

/** A credit as the form shows it: `18.5`, or empty for not bought. */
const creditText = (credit: number | null | undefined) => (credit == null ? '' : String(credit));

/** The draft of a product as the API answers it: its options, and its live variants in order with their ids. */
export function draftFromProduct(
  product: Pick<Product, 'options' | 'variants' | 'productPrice' | 'stockQuantity'>,
): VariantsDraft {
  const options = product.options.map((o) => ({ key: newKey('opt'), name: o.name, values: [...o.values] }));
  const keyOf = new Map(options.map((o) => [o.name, o.key]));
  const rows = product.variants.map((v): VariantRow => ({
    key: newKey('row'),
    _id: v._id,
    sku: v.sku,
    price: String(v.price),
    stockQuantity: String(v.stockQuantity),
    tradeInCredit: creditText(v.tradeInCredit),
    savedTradeInCredit: creditText(v.tradeInCredit),
    values: Object.fromEntries(
      Object.entries(v.options).flatMap(([name, value]) => {
        const key = keyOf.get(name);
        return key ? [[key, value]] : [];
      }),
    ),
  }));
  const first = rows[0];
  if (options.length === 0) {
    // The spec's fields are the default variant's (decision 007): the form shows those, as before.
    return {
      options,
      rows: [
        {
          ...(first ?? blankRow()),
          price: String(product.productPrice),
          stockQuantity: String(product.stockQuantity),
        },
      ],
    };
  }
  return { options, rows: rows.length > 0 ? rows : [blankRow()] };
}

export const hasOptions = (draft: VariantsDraft) => draft.options.length > 0;

/** An option as people read it: its name, or `Option 2` while it has none. */
export function optionLabel(draft: VariantsDraft, index: number): string {
  return draft.options[index]?.name.trim() || `Option ${index + 1}`;
}

const asOptions = (draft: VariantsDraft) => draft.options.map((o) => ({ name: o.key, values: o.values }));

/** A row as people read it: its values in the options' order, `Complete in box / PAL`. */
export function rowTitle(draft: VariantsDraft, row: VariantRow): string {
  const title = variantTitle(asOptions(draft), row.values);
  return title || `Variant ${draft.rows.indexOf(row) + 1}`;
}

const combination = (draft: VariantsDraft, values: Record<string, string>) =>
  JSON.stringify(draft.options.map((o) => values[o.key] ?? null));

/**
 * Brings the rows in line with the options after one changed: values of options or values no longer
 * there are dropped, a missing value becomes the option's first (so adding an option's first value
 * gives it to every row, as Shopify does), and rows that became the same combination keep the first.
 * Answers how many rows went.
 */
function normalize(draft: VariantsDraft): { draft: VariantsDraft; removed: number } {
  const seen = new Set<string>();
  const rows: VariantRow[] = [];
  for (const row of draft.rows) {
    const values: Record<string, string> = {};
    for (const option of draft.options) {
      const value = row.values[option.key];
      const kept = value !== undefined && option.values.includes(value) ? value : option.values[0];
      if (kept !== undefined) values[option.key] = kept;
    }
    const id = combination(draft, values);
    if (seen.has(id)) continue;
    seen.add(id);
    rows.push({ ...row, values });
  }
  const removed = draft.rows.length - rows.length;
  return { draft: { ...draft, rows: rows.length > 0 ? rows : [blankRow()] }, removed };
}

export function addOption(draft: VariantsDraft): { draft: VariantsDraft; key: string | null } {
  if (draft.options.length >= MAX_PRODUCT_OPTIONS) return { draft, key: null };
  const option = { key: newKey('opt'), name: '', values: [] };
  return { draft: { ...draft, options: [...draft.options, option] }, key: option.key };
}

export function renameOption(draft: VariantsDraft, key: string, name: string): VariantsDraft {
  return { ...draft, options: draft.options.map((o) => (o.key === key ? { ...o, name } : o)) };
}

/** Takes an option away; rows that then read the same keep the first of them. */
export function removeOption(draft: VariantsDraft, key: string) {
  return normalize({ ...draft, options: draft.options.filter((o) => o.key !== key) });
}

/**
 * Adds the values typed (comma-separated) to an option, in order, each once (case aside). Answers those
 * added and those already there.
 */
export function addValues(draft: VariantsDraft, key: string, typed: string) {
  const option = draft.options.find((o) => o.key === key);
  const added: string[] = [];
  const repeated: string[] = [];
  if (!option) return { draft, added, repeated };
  const values = [...option.values];
  for (const raw of typed.split(',')) {
    const value = raw.trim();
    if (!value) continue;
    if (values.some((v) => v.toLowerCase() === value.toLowerCase())) repeated.push(value);
    else {
      values.push(value);
      added.push(value);
    }
  }
  const next = normalize({
    ...draft,
    options: draft.options.map((o) => (o.key === key ? { ...o, values } : o)),
  });
  return { draft: next.draft, added, repeated };
}

/** Takes a value away from an option, and the rows that have it. */
export function removeValue(draft: VariantsDraft, key: string, value: string) {
  const rows = draft.rows.filter((r) => r.values[key] !== value);
  const next = normalize({
    options: draft.options.map((o) =>
      o.key === key ? { ...o, values: o.values.filter((v) => v !== value) } : o,
    ),
    rows,
  });
  return { draft: next.draft, removed: draft.rows.length - rows.length + next.removed };
}

/**
 * Adds a row for every combination of the option values that no row has yet, in the options' order,
 * after the rows there; keeps every row and what was typed in it. Refuses (adds nothing) when an
 * option has no values, or when the product would pass MAX_PRODUCT_VARIANTS.
 */
export function generateCombinations(
  draft: VariantsDraft,
): { draft: VariantsDraft; added: number } | { problem: string } {
  if (draft.options.some((o) => o.values.length === 0)) {
    return { problem: 'Give every option at least one value first' };
  }
  let combinations: Record<string, string>[] = [{}];
  for (const option of draft.options) {
    combinations = combinations.flatMap((c) => option.values.map((v) => ({ ...c, [option.key]: v })));
  }
  const there = new Set(draft.rows.map((r) => combination(draft, r.values)));
  const missing = combinations.filter((c) => !there.has(combination(draft, c)));
  const total = draft.rows.length + missing.length;
  if (total > MAX_PRODUCT_VARIANTS) {
    return {
      problem: `That makes ${total} variants; a product has at most ${MAX_PRODUCT_VARIANTS}. Remove some values first.`,
    };
  }
  const rows = missing.map((values) => ({ ...blankRow(), values }));
  return { draft: { ...draft, rows: [...draft.rows, ...rows] }, added: rows.length };
}

export function updateRow(
  draft: VariantsDraft,
  key: string,
  patch: Partial<Pick<VariantRow, 'sku' | 'price' | 'stockQuantity' | 'tradeInCredit'>>,
): VariantsDraft {
  return { ...draft, rows: draft.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) };
}

/** Moves a row up (-1) or down (+1); the first row is the default variant. */
export function moveRow(draft: VariantsDraft, key: string, by: -1 | 1): VariantsDraft {
  const from = draft.rows.findIndex((r) => r.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= draft.rows.length) return draft;
  const rows = [...draft.rows];
  [rows[from], rows[to]] = [rows[to]!, rows[from]!];
  return { ...draft, rows };
}

/** Removes a row; the last one stays (a product has at least one variant). */
export function removeRow(draft: VariantsDraft, key: string): VariantsDraft {
  if (draft.rows.length <= 1) return draft;
  return { ...draft, rows: draft.rows.filter((r) => r.key !== key) };
}

/** The `options` to send: names and values as typed (the schema trims them). */
export function optionsToSend(draft: VariantsDraft) {
  return draft.options.map((o) => ({ name: o.name, values: o.values }));
}

/**
 * The `variants` to send, the whole list in order: numbers still as typed (the schema reads them), an
 * empty SKU left for the server to make, the values keyed by the options' names.
 */
export function variantsToSend(draft: VariantsDraft) {
  return draft.rows.map((row) => ({
    ...(row._id ? { _id: row._id } : {}),
    sku: row.sku,
    options: Object.fromEntries(
      draft.options.flatMap((o) => {
        const value = row.values[o.key];
        return value === undefined ? [] : [[o.name.trim(), value]];
      }),
    ),
    price: row.price,
    stockQuantity: row.stockQuantity,
    // Issue 35: as typed; empty is not bought (the schema reads '' as null).
    tradeInCredit: row.tradeInCredit,
  }));
}

/**
 * What is wrong with the options and variants, each message naming the option or the variant it is
 * about: the shared schemas' field rules, then `variantsProblem` (the server's own check). None
 * without options: the spec's Price and Stock fields are checked with the product's.
 */
export function variantProblems(draft: VariantsDraft): string[] {
  if (!hasOptions(draft)) {
    // Issue 35: the one variant's trade-in credit sits beside the spec's fields, checked as a variant's.
    const credit = ProductVariantInput.shape.tradeInCredit.safeParse(draft.rows[0]?.tradeInCredit ?? '');
    return credit.success ? [] : [...new Set(credit.error.issues.map((issue) => issue.message))];
  }
  const problems: string[] = [];
  const options = ProductOptionsInput.safeParse(optionsToSend(draft));
  if (!options.success) {
    for (const issue of options.error.issues) {
      const index = issue.path[0];
      const label = typeof index === 'number' ? optionLabel(draft, index) : null;
      problems.push(label ? `${label}: ${issue.message}` : issue.message);
    }
  }
  const variants = ProductVariantsInput.safeParse(variantsToSend(draft));
  if (!variants.success) {
    for (const issue of variants.error.issues) {
      const index = issue.path[0];
      const row = typeof index === 'number' ? draft.rows[index] : undefined;
      problems.push(row ? `${rowTitle(draft, row)}: ${issue.message}` : issue.message);
    }
  }
  if (options.success && variants.success) {
    const problem = variantsProblem(options.data, variants.data);
    if (problem) problems.push(problem);
  }
  return [...new Set(problems)];
}

/**
 * What the form sends for price and stock. With options: `options` and `variants`, not the spec's
 * fields (they are the first variant's). Without: the spec's Price and Stock, as before options
 * existed; and when the product had options (Update Product), also `options: []` and its one
 * remaining variant, so that the server removes the others. Issue 35: without options, the one
 * variant also goes when its trade-in credit is given or changed (the spec's fields have none).
 */
export function pricingToSend(draft: VariantsDraft, hadOptions = false): Record<string, unknown> {
  if (hasOptions(draft)) return { options: optionsToSend(draft), variants: variantsToSend(draft) };
  const first = draft.rows[0];
  const spec = { productPrice: first?.price ?? '', stockQuantity: first?.stockQuantity ?? '' };
  if (hadOptions) return { ...spec, options: [], variants: variantsToSend(draft).slice(0, 1) };
  const credit = first?.tradeInCredit.trim() ?? '';
  const sendCredit = credit !== '' || (first?.savedTradeInCredit ?? '') !== '';
  return sendCredit ? { ...spec, variants: variantsToSend(draft).slice(0, 1) } : spec;
}

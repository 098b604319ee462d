import { z } from 'zod';

/**
 * Product CSV import (issue 15): POST /api/admin/import/products, multipart field `file` holding the
 * products export's columns (PRODUCT_CSV_COLUMNS, and with them, or not at all, VARIANT_CSV_COLUMNS).
 * A product with an empty `_id` is created, one with an `_id` updated. A file with any error changes
 * nothing (docs/admin-import.md).
 */

/**
 * A product's columns: one row a product, as the export wrote them before variants (issue 15), and
 * after them the columns added since, which a file may leave out (OPTIONAL_PRODUCT_CSV_COLUMNS).
 */
export const PRODUCT_CSV_COLUMNS = [
  '_id',
  'productName',
  'productCategory',
  'productDescription',
  'productPrice',
  'stockQuantity',
  'productImage',
  'platform',
] as const;

/**
 * The product columns added after files were already exported (issue 33: `platform`). A file without
 * one is read as before and leaves that value of its products as it is; an empty cell clears it.
 */
export const OPTIONAL_PRODUCT_CSV_COLUMNS = [
  'platform',
] as const satisfies readonly (typeof PRODUCT_CSV_COLUMNS)[number][];

/** Each option's pair of columns: option N is the product's Nth option (issue 31). */
export const OPTION_CSV_COLUMNS = [
  { name: 'option1Name', value: 'option1Value' },
  { name: 'option2Name', value: 'option2Value' },
  { name: 'option3Name', value: 'option3Value' },
] as const;

/**
 * A variant's columns (issue 31, as Shopify's product CSV): with them, a file has one row per variant,
 * the product's columns repeated on each. They come all together or not at all.
 */
export const VARIANT_CSV_COLUMNS = [
  'variantId',
  'sku',
  'option1Name',
  'option1Value',
  'option2Name',
  'option2Value',
  'option3Name',
  'option3Value',
  'variantPrice',
  'variantStock',
] as const;

/**
 * Issue 35: a variant's trade-in credit (the buy list), dollars; an empty cell: not bought. The export
 * writes it last; a file may leave it out, and then every credit stays as it is. In a file without the
 * variant columns it is the product's default variant's, as productPrice is.
 */
export const TRADE_IN_CREDIT_CSV_COLUMN = 'tradeInCredit';

/** The products export's columns, in order: a row per live variant. */
export const PRODUCTS_EXPORT_COLUMNS = [
  ...PRODUCT_CSV_COLUMNS,
  ...VARIANT_CSV_COLUMNS,
  TRADE_IN_CREDIT_CSV_COLUMN,
] as const;

export const PRODUCTS_IMPORT_PATH = '/api/admin/import/products';
/** The largest file accepted, in bytes (5,000 rows with long descriptions fit several times over). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** The most data rows in one file (products, or variants with the variant columns). */
export const MAX_IMPORT_ROWS = 10_000;
/** At most this many row errors are listed. */
export const MAX_IMPORT_ERRORS_LISTED = 100;

/** `?dryRun=true` previews: the answer is the same, and nothing is written. */
export const ProductsImportQuery = z.object({
  dryRun: z
    .enum(['true', 'false'], { message: 'dryRun must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
export type ProductsImportQuery = z.infer<typeof ProductsImportQuery>;

/**
 * What importing one product does (or would do, in a dry run). `row` counts data rows from 1: the
 * product's row, or the first of its rows in a file with the variant columns.
 */
export const ProductImportChange = z.object({
  row: z.number().int(),
  action: z.enum(['create', 'update', 'unchanged']),
  /** The product's id: null for a product still to be created (dry run). */
  _id: z.string().nullable(),
  productName: z.string(),
  /**
   * For `update`: the columns whose values change (for example `["productPrice", "stockQuantity"]`);
   * with the variant columns also `options` and `variants` (docs/admin-import.md).
   */
  fields: z.array(z.string()),
});
export type ProductImportChange = z.infer<typeof ProductImportChange>;

export const ProductImportError = z.object({ row: z.number().int(), message: z.string() });
export type ProductImportError = z.infer<typeof ProductImportError>;

/**
 * The answer. 200 when every row is valid (written unless `dryRun`). When any row has an error the
 * answer is 422 with a `message` beside these fields: nothing was written, the counts are 0, `changes`
 * is empty and `errors` names the rows (at most MAX_IMPORT_ERRORS_LISTED of them).
 */
export const ProductsImportResult = z.object({
  message: z.string().optional(),
  dryRun: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.array(ProductImportError),
  /** Every product's change, in file order (empty when there are errors). */
  changes: z.array(ProductImportChange),
});
export type ProductsImportResult = z.infer<typeof ProductsImportResult>;

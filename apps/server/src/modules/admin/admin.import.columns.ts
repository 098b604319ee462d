import {
  type Category,
  type ProductOption,
  UpdateProductFields,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import { type Cells, type Column, type Fail, issuesOf } from './admin.import.csv.js';

/**
 * A product's own columns (issue 15) in an import, against the product as stored: name, category,
 * description, images, platform (issue 33, when the file has the column), and (in a file without the
 * variant columns) price and stock.
 */

export interface ProductValues {
  name: string;
  description: string;
  category: Category;
  priceCents: number;
  stock: number;
  /** Issue 33: null for none. */
  platform: string | null;
}

/** A stored product, with what the export writes of it. */
export interface Current {
  id: string;
  name: string;
  description: string;
  category: string;
  /** Its default variant's (issue 31): price, stock, and (issue 35) id and trade-in credit. */
  priceCents: number;
  stock: number;
  variantId: string;
  tradeInCreditCents: number | null;
  images: string[];
  options: ProductOption[];
  platform: string | null;
}

export interface ColumnsContext {
  fail: Fail;
  imagesOf: (cell: string) => string[];
  isPlaceholderOf: (category: string, images: string[]) => boolean;
}

const money = (cents: number) => toDollars(cents).toFixed(2);

/**
 * The columns of `cells` that change `product` (price and stock only when `withPriceAndStock`: with
 * the variant columns they are the variants'). A cell written exactly as the export writes the stored
 * value is unchanged without being checked again (a description saved before the rules of today stays
 * as it is); any other cell goes through the shared schema.
 */
export function compareColumns(
  row: number,
  cells: Cells,
  product: Current,
  withPriceAndStock: boolean,
  ctx: ColumnsContext,
) {
  const asExported: Partial<Record<Column, string>> = {
    productName: product.name,
    productCategory: product.category,
    productDescription: product.description,
    ...(withPriceAndStock
      ? { productPrice: money(product.priceCents), stockQuantity: String(product.stock) }
      : {}),
    // Issue 33: a file without the column leaves the platform as it is; an empty cell clears it.
    ...(cells.platform !== undefined ? { platform: product.platform ?? '' } : {}),
  };
  const input: Partial<Record<Column, string>> = {};
  for (const [column, value] of Object.entries(asExported) as [Column, string][]) {
    if (cells[column] !== value) input[column] = cells[column];
  }
  const set: Partial<ProductValues> = {};
  if (Object.keys(input).length > 0) {
    const parsed = UpdateProductFields.safeParse(input);
    if (!parsed.success) {
      ctx.fail(row, issuesOf(parsed.error));
      return undefined;
    }
    const v = parsed.data;
    if (v.productName !== undefined && v.productName !== product.name) set.name = v.productName;
    if (v.productCategory !== undefined && v.productCategory !== product.category) {
      set.category = v.productCategory;
    }
    if (v.productDescription !== undefined && v.productDescription !== product.description) {
      set.description = v.productDescription;
    }
    if (v.productPrice !== undefined && toCents(v.productPrice) !== product.priceCents) {
      set.priceCents = toCents(v.productPrice);
    }
    if (v.stockQuantity !== undefined && v.stockQuantity !== product.stock) set.stock = v.stockQuantity;
    if (v.platform !== undefined && v.platform !== product.platform) set.platform = v.platform;
  }
  const fields: string[] = [];
  if (set.name !== undefined) fields.push('productName');
  if (set.category !== undefined) fields.push('productCategory');
  if (set.description !== undefined) fields.push('productDescription');
  if (set.priceCents !== undefined) fields.push('productPrice');
  if (set.stock !== undefined) fields.push('stockQuantity');
  if (set.platform !== undefined) fields.push('platform');

  let images: string[] | undefined;
  const wanted = ctx.imagesOf(cells.productImage);
  const category = set.category ?? product.category;
  const same =
    wanted.join(' ') === product.images.join(' ') ||
    (wanted.length === 0 && ctx.isPlaceholderOf(category, product.images));
  if (!same) {
    images = wanted;
    fields.push('productImage');
  }
  return { set, images, fields };
}

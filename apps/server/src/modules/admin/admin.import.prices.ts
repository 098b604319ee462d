import { CreateProductFields, ProductVariantInput, toCents, toDollars } from '@pixel-vault/shared';
import type { z } from 'zod';
import type { ProductVariantRow } from '../../db/schema/index.js';
import { type Cells, type Fail, issuesOf } from './admin.import.csv.js';
import type { VariantRow } from './admin.import.groups.js';

/**
 * A variant row's price and stock (issue 31), checked with the rules of the admin's product form. The
 * first row's are also the product's `productPrice` and `stockQuantity` (the default variant's).
 */

/** A number cell, with its rule and the text the export writes for the stored value. */
interface NumberCell {
  column: string;
  cell: string;
  rule: z.ZodType<number, unknown>;
  asExported?: string | undefined;
}

const money = (cents: number) => toDollars(cents).toFixed(2);

function parsed(row: number, { cell, rule }: NumberCell, fail: Fail): number | undefined {
  const result = rule.safeParse(cell);
  if (!result.success) fail(row, issuesOf(result.error));
  return result.data;
}

/**
 * The first row's price (or stock): `productPrice` is the default variant's, so it and `variantPrice`
 * say the same thing. An empty one, or one still as the export wrote it, yields to the other (an
 * export edited the old way, in productPrice, still works); both edited, they must agree.
 */
function firstRowNumber(row: number, product: NumberCell, variant: NumberCell, fail: Fail) {
  const productEdited = product.cell !== '' && product.cell !== product.asExported;
  if (variant.cell === '' || (productEdited && variant.cell === variant.asExported)) {
    return parsed(row, product, fail);
  }
  const value = parsed(row, variant, fail);
  if (value === undefined || !productEdited) return value;
  const other = product.rule.safeParse(product.cell);
  if (other.success && toCents(other.data) === toCents(value)) return value;
  const { column } = product;
  fail(
    row,
    `${column} ${product.cell} and ${variant.column} ${variant.cell} differ: ${column} is the first ` +
      `variant's, so change one of them (or leave ${column} empty)`,
  );
  return undefined;
}

/** A row's price and stock; the first row's are also the product's columns (`first`). */
export function numbersOf(
  r: VariantRow,
  first:
    | { cells: Cells; default?: ProductVariantRow | undefined; own?: ProductVariantRow | undefined }
    | undefined,
  fail: Fail,
) {
  const price = { column: 'variantPrice', cell: r.price, rule: ProductVariantInput.shape.price };
  const stock = { column: 'variantStock', cell: r.stock, rule: ProductVariantInput.shape.stockQuantity };
  if (!first) return { price: parsed(r.row, price, fail), stock: parsed(r.row, stock, fail) };
  const { cells, default: stored, own } = first;
  return {
    price: firstRowNumber(
      r.row,
      {
        ...price,
        column: 'productPrice',
        cell: cells.productPrice.trim(),
        rule: CreateProductFields.shape.productPrice,
        asExported: stored && money(stored.priceCents),
      },
      { ...price, asExported: own && money(own.priceCents) },
      fail,
    ),
    stock: firstRowNumber(
      r.row,
      {
        ...stock,
        column: 'stockQuantity',
        cell: cells.stockQuantity.trim(),
        rule: CreateProductFields.shape.stockQuantity,
        asExported: stored && String(stored.stock),
      },
      { ...stock, asExported: own && String(own.stock) },
      fail,
    ),
  };
}

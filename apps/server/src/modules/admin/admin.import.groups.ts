import {
  Id,
  OPTION_CSV_COLUMNS,
  PRODUCT_CSV_COLUMNS,
  ProductOptionInput,
  Sku,
  TradeInCreditInput,
  VARIANT_CSV_COLUMNS,
  toCents,
} from '@pixel-vault/shared';
import {
  type Cells,
  type Fail,
  type ImportRecord,
  ROWS_PER_TURN,
  type VariantCells,
  issuesOf,
  nextTurn,
} from './admin.import.csv.js';

/**
 * The rows of a file as products (issue 31, docs/admin-import.md). Without the variant columns a row is
 * a product. With them a row is a variant, and the rows of one product are consecutive: a row belongs
 * to the previous row's product when it has the same `_id`, or, both `_id`s being empty (a new
 * product), the same name. The product's columns are the same on each of its rows. Only what the file
 * alone says is checked here; the variants are compared with the product's in admin.import.variants.ts.
 */

/** A variant's row, its cells read (trimmed; ids lower case). */
export interface VariantRow {
  row: number;
  variantId: string | undefined;
  /** Empty: the variant keeps its SKU, or a new one is made one. */
  sku: string | undefined;
  /** The option names given (option1Name, ...), in order, and this row's value of each. */
  names: string[];
  values: string[];
  price: string;
  stock: string;
  /** Issue 35: its trade-in credit in cents, null for not bought; undefined: the file has no such column. */
  tradeInCreditCents?: number | null;
  /** False when the row is wrong on its own or beside its product's rows (already that row's error). */
  ok: boolean;
}

/** One product of the file: its first row, that row's product columns, and (with them) its variants. */
export interface ProductRows {
  row: number;
  cells: Cells;
  variants?: VariantRow[];
  /** Issue 35, a row without variant cells: its default variant's trade-in credit, as VariantRow's. */
  tradeInCreditCents?: number | null;
}

const OptionName = ProductOptionInput.shape.name;
const OptionValue = ProductOptionInput.shape.values.element;

/** The columns the rows of one product repeat; `_id` and the name also tell which product a row is. */
const REPEATED = PRODUCT_CSV_COLUMNS.filter((column) => column !== '_id');

function sameProduct(first: Cells, cells: Cells): boolean {
  const id = cells._id.trim().toLowerCase();
  const firstId = first._id.trim().toLowerCase();
  if (id !== '') return id === firstId;
  return firstId === '' && cells.productName.trim() === first.productName.trim();
}

/**
 * Issue 35: a tradeInCredit cell as cents, null when empty (not bought); undefined in a file without the
 * column, or when the cell is wrong (then `wrong` is told why).
 */
function readCredit(cell: string | undefined, wrong: (message: string) => void): number | null | undefined {
  if (cell === undefined) return undefined;
  const parsed = TradeInCreditInput.safeParse(cell);
  if (!parsed.success) {
    wrong(issuesOf(parsed.error));
    return undefined;
  }
  return parsed.data === null ? null : toCents(parsed.data);
}

/** A credit read into a row, only when the file has the column. */
const creditField = (cents: number | null | undefined) =>
  cents === undefined ? {} : { tradeInCreditCents: cents };

/** The variant cells of one row, each checked on its own. */
function readVariant(row: number, cells: VariantCells, credit: string | undefined, fail: Fail): VariantRow {
  let ok = true;
  const wrong = (message: string) => {
    fail(row, message);
    ok = false;
  };
  const id = cells.variantId.trim();
  if (id !== '' && !Id.safeParse(id).success) {
    wrong(
      `variantId ${JSON.stringify(id.slice(0, 60))} is not a variant id: leave it empty to add a variant`,
    );
  }
  const skuCell = cells.sku.trim();
  const sku = skuCell === '' ? undefined : Sku.safeParse(skuCell);
  if (sku && !sku.success) wrong(issuesOf(sku.error));

  const names: string[] = [];
  const values: string[] = [];
  let previous: string | undefined;
  for (const column of OPTION_CSV_COLUMNS) {
    const name = cells[column.name].trim();
    const value = cells[column.value].trim();
    if (name === '') {
      if (value !== '') wrong(`${column.value} is given without ${column.name}`);
      previous ??= column.name;
      continue;
    }
    if (previous !== undefined) {
      wrong(`${column.name} is given without ${previous}: fill the options in from option1Name on`);
      continue;
    }
    const parsedName = OptionName.safeParse(name);
    if (!parsedName.success) wrong(`${column.name}: ${issuesOf(parsedName.error)}`);
    const parsedValue = OptionValue.safeParse(value);
    if (!parsedValue.success) {
      wrong(value === '' ? `${column.value} is required: the value of ${name}` : issuesOf(parsedValue.error));
    }
    names.push(name);
    values.push(value);
  }
  return {
    row,
    variantId: id === '' ? undefined : id.toLowerCase(),
    sku: sku?.success ? sku.data : undefined,
    names,
    values,
    price: cells.variantPrice.trim(),
    stock: cells.variantStock.trim(),
    ...creditField(readCredit(credit, wrong)),
    ok,
  };
}

/**
 * The file's products in file order. A row that cannot be read is its error and ends the product
 * before it. A SKU given twice in the file (case aside) is the later row's error.
 */
export async function groupRows(records: ImportRecord[], fail: Fail): Promise<ProductRows[]> {
  const products: ProductRows[] = [];
  let open: ProductRows | undefined;
  const skuRows = new Map<string, number>();
  for (const { row, cells, variant, credit, error } of records) {
    if (row % ROWS_PER_TURN === 0) await nextTurn();
    if (!cells) {
      fail(row, error ?? 'The row cannot be read');
      open = undefined;
      continue;
    }
    // A row without any variant cell reads as in a file without them: the product's columns alone (its
    // price and stock the default variant's), whatever variants the product has.
    if (!variant || VARIANT_CSV_COLUMNS.every((column) => variant[column].trim() === '')) {
      products.push({ row, cells, ...creditField(readCredit(credit, (message) => fail(row, message))) });
      open = undefined;
      continue;
    }
    const read = readVariant(row, variant, credit, fail);
    if (read.sku !== undefined) {
      const first = skuRows.get(read.sku.toLowerCase());
      if (first !== undefined) {
        fail(row, `SKU ${read.sku} is already in row ${first}`);
        read.ok = false;
      } else skuRows.set(read.sku.toLowerCase(), row);
    }
    if (!open?.variants || !sameProduct(open.cells, cells)) {
      open = { row, cells, variants: [read] };
      products.push(open);
      continue;
    }
    for (const column of REPEATED) {
      // An optional column the file leaves out (issue 33) is undefined on every row alike.
      if ((cells[column] ?? '').trim() !== (open.cells[column] ?? '').trim()) {
        fail(
          row,
          `${column} differs from row ${open.row}'s: a product's columns are the same on each of its rows`,
        );
        read.ok = false;
      }
    }
    const [first] = open.variants;
    if (first && read.names.join('\n') !== first.names.join('\n')) {
      const named = (names: string[]) => (names.length > 0 ? names.join(', ') : 'none');
      fail(
        row,
        `The option names (${named(read.names)}) are not those of row ${open.row} (${named(first.names)}): ` +
          "a product's options are named the same on each of its rows",
      );
      read.ok = false;
    }
    open.variants.push(read);
  }
  return products;
}

import { CsvError, parse } from 'csv-parse';
import {
  MAX_IMPORT_ROWS,
  OPTIONAL_PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_COLUMNS,
  TRADE_IN_CREDIT_CSV_COLUMN,
  VARIANT_CSV_COLUMNS,
} from '@pixel-vault/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.js';

/**
 * Reading a products CSV (issue 15, docs/admin-import.md): the uploaded bytes as the products
 * export's rows, cells as the export meant them. Nothing here knows the database.
 */

export type Column = (typeof PRODUCT_CSV_COLUMNS)[number];
export type OptionalColumn = (typeof OPTIONAL_PRODUCT_CSV_COLUMNS)[number];
/** A row's product cells; a column the file may leave out (issue 33: platform) is undefined when it does. */
export type Cells = Record<Exclude<Column, OptionalColumn>, string> & Partial<Record<OptionalColumn, string>>;
export type VariantColumn = (typeof VARIANT_CSV_COLUMNS)[number];
export type VariantCells = Record<VariantColumn, string>;

/** One data row of the file; `row` counts data rows from 1. */
export interface ImportRecord {
  row: number;
  cells: Cells | null;
  /** The variant columns' cells, in a file that has them (issue 31). */
  variant?: VariantCells;
  /** Issue 35: the tradeInCredit cell, in a file that has the column (the row's variant's, or its default's). */
  credit?: string;
  /** Set when the row cannot be read as the export's columns (a wrong number of fields). */
  error?: string;
}

/** A row's problems: every one is that row's error in the answer (a file with any changes nothing). */
export type Fail = (row: number, message: string) => void;

/** Every issue of a failed parse, as one line. */
export const issuesOf = (error: z.ZodError) =>
  [...new Set(error.issues.map((issue) => issue.message))].join('; ');

const bad = (message: string) => new AppError(400, message, 'BAD_IMPORT_FILE');

/** Bytes handed to the CSV parser at a time; other requests run between two pieces. */
const PARSE_CHUNK = 64 * 1024;
/** Rows checked between two pauses that let other requests run. */
export const ROWS_PER_TURN = 500;
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Undoes the export's formula neutralising (admin.export.ts `neutralise`): the export puts a `'`
 * before a cell beginning with = + - @ a tab, a carriage return or a `'`, so a leading `'` before one
 * of those is the export's and goes. Any other leading `'` was typed by someone and stays.
 */
export function unneutralise(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell;
}

/**
 * RFC 4180 records of `bytes`, read a piece at a time: a 10 MB file takes about a second to read,
 * which must not stop the shop's other requests for that long. Stops early when the file holds more
 * rows than allowed.
 */
async function readRecords(bytes: Uint8Array, limit: number): Promise<string[][]> {
  const records: string[][] = [];
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  let failed = false;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', (error) => {
      failed = true;
      reject(error);
    });
  });
  parser.on('data', (record: string[]) => records.push(record));
  try {
    for (let at = 0; at < bytes.length && !failed; at += PARSE_CHUNK) {
      parser.write(bytes.subarray(at, at + PARSE_CHUNK));
      await nextTurn();
      if (records.length > limit) {
        parser.destroy();
        return records;
      }
    }
    if (!failed) parser.end();
    await finished;
  } catch (error) {
    if (error instanceof CsvError) throw bad(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  return records;
}

const isOptional = (column: Column) => (OPTIONAL_PRODUCT_CSV_COLUMNS as readonly string[]).includes(column);
/** The product columns every file names: those of the export before issue 33. */
const REQUIRED_COLUMNS = PRODUCT_CSV_COLUMNS.filter((column) => !isOptional(column));

/** Which of the known columns the header names, or a 400 saying what is wrong with it. */
function readHeader(header: string[]): { names: string[]; withVariants: boolean } {
  const names = header.map((name) => name.trim());
  const known: readonly string[] = [
    ...PRODUCT_CSV_COLUMNS,
    ...VARIANT_CSV_COLUMNS,
    TRADE_IN_CREDIT_CSV_COLUMN,
  ];
  const missing = REQUIRED_COLUMNS.filter((column) => !names.includes(column));
  const unknown = names.filter((name) => !known.includes(name));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (missing.length > 0 || unknown.length > 0 || twice.length > 0) {
    const problems = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      unknown.length > 0 ? `unknown ${unknown.map((n) => JSON.stringify(n)).join(', ')}` : '',
      twice.length > 0 ? `named twice ${[...new Set(twice)].join(', ')}` : '',
    ].filter(Boolean);
    throw bad(
      `The first row must name the columns ${REQUIRED_COLUMNS.join(',')} and may name ` +
        `${[...OPTIONAL_PRODUCT_CSV_COLUMNS, TRADE_IN_CREDIT_CSV_COLUMN].join(',')} (as the products export does): ` +
        problems.join('; '),
    );
  }
  // Issue 31: the variant columns come together (a row is a variant) or not at all (a row is a product).
  const given = VARIANT_CSV_COLUMNS.filter((column) => names.includes(column));
  if (given.length > 0 && given.length < VARIANT_CSV_COLUMNS.length) {
    const lacking = VARIANT_CSV_COLUMNS.filter((column) => !names.includes(column));
    throw bad(
      `The variant columns come all together or not at all: missing ${lacking.join(', ')} ` +
        `(the file has ${given.join(', ')}; the products export writes ${VARIANT_CSV_COLUMNS.join(',')})`,
    );
  }
  return { names, withVariants: given.length > 0 };
}

/**
 * Reads the uploaded bytes as the products export: UTF-8 (a BOM allowed), RFC 4180, a header row
 * naming every column of PRODUCT_CSV_COLUMNS once (in any order; OPTIONAL_PRODUCT_CSV_COLUMNS may be
 * left out), and VARIANT_CSV_COLUMNS all or none.
 * Anything that is not such a file is a 400 with a message; a row that cannot be read is that row's
 * error.
 */
export async function parseProductsCsv(bytes: Uint8Array): Promise<ImportRecord[]> {
  // A NUL never appears in text (and PostgreSQL text cannot hold one): a spreadsheet file, an image...
  if (bytes.includes(0)) throw bad('The file is not a CSV file: export the sheet as CSV (UTF-8)');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bad('The file is not UTF-8 text: export the sheet as CSV (UTF-8)');
  }
  // Spreadsheets start a UTF-8 file with a byte-order mark (the decoder drops it; so does the parser).
  if (text.trim() === '') throw bad('The file is empty');

  // The header, the most rows allowed and one more: enough to tell the file is too long.
  const records = await readRecords(bytes, MAX_IMPORT_ROWS + 1);
  const [header, ...rows] = records;
  if (!header) throw bad('The file is empty');
  const { names, withVariants } = readHeader(header);
  if (rows.length === 0) throw bad('The file has no products: only a header row');
  if (rows.length > MAX_IMPORT_ROWS) {
    const what = withVariants ? 'rows' : 'products';
    throw bad(`The file has more than ${MAX_IMPORT_ROWS} ${what}: split it into several files`);
  }

  const at = PRODUCT_CSV_COLUMNS.map((column) => names.indexOf(column));
  const variantAt = VARIANT_CSV_COLUMNS.map((column) => names.indexOf(column));
  const creditAt = names.indexOf(TRADE_IN_CREDIT_CSV_COLUMN);
  return rows.map((fields, i) => {
    const row = i + 1;
    if (fields.length !== names.length) {
      return {
        row,
        cells: null,
        error: `The row has ${fields.length} fields where the header has ${names.length}`,
      };
    }
    const cell = (index: number | undefined) => unneutralise(fields[index ?? -1] ?? '');
    // A column the file leaves out (only an optional one can be) stays out of the cells.
    const cells = Object.fromEntries(
      PRODUCT_CSV_COLUMNS.flatMap((column, c) => (at[c] === -1 ? [] : [[column, cell(at[c])]])),
    ) as Cells;
    // Issue 35: left out of a file without the column, which leaves every credit as it is.
    const credit = creditAt === -1 ? {} : { credit: cell(creditAt) };
    if (!withVariants) return { row, cells, ...credit };
    const variant = Object.fromEntries(
      VARIANT_CSV_COLUMNS.map((column, c) => [column, cell(variantAt[c])]),
    ) as VariantCells;
    return { row, cells, variant, ...credit };
  });
}

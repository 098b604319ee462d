import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { CsvError, parse } from 'csv-parse';
import {
  type Category,
  CreateProductFields,
  Id,
  MAX_IMPORT_ERRORS_LISTED,
  MAX_IMPORT_ROWS,
  MAX_UPLOAD_IMAGES,
  PRODUCT_CSV_COLUMNS,
  type ProductImportChange,
  type ProductsImportResult,
  UpdateProductFields,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import type { z } from 'zod';
import { type Database, type Transaction, queryRows } from '../../db/client.js';
import {
  defaultSku,
  isDefaultVariant,
  productImages,
  productVariants,
  products,
} from '../../db/schema/index.js';
import { renderBoxArt } from '../../db/seed/box-art.js';
import { boxArtKey } from '../../db/seed/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage.js';
import { publicBase } from '../../lib/urls.js';
import { recordAudit } from '../audit/audit.repo.js';

/**
 * Product CSV import (issue 15, docs/admin-import.md): the products export's file, edited in a
 * spreadsheet, read back. A row with an empty `_id` creates a product, a row with an `_id` updates it.
 * Every row is checked before anything is written, and everything is written in one transaction, so a
 * file is applied whole or not at all.
 */

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];
type Cells = Record<Column, string>;

/** Rows per INSERT / UPDATE statement: 5,000 rows are five round trips, not 5,000. */
export const IMPORT_BATCH = 1000;

/** The name drawn on the placeholder box art of a product imported without images. */
export const PLACEHOLDER_ART_NAME = 'Pixel Vault';

/**
 * Undoes the export's formula neutralising (admin.service.ts `neutralise`): the export puts a `'`
 * before a cell beginning with = + - @ a tab, a carriage return or a `'`, so a leading `'` before one
 * of those is the export's and goes. Any other leading `'` was typed by someone and stays.
 */
export function unneutralise(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell;
}

/** One data row of the file, cells as the export meant them; `row` counts data rows from 1. */
export interface ImportRecord {
  row: number;
  cells: Cells | null;
  /** Set when the row cannot be read as the export's columns (a wrong number of fields). */
  error?: string;
}

const bad = (message: string) => new AppError(400, message, 'BAD_IMPORT_FILE');

/** Bytes handed to the CSV parser at a time; other requests run between two pieces. */
const PARSE_CHUNK = 64 * 1024;
/** Rows checked between two pauses that let other requests run. */
const ROWS_PER_TURN = 500;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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

/**
 * Reads the uploaded bytes as the products export: UTF-8 (a BOM allowed), RFC 4180, a header row
 * naming every column of PRODUCT_CSV_COLUMNS once (in any order). Anything that is not such a file
 * is a 400 with a message; a row that cannot be read is that row's error.
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
  const names = header.map((name) => name.trim());
  const missing = PRODUCT_CSV_COLUMNS.filter((column) => !names.includes(column));
  const unknown = names.filter((name) => !(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (missing.length > 0 || unknown.length > 0 || twice.length > 0) {
    const problems = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      unknown.length > 0 ? `unknown ${unknown.map((n) => JSON.stringify(n)).join(', ')}` : '',
      twice.length > 0 ? `named twice ${[...new Set(twice)].join(', ')}` : '',
    ].filter(Boolean);
    throw bad(
      `The first row must name the columns ${PRODUCT_CSV_COLUMNS.join(',')} (as the products export does): ${problems.join('; ')}`,
    );
  }
  if (rows.length === 0) throw bad('The file has no products: only a header row');
  if (rows.length > MAX_IMPORT_ROWS) {
    throw bad(`The file has more than ${MAX_IMPORT_ROWS} products: split it into several files`);
  }

  const at = PRODUCT_CSV_COLUMNS.map((column) => names.indexOf(column));
  return rows.map((fields, i) => {
    const row = i + 1;
    if (fields.length !== names.length) {
      return {
        row,
        cells: null,
        error: `The row has ${fields.length} fields where the header has ${names.length}`,
      };
    }
    const cells = Object.fromEntries(
      PRODUCT_CSV_COLUMNS.map((column, c) => [column, unneutralise(fields[at[c] ?? -1] ?? '')]),
    ) as Cells;
    return { row, cells };
  });
}

/** The text fields the export writes from a product, as it writes them. */
interface Current {
  id: string;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  stock: number;
  images: string[];
}

interface ProductValues {
  name: string;
  description: string;
  category: Category;
  priceCents: number;
  stock: number;
}

/** What the file asks for an existing product: only the columns that change. */
interface Update {
  id: string;
  set: Partial<ProductValues>;
  /** New images; undefined keeps the product's. Empty: the placeholder art. */
  images?: string[];
}

interface Create extends ProductValues {
  id: string;
  /** Empty: the placeholder art. */
  images: string[];
}

type Plan =
  | { row: number; kind: 'create'; values: ProductValues; images: string[] }
  | { row: number; kind: 'update'; id: string; cells: Cells };

export interface ProductsImportService {
  /** Reads, checks and (unless `dryRun`) applies one file; a file with any row error changes nothing. */
  run(admin: AuthUser, file: Uint8Array, options: { dryRun: boolean }): Promise<ProductsImportResult>;
}

export interface ProductsImportOptions {
  db: Database;
  storage: Storage;
  /** The products service's cache drop (here and on every other instance), called once per import. */
  invalidateCatalogue: () => void;
  /** PUBLIC_URL: image URLs as the API answers them (absolute) are read as the stored ones. */
  publicUrl?: string | undefined;
}

const money = (cents: number) => toDollars(cents).toFixed(2);

/** Every issue of a failed parse, as one line. */
const issuesOf = (error: z.ZodError) => [...new Set(error.issues.map((issue) => issue.message))].join('; ');

/** A JSON array parameter, read back in SQL as a set of values: any number of them, one parameter. */
const jsonSet = (values: string[]) => sql`(select json_array_elements_text(${JSON.stringify(values)}::json))`;

export function createProductsImportService({
  db,
  storage,
  invalidateCatalogue,
  publicUrl,
}: ProductsImportOptions): ProductsImportService {
  const base = publicUrl ? publicBase(publicUrl) : undefined;
  /** An image URL as stored: the API's absolute form (PUBLIC_URL) back to the site-relative path. */
  const stored = (url: string) => (base && url.startsWith(`${base}/`) ? url.slice(base.length) : url);
  const imagesOf = (cell: string) => cell.split(/\s+/).filter(Boolean).map(stored);

  /**
   * The placeholder art of a category: drawn by the seed's box-art code, stored the seed's way. The
   * same every time (drawn from the name), so drawn once per category (about 1.5 ms each).
   */
  const drawn = new Map<string, { svg: string; key: string }>();
  function placeholder(category: string) {
    let art = drawn.get(category);
    if (!art) {
      const svg = renderBoxArt({ name: PLACEHOLDER_ART_NAME, category }, 0);
      art = { svg, key: boxArtKey(PLACEHOLDER_ART_NAME, 0, svg) };
      drawn.set(category, art);
    }
    return art;
  }
  const isPlaceholderOf = (category: string, images: string[]) =>
    images.length === 1 && (images[0] ?? '').endsWith(`/${placeholder(category).key}`);

  async function run(
    admin: AuthUser,
    file: Uint8Array,
    { dryRun }: { dryRun: boolean },
  ): Promise<ProductsImportResult> {
    const records = await parseProductsCsv(file);

    const problems = new Map<number, string[]>();
    const fail = (row: number, message: string) => problems.set(row, [...(problems.get(row) ?? []), message]);

    // Everything the file alone says is checked first, without the database.
    const plans: Plan[] = [];
    const firstRowOf = new Map<string, number>();
    for (const { row, cells, error } of records) {
      if (row % ROWS_PER_TURN === 0) await nextTurn();
      if (!cells) {
        fail(row, error ?? 'The row cannot be read');
        continue;
      }
      const images = imagesOf(cells.productImage);
      if (images.length > MAX_UPLOAD_IMAGES) fail(row, `At most ${MAX_UPLOAD_IMAGES} images`);
      const rawId = cells._id.trim();
      if (rawId === '') {
        const parsed = CreateProductFields.safeParse({
          productName: cells.productName,
          productCategory: cells.productCategory,
          productDescription: cells.productDescription,
          productPrice: cells.productPrice,
          stockQuantity: cells.stockQuantity,
        });
        if (!parsed.success) fail(row, issuesOf(parsed.error));
        else {
          const { productName, productCategory, productDescription, productPrice, stockQuantity } =
            parsed.data;
          plans.push({
            row,
            kind: 'create',
            values: {
              name: productName,
              description: productDescription,
              category: productCategory,
              priceCents: toCents(productPrice),
              stock: stockQuantity,
            },
            images,
          });
        }
        continue;
      }
      if (!Id.safeParse(rawId).success) {
        fail(
          row,
          `_id ${JSON.stringify(rawId.slice(0, 60))} is not a product id: leave it empty to add a product`,
        );
        continue;
      }
      const id = rawId.toLowerCase();
      const first = firstRowOf.get(id);
      if (first !== undefined) {
        fail(row, `Product ${id} is already in row ${first}`);
        continue;
      }
      firstRowOf.set(id, row);
      plans.push({ row, kind: 'update', id, cells });
    }

    const outcome = await db.transaction(async (tx) => {
      // The products to update, locked in id order (two imports cannot deadlock) until the commit: an
      // admin's edit of one of them waits for the whole file, or the file sees it, never half of it.
      const ids = plans.flatMap((p) => (p.kind === 'update' ? [p.id] : []));
      const current = await currentProducts(tx, ids, !dryRun && problems.size === 0);
      const urls = [
        ...new Set(plans.flatMap((p) => (p.kind === 'create' ? p.images : imagesOf(p.cells.productImage)))),
      ];
      const known = await knownImages(tx, urls);
      const checkImages = (row: number, images: string[]) => {
        for (const url of images) {
          if (!known.has(url)) {
            fail(
              row,
              `Image ${url} is not one the shop serves: use the URL of an image a product already has`,
            );
          }
        }
      };

      const creates: Create[] = [];
      const updates: Update[] = [];
      const changes: ProductImportChange[] = [];
      let unchanged = 0;
      for (const [i, plan] of plans.entries()) {
        if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
        if (plan.kind === 'create') {
          checkImages(plan.row, plan.images);
          const id = randomUUID();
          creates.push({ id, ...plan.values, images: plan.images });
          changes.push({
            row: plan.row,
            action: 'create',
            _id: dryRun ? null : id,
            productName: plan.values.name,
            fields: [],
          });
          continue;
        }
        const product = current.get(plan.id);
        if (!product) {
          fail(
            plan.row,
            `No product has the _id ${plan.id} (was it removed?): leave _id empty to add it anew`,
          );
          continue;
        }
        const diff = compare(plan.row, plan.cells, product);
        if (!diff) continue;
        if (diff.images && diff.images.length > 0) checkImages(plan.row, diff.images);
        if (diff.fields.length === 0) {
          unchanged += 1;
          changes.push({
            row: plan.row,
            action: 'unchanged',
            _id: product.id,
            productName: product.name,
            fields: [],
          });
          continue;
        }
        updates.push({ id: product.id, set: diff.set, ...(diff.images ? { images: diff.images } : {}) });
        changes.push({
          row: plan.row,
          action: 'update',
          _id: product.id,
          productName: diff.set.name ?? product.name,
          fields: diff.fields,
        });
      }

      if (problems.size > 0) return { written: false, result: refused(dryRun, problems) };
      const result: ProductsImportResult = {
        dryRun,
        created: creates.length,
        updated: updates.length,
        unchanged,
        errors: [],
        changes,
      };
      if (dryRun) return { written: false, result };

      await write(tx, creates, updates, current);
      await recordAudit(tx, {
        actor: admin.id,
        action: 'product.import',
        targetType: 'product',
        targetId: null,
        before: null,
        after: { rows: records.length, created: result.created, updated: result.updated, unchanged },
      });
      return { written: creates.length + updates.length > 0, result };
    });
    if (outcome.written) invalidateCatalogue();
    return outcome.result;

    /**
     * The columns of `cells` that change `product`. A cell written exactly as the export writes the
     * stored value is unchanged without being checked again (a description saved before the rules of
     * today stays as it is); any other cell goes through the shared schema.
     */
    function compare(row: number, cells: Cells, product: Current) {
      const asExported: Record<Exclude<Column, '_id' | 'productImage'>, string> = {
        productName: product.name,
        productCategory: product.category,
        productDescription: product.description,
        productPrice: money(product.priceCents),
        stockQuantity: String(product.stock),
      };
      const input: Partial<Record<Column, string>> = {};
      for (const [column, value] of Object.entries(asExported) as [keyof typeof asExported, string][]) {
        if (cells[column] !== value) input[column] = cells[column];
      }
      const set: Partial<ProductValues> = {};
      if (Object.keys(input).length > 0) {
        const parsed = UpdateProductFields.safeParse(input);
        if (!parsed.success) {
          fail(row, issuesOf(parsed.error));
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
      }
      const fields: string[] = [];
      if (set.name !== undefined) fields.push('productName');
      if (set.category !== undefined) fields.push('productCategory');
      if (set.description !== undefined) fields.push('productDescription');
      if (set.priceCents !== undefined) fields.push('productPrice');
      if (set.stock !== undefined) fields.push('stockQuantity');

      let images: string[] | undefined;
      const wanted = imagesOf(cells.productImage);
      const category = set.category ?? product.category;
      const same =
        wanted.join(' ') === product.images.join(' ') ||
        (wanted.length === 0 && isPlaceholderOf(category, product.images));
      if (!same) {
        images = wanted;
        fields.push('productImage');
      }
      return { set, images, fields };
    }
  }

  /** The live products among `ids`, with their images; locked FOR UPDATE when about to be written. */
  async function currentProducts(
    tx: Transaction,
    ids: string[],
    lock: boolean,
  ): Promise<Map<string, Current>> {
    const found = new Map<string, Current>();
    if (ids.length === 0) return found;
    const rows = await queryRows<{
      id: string;
      name: string;
      description: string;
      category: string;
      price_cents: number;
      stock: number;
    }>(
      tx,
      // Price and stock: the default variant's (issue 31), locked with its product when about to be written.
      sql`select p.id, p.name, p.description, p.category, v.price_cents, v.stock
          from ${products} p
          join ${productVariants} v on v.product_id = p.id and ${isDefaultVariant('v')}
          where p.deleted_at is null and p.id in (select value::uuid from ${jsonSet(ids)} as ids(value))
          order by p.id
          ${lock ? sql`for update of p, v` : sql``}`,
    );
    for (const r of rows) {
      found.set(r.id, {
        id: r.id,
        name: r.name,
        description: r.description,
        category: r.category,
        priceCents: Number(r.price_cents),
        stock: Number(r.stock),
        images: [],
      });
    }
    const images = await queryRows<{ product_id: string; url: string }>(
      tx,
      sql`select i.product_id, i.url from ${productImages} i
          where i.product_id in (select value::uuid from ${jsonSet([...found.keys()])} as ids(value))
          order by i.product_id, i.position`,
    );
    for (const image of images) found.get(image.product_id)?.images.push(image.url);
    return found;
  }

  /** The URLs among `urls` that some product (live or removed) shows: images the shop serves. */
  async function knownImages(tx: Transaction, urls: string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const rows = await queryRows<{ url: string }>(
      tx,
      sql`select distinct i.url from ${productImages} i where i.url in ${jsonSet(urls)}`,
    );
    return new Set(rows.map((r) => r.url));
  }

  /** Every change, batched: multi-row INSERTs, UPDATE ... FROM (VALUES ...), images replaced. */
  async function write(tx: Transaction, creates: Create[], updates: Update[], current: Map<string, Current>) {
    // The placeholder art each category needs, stored once (the key is the content's hash, so storing
    // it again is harmless, as for the seed's images).
    const art = new Map<string, string>();
    const artOf = async (category: string) => {
      let url = art.get(category);
      if (url === undefined) {
        const { svg, key } = placeholder(category);
        url = await storage.put(key, Buffer.from(svg), 'image/svg+xml');
        art.set(category, url);
      }
      return url;
    };

    const imageRows: { productId: string; position: number; url: string }[] = [];
    const addImages = async (productId: string, category: string, images: string[]) => {
      const list = images.length > 0 ? images : [await artOf(category)];
      list.forEach((url, position) => imageRows.push({ productId, position, url }));
    };

    for (let i = 0; i < creates.length; i += IMPORT_BATCH) {
      const batch = creates.slice(i, i + IMPORT_BATCH);
      await tx
        .insert(products)
        .values(batch.map(({ id, name, description, category }) => ({ id, name, description, category })));
      await tx.insert(productVariants).values(
        batch.map(({ id, priceCents, stock }) => ({
          productId: id,
          position: 0,
          sku: defaultSku(id),
          priceCents,
          stock,
        })),
      );
    }
    for (const c of creates) await addImages(c.id, c.category, c.images);

    const now = new Date();
    for (let i = 0; i < updates.length; i += IMPORT_BATCH) {
      const batch = updates.slice(i, i + IMPORT_BATCH);
      const values: SQL[] = batch.map(
        ({ id, set }) =>
          sql`(${id}::uuid, ${set.name ?? null}::text, ${set.description ?? null}::text,
               ${set.category ?? null}::text, ${set.priceCents ?? null}::int, ${set.stock ?? null}::int)`,
      );
      // A column the file leaves as it is keeps the row's value (null in VALUES): field-wise, as the
      // products service's update (no read-modify-write of whole rows).
      await tx.execute(sql`
        update ${products} p set
          name = coalesce(v.name, p.name),
          description = coalesce(v.description, p.description),
          category = coalesce(v.category, p.category),
          updated_at = ${now.toISOString()}::timestamptz
        from (values ${sql.join(values, sql`, `)}) as v(id, name, description, category, price_cents, stock)
        where p.id = v.id`);
      // Price and stock go to each product's default variant (issue 31).
      if (batch.some(({ set }) => set.priceCents !== undefined || set.stock !== undefined)) {
        await tx.execute(sql`
          update ${productVariants} pv set
            price_cents = coalesce(v.price_cents, pv.price_cents),
            stock = coalesce(v.stock, pv.stock),
            updated_at = ${now.toISOString()}::timestamptz
          from (values ${sql.join(values, sql`, `)}) as v(id, name, description, category, price_cents, stock)
          where pv.product_id = v.id and ${isDefaultVariant('pv')}
            and (v.price_cents is not null or v.stock is not null)`);
      }
    }
    const reimaged = updates.filter((u) => u.images !== undefined);
    for (let i = 0; i < reimaged.length; i += IMPORT_BATCH) {
      const ids = reimaged.slice(i, i + IMPORT_BATCH).map((u) => u.id);
      await tx.execute(
        sql`delete from ${productImages} where product_id in (select value::uuid from ${jsonSet(ids)} as ids(value))`,
      );
    }
    for (const u of reimaged) {
      const category = u.set.category ?? current.get(u.id)?.category ?? 'retro-games';
      await addImages(u.id, category, u.images ?? []);
    }
    for (let i = 0; i < imageRows.length; i += IMPORT_BATCH) {
      await tx.insert(productImages).values(imageRows.slice(i, i + IMPORT_BATCH));
    }
  }

  return { run };
}

/** The 422 answer: nothing written, the rows named (at most MAX_IMPORT_ERRORS_LISTED of them). */
function refused(dryRun: boolean, problems: Map<number, string[]>): ProductsImportResult {
  const errors = [...problems.entries()]
    .sort(([a], [b]) => a - b)
    .map(([row, messages]) => ({ row, message: messages.join('; ') }));
  const n = errors.length;
  const listed = n > MAX_IMPORT_ERRORS_LISTED ? ` (the first ${MAX_IMPORT_ERRORS_LISTED} are listed)` : '';
  return {
    message: `${n} ${n === 1 ? 'row has an error' : 'rows have errors'}${listed}: nothing was imported`,
    dryRun,
    created: 0,
    updated: 0,
    unchanged: 0,
    errors: errors.slice(0, MAX_IMPORT_ERRORS_LISTED),
    changes: [],
  };
}

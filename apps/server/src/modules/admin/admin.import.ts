import { MAX_IMPORT_ERRORS_LISTED, type ProductsImportResult } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { renderBoxArt } from '../../db/seed/box-art.js';
import { boxArtKey } from '../../db/seed/index.js';
import type { AuthUser } from '../../lib/access.js';
import type { Storage } from '../../lib/storage.js';
import { publicBase } from '../../lib/urls.js';
import { recordAudit } from '../audit/audit.repo.js';
import { parseProductsCsv } from './admin.import.csv.js';
import { groupRows } from './admin.import.groups.js';
import { type PlanContext, planProducts, readProducts } from './admin.import.plan.js';
import { currentProducts, knownImages, liveVariants, skuOwners, writeImport } from './admin.import.repo.js';
import { checkSkuClaims } from './admin.import.skus.js';

// Reading the file is its own module; these stay reachable where they always were.
export { parseProductsCsv, unneutralise } from './admin.import.csv.js';

/**
 * Product CSV import (issue 15, docs/admin-import.md): the products export's file, edited in a
 * spreadsheet, read back. A product with an empty `_id` is created, one with an `_id` updated; with the
 * variant columns (issue 31) a product's rows are its variants. Every row is checked before anything is
 * written, and everything is written in one transaction, so a file is applied whole or not at all.
 *
 * The story: read the file (admin.import.csv.ts), group its rows into products
 * (admin.import.groups.ts), check what the file alone says, compare each product with the stored one
 * (admin.import.plan.ts: its own columns in admin.import.columns.ts, its variants in
 * admin.import.variants.ts, prices.ts and skus.ts), and write the changes in batches
 * (admin.import.repo.ts).
 */

/** The name drawn on the placeholder box art of a product imported without images. */
export const PLACEHOLDER_ART_NAME = 'Pixel Vault';

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
    const plans = await readProducts(await groupRows(records, fail), { fail, imagesOf });

    const outcome = await db.transaction(async (tx) => {
      // The products to update (and their variants), locked until the commit unless nothing will be written.
      const lock = !dryRun && problems.size === 0;
      const ids = plans.flatMap((p) => (p.kind === 'update' ? [p.id] : []));
      const current = await currentProducts(tx, ids, lock);
      const withVariants = plans.flatMap((p) => (p.kind === 'update' && p.product.variants ? [p.id] : []));
      const variants = await liveVariants(tx, withVariants, lock);
      const urls = plans.flatMap((p) =>
        p.kind === 'create' ? p.images : imagesOf(p.product.cells.productImage),
      );
      const known = await knownImages(tx, [...new Set(urls)]);
      const checkImages = (row: number, images: string[]) => {
        for (const url of images) {
          if (known.has(url)) continue;
          fail(row, `Image ${url} is not one the shop serves: use the URL of an image a product already has`);
        }
      };

      const context: PlanContext = { fail, dryRun, imagesOf, isPlaceholderOf, checkImages };
      const work = await planProducts(plans, current, variants, context);
      checkSkuClaims(
        work.skus,
        await skuOwners(
          tx,
          work.skus.map((claim) => claim.sku),
        ),
        fail,
      );

      if (problems.size > 0) return { written: false, result: refused(dryRun, problems) };
      const { creates, updates, unchanged, changes } = work;
      const result: ProductsImportResult = {
        dryRun,
        created: creates.length,
        updated: updates.length,
        unchanged,
        errors: [],
        changes,
      };
      if (dryRun) return { written: false, result };

      // The placeholder art each category needs, stored once (the key is the content's hash, so storing
      // it again is harmless, as for the seed's images).
      const art = new Map<string, Promise<string>>();
      const placeholderUrl = (category: string) => {
        let url = art.get(category);
        if (url === undefined) {
          const { svg, key } = placeholder(category);
          url = storage.put(key, Buffer.from(svg), 'image/svg+xml');
          art.set(category, url);
        }
        return url;
      };
      await writeImport(tx, work, current, placeholderUrl);
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

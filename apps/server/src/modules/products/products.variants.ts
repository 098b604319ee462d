import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type ProductOption,
  type ProductOptionInput,
  type ProductVariantInput,
  toCents,
  variantsProblem,
} from '@pixel-vault/shared';
import { type Transaction, queryRows } from '../../db/client.js';
import { type ProductVariantRow, defaultSku, productVariants, products } from '../../db/schema/index.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';

/**
 * An admin's write of a product's options and variants (issue 31, decision 007): the whole list of
 * variants, in order, made true in the caller's transaction, with the product's row locked. A variant
 * with `_id` is changed in place (orders and carts keep naming it), one without is made, and a live
 * variant left out is archived: it keeps its row for the orders that name it, and gives its SKU back.
 */

/** Where a write parks the variants it reorders: live positions are unique at every statement. */
const PARKED_FROM = 100;

/** The variants' live rows of a product, in position order, locked for this write. */
export function liveVariantsForUpdate(tx: Transaction, productId: string): Promise<ProductVariantRow[]> {
  return tx
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), isNull(productVariants.archivedAt)))
    .orderBy(asc(productVariants.position))
    .for('update');
}

/** A live variant as an input naming it: what a write of only the options checks them against. */
export const asInput = (row: ProductVariantRow): ProductVariantInput => ({
  _id: row.id,
  sku: row.sku,
  options: row.options,
  price: row.priceCents / 100,
  stockQuantity: row.stock,
  tradeInCredit: row.tradeInCreditCents === null ? null : row.tradeInCreditCents / 100,
});

const invalid = (message: string) => new AppError(400, message, 'INVALID_VARIANTS');

/** The SKU of an archived variant: `~` is never in a SKU an admin gives, so it can be given again. */
function retiredSku(row: ProductVariantRow): string {
  const hex = row.id.replace(/-/g, '');
  return `${row.sku.slice(0, 64 - hex.length - 1)}~${hex}`;
}

/**
 * 409 naming the first SKU in `skus` that a variant outside `own` (another product's, or one of this
 * product's that the write does not keep) already has, compared without case.
 */
async function refuseTakenSkus(tx: Transaction, skus: string[], own: string[]): Promise<void> {
  if (skus.length === 0) return;
  const [taken] = await queryRows<{ sku: string; name: string }>(
    tx,
    sql`select v.sku, p.name from ${productVariants} v join ${products} p on p.id = v.product_id
        where lower(v.sku) in (${sql.join(
          skus.map((s) => sql`${s.toLowerCase()}`),
          sql`, `,
        )})
          ${
            own.length
              ? sql`and v.id not in (${sql.join(
                  own.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        order by v.sku limit 1`,
  );
  if (taken) throw skuTaken(taken.sku, taken.name);
}

const skuTaken = (sku: string, name?: string) =>
  new AppError(409, `SKU ${sku} is already used${name ? ` by ${name}` : ''}`, 'SKU_TAKEN');

export interface VariantsWrite {
  productId: string;
  /** The product's options after the write. */
  options: readonly ProductOptionInput[];
  /** Its variants after the write, in order. */
  variants: readonly ProductVariantInput[];
  /** Its live variants before (liveVariantsForUpdate); [] for a new product. */
  current: readonly ProductVariantRow[];
  now: Date;
}

/**
 * Makes `variants` the product's live variants, in order. 400 when they do not fit `options` or name a
 * variant that is not one of the product's live ones; 409 when a SKU is another variant's.
 */
export async function writeVariants(tx: Transaction, write: VariantsWrite): Promise<void> {
  const { productId, options, variants, current, now } = write;
  const problem = variantsProblem(options, variants);
  if (problem) throw invalid(problem);
  const byId = new Map(current.map((row) => [row.id, row]));
  for (const variant of variants) {
    if (variant._id !== undefined && !byId.has(variant._id.toLowerCase())) {
      throw invalid(`Variant ${variant._id} is not one of this product's`);
    }
  }
  const kept = new Set(variants.flatMap((v) => (v._id ? [v._id.toLowerCase()] : [])));
  const given = variants.flatMap((v) => (v.sku !== undefined ? [v.sku] : []));
  await refuseTakenSkus(tx, given, [...kept]);

  try {
    // Left out: archived, its SKU given back (its orders keep its title, not its SKU).
    for (const row of current) {
      if (kept.has(row.id)) continue;
      await tx
        .update(productVariants)
        .set({ archivedAt: now, sku: retiredSku(row), updatedAt: now })
        .where(eq(productVariants.id, row.id));
    }
    // Kept: parked first (positions, and the options and SKUs that change), so that no statement
    // finds two live rows with the same position, combination or SKU on the way.
    const changes = variants.flatMap((variant, position) => {
      const row = variant._id ? byId.get(variant._id.toLowerCase()) : undefined;
      return row ? [{ row, variant, position }] : [];
    });
    for (const { row, variant, position } of changes) {
      const parked: Partial<ProductVariantRow> = { position: PARKED_FROM + position };
      if (JSON.stringify(sortedKeys(variant.options)) !== JSON.stringify(sortedKeys(row.options))) {
        parked.options = { '~': row.id };
      }
      if (variant.sku !== undefined && variant.sku !== row.sku) parked.sku = `~${row.id}`;
      await tx.update(productVariants).set(parked).where(eq(productVariants.id, row.id));
    }
    for (const { row, variant, position } of changes) {
      await tx
        .update(productVariants)
        .set({
          position,
          options: variant.options,
          sku: variant.sku ?? row.sku,
          priceCents: toCents(variant.price),
          stock: variant.stockQuantity,
          // Issue 35: left out, the variant keeps its trade-in credit; null, the shop stops buying it.
          ...(variant.tradeInCredit !== undefined ? { tradeInCreditCents: creditCents(variant) } : {}),
          updatedAt: now,
        })
        .where(eq(productVariants.id, row.id));
    }
    const added = variants.flatMap((variant, position) => {
      if (variant._id) return [];
      const id = randomUUID();
      return [
        {
          id,
          productId,
          position,
          sku: variant.sku ?? defaultSku(id),
          options: variant.options,
          priceCents: toCents(variant.price),
          stock: variant.stockQuantity,
          tradeInCreditCents: creditCents(variant),
        },
      ];
    });
    if (added.length > 0) await tx.insert(productVariants).values(added);
  } catch (error) {
    // Another admin's write took one of these SKUs after the check above.
    if (isUniqueViolation(error)) throw skuTaken(given.join(', '));
    throw error;
  }
  await tx
    .update(products)
    .set({ options: options as ProductOption[], updatedAt: now })
    .where(eq(products.id, productId));
}

/** A variant's trade-in credit in cents (issue 35); null (not bought) when left out or cleared. */
function creditCents(variant: ProductVariantInput): number | null {
  return variant.tradeInCredit == null ? null : toCents(variant.tradeInCredit);
}

function sortedKeys(values: Record<string, string>): [string, string][] {
  return Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

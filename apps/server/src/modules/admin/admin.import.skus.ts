import type { ProductVariantInput } from '@pixel-vault/shared';
import type { ProductVariantRow } from '../../db/schema/index.js';
import type { Fail } from './admin.import.csv.js';

/**
 * SKUs a products file gives (issue 31): unique across the shop, case aside. Given twice in the file is
 * caught with the rows (admin.import.groups.ts); here, a SKU against the variants the shop has.
 */

/** A SKU the file gives a variant that has not got it yet, to be checked against the shop's. */
export interface SkuClaim {
  row: number;
  sku: string;
  productId: string | undefined;
  variantId: string | undefined;
  /** The product's kept variants whose SKU the file changes: theirs may go to another of its rows. */
  movingAway: ReadonlySet<string>;
}

/** The variant holding a SKU (any variant, of any product, live or removed). */
export interface SkuOwner {
  id: string;
  productId: string;
  sku: string;
  productName: string;
}

const fold = (text: string) => text.toLowerCase();

/** The SKUs `variants` (in `rows`) are given that their variant has not got yet. */
export function skuClaims(
  productId: string | undefined,
  variants: ProductVariantInput[],
  rows: number[],
  byId: Map<string, ProductVariantRow>,
): SkuClaim[] {
  const own = (variant: ProductVariantInput) => (variant._id ? byId.get(variant._id) : undefined);
  const movingAway = new Set(
    variants.flatMap((v) => {
      const row = own(v);
      return row && v.sku !== undefined && fold(v.sku) !== fold(row.sku) ? [row.id] : [];
    }),
  );
  return variants.flatMap((v, i): SkuClaim[] =>
    v.sku === undefined || own(v)?.sku === v.sku
      ? []
      : [{ row: rows[i] ?? 0, sku: v.sku, productId, variantId: v._id, movingAway }],
  );
}

/**
 * A SKU the file gives is refused when another variant has it, unless that is a variant of the same
 * product that the file keeps and gives another SKU: the rule of writeVariants, which checks a
 * product's SKUs against every variant but its own kept ones. So a SKU cannot move from one product to
 * another in one file, whatever the order the products are written in.
 */
export function checkSkuClaims(claims: SkuClaim[], owners: Map<string, SkuOwner>, fail: Fail): void {
  for (const claim of claims) {
    const owner = owners.get(fold(claim.sku));
    if (!owner || owner.id === claim.variantId) continue;
    if (owner.productId === claim.productId && claim.movingAway.has(owner.id)) continue;
    fail(claim.row, `SKU ${claim.sku} is already used by ${owner.productName}`);
  }
}

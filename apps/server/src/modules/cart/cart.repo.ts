import { and, asc, eq, exists, inArray, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { cartItems, carts, productImages, productVariants, products } from '../../db/schema/index.js';
import type { Catalogue, CatalogueProduct, CatalogueVariant, KeptLine } from './cart.merge.js';

// The only file of the cart module that speaks Drizzle (issue 34).

/** A line with what it cost when it was first added (the answer's `addedPrice`). */
export interface AddedLine extends KeptLine {
  addedPriceCents: number;
}

/** A line as the cart keeps it: also when it was first added. */
export interface StoredLine extends AddedLine {
  addedAt: Date;
}

/**
 * Takes the cart's row lock for the rest of the transaction and counts the write: the first write
 * creates the row (version 1). Two writes at once wait here for each other; the later one then reads
 * the lines the earlier one committed (each statement reads afresh under READ COMMITTED).
 */
export async function lockCart(tx: Transaction, userId: string, now: Date): Promise<number> {
  const [row] = await tx
    .insert(carts)
    .values({ userId, version: 1, updatedAt: now })
    .onConflictDoUpdate({ target: carts.userId, set: { version: sql`${carts.version} + 1`, updatedAt: now } })
    .returning({ version: carts.version });
  if (!row) throw new Error('Cart upsert returned no row');
  return row.version;
}

/** The cart's lines in the shopper's order. */
export async function storedLines(ex: Executor, userId: string): Promise<StoredLine[]> {
  return ex
    .select({
      productId: cartItems.productId,
      variantId: cartItems.variantId,
      qty: cartItems.qty,
      addedPriceCents: cartItems.addedPriceCents,
      addedAt: cartItems.addedAt,
    })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.position));
}

/** Replaces the cart's lines with `lines`, in that order. The caller holds the cart's lock. */
export async function writeLines(
  tx: Transaction,
  userId: string,
  lines: readonly StoredLine[],
): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.userId, userId));
  if (lines.length === 0) return;
  await tx.insert(cartItems).values(
    lines.map((line, position) => ({
      userId,
      productId: line.productId,
      variantId: line.variantId,
      position,
      qty: line.qty,
      addedPriceCents: line.addedPriceCents,
      addedAt: line.addedAt,
    })),
  );
}

/**
 * The cart as one statement reads it (its version and its lines from the same snapshot, so a read
 * beside a write never sees one write's version with another's lines); undefined before the first write.
 */
export async function readCart(
  ex: Executor,
  userId: string,
): Promise<{ version: number; updatedAt: Date; lines: AddedLine[] } | undefined> {
  const [row] = await ex
    .select({
      version: carts.version,
      updatedAt: carts.updatedAt,
      lines: sql<AddedLine[]>`coalesce((
          select json_agg(json_build_object('productId', i.product_id, 'variantId', i.variant_id,
            'qty', i.qty, 'addedPriceCents', i.added_price_cents) order by i.position)
          from ${cartItems} i where i.user_id = ${carts}.${sql.identifier(carts.userId.name)}
        ), '[]'::json)`,
    })
    .from(carts)
    .where(eq(carts.userId, userId));
  return row;
}

/** The product of the row being read, inside a correlated subquery. */
const outerProduct = sql`${products}.${sql.identifier(products.id.name)}`;

/**
 * The products a cart names (removed ones too, flagged, so the answer can name what it dropped), each
 * with its first image and its live variants by position. Read without locks: prices and stock are
 * what they are now, and an order checks them again when placed.
 */
export async function catalogueOf(ex: Executor, productIds: readonly string[]): Promise<Catalogue> {
  const ids = [...new Set(productIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({
      id: products.id,
      name: products.name,
      category: products.category,
      options: products.options,
      deleted: sql<boolean>`${products.deletedAt} is not null`,
      image: sql<string>`coalesce((
          select i.url from ${productImages} i where i.product_id = ${outerProduct} order by i.position limit 1
        ), '')`,
      variants: sql<CatalogueVariant[]>`coalesce((
          select json_agg(json_build_object('id', v.id, 'position', v.position, 'options', v.options,
            'priceCents', v.price_cents, 'stock', v.stock) order by v.position)
          from ${productVariants} v where v.product_id = ${outerProduct} and v.archived_at is null
        ), '[]'::json)`,
    })
    .from(products)
    .where(inArray(products.id, ids));
  return new Map(rows.map((row): [string, CatalogueProduct] => [row.id, row]));
}

/** A buyer's cart lines of the variants an order paid for. */
const paidLines = (userId: string, variantIds: readonly string[]) =>
  and(eq(cartItems.userId, userId), inArray(cartItems.variantId, [...variantIds]));

/**
 * An order was paid (orders.settle.ts, in its transaction): its variants leave the buyer's cart, on
 * every device. This counts a write on the cart, and so takes its lock, only if the cart holds one of
 * them; it is a `with` clause of the statement that marks the order paid (issue 28: no round trip of
 * its own, so every other paid order pays nothing for it). The cart is locked before its lines, as
 * every cart write does: the other order could deadlock with a write. Undefined: nothing to look for.
 */
export function countPaidCart(tx: Transaction, userId: string, variantIds: readonly string[], now: Date) {
  if (variantIds.length === 0) return undefined;
  return tx.$with('paid_cart').as(
    tx
      .update(carts)
      .set({ version: sql`${carts.version} + 1`, updatedAt: now })
      .where(
        and(
          eq(carts.userId, userId),
          exists(
            tx
              .select({ one: sql`1` })
              .from(cartItems)
              .where(paidLines(userId, variantIds)),
          ),
        ),
      )
      .returning({ version: carts.version }),
  );
}

/** Then, when countPaidCart found the cart: the lines go, read afresh under the cart's lock. */
export async function removePaidLines(
  tx: Transaction,
  userId: string,
  variantIds: readonly string[],
): Promise<void> {
  await tx.delete(cartItems).where(paidLines(userId, variantIds));
}

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, type Transaction, queryRows } from '../../db/client.js';
import {
  isDefaultVariant,
  productImages,
  productVariants,
  products,
  wishlistItems,
} from '../../db/schema/index.js';

// The only file of the wishlist module that speaks Drizzle (issue 34).

/** A wished product as the catalogue holds it now (cents; the image as stored). */
export interface WishedProduct {
  productId: string;
  addedAt: Date;
  name: string;
  category: string;
  image: string;
  /** The default variant's price (null only if the product has no live variant, which it always has). */
  priceCents: number | null;
  /** What its live variants hold together. */
  stock: number;
}

/** The product of the row being read, inside a correlated subquery. */
const outerProduct = sql`${products}.${sql.identifier(products.id.name)}`;

/** The user's wished products that are still sold, newest first. */
export async function wishedProducts(ex: Executor, userId: string): Promise<WishedProduct[]> {
  const rows = await ex
    .select({
      productId: wishlistItems.productId,
      addedAt: wishlistItems.addedAt,
      name: products.name,
      category: products.category,
      image: sql<string>`coalesce((
          select i.url from ${productImages} i where i.product_id = ${outerProduct} order by i.position limit 1
        ), '')`,
      priceCents: sql<number | null>`(select v.price_cents from ${productVariants} v
          where v.product_id = ${outerProduct} and ${isDefaultVariant('v')})`,
      stock: sql<number>`(select coalesce(sum(v.stock), 0)::int from ${productVariants} v
          where v.product_id = ${outerProduct} and v.archived_at is null)`,
    })
    .from(wishlistItems)
    .innerJoin(products, and(eq(products.id, wishlistItems.productId), isNull(products.deletedAt)))
    .where(eq(wishlistItems.userId, userId))
    .orderBy(desc(wishlistItems.addedAt), desc(wishlistItems.productId));
  return rows.map((row) => ({
    ...row,
    priceCents: row.priceCents === null ? null : Number(row.priceCents),
    stock: Number(row.stock),
  }));
}

/**
 * In one statement: whether the product is sold (null: no such product), whether the user wishes for it
 * already, and how many sold products they wish for (removed ones do not count).
 */
export async function wishState(
  tx: Transaction,
  userId: string,
  productId: string,
): Promise<{ live: boolean | null; present: boolean; count: number }> {
  const [row] = await queryRows<{ live: boolean | null; present: boolean; count: number }>(
    tx,
    sql`select
          (select p.deleted_at is null from ${products} p where p.id = ${productId}) as live,
          exists (select 1 from ${wishlistItems} w
            where w.user_id = ${userId} and w.product_id = ${productId}) as present,
          (select count(*)::int from ${wishlistItems} w
            join ${products} p on p.id = w.product_id and p.deleted_at is null
            where w.user_id = ${userId}) as count`,
  );
  if (!row) throw new Error('wishState returned no row');
  return { live: row.live, present: row.present === true, count: Number(row.count) };
}

export async function addWish(tx: Transaction, userId: string, productId: string, now: Date): Promise<void> {
  await tx.insert(wishlistItems).values({ userId, productId, addedAt: now }).onConflictDoNothing();
}

export async function removeWish(ex: Executor, userId: string, productId: string): Promise<void> {
  await ex
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}

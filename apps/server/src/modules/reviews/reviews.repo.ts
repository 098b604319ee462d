import { type SQL, and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type AdminReview, type Review, reviewerName } from '@pixel-vault/shared';
import { type Executor, queryRows } from '../../db/client.js';
import { orderItems, orders, productReviews, products, users } from '../../db/schema/index.js';

/** A review with its author's current name and e-mail (null: the author deleted their account). */
export const reviewColumns = {
  id: productReviews.id,
  productId: productReviews.productId,
  userId: productReviews.userId,
  authorName: users.name,
  authorEmail: users.email,
  rating: productReviews.rating,
  title: productReviews.title,
  comment: productReviews.comment,
  hidden: productReviews.hidden,
  hiddenByAdmin: productReviews.hiddenByAdmin,
  verifiedBuyer: productReviews.verifiedBuyer,
  createdAt: productReviews.createdAt,
  updatedAt: productReviews.updatedAt,
};

export interface ReviewQueryRow {
  id: string;
  productId: string;
  userId: string | null;
  authorName: string | null;
  authorEmail: string | null;
  rating: number;
  title: string;
  comment: string;
  /** Not shown to the public: hidden by an admin, or no longer from a verified buyer. */
  hidden: boolean;
  hiddenByAdmin: boolean;
  verifiedBuyer: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The one place a review row becomes the API's Review. Every review the API takes is from a verified
 * buyer (the rule is checked when it is written); `verifiedBuyer` turns false when the author's last
 * order of the product that counted was cancelled or refunded in full (issue 28), and such a review is
 * hidden, so every public answer says true. `hidden` (not shown to the public, for either reason) is
 * told to the admin and to the author only. The author is named as reviewerName says ("Marco T.").
 */
export function toReviewDto(row: ReviewQueryRow, { withHidden = false } = {}): Review {
  return {
    _id: row.id,
    productId: row.productId,
    name: reviewerName(row.authorName),
    rating: row.rating,
    title: row.title,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    verifiedBuyer: row.verifiedBuyer,
    ...(withHidden ? { hidden: row.hidden } : {}),
  };
}

export function toAdminReviewDto(row: ReviewQueryRow & { productName: string }): AdminReview {
  return {
    ...toReviewDto(row),
    // The admin sees who wrote it in full; the public sees "First L." (reviewerName).
    ...(row.authorName !== null ? { name: row.authorName } : {}),
    hidden: row.hidden,
    productName: row.productName,
    email: row.authorEmail ?? '',
  };
}

export async function findReview(tx: Executor, where: SQL | undefined): Promise<ReviewQueryRow | undefined> {
  const [row] = await tx
    .select(reviewColumns)
    .from(productReviews)
    .leftJoin(users, eq(users.id, productReviews.userId))
    .where(where)
    .limit(1);
  return row;
}

/**
 * Locks the product's row for the rest of the transaction (false: no such product on sale). Every
 * review change takes this lock first, so two changes to one product's reviews run one after the
 * other, and the second's recount (a new statement, a new snapshot under READ COMMITTED) sees the
 * first's committed row: concurrent reviews all count.
 */
export async function lockProduct(tx: Executor, productId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), isNull(products.deletedAt)))
    .for('update');
  return row !== undefined;
}

/** The visible reviews of one product (the WHERE of every public count). */
const visibleOf = (productId: string) =>
  sql`from ${productReviews} r where r.product_id = ${productId} and not r.hidden`;

/**
 * productRating (tenths, rounded half up) and reviewCount from the product's visible reviews; run
 * after the change, under the lock of lockProduct, in the change's own transaction.
 */
export async function recountProduct(tx: Executor, productId: string): Promise<void> {
  await tx
    .update(products)
    .set({
      ratingTenths: sql`coalesce((select round(sum(r.rating) * 10::numeric / count(*)) ${visibleOf(productId)}), 0)`,
      reviewCount: sql`(select count(*) ${visibleOf(productId)})`,
    })
    .where(eq(products.id, productId));
}

/**
 * A verified buyer of the product: the customer has an order holding it that is paid (delivered
 * orders are paid ones, is_delivered set). Unpaid, expired, cancelled and fully refunded orders do
 * not count (orders.lifecycle.ts). The one statement of the rule, for a product id or a column.
 */
const boughtBy = (userId: string, productId: string | typeof productReviews.productId) =>
  sql`exists (select 1 from ${orders} o join ${orderItems} i on i.order_id = o.id
    where o.user_id = ${userId} and i.product_id = ${productId} and o.status = 'paid')`;

export async function isVerifiedBuyer(tx: Executor, userId: string, productId: string): Promise<boolean> {
  const [row] = await queryRows<{ bought: boolean }>(
    tx,
    sql`select ${boughtBy(userId, productId)} as bought`,
  );
  return row?.bought === true;
}

/**
 * Locks, in product-id order (as a placement and a restock do), the products an order holds that are
 * still on sale; answers their ids.
 */
export async function lockProductsOfOrder(tx: Executor, orderId: string): Promise<string[]> {
  const lines = await tx
    .selectDistinct({ productId: orderItems.productId })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId));
  const locked: string[] = [];
  for (const { productId } of lines) {
    if (productId && (await lockProduct(tx, productId))) locked.push(productId);
  }
  return locked;
}

/**
 * The customer's reviews of these products stop counting as a verified buyer's where they have no
 * order of the product that counts any more (isVerifiedBuyer's rule). Answers the products whose
 * review changed. The caller holds the products' locks and recounts them.
 */
export async function unverifyReviews(tx: Executor, userId: string, productIds: string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const changed = await tx
    .update(productReviews)
    .set({ verifiedBuyer: false })
    .where(
      and(
        eq(productReviews.userId, userId),
        inArray(productReviews.productId, productIds),
        eq(productReviews.verifiedBuyer, true),
        sql`not ${boughtBy(userId, productReviews.productId)}`,
      ),
    )
    .returning({ productId: productReviews.productId });
  return changed.map((row) => row.productId);
}

/** The product's visible reviews per star: [count of 1-star, ..., count of 5-star]. */
export async function starCounts(tx: Executor, productId: string): Promise<number[]> {
  const rows = await tx
    .select({ rating: productReviews.rating, n: sql<number>`count(*)`.mapWith(Number) })
    .from(productReviews)
    .where(and(eq(productReviews.productId, productId), eq(productReviews.hidden, false)))
    .groupBy(productReviews.rating);
  const counts = [0, 0, 0, 0, 0];
  for (const row of rows) counts[row.rating - 1] = row.n;
  return counts;
}

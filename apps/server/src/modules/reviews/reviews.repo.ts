import { type SQL, and, eq, isNull, sql } from 'drizzle-orm';
import { type AdminReview, type Review, reviewerName } from '@pixel-vault/shared';
import type { Executor } from '../../db/client.js';
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
  hidden: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The one place a review row becomes the API's Review. Every review the API takes is from a verified
 * buyer (the rule is checked when it is written), hence `verifiedBuyer: true`. `hidden` is told to
 * the admin and to the author only. The author is named as reviewerName says ("Marco T.").
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
    verifiedBuyer: true,
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
 * not count (orders.lifecycle.ts).
 */
export async function isVerifiedBuyer(tx: Executor, userId: string, productId: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(eq(orders.userId, userId), eq(orderItems.productId, productId), eq(orders.status, 'paid')))
    .limit(1);
  return row !== undefined;
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

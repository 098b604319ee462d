import { type SQL, and, asc, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import {
  ADMIN_REVIEWS_PAGE_SIZE,
  type AdminReview,
  type AdminReviewPage,
  type AdminReviewsQuery,
  type MyReviewAnswer,
  REVIEWS_PAGE_SIZE,
  REVIEW_DUPLICATE_MESSAGE,
  REVIEW_NOT_VERIFIED_MESSAGE,
  type Review,
  type ReviewBody,
  type ReviewListQuery,
  type ReviewPage,
  type ReviewSort,
  type ReviewSummary,
} from '@pixel-vault/shared';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { type OrderRow, productReviews, products, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { RateLimit } from '../../lib/http.js';
import type { Limiter } from '../../lib/limiter.js';
import { windowTotal } from '../../lib/paging.js';
import { recordAudit } from '../audit/audit.repo.js';
import type { ProductsService } from '../products/products.service.js';
import {
  findReview,
  isVerifiedBuyer,
  lockProduct,
  lockProductsOfOrder,
  recountProduct,
  reviewColumns,
  starCounts,
  toAdminReviewDto,
  toReviewDto,
  unverifyReviews,
} from './reviews.repo.js';

export interface ReviewsService {
  /** GET /api/products/:id/reviews: a page of the visible reviews, with the summary of all of them. */
  list(productId: string, query: ReviewListQuery): Promise<ReviewPage>;
  /** GET /api/products/:id/reviews/mine: may the caller write one, and their own review. */
  mine(user: AuthUser, productId: string): Promise<MyReviewAnswer>;
  /** A verified buyer's one review of the product (403 otherwise, 409 for a second one). */
  create(user: AuthUser, productId: string, body: ReviewBody): Promise<Review>;
  /**
   * The author rewrites their review (403 for anyone else's). A review no longer from a verified buyer
   * is taken only once they have an order of the product that counts again; it is then shown again.
   */
  update(user: AuthUser, productId: string, reviewId: string, body: ReviewBody): Promise<Review>;
  /** The author deletes their review (403 for anyone else's). */
  remove(user: AuthUser, productId: string, reviewId: string): Promise<void>;
  /**
   * An admin hides (or, `hidden: false`, shows again) a review; audited. A review no longer from a
   * verified buyer cannot be shown (409).
   */
  hide(admin: AuthUser, productId: string, reviewId: string, hidden: boolean): Promise<AdminReview>;
  /** Every review, hidden ones too, newest first, for the admin. */
  adminList(query: AdminReviewsQuery): Promise<AdminReviewPage>;
}

export interface ReviewsServiceOptions {
  db: Database;
  /** Its cache is dropped (here and on every instance) after every change: ratings show at once. */
  products: Pick<ProductsService, 'invalidate'>;
  limiter: Limiter;
  /** Review writes (POST and PUT) per customer. */
  writeLimit: RateLimit;
  clock?: () => Date;
}

export const REVIEW_RATE_LIMIT_MESSAGE =
  'You have written a lot of reviews in a short time. Please try again later.';
const productNotFound = () => notFound('Product not found');
const reviewNotFound = () => notFound('Review not found');
const notYourReview = () => new AppError(403, 'You can only change your own review.', 'NOT_REVIEW_AUTHOR');
/** 403 to the author of a review whose orders of the product were all cancelled or refunded in full. */
export const REVIEW_UNVERIFIED_MESSAGE =
  'Your order of this product was cancelled or refunded, so your review is no longer shown. You can delete it, or edit it again once you have bought the product.';
/** 409 to an admin showing such a review. */
export const REVIEW_UNVERIFIED_ADMIN_MESSAGE =
  "This review's author no longer has a paid order of this product, so it stays hidden.";

/** `%`, `_` and `\` are LIKE syntax; an admin searching for "100%" means the character. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Newest first by default; ties broken by id so pages never repeat or skip a review. */
function reviewOrder(sort: ReviewSort) {
  const newest = [desc(productReviews.createdAt), desc(productReviews.id)];
  if (sort === 'highest') return [desc(productReviews.rating), ...newest];
  if (sort === 'lowest') return [asc(productReviews.rating), ...newest];
  return newest;
}

/** The same rounding as recountProduct (tenths, half up), so the summary equals productRating. */
export function summaryOf(counts: number[]): ReviewSummary {
  const count = counts.reduce((a, b) => a + b, 0);
  const stars = counts.reduce((sum, n, i) => sum + n * (i + 1), 0);
  return {
    average: count === 0 ? 0 : Math.round((stars * 10) / count) / 10,
    count,
    histogram: {
      1: counts[0] ?? 0,
      2: counts[1] ?? 0,
      3: counts[2] ?? 0,
      4: counts[3] ?? 0,
      5: counts[4] ?? 0,
    },
  };
}

/**
 * An order stopped counting (a paid order cancelled, or refunded in full; issue 28): its customer's
 * reviews of its products no longer count as a verified buyer's unless another order of theirs still
 * counts. Such a review is hidden and the product's numbers follow, in the caller's transaction (the
 * one that moved the order, after the move), under the order's lock and then the products' (the lock
 * order of a placement: a review written at the same moment is either refused or seen here). Answers
 * whether a review changed: the catalogue's cached numbers are then stale.
 */
export async function reviewsAfterOrderClosed(
  tx: Executor,
  order: Pick<OrderRow, 'id' | 'userId'>,
): Promise<boolean> {
  if (!order.userId) return false;
  const productIds = await lockProductsOfOrder(tx, order.id);
  const changed = new Set(await unverifyReviews(tx, order.userId, productIds));
  for (const productId of changed) await recountProduct(tx, productId);
  return changed.size > 0;
}

export function createReviewsService({
  db,
  products: catalogue,
  limiter,
  writeLimit,
  clock = () => new Date(),
}: ReviewsServiceOptions): ReviewsService {
  /** One budget per customer for writes: spent by every POST and PUT (they also drop the catalogue cache). */
  async function spendWrite(user: AuthUser) {
    await limiter.spend([{ key: `review:acct:${user.id}`, limit: writeLimit }], REVIEW_RATE_LIMIT_MESSAGE);
  }

  async function productExists(productId: string) {
    const [row] = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, productId), isNull(products.deletedAt)))
      .limit(1);
    if (!row) throw productNotFound();
  }

  /** Runs a change under the product's lock, then drops the catalogue cache (after the commit). */
  async function change<T>(productId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
    let changed = false;
    try {
      const result = await db.transaction(async (tx) => {
        if (!(await lockProduct(tx, productId))) throw productNotFound();
        const out = await work(tx);
        await recountProduct(tx, productId);
        return out;
      });
      changed = true;
      return result;
    } finally {
      if (changed) catalogue.invalidate('details');
    }
  }

  const ofProduct = (productId: string, reviewId: string) =>
    and(eq(productReviews.id, reviewId), eq(productReviews.productId, productId));

  async function answer(reviewId: string): Promise<Review> {
    const row = await findReview(db, eq(productReviews.id, reviewId));
    if (!row) throw reviewNotFound();
    return toReviewDto(row, { withHidden: true });
  }

  return {
    async list(productId, { page, sort }) {
      await productExists(productId);
      const visible = and(eq(productReviews.productId, productId), eq(productReviews.hidden, false));
      const [counts, rows] = await Promise.all([
        starCounts(db, productId),
        db
          .select(reviewColumns)
          .from(productReviews)
          .leftJoin(users, eq(users.id, productReviews.userId))
          .where(visible)
          .orderBy(...reviewOrder(sort))
          .limit(REVIEWS_PAGE_SIZE)
          .offset((page - 1) * REVIEWS_PAGE_SIZE),
      ]);
      const summary = summaryOf(counts);
      return {
        reviews: rows.map((row) => toReviewDto(row)),
        page,
        totalPage: Math.max(1, Math.ceil(summary.count / REVIEWS_PAGE_SIZE)),
        total: summary.count,
        summary,
      };
    },

    async mine(user, productId) {
      await productExists(productId);
      const [own, verified] = await Promise.all([
        findReview(db, and(eq(productReviews.productId, productId), eq(productReviews.userId, user.id))),
        isVerifiedBuyer(db, user.id, productId),
      ]);
      const reason = own ? REVIEW_DUPLICATE_MESSAGE : verified ? null : REVIEW_NOT_VERIFIED_MESSAGE;
      return {
        canReview: reason === null,
        reason,
        review: own ? toReviewDto(own, { withHidden: true }) : null,
      };
    },

    async create(user, productId, body) {
      await spendWrite(user);
      let id: string;
      try {
        id = await change(productId, async (tx) => {
          if (!(await isVerifiedBuyer(tx, user.id, productId))) {
            throw new AppError(403, REVIEW_NOT_VERIFIED_MESSAGE, 'NOT_VERIFIED_BUYER');
          }
          // Under the product's lock: a second POST of the same customer waits here and finds the first.
          const existing = await findReview(
            tx,
            and(eq(productReviews.productId, productId), eq(productReviews.userId, user.id)),
          );
          if (existing) throw new AppError(409, REVIEW_DUPLICATE_MESSAGE, 'REVIEW_EXISTS');
          const now = clock();
          const [row] = await tx
            .insert(productReviews)
            .values({ productId, userId: user.id, ...body, createdAt: now, updatedAt: now })
            .returning({ id: productReviews.id });
          if (!row) throw new Error('Review insert returned no row');
          return row.id;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, REVIEW_DUPLICATE_MESSAGE, 'REVIEW_EXISTS');
        throw error;
      }
      return answer(id);
    },

    async update(user, productId, reviewId, body) {
      await spendWrite(user);
      await change(productId, async (tx) => {
        const review = await findReview(tx, ofProduct(productId, reviewId));
        if (!review) throw reviewNotFound();
        if (review.userId !== user.id) throw notYourReview();
        // No longer from a verified buyer (issue 28): an edit cannot bring it back into view, unless the
        // author has bought the product again; then it counts (and shows) again.
        if (!review.verifiedBuyer && !(await isVerifiedBuyer(tx, user.id, productId))) {
          throw new AppError(403, REVIEW_UNVERIFIED_MESSAGE, 'NOT_VERIFIED_BUYER');
        }
        await tx
          .update(productReviews)
          .set({ ...body, verifiedBuyer: true, updatedAt: clock() })
          .where(eq(productReviews.id, reviewId));
      });
      return answer(reviewId);
    },

    async remove(user, productId, reviewId) {
      await change(productId, async (tx) => {
        const review = await findReview(tx, ofProduct(productId, reviewId));
        if (!review) throw reviewNotFound();
        if (review.userId !== user.id) throw notYourReview();
        await tx.delete(productReviews).where(eq(productReviews.id, reviewId));
      });
    },

    async hide(admin, productId, reviewId, hidden) {
      await change(productId, async (tx) => {
        const review = await findReview(tx, ofProduct(productId, reviewId));
        if (!review) throw reviewNotFound();
        // Only a verified buyer's review is shown (issue 28): the admin's choice cannot override it.
        if (!hidden && !review.verifiedBuyer) {
          throw new AppError(409, REVIEW_UNVERIFIED_ADMIN_MESSAGE, 'REVIEW_NOT_VERIFIED');
        }
        // Hiding a hidden review (or showing a shown one) changes nothing and writes no audit row.
        if (review.hiddenByAdmin === hidden) return;
        await tx.update(productReviews).set({ hiddenByAdmin: hidden }).where(eq(productReviews.id, reviewId));
        const view = { productId, rating: review.rating, title: review.title, author: review.authorEmail };
        await recordAudit(tx, {
          actor: admin.id,
          action: hidden ? 'review.hide' : 'review.unhide',
          targetType: 'review',
          targetId: reviewId,
          before: { ...view, hidden: review.hiddenByAdmin },
          after: { ...view, hidden },
        });
      });
      const [row] = await db
        .select({ ...reviewColumns, productName: products.name })
        .from(productReviews)
        .innerJoin(products, eq(products.id, productReviews.productId))
        .leftJoin(users, eq(users.id, productReviews.userId))
        .where(eq(productReviews.id, reviewId));
      if (!row) throw reviewNotFound();
      return toAdminReviewDto(row);
    },

    async adminList({ search, hidden, page }) {
      const conditions: SQL[] = [isNull(products.deletedAt)];
      if (hidden !== undefined) conditions.push(eq(productReviews.hidden, hidden === 'true'));
      if (search) {
        const like = `%${escapeLike(search)}%`;
        const matches = or(
          ilike(products.name, like),
          ilike(users.name, like),
          ilike(users.email, like),
          ilike(productReviews.title, like),
          ilike(productReviews.comment, like),
        );
        if (matches) conditions.push(matches);
      }
      const where = and(...conditions);
      const rows = await db
        .select({ ...reviewColumns, productName: products.name, total: windowTotal() })
        .from(productReviews)
        .innerJoin(products, eq(products.id, productReviews.productId))
        .leftJoin(users, eq(users.id, productReviews.userId))
        .where(where)
        .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
        .limit(ADMIN_REVIEWS_PAGE_SIZE)
        .offset((page - 1) * ADMIN_REVIEWS_PAGE_SIZE);
      let totals = { total: rows[0]?.total ?? 0, totalPage: 1 };
      if (rows.length === 0 && page > 1) {
        // Past the end: count what the filter matches (pageTotals counts one table, not this join).
        const [counted] = await db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(productReviews)
          .innerJoin(products, eq(products.id, productReviews.productId))
          .leftJoin(users, eq(users.id, productReviews.userId))
          .where(where);
        totals = { total: counted?.n ?? 0, totalPage: 1 };
      }
      totals.totalPage = Math.max(1, Math.ceil(totals.total / ADMIN_REVIEWS_PAGE_SIZE));
      return { reviews: rows.map(toAdminReviewDto), page, ...totals };
    },
  };
}

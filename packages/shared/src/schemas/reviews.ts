import { z } from 'zod';

/**
 * Reviews from verified buyers (issue 14): the contract between the server and the web app.
 *
 * Routes (every error is `{ message }`):
 * - GET    /api/products/:id/reviews?page=&sort=          public   -> ReviewPage (visible reviews only, REVIEWS_PAGE_SIZE a page)
 * - GET    /api/products/:id/reviews/mine                  user     -> MyReviewAnswer
 * - POST   /api/products/:id/reviews                       user     -> 201 Review; 403 REVIEW_NOT_VERIFIED_MESSAGE,
 *                                                                     409 REVIEW_DUPLICATE_MESSAGE, 404 unknown product, 429 rate limit
 * - PUT    /api/products/:id/reviews/:reviewId             author   -> Review (someone else's review: 403)
 * - DELETE /api/products/:id/reviews/:reviewId             author   -> 200 { message }
 * - PUT    /api/products/:id/reviews/:reviewId/hide        admin    -> AdminReview (body HideReviewBody; audited)
 * - GET    ADMIN_REVIEWS_PATH (/api/reviews/admin/reviews)  admin   -> AdminReviewPage (follows /api/users/admin/users,
 *                                                                     /api/orders/admin/vieworders)
 * - GET    /api/products/:id keeps the spec Product; its `reviews` are the newest PRODUCT_PAGE_REVIEWS visible
 *   reviews as Review objects. Product lists carry `reviews: []`.
 *
 * Notes beside the brief's contract (server side, issue 14): `hidden` is also set in the author's own
 * answers (`/mine`, POST, PUT), so a customer can see an admin hid their review; public answers never
 * carry it. `name` is "First L." in public answers (reviewerName) and the full name in admin answers.
 */

export const REVIEWS_PAGE_SIZE = 10;
export const ADMIN_REVIEWS_PAGE_SIZE = 20;
/** How many of the newest visible reviews GET /api/products/:id carries in `reviews`. */
export const PRODUCT_PAGE_REVIEWS = 5;
export const REVIEW_TITLE_MAX = 120;
export const REVIEW_COMMENT_MAX = 4000;
export const ADMIN_REVIEWS_PATH = '/api/reviews/admin/reviews';
/** `name` of a review whose author deleted their account (the review stays, without its author). */
export const FORMER_CUSTOMER_NAME = 'Former customer';

/**
 * How a review names its author in public: the first name and the initial of the last ("Marco
 * Tessaro" -> "Marco T."), so a review does not publish a customer's full name. Admin answers carry
 * the full name. null (the author deleted their account) -> FORMER_CUSTOMER_NAME.
 */
export function reviewerName(fullName: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first === undefined) return FORMER_CUSTOMER_NAME;
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last ? [...last][0] : undefined;
  return initial ? `${first} ${initial}.` : first;
}

/** 403 to someone without a paid (or delivered) order of the product. */
export const REVIEW_NOT_VERIFIED_MESSAGE = 'Only customers who bought this product can review it.';
/** 409 to a customer who already has a review of the product (edit it instead). */
export const REVIEW_DUPLICATE_MESSAGE = 'You have already reviewed this product.';

const reviewText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} is at most ${max} characters` });

/** POST /api/products/:id/reviews and PUT /api/products/:id/reviews/:reviewId */
export const ReviewBody = z.object({
  rating: z
    .number({ message: 'Rating must be a number from 1 to 5' })
    .int({ message: 'Rating is a whole number of stars' })
    .min(1, { message: 'Rating must be from 1 to 5' })
    .max(5, { message: 'Rating must be from 1 to 5' }),
  title: reviewText('Title', REVIEW_TITLE_MAX),
  comment: reviewText('Review', REVIEW_COMMENT_MAX),
});
export type ReviewBody = z.infer<typeof ReviewBody>;

/** PUT /api/products/:id/reviews/:reviewId/hide — `hidden` absent means true (hide); false unhides. */
export const HideReviewBody = z.object({
  hidden: z.boolean({ message: 'hidden must be true or false' }).optional(),
});
export type HideReviewBody = z.infer<typeof HideReviewBody>;

export const REVIEW_SORTS = ['newest', 'highest', 'lowest'] as const;
export const ReviewSort = z.enum(REVIEW_SORTS, { message: `sort must be one of ${REVIEW_SORTS.join(', ')}` });
export type ReviewSort = z.infer<typeof ReviewSort>;

const reviewPageNumber = z.coerce
  .number({ message: 'page must be a number' })
  .int({ message: 'page must be a whole number' })
  .min(1, { message: 'page must be at least 1' });

/** GET /api/products/:id/reviews?page=&sort= */
export const ReviewListQuery = z.object({
  page: reviewPageNumber.default(1),
  sort: ReviewSort.default('newest'),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const ReviewParams = z.object({
  id: z.uuid({ message: 'Invalid id' }),
  reviewId: z.uuid({ message: 'Invalid id' }),
});
export type ReviewParams = z.infer<typeof ReviewParams>;

/** A review as the API answers it. `name` is the author's display name; `hidden` only in admin answers. */
export const Review = z.object({
  _id: z.string(),
  productId: z.string(),
  name: z.string(),
  /** Whole stars, 1..5. */
  rating: z.number(),
  title: z.string(),
  comment: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * True in every public answer. False (and then `hidden: true`) in the author's and the admin's answers
   * once the author's orders of the product that counted were cancelled or refunded in full (issue 28).
   */
  verifiedBuyer: z.boolean(),
  /** Only in admin answers and in the author's own (see the notes at the top). */
  hidden: z.boolean().optional(),
});
export type Review = z.infer<typeof Review>;

export const ReviewSummary = z.object({
  /** Average of the visible reviews rounded to 0.1; 0 when there are none. Equals the product's productRating. */
  average: z.number(),
  /** Number of visible reviews; equals the product's reviewCount. */
  count: z.number().int(),
  /** Visible reviews per star rating. */
  histogram: z.object({
    1: z.number().int(),
    2: z.number().int(),
    3: z.number().int(),
    4: z.number().int(),
    5: z.number().int(),
  }),
});
export type ReviewSummary = z.infer<typeof ReviewSummary>;

/** GET /api/products/:id/reviews */
export const ReviewPage = z.object({
  reviews: z.array(Review),
  page: z.number().int(),
  totalPage: z.number().int(),
  total: z.number().int(),
  summary: ReviewSummary,
});
export type ReviewPage = z.infer<typeof ReviewPage>;

/**
 * GET /api/products/:id/reviews/mine. `canReview`: the viewer may POST a review now (a verified buyer
 * without a review yet). When false, `reason` is what POST would answer: REVIEW_NOT_VERIFIED_MESSAGE
 * (403) or, when `review` is set, REVIEW_DUPLICATE_MESSAGE (409; the author edits or deletes it instead).
 * `review`: the viewer's own review (even when hidden by an admin, or no longer from a verified buyer;
 * then `hidden: true`), or null.
 */
export const MyReviewAnswer = z.object({
  canReview: z.boolean(),
  reason: z.string().nullable(),
  review: Review.nullable(),
});
export type MyReviewAnswer = z.infer<typeof MyReviewAnswer>;

/** GET ADMIN_REVIEWS_PATH?search=&hidden=&page= (ADMIN_REVIEWS_PAGE_SIZE a page, newest first). */
export const AdminReviewsQuery = z.object({
  /** Matches product name, author name or e-mail, title, comment; case-insensitive. */
  search: z.string().trim().max(100, { message: 'Search is at most 100 characters' }).optional(),
  hidden: z.enum(['true', 'false'], { message: 'hidden must be true or false' }).optional(),
  page: reviewPageNumber.default(1),
});
export type AdminReviewsQuery = z.infer<typeof AdminReviewsQuery>;

export const AdminReview = Review.extend({
  hidden: z.boolean(),
  productName: z.string(),
  email: z.string(),
});
export type AdminReview = z.infer<typeof AdminReview>;

export const AdminReviewPage = z.object({
  reviews: z.array(AdminReview),
  page: z.number().int(),
  totalPage: z.number().int(),
  total: z.number().int(),
});
export type AdminReviewPage = z.infer<typeof AdminReviewPage>;

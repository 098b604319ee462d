import type { MyReviewAnswer, Review, ReviewBody, ReviewPage, ReviewSort } from '@pixel-vault/shared';
import { api } from '../../app/api';

export interface ReviewListArgs {
  productId: string;
  page: number;
  sort: ReviewSort;
}

const id = (value: string) => encodeURIComponent(value);
/** One tag per product for everything about its reviews: its pages and the viewer's own review. */
const reviewsOf = (productId: string) => ({ type: 'Review' as const, id: productId });

/**
 * A review change moves the product's rating and count (issue 14): its reviews, the product itself (the
 * product page's header) and every product list (the category cards) are read again, and the admin's
 * review list.
 */
const afterChange = (productId: string, error: unknown) =>
  // A refusal changed nothing, but may say the viewer's standing did (already reviewed, no longer a
  // buyer): their answer is read again, nothing else.
  error
    ? [reviewsOf(productId)]
    : [
        reviewsOf(productId),
        { type: 'Review' as const, id: 'ADMIN_LIST' },
        { type: 'Product' as const, id: productId },
        { type: 'Product' as const, id: 'LIST' },
      ];

/**
 * The viewer's own review as the server just answered it (null: deleted), shown at once: the form gives
 * way to it without waiting for the refetch, which follows through the tags.
 */
const mineIs = (review: Review | null) => (mine: MyReviewAnswer) => {
  mine.review = review;
  mine.canReview = review === null;
  if (review === null) mine.reason = null;
};

/** Reviews from verified buyers (issue 14; routes in packages/shared/src/schemas/reviews.ts). */
export const reviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReviews: build.query<ReviewPage, ReviewListArgs>({
      query: ({ productId, page, sort }) => ({
        url: `api/products/${id(productId)}/reviews`,
        params: { page, sort },
      }),
      providesTags: (_result, _error, { productId }) => [reviewsOf(productId)],
    }),
    /** Whether the logged-in viewer may review the product, and their own review. */
    getMyReview: build.query<MyReviewAnswer, string>({
      query: (productId) => `api/products/${id(productId)}/reviews/mine`,
      providesTags: (_result, _error, productId) => [reviewsOf(productId)],
    }),
    createReview: build.mutation<Review, { productId: string; body: ReviewBody }>({
      query: ({ productId, body }) => ({
        url: `api/products/${id(productId)}/reviews`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_result, error, { productId }) => afterChange(productId, error),
      async onQueryStarted({ productId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(reviewsApi.util.updateQueryData('getMyReview', productId, mineIs(data)));
      },
    }),
    updateReview: build.mutation<Review, { productId: string; reviewId: string; body: ReviewBody }>({
      query: ({ productId, reviewId, body }) => ({
        url: `api/products/${id(productId)}/reviews/${id(reviewId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error, { productId }) => afterChange(productId, error),
      async onQueryStarted({ productId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(reviewsApi.util.updateQueryData('getMyReview', productId, mineIs(data)));
      },
    }),
    deleteReview: build.mutation<{ message: string }, { productId: string; reviewId: string }>({
      query: ({ productId, reviewId }) => ({
        url: `api/products/${id(productId)}/reviews/${id(reviewId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { productId }) => afterChange(productId, error),
      async onQueryStarted({ productId }, { dispatch, queryFulfilled }) {
        const done = await queryFulfilled.then(() => true).catch(() => false);
        if (done) dispatch(reviewsApi.util.updateQueryData('getMyReview', productId, mineIs(null)));
      },
    }),
  }),
});

export const {
  useGetReviewsQuery,
  useGetMyReviewQuery,
  useCreateReviewMutation,
  useUpdateReviewMutation,
  useDeleteReviewMutation,
} = reviewsApi;

import type { MyReviewAnswer, Review, ReviewPage, ReviewSummary } from '@pixel-vault/shared';

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;

export const PRODUCT_ID = uuid(999);

export function makeReview(overrides: Partial<Review> = {}): Review {
  seq += 1;
  return {
    _id: uuid(seq),
    productId: PRODUCT_ID,
    name: `Player ${seq}`,
    rating: 4,
    title: `Review ${seq}`,
    comment: 'Plays well.',
    createdAt: '2024-01-05T10:00:00.000Z',
    updatedAt: '2024-01-05T10:00:00.000Z',
    verifiedBuyer: true,
    ...overrides,
  };
}

export function makeSummary(histogram: ReviewSummary['histogram']): ReviewSummary {
  const count = Object.values(histogram).reduce((sum, n) => sum + n, 0);
  const total = Object.entries(histogram).reduce((sum, [stars, n]) => sum + Number(stars) * n, 0);
  return { average: count ? Math.round((total / count) * 10) / 10 : 0, count, histogram };
}

export function makeReviewPage(reviews: Review[], overrides: Partial<ReviewPage> = {}): ReviewPage {
  return {
    reviews,
    page: 1,
    totalPage: 1,
    total: reviews.length,
    summary: makeSummary({ 1: 0, 2: 0, 3: 0, 4: reviews.length, 5: 0 }),
    ...overrides,
  };
}

export const NOT_A_BUYER: MyReviewAnswer = {
  canReview: false,
  reason: 'Only customers who bought this product can review it.',
  review: null,
};
export const A_BUYER: MyReviewAnswer = { canReview: true, reason: null, review: null };

import { useId, useState } from 'react';
import type { ReviewSort } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Pager } from '../../ui/Pager';
import { useGetReviewsQuery } from './api';
import { RatingSummary } from './RatingSummary';
import { ReviewItem } from './ReviewItem';
import { ReviewsLoading } from './ReviewsShell';
import { WriteReview } from './WriteReview';

/**
 * The shared REVIEW_SORTS, with their labels. Written here (a type checks it) because the shared module
 * builds zod schemas as it loads, which a visitor's product page does without (the form loads them).
 */
export const SORT_LABELS: Record<ReviewSort, string> = {
  newest: 'Newest first',
  highest: 'Highest rating first',
  lowest: 'Lowest rating first',
};
const SORTS = Object.keys(SORT_LABELS) as ReviewSort[];

/**
 * The product page's reviews (issue 14), drawn in the browser after hydration: the rating summary, the
 * write area, then the reviews with a sort and pages. Loaded with the product page, never in the first
 * download (app/pages/ProductPage.tsx).
 */
export default function ProductReviews({ productId }: { productId: string }) {
  const sortId = useId();
  const [sort, setSort] = useState<ReviewSort>('newest');
  const [page, setPage] = useState(1);
  // `data` keeps the shown page while the next one loads, so the list does not collapse and move the page.
  const { data, error, isFetching, refetch } = useGetReviewsQuery({ productId, page, sort });

  // A deletion can take away the last page: show the one that is now last.
  const lastPage = Math.max(1, data?.totalPage ?? 1);
  if (data && !isFetching && page > lastPage) setPage(lastPage);

  if (!data) {
    if (error && !isFetching) {
      return (
        <div className="flex flex-col items-start gap-3">
          <ErrorLine message={errorMessage(error)} />
          <button type="button" className="btn btn-secondary" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      );
    }
    return <ReviewsLoading />;
  }

  return (
    <div className="flex flex-col gap-8">
      <RatingSummary summary={data.summary} />
      <WriteReview productId={productId} />
      {data.total > 0 && (
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-end sm:gap-3">
            <label htmlFor={sortId} className="text-sm font-semibold text-zinc-300">
              Sort reviews
            </label>
            <select
              id={sortId}
              className="field"
              value={sort}
              onChange={(event) => {
                setSort(event.target.value as ReviewSort);
                setPage(1);
              }}
            >
              {SORTS.map((value) => (
                <option key={value} value={value}>
                  {SORT_LABELS[value]}
                </option>
              ))}
            </select>
          </div>
          {error && <ErrorLine message={errorMessage(error)} />}
          <ul
            aria-label="Customer reviews"
            aria-busy={isFetching}
            className={`flex flex-col gap-4 transition-opacity ${isFetching ? 'opacity-60' : ''}`}
          >
            {data.reviews.map((review) => (
              <li key={review._id}>
                <ReviewItem review={review} />
              </li>
            ))}
          </ul>
          <Pager
            page={page}
            shownPage={data.page}
            totalPage={data.totalPage}
            label="Review pages"
            busy={isFetching}
            onPage={setPage}
          />
        </div>
      )}
    </div>
  );
}

import { useState } from 'react';
import { formatOrderDate, type AdminReview } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { Spinner } from '../../ui/Spinner';
import { Stars } from '../../ui/Stars';
import { useGetAdminReviewsQuery, useHideReviewMutation, type AdminReviewsArgs } from './api';
import { Pager } from './fields';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { SearchBox } from './SearchBox';

type Visibility = '' | 'true' | 'false';

/** What the admin is told after a change, in the section's status line. */
export function hiddenMessage(review: Pick<AdminReview, 'title' | 'name'>, hidden: boolean): string {
  return `The review "${review.title}" by ${review.name} is ${hidden ? 'hidden' : 'visible again'}.`;
}

/** Hide (or show again) one review; its own busy state, its own error; the outcome is said by the section. */
function HideButton({ review, onDone }: { review: AdminReview; onDone: (message: string) => void }) {
  const [hideReview, { isLoading, error }] = useHideReviewMutation();
  const hide = !review.hidden;
  async function toggle() {
    try {
      const changed = await hideReview({
        productId: review.productId,
        reviewId: review._id,
        hidden: hide,
      }).unwrap();
      onDone(hiddenMessage(review, changed.hidden));
    } catch {
      // The error line under the button says why.
    }
  }
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className="btn btn-secondary px-3 py-2"
        disabled={isLoading}
        aria-label={`${hide ? 'Hide' : 'Unhide'} review: ${review.title}`}
        onClick={() => void toggle()}
      >
        {isLoading ? (hide ? 'Hiding...' : 'Unhiding...') : hide ? 'Hide' : 'Unhide'}
      </button>
      {error && <ErrorLine message={errorMessage(error)} />}
    </div>
  );
}

/**
 * Manage Reviews (issue 14): every review, newest first, searchable (product, author, e-mail, text) and
 * filtered by visibility, paged; an admin hides a review from the shop (the product's rating and count
 * then leave it out) or shows it again. The server audits each change.
 */
export function ManageReviewsSection() {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text);
  const [hidden, setHidden] = useState<Visibility>('');
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const args: AdminReviewsArgs = { search, page, ...(hidden ? { hidden } : {}) };
  // currentData: a new search, filter or page shows no stale reviews while it runs.
  const { currentData: data, error } = useGetAdminReviewsQuery(args);
  const pending = text !== search || (!data && !error);
  const reviews = data?.reviews ?? [];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div className="flex-1">
          <SearchBox
            label="Search reviews"
            placeholder="Search by product, author, e-mail or text"
            value={text}
            onChange={(value) => {
              setText(value);
              setPage(1);
            }}
          />
        </div>
        <LabelledField label="Show">
          {({ id }) => (
            <select
              id={id}
              className="field w-full sm:w-48"
              value={hidden}
              onChange={(event) => {
                setHidden(event.target.value as Visibility);
                setPage(1);
              }}
            >
              <option value="">All reviews</option>
              <option value="false">Visible only</option>
              <option value="true">Hidden only</option>
            </select>
          )}
        </LabelledField>
      </div>
      <p role="status" className={message ? 'font-semibold text-lime-300' : 'sr-only'}>
        {message}
      </p>
      {pending ? (
        <Spinner label="Loading reviews" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : reviews.length === 0 ? (
        <p className="text-zinc-300">No reviews found</p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[56rem] border-collapse text-left text-sm">
              <caption className="sr-only">Reviews</caption>
              <thead className="text-zinc-400">
                <tr>
                  {['Product', 'Author', 'E-mail', 'Rating', 'Title', 'Date', 'Status', 'Action'].map(
                    (heading) => (
                      <th key={heading} scope="col" className="border-b-2 border-zinc-700 px-2 py-2">
                        {heading}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody>
                {reviews.map((review) => (
                  <tr key={review._id} className="border-b border-zinc-800 align-top">
                    <td className="px-2 py-3 break-words text-zinc-100">{review.productName}</td>
                    <td className="px-2 py-3 break-words">{review.name}</td>
                    <td className="px-2 py-3 break-all">{review.email}</td>
                    <td className="px-2 py-3 whitespace-nowrap">
                      <Stars rating={review.rating} />
                    </td>
                    <td className="max-w-[18rem] px-2 py-3 break-words">
                      <p className="font-semibold text-zinc-100">{review.title}</p>
                      <p className="line-clamp-3 whitespace-pre-line text-zinc-400">{review.comment}</p>
                    </td>
                    <td className="px-2 py-3 whitespace-nowrap">{formatOrderDate(review.createdAt)}</td>
                    <td className="px-2 py-3">
                      <span className={review.hidden ? 'text-amber-300' : 'text-lime-300'}>
                        {review.hidden ? 'Hidden' : 'Visible'}
                      </span>
                    </td>
                    <td className="px-2 py-3">
                      <HideButton review={review} onDone={setMessage} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={data?.page ?? page} totalPage={data?.totalPage ?? 1} onPage={setPage} />
        </>
      )}
    </div>
  );
}

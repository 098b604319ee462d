import type { Review } from '@pixel-vault/shared';
import { Stars } from '../../ui/Stars';
import { reviewDate, wasEdited } from './reviewText';

/** Said beside the author of a review written by a customer with a paid order of the product. */
export function VerifiedBadge() {
  return (
    <span className="border-2 border-lime-400 bg-lime-950 px-1.5 py-0.5 text-xs font-semibold text-lime-200">
      Verified buyer
    </span>
  );
}

/**
 * One review: stars (with their text), title, author with the "Verified buyer" badge, date, and the
 * comment with its line breaks. Every text the customer wrote is rendered as text (React escapes it).
 */
export function ReviewItem({ review }: { review: Review }) {
  return (
    <article className="border-4 border-zinc-800 bg-zinc-900 p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={review.rating} />
        <h3 className="font-semibold break-words text-zinc-50">{review.title}</h3>
      </div>
      <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-zinc-400">
        <span className="font-semibold break-all text-zinc-200">{review.name}</span>
        {review.verifiedBuyer && <VerifiedBadge />}
        <span aria-hidden="true">·</span>
        <time dateTime={review.createdAt}>{reviewDate(review.createdAt)}</time>
        {wasEdited(review) && <span>(edited)</span>}
      </p>
      <p className="mt-3 whitespace-pre-line break-words text-zinc-300">{review.comment}</p>
    </article>
  );
}

import type { ReviewSummary } from '@pixel-vault/shared';
import { Stars } from '../../ui/Stars';
import { reviewCountText } from './reviewText';

const STAR_ROWS = [5, 4, 3, 2, 1] as const;

/** "5 stars: 12 reviews", "1 star: 1 review": what one row of the histogram says to a screen reader. */
export function histogramLabel(stars: number, count: number): string {
  return `${stars} ${stars === 1 ? 'star' : 'stars'}: ${reviewCountText(count)}`;
}

/**
 * The product's rating from its visible reviews (issue 14): the average (0.1 steps, as the product's
 * productRating), the count, and how many reviews gave each number of stars, 5 to 1.
 */
export function RatingSummary({ summary }: { summary: ReviewSummary }) {
  if (summary.count === 0) {
    return <p className="text-zinc-300">No reviews yet.</p>;
  }
  return (
    <div className="flex flex-col gap-6 sm:flex-row sm:items-center sm:gap-10">
      <div className="flex flex-col gap-1">
        <p className="text-zinc-100">
          <span className="text-4xl font-bold">{summary.average.toFixed(1)}</span>
          <span className="text-zinc-300"> out of 5</span>
        </p>
        <Stars rating={summary.average} className="text-xl" />
        <p className="text-zinc-300">Based on {reviewCountText(summary.count)}</p>
      </div>
      <ul aria-label="Ratings breakdown" className="flex max-w-md flex-1 flex-col gap-1.5">
        {STAR_ROWS.map((stars) => {
          const count = summary.histogram[stars];
          const share = Math.round((count / summary.count) * 100);
          return (
            <li key={stars} className="flex items-center gap-3 text-sm text-zinc-300">
              <span className="sr-only">{histogramLabel(stars, count)}</span>
              <span aria-hidden="true" className="w-14 shrink-0">
                {stars} {stars === 1 ? 'star' : 'stars'}
              </span>
              <span aria-hidden="true" className="h-3 flex-1 border border-zinc-700 bg-zinc-900">
                <span className="block h-full bg-yellow-300" style={{ width: `${share}%` }} />
              </span>
              <span aria-hidden="true" className="w-10 shrink-0 text-right tabular-nums">
                {count}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

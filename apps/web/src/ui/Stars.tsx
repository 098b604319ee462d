import { roundToHalf } from '@pixel-vault/shared';

const STAR_PATH = 'M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z';

function Star({ fill }: { fill: 0 | 0.5 | 1 }) {
  return (
    <span className="relative inline-block h-[1em] w-[1em]">
      <svg viewBox="0 0 24 24" className="absolute inset-0 h-full w-full text-zinc-600" aria-hidden="true">
        <path d={STAR_PATH} fill="currentColor" />
      </svg>
      {fill > 0 && (
        <span
          className="absolute inset-y-0 left-0 overflow-hidden"
          style={{ width: fill === 1 ? '100%' : '50%' }}
        >
          <svg viewBox="0 0 24 24" className="h-[1em] w-[1em] text-yellow-300" aria-hidden="true">
            <path d={STAR_PATH} fill="currentColor" />
          </svg>
        </span>
      )}
    </span>
  );
}

/** Spec section 9: star rating rounded to the nearest 0.5, out of 5. */
export function Stars({ rating, className = '' }: { rating: number; className?: string }) {
  const rounded = roundToHalf(rating);
  return (
    <span role="img" aria-label={`Rated ${rounded} out of 5`} className={`inline-flex gap-0.5 ${className}`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} fill={rounded >= n ? 1 : rounded >= n - 0.5 ? 0.5 : 0} />
      ))}
    </span>
  );
}

import { useId, useState, type Ref } from 'react';

const STAR_PATH = 'M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z';
const CHOICES = [1, 2, 3, 4, 5] as const;

export const starsText = (n: number) => `${n} ${n === 1 ? 'star' : 'stars'}`;

/**
 * Whole stars, 1 to 5, as a group of radio buttons: Tab reaches the group, the arrow keys pick, and a
 * screen reader hears "Rating, 4 stars, selected, 4 of 5". The stars up to the choice (or to the one
 * under the pointer) are lit.
 */
export function StarPicker({
  value,
  onChange,
  errorId,
  firstRef,
}: {
  /** 0: nothing chosen yet. */
  value: number;
  onChange: (value: number) => void;
  /** The id of the error said about the rating, if any. */
  errorId: string | undefined;
  /** The first radio button (focused when the rating is missing). */
  firstRef?: Ref<HTMLInputElement>;
}) {
  const name = useId();
  const [hover, setHover] = useState(0);
  const lit = hover || value;
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-semibold tracking-wide text-cyan-300 uppercase">Rating</legend>
      <div className="flex items-center gap-1" onMouseLeave={() => setHover(0)}>
        {CHOICES.map((n) => (
          <label
            key={n}
            className="relative cursor-pointer p-0.5 text-3xl has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300"
            onMouseEnter={() => setHover(n)}
          >
            <input
              ref={n === 1 ? firstRef : undefined}
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-invalid={errorId ? true : undefined}
              aria-describedby={errorId}
              className="sr-only"
            />
            <svg
              viewBox="0 0 24 24"
              aria-hidden="true"
              className={`h-[1em] w-[1em] ${n <= lit ? 'text-yellow-300' : 'text-zinc-500'}`}
            >
              <path d={STAR_PATH} fill="currentColor" />
            </svg>
            <span className="sr-only">{starsText(n)}</span>
          </label>
        ))}
        <span aria-hidden="true" className="ml-2 text-sm text-zinc-300">
          {value ? `${starsText(value)} of 5` : 'Choose 1 to 5 stars'}
        </span>
      </div>
    </fieldset>
  );
}

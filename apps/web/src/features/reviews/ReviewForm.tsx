import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { REVIEW_COMMENT_MAX, REVIEW_TITLE_MAX, ReviewBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { StarPicker } from './StarPicker';

type ReviewField = keyof ReviewBody;
export type ReviewFieldErrors = Partial<Record<ReviewField, string>>;

export interface ReviewValues {
  /** 0: no stars chosen yet. */
  rating: number;
  title: string;
  comment: string;
}

export const RATING_MISSING = 'Choose a rating from 1 to 5 stars';

/**
 * The form's values checked with the shared schema the server uses (issue 14): the body to send, or
 * the first problem of each field.
 */
export function checkReview(values: ReviewValues): { body: ReviewBody } | { errors: ReviewFieldErrors } {
  const parsed = ReviewBody.safeParse(values);
  if (parsed.success) return { body: parsed.data };
  const errors: ReviewFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ReviewField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  if (values.rating === 0) errors.rating = RATING_MISSING;
  return { errors };
}

const FIELD_ORDER: readonly ReviewField[] = ['rating', 'title', 'comment'];

/**
 * Write or edit a review: stars (a radio group), title, comment with a character counter. Field
 * problems show under their field (and the first one gets the focus); the server's refusal shows in an
 * alert; the button says "Submitting..." while the review is sent. `onSubmit` rejects when the server
 * refuses.
 */
export function ReviewForm({
  heading,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  heading: string;
  initial?: ReviewValues;
  submitLabel: string;
  onSubmit: (body: ReviewBody) => Promise<unknown>;
  onCancel?: () => void;
  /** Focus the first control once drawn (the viewer opened the form, or the address asked for it). */
  autoFocus?: boolean;
}) {
  const ids = useId();
  const [values, setValues] = useState<ReviewValues>(initial ?? { rating: 0, title: '', comment: '' });
  const [errors, setErrors] = useState<ReviewFieldErrors>({});
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const ratingRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);

  // Only on the first draw: the focus moves when the form appears, never while it is used.
  const focusFirst = useRef(autoFocus);
  useEffect(() => {
    if (focusFirst.current) ratingRef.current?.focus({ preventScroll: true });
  }, []);

  const errorId = (field: ReviewField) => (errors[field] ? `${ids}-${field}-error` : undefined);
  const counterId = `${ids}-counter`;
  const commentLength = values.comment.trim().length;
  const overBy = commentLength - REVIEW_COMMENT_MAX;

  function change(next: Partial<ReviewValues>) {
    const updated = { ...values, ...next };
    setValues(updated);
    // Once a submit has shown the problems, they follow the typing (a fixed field loses its message).
    if (tried) {
      const checked = checkReview(updated);
      setErrors('errors' in checked ? checked.errors : {});
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setTried(true);
    setServerError(null);
    const checked = checkReview(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      const first = FIELD_ORDER.find((field) => checked.errors[field]);
      ({ rating: ratingRef, title: titleRef, comment: commentRef })[first ?? 'rating'].current?.focus();
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      await onSubmit(checked.body);
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form
      noValidate
      aria-labelledby={`${ids}-heading`}
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-4 border-4 border-zinc-800 bg-zinc-900 p-4"
    >
      <h3 id={`${ids}-heading`} className="pixel-heading text-sm text-lime-300">
        {heading}
      </h3>
      <div>
        <StarPicker
          value={values.rating}
          onChange={(rating) => change({ rating })}
          errorId={errorId('rating')}
          firstRef={ratingRef}
        />
        <FieldError id={errorId('rating')} message={errors.rating} />
      </div>
      <div className="flex flex-col gap-1">
        <label
          htmlFor={`${ids}-title`}
          className="text-sm font-semibold tracking-wide text-cyan-300 uppercase"
        >
          Title
        </label>
        <input
          ref={titleRef}
          id={`${ids}-title`}
          className="field w-full"
          value={values.title}
          maxLength={REVIEW_TITLE_MAX}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errorId('title')}
          onChange={(event) => change({ title: event.target.value })}
        />
        <FieldError id={errorId('title')} message={errors.title} />
      </div>
      <div className="flex flex-col gap-1">
        <label
          htmlFor={`${ids}-comment`}
          className="text-sm font-semibold tracking-wide text-cyan-300 uppercase"
        >
          Review
        </label>
        <textarea
          ref={commentRef}
          id={`${ids}-comment`}
          rows={6}
          className="field w-full"
          value={values.comment}
          aria-invalid={errors.comment ? true : undefined}
          aria-describedby={[counterId, errorId('comment')].filter(Boolean).join(' ')}
          onChange={(event) => change({ comment: event.target.value })}
        />
        <p id={counterId} className={`text-xs ${overBy > 0 ? 'text-red-400' : 'text-zinc-400'}`}>
          {commentLength} / {REVIEW_COMMENT_MAX} characters
          {overBy > 0 && ` (${overBy} too many)`}
        </p>
        <FieldError id={errorId('comment')} message={errors.comment} />
      </div>
      {serverError && (
        <p role="alert" className="text-red-400">
          {serverError}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn btn-primary" disabled={submitting}>
          {submitting ? 'Submitting...' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={submitting}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function FieldError({ id, message }: { id: string | undefined; message: string | undefined }) {
  if (!id || !message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-400">
      {message}
    </p>
  );
}

import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Review, ReviewBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { selectSessionRestored } from '../../app/sessionSlice';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import {
  useCreateReviewMutation,
  useDeleteReviewMutation,
  useGetMyReviewQuery,
  useUpdateReviewMutation,
} from './api';
import { ReviewFormLoading } from './ReviewFormLoading';
import { ReviewItem } from './ReviewItem';

const loadForm = () => import('./ReviewForm');
const ReviewForm = lazy(() => loadForm().then((module) => ({ default: module.ReviewForm })));

/** The address of the write-review area: "Review this product" (My Orders) and the login link lead here. */
export const WRITE_REVIEW_HASH = '#write-review';
const WRITE_REVIEW_ID = WRITE_REVIEW_HASH.slice(1);

export const DELETE_QUESTION = 'Are you sure you want to delete your review?';

const MESSAGES = {
  created: 'Thank you! Your review is published.',
  updated: 'Your review is updated.',
  deleted: 'Your review is deleted.',
} as const;

/**
 * Who may write here (issue 14), and what they see:
 * - a visitor: "Log in to write a review", to the login page and back here;
 * - a customer who bought the product (a paid order): "Write a review", which opens the form;
 * - a customer who already reviewed it: their review, with Edit and Delete (confirmed);
 * - any other customer: the server's reason, and no form.
 * Arriving at #write-review (from an order, or back from the login page) opens the form and focuses it.
 */
export function WriteReview({ productId }: { productId: string }) {
  const restored = useAppSelector(selectSessionRestored);
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const { pathname, hash, key } = useLocation();
  const wanted = hash === WRITE_REVIEW_HASH;
  const mine = useGetMyReviewQuery(productId, { skip: !loggedIn });
  const [createReview] = useCreateReviewMutation();
  const [updateReview] = useUpdateReviewMutation();
  const [deleteReview, deletion] = useDeleteReviewMutation();
  const [open, setOpen] = useState(wanted);
  // A form drawn because the viewer asked for it (a click, or the address) takes the focus.
  const [focusForm, setFocusForm] = useState(wanted);
  // The address can ask for the form after this area is shown (a link to #write-review on the page).
  const [openedFor, setOpenedFor] = useState<string | null>(wanted ? key : null);
  if (wanted && openedFor !== key) {
    setOpenedFor(key);
    setOpen(true);
    setFocusForm(true);
  }
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const scrolledFor = useRef<string | null>(null);

  const answer = loggedIn ? mine.data : undefined;
  const settled = restored && (!loggedIn || answer !== undefined || mine.isError);
  const showsForm = Boolean(answer && (answer.review ? editing : answer.canReview && open));

  // The form's code (with the shared schema's zod) loads only for a viewer who may need it.
  const mayWrite = wanted || Boolean(answer && (answer.canReview || answer.review));
  useEffect(() => {
    if (mayWrite) void loadForm().catch(() => undefined);
  }, [mayWrite]);

  // Asked for by the address: once the area shows what it will show, it is brought into view; the form
  // focuses itself, or the area takes the focus when there is no form. Once per visit of the address.
  useEffect(() => {
    if (!wanted || !settled || scrolledFor.current === key) return;
    scrolledFor.current = key;
    areaRef.current?.scrollIntoView({ block: 'start' });
    if (!showsForm) areaRef.current?.focus({ preventScroll: true });
  }, [wanted, settled, key, showsForm]);

  /** After a change the focus stays in the area (the form that had it is gone). */
  function done(text: string) {
    setMessage(text);
    setOpen(false);
    setEditing(false);
    setFocusForm(false);
    areaRef.current?.focus({ preventScroll: true });
  }

  async function create(body: ReviewBody) {
    await createReview({ productId, body }).unwrap();
    done(MESSAGES.created);
  }

  async function update(review: Review, body: ReviewBody) {
    await updateReview({ productId, reviewId: review._id, body }).unwrap();
    done(MESSAGES.updated);
  }

  async function remove(review: Review) {
    try {
      await deleteReview({ productId, reviewId: review._id }).unwrap();
      setConfirming(false);
      done(MESSAGES.deleted);
    } catch {
      // The error shows under the review; the dialog closes so it can be read.
      setConfirming(false);
    }
  }

  let content;
  if (!settled) {
    content = <p className="text-zinc-400">Checking whether you can review this product...</p>;
  } else if (!loggedIn) {
    content = (
      <p className="text-zinc-300">
        <Link
          to={`/login?redirect=${encodeURIComponent(pathname + WRITE_REVIEW_HASH)}`}
          className="font-semibold text-cyan-300 underline underline-offset-4 hover:text-lime-300"
        >
          Log in to write a review
        </Link>{' '}
        — customers who bought this product can review it.
      </p>
    );
  } else if (!answer) {
    content = <ErrorLine message={errorMessage(mine.error)} />;
  } else if (answer.review && editing) {
    const review = answer.review;
    content = (
      <ReviewForm
        heading="Edit your review"
        initial={{ rating: review.rating, title: review.title, comment: review.comment }}
        submitLabel="Save changes"
        onSubmit={(body) => update(review, body)}
        onCancel={() => {
          setEditing(false);
          setFocusForm(false);
          areaRef.current?.focus({ preventScroll: true });
        }}
        autoFocus={focusForm}
      />
    );
  } else if (answer.review) {
    const review = answer.review;
    content = (
      <div className="flex flex-col gap-3">
        <h3 className="pixel-heading text-sm text-lime-300">Your review</h3>
        {review.hidden && (
          <p className="text-amber-300">The shop has hidden this review: only you can see it.</p>
        )}
        <ReviewItem review={review} />
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              setMessage(null);
              deletion.reset();
              setFocusForm(true);
              setEditing(true);
            }}
          >
            Edit
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={deletion.isLoading}
            onClick={() => {
              setMessage(null);
              setConfirming(true);
            }}
          >
            {deletion.isLoading ? 'Deleting...' : 'Delete'}
          </button>
        </div>
        {deletion.error && <ErrorLine message={errorMessage(deletion.error)} />}
        {confirming && (
          <ConfirmDialog
            message={DELETE_QUESTION}
            busy={deletion.isLoading}
            onConfirm={() => void remove(review)}
            onCancel={() => setConfirming(false)}
          />
        )}
      </div>
    );
  } else if (answer.canReview && open) {
    content = (
      <ReviewForm
        heading="Write a review"
        submitLabel="Submit review"
        onSubmit={create}
        onCancel={() => {
          setOpen(false);
          setFocusForm(false);
          areaRef.current?.focus({ preventScroll: true });
        }}
        autoFocus={focusForm}
      />
    );
  } else if (answer.canReview) {
    content = (
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => {
          setMessage(null);
          setFocusForm(true);
          setOpen(true);
        }}
      >
        Write a review
      </button>
    );
  } else {
    content = <p className="text-zinc-300">{answer.reason ?? 'You cannot review this product.'}</p>;
  }

  return (
    <div
      ref={areaRef}
      id={WRITE_REVIEW_ID}
      tabIndex={-1}
      role="group"
      aria-label="Your review"
      className="flex scroll-mt-4 flex-col gap-3 outline-none"
    >
      <p role="status" className={message ? 'font-semibold text-lime-300' : 'sr-only'}>
        {message}
      </p>
      <Suspense fallback={<ReviewFormLoading />}>{content}</Suspense>
    </div>
  );
}

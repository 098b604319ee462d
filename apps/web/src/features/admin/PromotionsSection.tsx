import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { dateTimeFormat, describeDiscount, formatDollars, type Promotion } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDeactivatePromotionMutation, useGetPromotionsQuery, useUpdatePromotionMutation } from './api';
import { PromotionFormModal } from './PromotionFormModal';
import { promotionName, STATE_LABELS } from './promotion-form';
import { sendOrRefusal } from './submit';

export const NO_PROMOTIONS = 'No promotions yet';
export const confirmDeactivate = (code: string) => `Deactivate ${code}?`;

type Outcome = { kind: 'success'; message: string } | { kind: 'error'; message: string } | null;

/** "3 of 100 used", or "3 used" without a limit. */
export function usesText(promotion: Pick<Promotion, 'used' | 'usageLimit'>): string {
  return promotion.usageLimit === null
    ? `${promotion.used} used`
    : `${promotion.used} of ${promotion.usageLimit} used`;
}

const STATE_CLASSES: Record<Promotion['state'], string> = {
  active: 'border-lime-400 text-lime-300',
  scheduled: 'border-cyan-300 text-cyan-200',
  ended: 'border-zinc-500 text-zinc-300',
  used_up: 'border-amber-400 text-amber-300',
  inactive: 'border-zinc-500 text-zinc-300',
};

/** A moment of the window in the admin's own time zone: "Nov 27, 2026, 10:00 AM". */
function Moment({ iso }: { iso: string }) {
  return (
    <time dateTime={iso}>
      {dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))}
    </time>
  );
}

function Window({ startsAt, endsAt }: Pick<Promotion, 'startsAt' | 'endsAt'>) {
  if (startsAt && endsAt)
    return (
      <>
        From <Moment iso={startsAt} /> to <Moment iso={endsAt} />
      </>
    );
  if (startsAt)
    return (
      <>
        From <Moment iso={startsAt} />
      </>
    );
  if (endsAt)
    return (
      <>
        Until <Moment iso={endsAt} />
      </>
    );
  return <>Any time</>;
}

function PromotionItem({
  promotion,
  focused,
  onFocused,
  onEdit,
  onOutcome,
}: {
  promotion: Promotion;
  /** Take the focus once (the promotion just created). */
  focused: boolean;
  onFocused: () => void;
  onEdit: () => void;
  onOutcome: (outcome: Outcome) => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [deactivate, { isLoading: deactivating }] = useDeactivatePromotionMutation();
  const [update, { isLoading: activating }] = useUpdatePromotionMutation();
  const sale = promotion.kind === 'sale';
  const name = promotionName(promotion);

  useEffect(() => {
    if (!focused) return;
    headingRef.current?.focus();
    onFocused();
  }, [focused, onFocused]);

  async function onDeactivate() {
    const refused = await sendOrRefusal(() => deactivate(promotion._id).unwrap());
    setConfirming(false);
    onOutcome(
      refused
        ? { kind: 'error', message: refused.message }
        : { kind: 'success', message: `${name} deactivated` },
    );
  }

  async function onActivate() {
    if (activating) return;
    const refused = await sendOrRefusal(() => update({ id: promotion._id, body: { active: true } }).unwrap());
    onOutcome(
      refused
        ? { kind: 'error', message: refused.message }
        : { kind: 'success', message: `${name} activated` },
    );
  }

  const detail = (term: string, description: ReactNode) => (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-zinc-400">{term}:</dt>
      <dd>{description}</dd>
    </div>
  );

  return (
    <li className="flex flex-col gap-3 border-2 border-zinc-700 bg-zinc-950 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* A sale has no code: it is named "Sale" and by what it does. */}
        <h3
          ref={headingRef}
          tabIndex={-1}
          className={`text-lg text-lime-300 ${sale ? 'font-semibold break-words' : 'font-mono break-all'}`}
        >
          {name}
        </h3>
        <span className={`border-2 px-2 py-0.5 text-sm font-semibold ${STATE_CLASSES[promotion.state]}`}>
          {STATE_LABELS[promotion.state]}
        </span>
      </div>
      <dl className="flex flex-col gap-1">
        {/* A sale's heading says what it does; it has no uses (no code to use). */}
        {!sale && detail('Discount', describeDiscount(promotion))}
        {!sale && detail('Uses', usesText(promotion))}
        {promotion.perCustomerLimit !== null &&
          detail('Per customer', `at most ${promotion.perCustomerLimit}`)}
        {promotion.minSubtotal !== null && detail('Minimum subtotal', formatDollars(promotion.minSubtotal))}
        {detail('When', <Window startsAt={promotion.startsAt} endsAt={promotion.endsAt} />)}
      </dl>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-secondary" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
        {/* One button whose action follows the state: the focus stays on it across the change (so it
            is never disabled, which would drop the focus). */}
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`${promotion.active ? 'Deactivate' : 'Activate'} ${name}`}
          onClick={() => (promotion.active ? setConfirming(true) : void onActivate())}
        >
          {promotion.active ? 'Deactivate' : 'Activate'}
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          message={confirmDeactivate(name)}
          details={
            sale
              ? 'The shop goes back to its regular prices; orders already placed keep theirs. You can activate it again.'
              : 'Shoppers can no longer use it; orders already placed keep their discount. You can activate it again.'
          }
          confirmLabel="Deactivate"
          busy={deactivating}
          onConfirm={() => void onDeactivate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/**
 * Promotions (issue 32, docs/decisions/009): the discount codes and the scheduled sales, newest first,
 * with their state in words, their uses (a code's) and their dates; create, edit and deactivate (or
 * activate again) them. A promotion is never deleted: orders keep it.
 */
export function PromotionsSection() {
  // Read again each time the section opens: shoppers' orders change the uses, the clock the states.
  const { data, error, isLoading } = useGetPromotionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState<Promotion | 'new' | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);

  function onSaved(saved: Promotion, how: 'created' | 'saved') {
    setEditing(null);
    setOutcome({ kind: 'success', message: `${promotionName(saved)} ${how}` });
    // A new promotion is looked at where it is listed; an edited one gives the focus back to its Edit button.
    if (how === 'created') setFocusId(saved._id);
  }

  return (
    <div className="flex flex-col gap-6">
      <button type="button" className="btn btn-primary self-start" onClick={() => setEditing('new')}>
        New Promotion
      </button>
      <div aria-live="polite">
        {outcome?.kind === 'success' && <p className="text-lime-300">{outcome.message}</p>}
        {outcome?.kind === 'error' && <ErrorLine message={outcome.message} />}
      </div>
      {isLoading ? (
        <Spinner label="Loading promotions" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !data || data.length === 0 ? (
        <p className="text-zinc-300">{NO_PROMOTIONS}</p>
      ) : (
        <ul aria-label="Promotions" className="grid gap-4 xl:grid-cols-2">
          {data.map((promotion) => (
            <PromotionItem
              key={promotion._id}
              promotion={promotion}
              focused={promotion._id === focusId}
              onFocused={clearFocus}
              onEdit={() => setEditing(promotion)}
              onOutcome={setOutcome}
            />
          ))}
        </ul>
      )}
      {editing && (
        <PromotionFormModal
          key={editing === 'new' ? 'new' : editing._id}
          promotion={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={onSaved}
        />
      )}
    </div>
  );
}

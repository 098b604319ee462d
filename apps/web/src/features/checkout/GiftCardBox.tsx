import { useId, type FormEvent } from 'react';
import { formatCents, type Cents } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';

export interface GiftCardBoxProps {
  code: string;
  onCodeChange: (code: string) => void;
  onCheckBalance: () => void;
  checking: boolean;
  /** The balance of the code as typed, once checked. */
  balanceCents: Cents | null;
  balanceError: string | null;
  onApply: () => void;
  /** The card's money on a replaced order goes back to it: applying reads the balance again first. */
  recheckOnApply?: boolean;
  applying: boolean;
  /** Set once a card is applied to the order; before that, what applying would take. */
  applied: boolean;
  appliedCents: Cents | null;
  remainderCents: Cents | null;
  /**
   * Issue 30: takes the applied card off the order (its money goes back to the card). Given only while
   * the card can still be removed: applied to an unpaid order that still has a remainder to pay.
   */
  onRemove?: () => void;
  removing?: boolean;
  /** Another payment is under way. */
  disabled: boolean;
}

/**
 * The gift-card area (spec sections 2, 4 and 5): check the balance of a code, then apply it once.
 * Applied amount = min(balance, total), remainder = total - applied; both are computed by the parent.
 * Until the order is paid, an applied card can be removed again (issue 30), and another one applied.
 */
export function GiftCardBox(props: GiftCardBoxProps) {
  const id = useId();
  const { code, balanceCents, applied, appliedCents, remainderCents } = props;
  const canApply = props.recheckOnApply === true || (balanceCents != null && balanceCents > 0);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    props.onCheckBalance();
  }

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4 border-4 border-zinc-800 p-4">
      <h3 id={`${id}-title`} className="pixel-heading text-xs text-fuchsia-300">
        Gift Card
      </h3>
      <form onSubmit={onSubmit} className="flex flex-col gap-2">
        <label htmlFor={`${id}-code`} className="text-sm font-semibold text-zinc-300">
          Gift card code
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={`${id}-code`}
            name="giftCardCode"
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            value={code}
            disabled={applied}
            onChange={(e) => props.onCodeChange(e.target.value)}
            className="field min-w-0 flex-1 uppercase"
          />
          <button
            type="submit"
            className="btn btn-secondary"
            disabled={props.checking || applied}
            aria-busy={props.checking}
          >
            {props.checking ? 'Checking...' : 'Check Balance'}
          </button>
        </div>
      </form>
      {props.balanceError && <ErrorLine message={props.balanceError} />}
      {balanceCents != null && (
        <dl className="flex flex-col gap-1" aria-label="Gift card amounts">
          <div className="flex justify-between gap-4">
            <dt className="text-zinc-400">Balance</dt>
            <dd className="font-semibold text-zinc-100 tabular-nums">{formatCents(balanceCents)}</dd>
          </div>
          {appliedCents != null && (
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-400">{applied ? 'Applied amount' : 'Amount to apply'}</dt>
              <dd className="font-semibold text-lime-300 tabular-nums">{formatCents(appliedCents)}</dd>
            </div>
          )}
          {remainderCents != null && (
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-400">Remainder</dt>
              <dd className="font-semibold text-zinc-100 tabular-nums">{formatCents(remainderCents)}</dd>
            </div>
          )}
        </dl>
      )}
      {applied && (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-lime-300">Gift card applied to your order.</p>
          {props.onRemove && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={props.onRemove}
              disabled={props.removing === true || props.disabled}
              aria-busy={props.removing === true}
              aria-label="Remove gift card"
            >
              {props.removing ? 'Removing...' : 'Remove'}
            </button>
          )}
        </div>
      )}
      <button
        type="button"
        className="btn btn-primary self-start"
        onClick={props.onApply}
        disabled={!canApply || applied || props.applying || props.disabled}
        aria-busy={props.applying}
      >
        {props.applying ? 'Applying...' : 'Apply Gift Card'}
      </button>
    </section>
  );
}

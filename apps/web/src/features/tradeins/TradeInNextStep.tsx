import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  MAX_TRACKING_NUMBER_LENGTH,
  ShipTradeInBody,
  formatDollars,
  nameWithVariant,
  type TradeIn,
} from '@pixel-vault/shared';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { Price } from '../../ui/Price';
import { useMoveTradeInMutation, type TradeInMove } from './api';
import { readableError } from '../../app/readableError';
import { differences, expiryText, optionsText, outcomeText } from './tradeInWords';

type Confirming = 'cancel' | 'decline' | null;

/** Said (and focused) once a move went through. */
const DONE: Record<TradeInMove, string> = {
  ship: 'Marked as shipped. We will e-mail you when your box arrives.',
  cancel: 'Your trade-in was cancelled. Nothing was credited.',
  accept: 'Accepted: your store credit is ready.',
  decline: 'Declined: we are sending your items back.',
};

function NewQuoteLink() {
  return (
    <Link to="/sell" className="btn btn-secondary self-start">
      Get a new quote
    </Link>
  );
}

/** The store credit's code, with a button that copies it (and says so). */
function CreditCode({ tradeIn, onCopied }: { tradeIn: TradeIn; onCopied: (message: string) => void }) {
  const code = tradeIn.giftCardCode ?? '';
  const labelId = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      onCopied('Code copied');
    } catch {
      onCopied('Could not copy: please select the code and copy it');
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-zinc-200">
        We credited <Price value={tradeIn.creditedAmount} className="font-semibold text-lime-300" /> in store
        credit. Your code:
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code
          id={labelId}
          className="border-2 border-lime-400 px-3 py-2 font-mono text-lg font-bold tracking-wider break-all text-lime-300 sm:text-xl"
        >
          {code}
        </code>
        <button
          type="button"
          className="btn btn-secondary"
          aria-describedby={labelId}
          onClick={() => void copy()}
        >
          Copy code
        </button>
      </div>
      <p className="text-zinc-300">
        Spend it at checkout: enter the code in the gift card box, like any gift card. It is in the e-mail we
        sent you too.
      </p>
      <Link to="/" className="btn btn-secondary self-start">
        Start shopping
      </Link>
    </div>
  );
}

/** quoted: mark as shipped, with an optional tracking number. */
function ShipForm({ busy, onShip }: { busy: boolean; onShip: (trackingNumber: string | undefined) => void }) {
  const [tracking, setTracking] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ShipTradeInBody.safeParse({ trackingNumber: tracking });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the tracking number');
      return;
    }
    setInvalid(null);
    onShip(parsed.data.trackingNumber);
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-busy={busy}>
      <LabelledField
        label="Tracking number (optional)"
        hint="From the carrier’s receipt, so that you and we can follow the box."
      >
        {({ id, describedBy }) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid ? true : undefined}
            name="trackingNumber"
            autoComplete="off"
            maxLength={MAX_TRACKING_NUMBER_LENGTH}
            value={tracking}
            onChange={(event) => setTracking(event.target.value)}
            className="field w-full bg-zinc-950 sm:w-80"
          />
        )}
      </LabelledField>
      {invalid && <ErrorLine message={invalid} />}
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        Mark as shipped
      </button>
    </form>
  );
}

/**
 * What the shopper can do next, by the trade-in's status (issue 35): ship or cancel a quote; cancel a
 * box on its way; accept or decline an inspection's credit (its differences said first); the credit's
 * code once accepted; why a closed trade-in is closed. `onDone` says what a move did.
 */
export function TradeInNextStep({
  tradeIn,
  onDone,
}: {
  tradeIn: TradeIn;
  onDone: (message: string) => void;
}) {
  const headingId = useId();
  const [move, moving] = useMoveTradeInMutation();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function run(kind: TradeInMove, trackingNumber?: string) {
    setFailure(null);
    try {
      await move({
        id: tradeIn._id,
        move: kind,
        ...(kind === 'ship' ? { body: trackingNumber ? { trackingNumber } : {} } : {}),
      }).unwrap();
      onDone(DONE[kind]);
    } catch (error) {
      setFailure(readableError(error));
    } finally {
      setConfirming(null);
    }
  }

  const busy = moving.isLoading;
  const cancelButton = (
    <button
      type="button"
      className="btn btn-secondary self-start"
      disabled={busy}
      onClick={() => setConfirming('cancel')}
    >
      Cancel trade-in
    </button>
  );

  let body;
  switch (tradeIn.status) {
    case 'quoted':
      body = (
        <>
          <p className="text-zinc-300">
            Your quote holds until <strong className="text-zinc-100">{expiryText(tradeIn)}</strong>. Print the
            packing slip below, put it in the box with your games and send it to us; then tell us it is on its
            way.
          </p>
          <ShipForm busy={busy} onShip={(trackingNumber) => void run('ship', trackingNumber)} />
          <p className="text-zinc-300">Changed your mind? Nothing has been sent yet.</p>
          {cancelButton}
        </>
      );
      break;
    case 'shipped':
      body = (
        <>
          <p className="text-zinc-300">
            Your box is on its way
            {tradeIn.trackingNumber && (
              <>
                {' '}
                (tracking number{' '}
                <span className="font-mono break-all text-zinc-100">{tradeIn.trackingNumber}</span>)
              </>
            )}
            . Once it arrives we inspect every item and e-mail you.
          </p>
          <p className="text-zinc-300">You can still cancel until we receive it.</p>
          {cancelButton}
        </>
      );
      break;
    case 'received':
      body = (
        <p className="text-zinc-300">
          Your box has arrived. We are inspecting your items and will e-mail you what we found.
        </p>
      );
      break;
    case 'inspected': {
      const changed = differences(tradeIn.items);
      const amount = tradeIn.inspectedCredit ?? tradeIn.totalCredit;
      body = (
        <>
          <p className="text-zinc-300">
            We inspected your items. We can pay{' '}
            <Price value={amount} className="font-semibold text-lime-300" /> in store credit instead of the{' '}
            <Price value={tradeIn.totalCredit} /> quoted
            {changed.length > 0 ? ':' : '.'}
          </p>
          {changed.length > 0 && (
            <ul aria-label="What changed" className="flex list-disc flex-col gap-1 pl-6 text-zinc-200">
              {changed.map((item) => (
                <li key={item._id} className="break-words">
                  <span className="font-semibold">
                    {nameWithVariant(item.productName, optionsText(item.options))}
                  </span>
                  {item.qty > 1 ? ` (×${item.qty})` : ''}: {outcomeText(item)}
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void run('accept')}
            >
              Accept {formatDollars(amount)} store credit
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy}
              onClick={() => setConfirming('decline')}
            >
              Decline and get the items back
            </button>
          </div>
        </>
      );
      break;
    }
    case 'accepted':
      body = <CreditCode tradeIn={tradeIn} onCopied={onDone} />;
      break;
    case 'returned':
      body = (
        <>
          <p className="text-zinc-300">
            You declined the inspected credit, so nothing was credited. We are sending your items back to you.
          </p>
          <NewQuoteLink />
        </>
      );
      break;
    case 'cancelled':
      body = (
        <>
          <p className="text-zinc-300">This trade-in was cancelled: nothing was credited.</p>
          <NewQuoteLink />
        </>
      );
      break;
    case 'expired':
      body = (
        <>
          <p className="text-zinc-300">
            This quote expired on {expiryText(tradeIn)}: the box was not marked as shipped in time. The buy
            list may have changed since; a new quote prices your games again.
          </p>
          <NewQuoteLink />
        </>
      );
      break;
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-4 border-zinc-800 p-4 sm:p-5">
      <h2 id={headingId} className="pixel-heading text-sm text-cyan-300">
        {tradeIn.status === 'accepted' ? 'Your store credit' : 'What happens next'}
      </h2>
      {body}
      {failure && <ErrorLine message={failure} />}
      {confirming === 'cancel' && (
        <ConfirmDialog
          message="Cancel this trade-in?"
          details={
            tradeIn.status === 'shipped'
              ? 'Nothing will be credited. If the box reaches us anyway, please contact us to have it sent back.'
              : 'The quote is dropped and nothing will be credited.'
          }
          confirmLabel="Yes, cancel trade-in"
          cancelLabel="Keep trade-in"
          busy={busy}
          onConfirm={() => void run('cancel')}
          onCancel={() => setConfirming(null)}
        />
      )}
      {confirming === 'decline' && (
        <ConfirmDialog
          message="Decline the inspected credit?"
          details="Nothing will be credited, and we send all your items back to you."
          confirmLabel="Yes, send them back"
          cancelLabel="Keep deciding"
          busy={busy}
          onConfirm={() => void run('decline')}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}

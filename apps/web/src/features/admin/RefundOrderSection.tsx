import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { RefundBody, formatCents, toCents, type Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { useRefundOrderMutation, type RefundRequest } from './api';

/** The server's 502 when PayPal did not answer: the refund is recorded and completes by itself. */
const REFUND_PENDING = 'REFUND_PENDING';

type Field = 'amount' | 'reason';
type Outcome =
  | { kind: 'refunded'; message: string }
  | { kind: 'pending'; message: string }
  | { kind: 'error'; message: string; field?: Field };

/** What is left to refund: everything paid, less what was given back so far (cents). */
export function refundableCents(order: Pick<Order, 'totalPrice' | 'refundedPrice'>): number {
  return Math.max(0, toCents(order.totalPrice) - toCents(order.refundedPrice));
}

/** A paid or delivered order with money left to give back (the server's transition table, issue 12). */
export function canRefund(order: Pick<Order, 'status' | 'totalPrice' | 'refundedPrice'>): boolean {
  return (order.status === 'paid' || order.status === 'delivered') && refundableCents(order) > 0;
}

/**
 * The form's values checked with the schema the server uses, and against what is left: the request to
 * send, or the message to show.
 */
export function checkRefund(
  values: { amount: string; reason: string; restock: boolean },
  leftCents: number,
): { request: RefundRequest } | { problem: string; field: Field } {
  const amountText = values.amount.trim();
  const parsed = RefundBody.safeParse({
    amount: amountText === '' ? undefined : Number(amountText),
    reason: values.reason,
    restock: values.restock,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: issue?.message ?? 'Please check the form',
      field: issue?.path[0] === 'amount' ? 'amount' : 'reason',
    };
  }
  const { amount, reason, restock } = parsed.data;
  if (amount !== undefined && toCents(amount) > leftCents) {
    return { problem: `At most ${formatCents(leftCents)} can be refunded on this order`, field: 'amount' };
  }
  return { request: { ...(amount !== undefined ? { amount } : {}), reason, restock } };
}

/**
 * 'Refund' on /admin/order/:orderId (issue 12): full or partial, with a required reason and optionally
 * the items back in stock, for a paid or delivered order with money left to refund. The admin confirms
 * the amount first; the order then reloads with the refund in its timeline.
 */
export function RefundOrderSection({ order }: { order: Order }) {
  const headingId = useId();
  const errorId = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);
  const [confirming, setConfirming] = useState<RefundRequest | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [refundOrder, { isLoading }] = useRefundOrderMutation();
  const amountRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  // The reader goes where the outcome is: the field to fix, or the message (the form may be gone).
  useEffect(() => {
    if (!outcome) return;
    if (outcome.kind !== 'error') statusRef.current?.focus();
    else if (outcome.field === 'amount') amountRef.current?.focus();
    else if (outcome.field === 'reason') reasonRef.current?.focus();
  }, [outcome]);

  const leftCents = refundableCents(order);
  const refundable = canRefund(order);
  if (!refundable && outcome == null) return null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkRefund({ amount, reason, restock }, leftCents);
    if ('problem' in checked) {
      setOutcome({ kind: 'error', message: checked.problem, field: checked.field });
      return;
    }
    setOutcome(null);
    setConfirming(checked.request);
  }

  async function onConfirm(request: RefundRequest) {
    try {
      await refundOrder({ id: order._id, body: request }).unwrap();
      setAmount('');
      setReason('');
      setRestock(false);
      setOutcome({
        kind: 'refunded',
        message: `Refunded ${formatCents(request.amount !== undefined ? toCents(request.amount) : leftCents)}. The customer will be e-mailed.`,
      });
    } catch (error) {
      const code = (error as { data?: { code?: unknown } } | undefined)?.data?.code;
      // PayPal did not answer: the refund is recorded and completes by itself. Information, not an error.
      setOutcome({ kind: code === REFUND_PENDING ? 'pending' : 'error', message: errorMessage(error) });
    } finally {
      setConfirming(null);
    }
  }

  const info = outcome?.kind === 'refunded' || outcome?.kind === 'pending' ? outcome.message : '';
  const invalid = (field: Field) => outcome?.kind === 'error' && outcome.field === field;
  const confirmAmount =
    confirming?.amount !== undefined ? formatCents(toCents(confirming.amount)) : formatCents(leftCents);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-4 border-zinc-800 p-5">
      <h2 id={headingId} className="pixel-heading text-sm text-cyan-300">
        Refund
      </h2>
      {refundable ? (
        <form aria-labelledby={headingId} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <LabelledField
            label="Amount (USD)"
            hint={`Leave empty to refund everything left: at most ${formatCents(leftCents)}.`}
          >
            {({ id, describedBy }) => (
              <input
                id={id}
                ref={amountRef}
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0.01"
                max={(leftCents / 100).toFixed(2)}
                placeholder={(leftCents / 100).toFixed(2)}
                className="field w-full sm:w-48"
                value={amount}
                aria-invalid={invalid('amount') || undefined}
                aria-describedby={
                  [describedBy, invalid('amount') ? errorId : undefined].filter(Boolean).join(' ') ||
                  undefined
                }
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </LabelledField>
          <LabelledField label="Reason" hint="Required. The customer reads it in the refund e-mail.">
            {({ id, describedBy }) => (
              <textarea
                id={id}
                ref={reasonRef}
                rows={3}
                maxLength={500}
                required
                className="field w-full"
                value={reason}
                aria-invalid={invalid('reason') || undefined}
                aria-describedby={
                  [describedBy, invalid('reason') ? errorId : undefined].filter(Boolean).join(' ') ||
                  undefined
                }
                onChange={(event) => setReason(event.target.value)}
              />
            )}
          </LabelledField>
          <label className="flex items-center gap-3 text-zinc-100">
            <input
              type="checkbox"
              className="h-5 w-5 accent-lime-400"
              checked={restock}
              onChange={(event) => setRestock(event.target.checked)}
            />
            Put the items back in stock
          </label>
          <button type="submit" className="btn btn-primary self-start" disabled={isLoading}>
            {isLoading ? 'Refunding…' : 'Refund'}
          </button>
        </form>
      ) : (
        <p className="text-zinc-300">Nothing is left to refund on this order.</p>
      )}
      {/* Present from the start, so that the outcome is announced when it arrives. */}
      <p ref={statusRef} role="status" tabIndex={-1} className={info ? 'text-lime-300' : 'sr-only'}>
        {info}
      </p>
      {outcome?.kind === 'error' && (
        <div id={errorId}>
          <ErrorLine message={outcome.message} />
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          message={`Refund ${confirmAmount} of this order?`}
          details={
            <>
              <p>
                The money goes back to the customer&apos;s gift cards first, then to PayPal, and the customer
                is e-mailed. Reason: {confirming.reason}
              </p>
              <p className="mt-2">
                {confirming.restock ? 'The items go back in stock.' : 'The stock stays as it is.'}
              </p>
            </>
          }
          confirmLabel={isLoading ? 'Refunding…' : `Refund ${confirmAmount}`}
          busy={isLoading}
          onConfirm={() => void onConfirm(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatDollars, toCents, toDollars, type Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Modal } from '../../ui/Modal';
import { useCancelOrderMutation } from '../../app/ordersApi';
import { customerId, isOpenOrder } from '../../ui/orderMath';

/** The server's 502 when PayPal did not answer: the refund is recorded and completes by itself. */
const REFUND_PENDING = 'REFUND_PENDING';

type Outcome =
  | { kind: 'cancelled'; message: string }
  | { kind: 'pending'; message: string }
  | { kind: 'error'; message: string };

/** What was left to give back of a paid order: everything paid, less earlier refunds. */
function refundableCents(order: Pick<Order, 'totalPrice' | 'refundedPrice'>): number {
  return Math.max(0, toCents(order.totalPrice) - toCents(order.refundedPrice));
}

/** Where a full refund goes: every payment back to where it came from. */
function refundDestination(order: Pick<Order, 'giftCardAmount' | 'totalPrice'>): string {
  const giftCents = toCents(order.giftCardAmount);
  if (giftCents <= 0) return 'back to PayPal';
  if (giftCents >= toCents(order.totalPrice)) return 'back to your gift card';
  return 'the gift-card part back to your gift card, the rest to PayPal';
}

/** What cancelling will do, said before the customer confirms (issue 12). */
export function cancelConsequence(
  order: Pick<Order, 'status' | 'totalPrice' | 'refundedPrice' | 'giftCardAmount'>,
): string {
  if (order.status === 'paid') {
    return `You will get a full refund of ${formatDollars(toDollars(refundableCents(order)))}, ${refundDestination(order)}. The items go back on the shelf.`;
  }
  return 'Nothing will be charged, and any gift-card money held for this order goes back to your card. The items go back on the shelf.';
}

function cancelledMessage(before: Order, after: Order): string {
  const refunded = toCents(after.refundedPrice) - toCents(before.refundedPrice);
  return refunded > 0
    ? `Your order was cancelled. ${formatDollars(toDollars(refunded))} is on its way back to you; we have e-mailed you the details.`
    : 'Your order was cancelled. Nothing was charged; we have e-mailed you a confirmation.';
}

/**
 * 'Cancel order' on /order/:orderId (issue 12), for the customer's own order while it is awaiting
 * payment, or paid and not delivered yet; a delivered order is returned through the shop instead. The
 * customer confirms in a dialog that says what will happen; the page then shows the cancelled order.
 * An unpaid order whose hold had run out when it was read (`readAt`, epoch ms) is not offered: it is
 * expiring by itself, and the server would answer that it expired.
 */
export function CancelOrderSection({ order, readAt }: { order: Order; readAt: number }) {
  const headingId = useId();
  const titleId = useId();
  const detailsId = useId();
  const userId = useAppSelector((state) => state.auth.userInfo?._id ?? null);
  const [cancelOrder, { isLoading }] = useCancelOrderMutation();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  // Once the dialog has closed, the customer reads on where the outcome is (the button may be gone).
  useEffect(() => {
    if (outcome && outcome.kind !== 'error') statusRef.current?.focus();
  }, [outcome]);

  if (userId == null || customerId(order) !== userId) return null;
  const cancellable = order.status === 'paid' || isOpenOrder(order, readAt);
  const done = outcome?.kind === 'cancelled';
  if (!cancellable && order.status !== 'delivered' && outcome == null) return null;

  async function onConfirm() {
    try {
      const cancelled = await cancelOrder(order._id).unwrap();
      setOutcome({ kind: 'cancelled', message: cancelledMessage(order, cancelled) });
    } catch (error) {
      const code = (error as { data?: { code?: unknown } } | undefined)?.data?.code;
      // PayPal did not answer: nothing failed, the refund completes by itself. Information, not an error.
      setOutcome({ kind: code === REFUND_PENDING ? 'pending' : 'error', message: errorMessage(error) });
    } finally {
      setConfirming(false);
    }
  }

  const info = outcome?.kind === 'cancelled' || outcome?.kind === 'pending' ? outcome.message : '';
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-4 border-zinc-800 p-5">
      <h2 id={headingId} className="pixel-heading text-sm text-cyan-300">
        Cancel or return
      </h2>
      {cancellable && !done && (
        <>
          <p className="text-zinc-300">You can cancel this order until it is delivered.</p>
          <button
            type="button"
            className="btn btn-secondary self-start"
            onClick={() => {
              setOutcome(null);
              setConfirming(true);
            }}
          >
            Cancel order
          </button>
        </>
      )}
      {order.status === 'delivered' && (
        <p className="text-zinc-300">
          This order was delivered, so it can no longer be cancelled here. To return it, please{' '}
          <Link to="/contact" className="font-semibold text-cyan-300 underline underline-offset-4">
            contact us
          </Link>
          .
        </p>
      )}
      {/* Present from the start, so that the outcome is announced when it arrives. */}
      <p ref={statusRef} role="status" tabIndex={-1} className={info ? 'text-lime-300' : 'sr-only'}>
        {info}
      </p>
      {outcome?.kind === 'error' && <ErrorLine message={outcome.message} />}
      {confirming && (
        <Modal onClose={() => setConfirming(false)} labelledBy={titleId} describedBy={detailsId}>
          <h2 id={titleId} className="mb-3 text-lg text-zinc-100">
            Cancel this order?
          </h2>
          <p id={detailsId} className="mb-6 text-zinc-300">
            {cancelConsequence(order)}
          </p>
          <div className="flex flex-wrap justify-end gap-3">
            {/* First, so it has the focus: keeping the order is the safe choice. */}
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              Keep order
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={isLoading}
              onClick={() => void onConfirm()}
            >
              {isLoading ? 'Cancelling…' : 'Yes, cancel order'}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

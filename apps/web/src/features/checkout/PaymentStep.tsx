import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toCents, toDollars, type Cents, type Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { clearCart, savePaymentMethod, type PaymentMethod } from '../../app/cartSlice';
import {
  ordersApi,
  useCapturePayPalOrderMutation,
  useCheckGiftCardBalanceMutation,
  useCreatePayPalOrderMutation,
  usePayOrderMutation,
  useRemoveGiftCardMutation,
  useUseGiftCardMutation,
} from '../../app/ordersApi';
import { isExpiredOrderError } from './checkoutErrors';
import { GiftCardBox } from './GiftCardBox';
import { PayPalBox } from './PayPalBox';
import type { CheckoutOrder } from './useCheckoutOrder';

/** The server answers 409 `ORDER_PAID` when the order was paid meanwhile (issue 30: Remove came too late). */
function isOrderPaidError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { status?: unknown; data?: { code?: unknown } };
  return e.status === 409 && e.data?.code === 'ORDER_PAID';
}

type Busy = 'apply' | 'remove' | 'place' | 'paypal' | null;

interface Applied {
  orderId: string;
  code: string;
  cents: Cents;
  remainderCents: Cents;
}

interface Balance {
  code: string;
  cents: Cents;
  /** The order this card's money was applied to when read (null: read by Check Balance). */
  orderId: string | null;
}

/**
 * The order being paid: checkout's (useCheckoutOrder: created when first needed) or an existing open
 * order paid from its own page. `drop` is given the server's answer when that said the order expired.
 */
export type PayableOrder = Omit<CheckoutOrder, 'drop' | 'orderReadAt' | 'placeWithCode'> & {
  drop: (expiredError?: unknown) => void;
  /** When the order shown was asked for; unknown, a gift card's removal answer counts from then on. */
  orderReadAt?: number;
};

/**
 * Step 2 (spec sections 2 and 4): Gift Card or PayPal (default). A gift card is checked, then applied
 * once to the order: applied = min(balance, total), remainder = total - applied. A remainder above 0
 * is paid with PayPal; otherwise 'Place Order' settles the order, enabled once the card is applied.
 * The server decides what is paid; on success the cart is cleared and the confirmation shown.
 * Paying an earlier order from its page (issue 9) keeps the cart and has no way back to an address.
 */
export function PaymentStep({
  checkout,
  cartTotalCents,
  onBack,
  clearCartOnPaid = true,
  onPaymentUnderWay,
}: {
  checkout: PayableOrder;
  /** What is due before the order exists; once it does, the server's `amountDue` counts. */
  cartTotalCents: Cents;
  /** 'Back to Shipping Address'; without it the button is not shown. */
  onBack?: () => void;
  /** The cart was this order's: empty it once paid. */
  clearCartOnPaid?: boolean;
  /**
   * Told when a payment starts and when it is over (issue 32): meanwhile the order must not be placed
   * again (a discount code applied), or the payment could land on the order being replaced.
   */
  onPaymentUnderWay?: (underWay: boolean) => void;
}) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const groupId = useId();
  const method = useAppSelector((state) => state.cart.paymentMethod);
  const email = useAppSelector((state) => state.auth.userInfo?.email ?? '');
  const [checkBalance, { isLoading: checking }] = useCheckGiftCardBalanceMutation();
  const [applyGiftCard] = useUseGiftCardMutation();
  const [removeGiftCard] = useRemoveGiftCardMutation();
  const [payOrder] = usePayOrderMutation();
  const [createPayPalOrder] = useCreatePayPalOrderMutation();
  const [capturePayPalOrder] = useCapturePayPalOrderMutation();

  const [code, setCode] = useState('');
  const [balance, setBalance] = useState<Balance | null>(null);
  const [balanceError, setBalanceError] = useState<string | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  // PayPal's own window is open: between its createOrder and its approve, cancel or error.
  const [providerOpen, setProviderOpen] = useState(false);
  const underWay = busy != null || providerOpen;
  const toldUnderWay = useRef(onPaymentUnderWay);
  useEffect(() => {
    toldUnderWay.current = onPaymentUnderWay;
  });
  useEffect(() => {
    toldUnderWay.current?.(underWay);
  }, [underWay]);
  const busyRef = useRef<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  /** What the server said when a card was removed (issue 30), until the next gift-card step. */
  const [removedNote, setRemovedNote] = useState<string | null>(null);
  /**
   * What the order owes, as the remove answered it: a read of the order begun before then may answer
   * after it with the amount from before, so this counts until a read begun later arrives.
   */
  const [dueAfterRemove, setDueAfterRemove] = useState<{ orderId: string; cents: Cents; at: number } | null>(
    null,
  );
  const payingOrderId = useRef<string | null>(null);

  const { order, orderId } = checkout;
  // A card applied to an order that is gone (expired, or the cart changed) no longer counts here.
  const appliedNow = applied && applied.orderId === orderId ? applied : null;
  const trimmedCode = code.trim();
  // A card applied to an order the cart or address change replaced: the server gives that money back
  // to the card when it makes the next order, so a balance read before then is out of date. The
  // balance read after applying it there is unknown here; applying reads it again.
  const refundDue = applied != null && applied.code === trimmedCode && applied.orderId !== orderId;
  const shownBalanceCents =
    balance && balance.code === trimmedCode && (balance.orderId == null || balance.orderId === orderId)
      ? balance.cents
      : null;
  const balanceCents = refundDue ? null : shownBalanceCents;
  /** What is left to pay on the order before another card: the server's latest figure. */
  function dueOn(target: Order): Cents {
    const note = dueAfterRemove;
    const readLater = checkout.orderReadAt != null && note != null && checkout.orderReadAt > note.at;
    return note && note.orderId === target._id && !readLater ? note.cents : toCents(target.amountDue);
  }
  const dueCents = order ? dueOn(order) : cartTotalCents;
  const previewCents = balanceCents != null ? Math.min(balanceCents, dueCents) : null;
  const giftAppliedCents = appliedNow ? appliedNow.cents : method === 'gift' ? previewCents : null;
  const remainderCents = appliedNow
    ? appliedNow.remainderCents
    : method === 'gift' && previewCents != null
      ? dueCents - previewCents
      : dueCents;

  /** Runs one payment action at a time; a second click while one runs does nothing. */
  async function run(kind: Exclude<Busy, null>, action: () => Promise<void>) {
    if (busyRef.current) return;
    busyRef.current = kind;
    setBusy(kind);
    setError(null);
    try {
      await action();
    } catch (e) {
      if (isExpiredOrderError(e)) forgetOrder(e);
      setError(errorMessage(e));
    } finally {
      busyRef.current = null;
      setBusy(null);
    }
  }

  /**
   * The server said the order expired: it gave the held gift-card money back to the card, so the
   * card must be checked and applied again, to the next order.
   */
  function forgetOrder(expiredError: unknown) {
    checkout.drop(expiredError);
    setApplied(null);
    setBalance(null);
  }

  function finish(paid: Order) {
    void navigate(`/order-confirmation/${paid._id}`);
    if (clearCartOnPaid) dispatch(clearCart());
  }

  function chooseMethod(next: PaymentMethod) {
    dispatch(savePaymentMethod(next));
    setError(null);
  }

  async function onCheckBalance() {
    if (!trimmedCode || checking) return;
    setBalanceError(null);
    try {
      const result = await checkBalance({ code: trimmedCode }).unwrap();
      setBalance({ code: trimmedCode, cents: toCents(result.balance), orderId: null });
    } catch (e) {
      setBalance(null);
      setBalanceError(errorMessage(e));
    }
  }

  function onApply() {
    if ((balanceCents == null && !refundDue) || appliedNow) return;
    setRemovedNote(null);
    const cardCode = trimmedCode;
    // The order this card's money went to before, if the cart or address changed since.
    const heldOn = applied?.code === cardCode ? applied.orderId : null;
    void run('apply', async () => {
      const attempt = async (retry: boolean): Promise<void> => {
        const target = await checkout.ensureOrder();
        let availableCents = balanceCents;
        if (heldOn != null && heldOn !== target._id) {
          // Making the new order released the old one and gave its card money back: read it again.
          const fresh = await checkBalance({ code: cardCode }).unwrap();
          availableCents = toCents(fresh.balance);
          setBalance({ code: cardCode, cents: availableCents, orderId: null });
        }
        if (availableCents == null) throw new Error('Please check the gift card balance first.');
        if (availableCents <= 0) throw new Error('This gift card has no balance left.');
        const cents = Math.min(availableCents, dueOn(target));
        if (cents <= 0) throw new Error('There is nothing left to pay with a gift card.');
        try {
          const result = await applyGiftCard({
            code: cardCode,
            amount: toDollars(cents),
            orderId: target._id,
          }).unwrap();
          setApplied({
            orderId: target._id,
            code: cardCode,
            cents: result.applied > 0 ? toCents(result.applied) : cents,
            remainderCents: toCents(result.amountDue),
          });
          setBalance({ code: cardCode, cents: toCents(result.balance), orderId: target._id });
        } catch (e) {
          // The order's hold ran out before the card was applied: start a fresh order once.
          if (retry && isExpiredOrderError(e)) {
            checkout.drop(e);
            return attempt(false);
          }
          throw e;
        }
      };
      await attempt(true);
    });
  }

  /**
   * Issue 30: takes the applied card off the order. The server gives its money back to the card; the
   * card's balance and what the order still owes are the server's answer, and the code can be checked
   * and applied again (this card or another).
   */
  function onRemove() {
    if (!appliedNow) return;
    const target = appliedNow;
    void run('remove', async () => {
      let result;
      try {
        result = await removeGiftCard({ code: target.code, orderId: target.orderId }).unwrap();
      } catch (e) {
        // Paid meanwhile (another tab, PayPal): nothing is left to pay, and the card stays on it.
        if (isOrderPaidError(e)) setApplied({ ...target, remainderCents: 0 });
        throw e;
      }
      // What the order owes now, at once: the order itself is read again (its tag), but applying
      // another card before that arrives must not use the amount due from before the removal. The
      // summary reads the cached order; a read begun before the removal may still overwrite it, so
      // this step keeps the answer itself (dueOn) until a later read arrives.
      dispatch(
        ordersApi.util.updateQueryData('getOrder', target.orderId, (draft) => {
          draft.amountDue = result.amountDue;
          draft.giftCardAmount = toDollars(
            Math.max(0, toCents(draft.giftCardAmount) - toCents(result.released)),
          );
        }),
      );
      setDueAfterRemove({ orderId: target.orderId, cents: toCents(result.amountDue), at: Date.now() });
      setApplied(null);
      setBalance({ code: target.code, cents: toCents(result.balance), orderId: null });
      setBalanceError(null);
      setRemovedNote(result.message);
    });
  }

  function onPlaceOrder() {
    if (!appliedNow) return;
    const target = appliedNow;
    void run('place', async () => {
      const paid = await payOrder({
        id: target.orderId,
        body: {
          order_id: target.orderId,
          status: 'COMPLETED',
          updated_time: new Date().toISOString(),
          email_address: email,
          payment_method: 'Gift Card',
          gift_card_code: target.code,
        },
      }).unwrap();
      if (!paid.isPaid) throw new Error('The order is not paid yet. Please try again.');
      finish(paid);
    });
  }

  /** Our server creates the PayPal (or demo) order for the remainder; answers its id. */
  async function createProviderOrder(): Promise<string> {
    const attempt = async (retry: boolean): Promise<string> => {
      const target = await checkout.ensureOrder();
      try {
        const result = await createPayPalOrder(target._id).unwrap();
        payingOrderId.current = target._id;
        return result.id;
      } catch (e) {
        // Only an order without gift-card money may be silently replaced: a new one would charge it all.
        if (retry && isExpiredOrderError(e) && !appliedNow) {
          checkout.drop(e);
          return attempt(false);
        }
        throw e;
      }
    };
    return attempt(true);
  }

  async function captureProviderOrder(paypalOrderId: string) {
    const id = payingOrderId.current;
    if (!id) throw new Error('The payment could not be matched to an order. Please try again.');
    const paid = await capturePayPalOrder({ id, paypalOrderId }).unwrap();
    finish(paid);
  }

  // PayPal's buttons call these themselves; failures are shown here, never a blank page.
  async function onPayPalCreate(): Promise<string> {
    setError(null);
    try {
      const id = await createProviderOrder();
      setProviderOpen(true);
      return id;
    } catch (e) {
      if (isExpiredOrderError(e)) forgetOrder(e);
      setError(errorMessage(e));
      throw e;
    }
  }
  async function onPayPalApprove(paypalOrderId: string) {
    try {
      await captureProviderOrder(paypalOrderId);
    } catch (e) {
      if (isExpiredOrderError(e)) forgetOrder(e);
      setError(errorMessage(e));
    } finally {
      setProviderOpen(false);
    }
  }
  function onPayPalError() {
    setProviderOpen(false);
    setError((shown) => shown ?? 'PayPal could not complete the payment. Please try again.');
  }

  function onDemoPay() {
    void run('paypal', async () => {
      const paypalOrderId = await createProviderOrder();
      await captureProviderOrder(paypalOrderId);
    });
  }

  const giftFlow = method === 'gift';
  const showPlaceOrder = appliedNow != null || (giftFlow && balanceCents != null);

  return (
    <div className="flex flex-col gap-5">
      <fieldset className="flex flex-col gap-2">
        <legend className="pixel-heading mb-3 text-sm text-cyan-300">Payment Method</legend>
        {(
          [
            ['gift', 'Gift Card'],
            ['paypal', 'PayPal'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-3 text-zinc-100">
            <input
              type="radio"
              name={`${groupId}-method`}
              value={value}
              checked={method === value}
              disabled={busy != null}
              onChange={() => chooseMethod(value)}
              className="h-5 w-5 accent-lime-400"
            />
            {label}
          </label>
        ))}
      </fieldset>

      {giftFlow && (
        <GiftCardBox
          code={code}
          onCodeChange={(next) => {
            setCode(next);
            setBalanceError(null);
            setRemovedNote(null);
          }}
          onCheckBalance={() => void onCheckBalance()}
          checking={checking}
          balanceCents={appliedNow ? (balance?.cents ?? null) : shownBalanceCents}
          balanceError={balanceError}
          onApply={onApply}
          recheckOnApply={refundDue}
          applying={busy === 'apply'}
          applied={appliedNow != null}
          appliedCents={giftAppliedCents}
          remainderCents={giftAppliedCents != null ? remainderCents : null}
          // Until the order is paid (a remainder is left for PayPal), the card can come off again.
          onRemove={appliedNow && appliedNow.remainderCents > 0 ? onRemove : undefined}
          removing={busy === 'remove'}
          disabled={busy != null}
        />
      )}

      {giftFlow && removedNote && (
        <p role="status" className="text-sm text-zinc-300">
          {removedNote}
        </p>
      )}

      {giftFlow && refundDue && (
        <p className="text-sm text-zinc-400">
          Your order changed: the card&apos;s balance is checked again when you apply it.
        </p>
      )}

      {giftFlow && !appliedNow && remainderCents > 0 && balanceCents != null && (
        <p className="text-sm text-zinc-400">After you apply the card, the remainder is paid with PayPal.</p>
      )}

      {(!giftFlow || appliedNow) && remainderCents > 0 && (
        <PayPalBox
          remainderCents={remainderCents}
          createOrder={onPayPalCreate}
          onApprove={onPayPalApprove}
          onPayPalError={onPayPalError}
          onPayPalCancel={() => setProviderOpen(false)}
          onDemoPay={onDemoPay}
          busy={busy === 'paypal'}
          disabled={busy != null}
        />
      )}

      {showPlaceOrder && remainderCents <= 0 && (
        <button
          type="button"
          className="btn btn-primary self-start"
          onClick={onPlaceOrder}
          disabled={!appliedNow || busy != null}
          aria-busy={busy === 'place'}
        >
          {busy === 'place' ? 'Placing Order...' : 'Place Order'}
        </button>
      )}

      {error && <ErrorLine message={error} />}

      {onBack && (
        <button
          type="button"
          className="btn btn-secondary self-start"
          onClick={onBack}
          disabled={busy != null}
        >
          Back to Shipping Address
        </button>
      )}
    </div>
  );
}

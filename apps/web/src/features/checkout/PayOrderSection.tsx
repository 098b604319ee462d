import { useId, useRef, useState } from 'react';
import { toCents, toDollars, type Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Price } from '../../ui/Price';
import { ordersApi } from '../../app/ordersApi';
import { Fact } from '../../ui/Fact';
import { customerId, isOpenOrder } from '../../ui/orderMath';
import { PaymentStep, type PayableOrder } from './PaymentStep';

/**
 * 'Pay for this order' on /order/:orderId (issue 9): the server refuses a customer more than a few
 * unpaid orders, so an open one (unpaid, its hold not run out when read) can be paid from its page
 * with checkout's payment step. Only the customer's own order: an admin reading someone else's order
 * could not pay it, and /admin/order/:orderId does not render this at all.
 */
export function PayOrderSection({ order, readAt }: { order: Order; readAt: number }) {
  const headingId = useId();
  const dispatch = useAppDispatch();
  const userId = useAppSelector((state) => state.auth.userInfo?._id ?? null);
  // Once the customer starts paying here the section stays, even when a gift card alone settles the
  // order meanwhile: 'Place Order' then ends on the confirmation page, as in checkout.
  const [started, setStarted] = useState(false);
  // The server's 409 'This order has expired...': shown instead of the payment controls.
  const [expired, setExpired] = useState<string | null>(null);
  const expiredError = useRef<unknown>(null);

  if (userId == null || customerId(order) !== userId) return null;
  if (expired == null && !started && !isOpenOrder(order, readAt)) return null;

  // The existing order stands in for the one checkout creates on first need; it is never replaced.
  const payable: PayableOrder = {
    orderId: order._id,
    order,
    ensureOrder() {
      if (expiredError.current != null) return Promise.reject(expiredError.current);
      setStarted(true);
      return Promise.resolve(order);
    },
    drop(error) {
      const reason = error ?? new Error('This order has expired.');
      expiredError.current = reason;
      setExpired(errorMessage(reason));
      // The server expired it: read it (and the list) again, so its status shows.
      dispatch(
        ordersApi.util.invalidateTags([
          { type: 'Order', id: order._id },
          { type: 'Order', id: 'LIST' },
        ]),
      );
    },
  };
  const paidSoFarCents = Math.max(0, toCents(order.totalPrice) - toCents(order.amountDue));

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-4 border-zinc-800 p-5">
      <h2 id={headingId} className="pixel-heading text-sm text-cyan-300">
        Pay for this order
      </h2>
      {expired != null ? (
        <ErrorLine message={expired} />
      ) : (
        <>
          <dl aria-label="Payment due">
            {paidSoFarCents > 0 && (
              <Fact label="Already paid">
                <Price value={toDollars(paidSoFarCents)} />
              </Fact>
            )}
            <Fact label="Amount due">
              <Price value={order.amountDue} />
            </Fact>
          </dl>
          <PaymentStep checkout={payable} cartTotalCents={toCents(order.amountDue)} clearCartOnPaid={false} />
        </>
      )}
    </section>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { toCents } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { selectCartItems } from '../../app/cartSlice';
import { useCheckDiscountQuery } from '../../app/ordersApi';
import { CheckoutSummary } from './CheckoutSummary';
import { checkoutTotals } from './checkoutTotals';
import { DiscountCodeBox } from './DiscountCodeBox';
import { orderLines } from './orderLines';
import { PaymentStep } from './PaymentStep';
import { ShippingStep } from './ShippingStep';
import { useCheckoutOrder } from './useCheckoutOrder';

/**
 * /place-order (spec section 2): the order summary, then shipping address and payment. Login is
 * required by the router. Prices shown from the cart are for display; the server prices the order.
 */
export default function PlaceOrderPage() {
  useDocumentTitle('Checkout');
  const items = useAppSelector(selectCartItems);
  const address = useAppSelector((state) => state.cart.shippingAddress);
  const paymentMethod = useAppSelector((state) => state.cart.paymentMethod);
  const discountCode = useAppSelector((state) => state.cart.discountCode ?? null);
  // Issue 32: the applied code priced for the cart as it is now, again whenever the cart changes.
  const check = useCheckDiscountQuery(
    discountCode && items.length > 0 ? { code: discountCode, orderItems: orderLines(items) } : skipToken,
  );
  const checked = discountCode ? check.currentData : undefined;
  const recheckError = discountCode && check.error ? errorMessage(check.error) : null;
  const [step, setStep] = useState<'shipping' | 'payment'>('shipping');
  // The payment step stays mounted once reached, so going back to the address keeps an applied card.
  const [reachedPayment, setReachedPayment] = useState(false);
  // A payment under way: the code cannot change (placing the order again mid-payment, issue 32).
  const [paying, setPaying] = useState(false);
  const checkout = useCheckoutOrder(items, address, paymentMethod, discountCode);

  if (items.length === 0) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 text-center">
        <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Checkout</h1>
        <p className="mb-8 text-zinc-300">Your cart is empty</p>
        <Link to="/" className="btn btn-secondary">
          Go Shopping
        </Link>
      </section>
    );
  }

  const cartTotals = checkoutTotals(items);
  const onPayment = step === 'payment' && address != null;

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Checkout</h1>
      <div className="grid gap-8 md:grid-cols-[1fr_20rem]">
        <div className="flex flex-col gap-4 md:order-last md:self-start">
          <CheckoutSummary items={items} cartTotals={cartTotals} order={checkout.order} checked={checked} />
          <DiscountCodeBox
            items={items}
            applied={discountCode}
            checked={checked}
            recheckError={recheckError}
            placeWithCode={checkout.placeWithCode}
            locked={checkout.order?.isPaid === true || paying}
          />
        </div>
        <div className="flex flex-col gap-4">
          <ol aria-label="Checkout steps" className="flex gap-4 text-sm text-zinc-400">
            <li aria-current={!onPayment ? 'step' : undefined} className={!onPayment ? 'text-lime-300' : ''}>
              1. Shipping
            </li>
            <li aria-current={onPayment ? 'step' : undefined} className={onPayment ? 'text-lime-300' : ''}>
              2. Payment
            </li>
          </ol>
          <div hidden={onPayment}>
            <ShippingStep
              onContinue={() => {
                setReachedPayment(true);
                setStep('payment');
              }}
            />
          </div>
          {reachedPayment && address && (
            <div hidden={!onPayment}>
              <PaymentStep
                checkout={checkout}
                cartTotalCents={checked ? toCents(checked.totalPrice) : cartTotals.totalCents}
                onBack={() => setStep('shipping')}
                onPaymentUnderWay={setPaying}
              />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

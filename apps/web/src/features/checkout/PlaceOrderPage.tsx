import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { selectCartItems } from '../../app/cartSlice';
import { CheckoutSummary } from './CheckoutSummary';
import { checkoutTotals } from './checkoutTotals';
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
  const [step, setStep] = useState<'shipping' | 'payment'>('shipping');
  // The payment step stays mounted once reached, so going back to the address keeps an applied card.
  const [reachedPayment, setReachedPayment] = useState(false);
  const checkout = useCheckoutOrder(items, address, paymentMethod);

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
        <div className="md:order-last md:self-start">
          <CheckoutSummary items={items} cartTotals={cartTotals} order={checkout.order} />
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
                cartTotalCents={cartTotals.totalCents}
                onBack={() => setStep('shipping')}
              />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

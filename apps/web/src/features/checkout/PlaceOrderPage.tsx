import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /place-order (spec section 2). The two-step checkout is built in a later issue. */
export default function PlaceOrderPage() {
  return (
    <PlaceholderPage
      title="Checkout"
      message="Checkout is being set up — your cart is saved."
      backTo="/cart"
      backLabel="Back to cart"
    />
  );
}

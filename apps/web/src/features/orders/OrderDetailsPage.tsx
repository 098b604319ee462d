import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /order/:orderId (spec section 2). Built in a later issue. */
export default function OrderDetailsPage() {
  return (
    <PlaceholderPage
      title="Order Details"
      message="Order details are being set up."
      backTo="/order-history"
      backLabel="Back to Order History"
    />
  );
}

import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /order-confirmation/:orderId (spec section 2). Built in a later issue. */
export default function OrderConfirmationPage() {
  return <PlaceholderPage title="Order Confirmation" message="Order confirmation is being set up." />;
}

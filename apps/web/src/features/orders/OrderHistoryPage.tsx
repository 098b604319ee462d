import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /order-history (spec section 2: My Orders). Built in a later issue. */
export default function OrderHistoryPage() {
  return <PlaceholderPage title="My Orders" message="Order history is being set up." />;
}

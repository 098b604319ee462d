import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /admin/order/:orderId (spec section 2, admins only). Built in a later issue. */
export default function AdminOrderPage() {
  return (
    <PlaceholderPage
      title="Order Details"
      message="Admin order details are being set up."
      backTo="/admin/dashboard"
      backLabel="Back to Admin Dashboard"
    />
  );
}

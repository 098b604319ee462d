import { OrderDetailScreen } from '../orders/OrderDetailScreen';
import { MarkDeliveredButton } from './ManageOrdersSection';

/**
 * /admin/order/:orderId (spec section 2, admins only): the order detail of the orders feature (customer
 * e-mail or 'Not available', payment and delivery status), 'Mark as Delivered' while paid and not
 * delivered, and 'Back to Admin Dashboard'.
 */
export default function AdminOrderPage() {
  return (
    <OrderDetailScreen
      back={{ to: '/admin/dashboard', label: 'Back to Admin Dashboard' }}
      actions={(order) => order.isPaid && !order.isDelivered && <MarkDeliveredButton order={order} />}
    />
  );
}

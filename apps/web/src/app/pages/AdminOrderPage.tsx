import { MarkDeliveredButton } from '../../features/admin/ManageOrdersSection';
import { RefundOrderSection } from '../../features/admin/RefundOrderSection';
import { sectionHref } from '../../features/admin/dashboardLinks';
import { OrderDetailScreen } from '../../features/orders/OrderDetailScreen';

/**
 * /admin/order/:orderId (spec section 2, admins only): the order detail of the orders feature (customer
 * e-mail or 'Not available', payment and delivery status, and since issue 12 its status, refunds and
 * timeline), with the admin feature's actions: 'Mark as Delivered' while paid and not delivered, and
 * 'Refund' while money is left to give back. Composed here: features don't import each other. The
 * back link opens the dashboard on Manage Orders, the list the admin most likely came from.
 */
export default function AdminOrderPage() {
  return (
    <OrderDetailScreen
      reader="admin"
      back={{ to: sectionHref('Manage Orders'), label: 'Back to Admin Dashboard' }}
      actions={(order) => (
        <>
          {order.status === 'paid' && <MarkDeliveredButton order={order} />}
          <RefundOrderSection key={order._id} order={order} />
        </>
      )}
    />
  );
}

import { PayOrderSection } from '../../features/checkout/PayOrderSection';
import { CancelOrderSection } from '../../features/orders/CancelOrderSection';
import { OrderDetailScreen } from '../../features/orders/OrderDetailScreen';

/**
 * /order/:orderId (spec section 2): one of the customer's orders (the orders feature's screen), payable
 * here while it is open (the checkout feature's payment section), and cancellable until it is delivered
 * (issue 12), and its items reviewed once paid (issue 14). Composed here: features don't import each other.
 */
export default function OrderDetailPage() {
  return (
    <OrderDetailScreen
      back={{ to: '/order-history', label: 'Back to Order History' }}
      reviewLinks
      actions={(order, readAt) => (
        <>
          <PayOrderSection key={order._id} order={order} readAt={readAt} />
          <CancelOrderSection key={`cancel-${order._id}`} order={order} readAt={readAt} />
        </>
      )}
    />
  );
}

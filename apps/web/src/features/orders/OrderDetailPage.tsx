import { OrderDetailScreen } from './OrderDetailScreen';

/** /order/:orderId (spec section 2): one of the customer's orders. */
export default function OrderDetailPage() {
  return <OrderDetailScreen back={{ to: '/order-history', label: 'Back to Order History' }} />;
}

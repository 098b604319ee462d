import { useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetOrderQuery } from '../orders/api';
import { OrderDetails } from '../orders/OrderDetails';
import { MarkDeliveredButton } from './ManageOrdersSection';

/**
 * /admin/order/:orderId (spec section 2, admins only): the order detail of the orders feature (customer
 * e-mail or 'Not available', payment and delivery status), 'Mark as Delivered' while paid and not
 * delivered, and 'Back to Admin Dashboard'.
 */
export default function AdminOrderPage() {
  useDocumentTitle('Order Details');
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { data: order, error, isLoading } = useGetOrderQuery(orderId, { skip: !orderId });

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <button
        type="button"
        className="btn btn-secondary mb-6"
        onClick={() => void navigate('/admin/dashboard')}
      >
        Back to Admin Dashboard
      </button>
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Order Details</h1>
      {isLoading ? (
        <Spinner label="Loading order" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : order ? (
        <div className="flex flex-col gap-6">
          <OrderDetails order={order} />
          {order.isPaid && !order.isDelivered && <MarkDeliveredButton order={order} />}
        </div>
      ) : (
        <p className="text-zinc-300">No order details available.</p>
      )}
    </section>
  );
}

import { useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetOrderQuery } from './api';
import { OrderDetails } from './OrderDetails';

/** /order/:orderId (spec section 2): one of the customer's orders. */
export default function OrderDetailPage() {
  useDocumentTitle('Order Details');
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { data: order, error, isLoading } = useGetOrderQuery(orderId, { skip: !orderId });

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <button
        type="button"
        className="btn btn-secondary mb-6"
        onClick={() => void navigate('/order-history')}
      >
        Back to Order History
      </button>
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Order Details</h1>
      {isLoading ? (
        <Spinner label="Loading order" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : order ? (
        <OrderDetails order={order} />
      ) : (
        <p className="text-zinc-300">No order details available.</p>
      )}
    </section>
  );
}

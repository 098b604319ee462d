import { Link } from 'react-router';
import { formatDollars, formatOrderDate, orderNumberText } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetMyOrdersQuery } from '../../app/ordersApi';
import { OrderStatusBadge } from './OrderParts';
import { isOpenOrder } from '../../ui/orderMath';

/** /order-history (spec section 2: My Orders): the customer's orders, newest first (the server's order). */
export default function OrderHistoryPage() {
  useDocumentTitle('My Orders');
  const { data: orders, error, isLoading, fulfilledTimeStamp: readAt = 0 } = useGetMyOrdersQuery();

  return (
    <section className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">My Orders</h1>
      {isLoading ? (
        <Spinner label="Loading orders" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !orders || orders.length === 0 ? (
        <div className="flex flex-col items-start gap-6">
          <p className="text-zinc-300">You have no orders yet.</p>
          <Link to="/" className="btn btn-secondary">
            Start Shopping
          </Link>
        </div>
      ) : (
        <ul aria-label="Orders" className="flex flex-col gap-3">
          {orders.map((order) => (
            <li
              key={order._id}
              className="grid grid-cols-2 items-center gap-x-4 gap-y-2 border-4 border-zinc-800 p-4 sm:grid-cols-[minmax(0,1fr)_auto_auto_auto_auto]"
            >
              <span className="col-span-2 font-mono font-semibold break-all text-zinc-100 sm:col-span-1">
                {orderNumberText(order.orderNumber)}
              </span>
              <span className="text-zinc-300">{formatOrderDate(order.createdAt)}</span>
              <span className="text-right font-semibold text-lime-300 tabular-nums">
                {formatDollars(order.totalPrice)}
              </span>
              {/* The spec's Paid / Not Paid, or what became of the order since (issues 12 and 30). */}
              <span className="inline-flex flex-wrap items-center gap-2">
                <OrderStatusBadge order={order} />
              </span>
              <span className="flex flex-wrap items-center justify-end gap-x-4 gap-y-1">
                {isOpenOrder(order, readAt) && (
                  <Link
                    to={`/order/${order._id}`}
                    className="font-semibold text-lime-300 underline-offset-4 hover:underline"
                  >
                    Pay now <span className="sr-only">for order {orderNumberText(order.orderNumber)}</span>
                  </Link>
                )}
                <Link
                  to={`/order/${order._id}`}
                  className="font-semibold text-cyan-300 underline-offset-4 hover:underline"
                >
                  View details<span className="sr-only"> of order {orderNumberText(order.orderNumber)}</span>
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

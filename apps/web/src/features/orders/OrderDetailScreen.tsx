import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetOrderQuery } from '../../app/ordersApi';
import { OrderDetails } from './OrderDetails';
import type { TimelineReader } from './OrderTimeline';

/**
 * One order read in full (spec section 2: order detail and admin order detail): loading, error and
 * 'No order details available.' states, a back button, and optional actions under the details.
 */
export function OrderDetailScreen({
  back,
  actions,
  reviewLinks = false,
  reader = 'customer',
}: {
  back: { to: string; label: string };
  /** Whose reading: the customer's own order, or an admin's (issue 30: the timeline's words). */
  reader?: TimelineReader;
  /** The customer's own order (not the admin's view): its items can be reviewed once paid (issue 14). */
  reviewLinks?: boolean;
  /** `readAt`: when the order was read (epoch ms), to tell whether its hold had run out. */
  actions?: (order: Order, readAt: number) => ReactNode;
}) {
  useDocumentTitle('Order Details');
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { data: order, error, isLoading, fulfilledTimeStamp } = useGetOrderQuery(orderId, { skip: !orderId });

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <button type="button" className="btn btn-secondary mb-6" onClick={() => void navigate(back.to)}>
        {back.label}
      </button>
      <h1 className="pixel-heading mb-6 text-xl text-lime-300 sm:text-2xl">Order Details</h1>
      {isLoading ? (
        <Spinner label="Loading order" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : order ? (
        <div className="flex flex-col gap-6">
          <OrderDetails order={order} reviewLinks={reviewLinks} reader={reader} />
          {actions?.(order, fulfilledTimeStamp ?? 0)}
        </div>
      ) : (
        <p className="text-zinc-300">No order details available.</p>
      )}
    </section>
  );
}

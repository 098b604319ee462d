import { useId, useState } from 'react';
import { Link } from 'react-router';
import { orderNumberText, type Order, type OrderStatus } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { ORDER_STATUS_LABELS, isClosed } from '../../ui/orderStatus';
import { Spinner } from '../../ui/Spinner';
import { useGetAdminOrdersQuery, useMarkDeliveredMutation } from './api';
import { Pager } from './fields';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { SearchBox } from './SearchBox';

/** The customer id of an admin-list order (user is the id string there), or 'N/A'. */
export function customerId(order: Pick<Order, 'user'>): string {
  if (typeof order.user === 'string') return order.user || 'N/A';
  return order.user?._id ?? 'N/A';
}

/** Spec section 2: total with 2 decimals, or 0.00. */
export function totalText(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '0.00';
}

export const ONLY_PAID_HINT = 'Only paid orders can be delivered';

/**
 * 'Mark as Delivered', shown while not delivered; the server only delivers paid orders. A closed order
 * (cancelled, refunded or expired, issue 12) will never be delivered: no button.
 */
export function MarkDeliveredButton({
  order,
}: {
  order: Pick<Order, '_id' | 'isPaid' | 'isDelivered' | 'status'>;
}) {
  const [markDelivered, { isLoading, error }] = useMarkDeliveredMutation();
  const hintId = useId();
  if (order.isDelivered || isClosed(order.status)) return null;
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className="btn btn-primary self-start"
        disabled={!order.isPaid || isLoading}
        aria-describedby={order.isPaid ? undefined : hintId}
        onClick={() => void markDelivered(order._id)}
      >
        Mark as Delivered
      </button>
      {!order.isPaid && (
        <p id={hintId} className="text-xs text-zinc-400">
          {ONLY_PAID_HINT}
        </p>
      )}
      {error && <ErrorLine message={errorMessage(error)} />}
    </div>
  );
}

/** Issue 12: the list shows every order, or only those in one status. */
function StatusFilter({
  value,
  onChange,
}: {
  value: OrderStatus | '';
  onChange: (value: OrderStatus | '') => void;
}) {
  return (
    <LabelledField label="Filter by status">
      {({ id }) => (
        <select
          id={id}
          className="field w-full sm:w-60"
          value={value}
          onChange={(event) => onChange(event.target.value as OrderStatus | '')}
        >
          <option value="">All</option>
          {Object.entries(ORDER_STATUS_LABELS).map(([status, label]) => (
            <option key={status} value={status}>
              {label}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/**
 * Manage Orders (spec section 2): every order, newest first, searchable by id (issue 30: or number),
 * paged; issue 12 filters it by status.
 */
export function ManageOrdersSection() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text);
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [page, setPage] = useState(1);
  // currentData: a new search, filter or page shows no stale orders while it runs.
  const { currentData: data, error } = useGetAdminOrdersQuery({ q, page, ...(status ? { status } : {}) });
  const pending = text !== q || (!data && !error);
  const orders = data?.orders ?? [];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div className="flex-1">
          <SearchBox
            label="Search by order number or id"
            placeholder="Search by order number or id"
            value={text}
            onChange={(value) => {
              setText(value);
              setPage(1);
            }}
          />
        </div>
        <StatusFilter
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
        />
      </div>
      {pending ? (
        <Spinner label="Loading orders" />
      ) : error ? (
        <ErrorLine prefix="Error loading orders: " message={errorMessage(error)} />
      ) : orders.length === 0 ? (
        <p className="text-zinc-300">No orders found</p>
      ) : (
        <>
          <ul aria-label="Orders" className="grid gap-4 lg:grid-cols-2">
            {orders.map((order) => (
              <li key={order._id} className="flex flex-col gap-2 border-2 border-zinc-700 bg-zinc-950 p-4">
                {/* Issue 30: the number and the customer people read; the spec's ids below them. */}
                <h3 className="font-mono text-lg font-semibold text-zinc-50">
                  Order {orderNumberText(order.orderNumber)}
                </h3>
                {order.customer && (
                  <p className="break-all">
                    <span className="text-zinc-400">Customer: </span>
                    {order.customer.name} &lt;{order.customer.email}&gt;
                  </p>
                )}
                <p className="break-all">
                  <span className="text-zinc-400">Order ID: </span>
                  {order._id}
                </p>
                <p className="break-all">
                  <span className="text-zinc-400">Customer ID: </span>
                  {customerId(order)}
                </p>
                <p>
                  <span className="text-zinc-400">Total: </span>${totalText(order.totalPrice)}
                </p>
                <p className="flex flex-wrap gap-2">
                  <span className={order.isPaid ? 'text-lime-300' : 'text-red-500'}>
                    {order.isPaid ? 'Paid' : 'Unpaid'}
                  </span>
                  <span aria-hidden="true">·</span>
                  <span className={order.isDelivered ? 'text-lime-300' : 'text-amber-300'}>
                    {order.isDelivered ? 'Delivered' : 'Not Delivered'}
                  </span>
                  {/* Issue 12: what became of a closed order, beside the spec's two states. */}
                  {isClosed(order.status) && (
                    <>
                      <span aria-hidden="true">·</span>
                      <span className="text-zinc-100">{ORDER_STATUS_LABELS[order.status]}</span>
                    </>
                  )}
                </p>
                <div className="flex flex-wrap items-start gap-3">
                  <Link to={`/admin/order/${order._id}`} className="btn btn-secondary">
                    View Details
                  </Link>
                  <MarkDeliveredButton order={order} />
                </div>
              </li>
            ))}
          </ul>
          <Pager page={data?.page ?? page} totalPage={data?.totalPage ?? 1} onPage={setPage} />
        </>
      )}
    </div>
  );
}

import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useGetAdminOrdersQuery, useMarkDeliveredMutation } from './api';
import { Pager } from './fields';
import { SearchBox, useDebouncedValue } from './SearchBox';

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

/** 'Mark as Delivered', shown while not delivered; the server only delivers paid orders. */
export function MarkDeliveredButton({ order }: { order: Pick<Order, '_id' | 'isPaid' | 'isDelivered'> }) {
  const [markDelivered, { isLoading, error }] = useMarkDeliveredMutation();
  const hintId = useId();
  if (order.isDelivered) return null;
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

/** Manage Orders (spec section 2): every order, newest first, searchable by id, paged. */
export function ManageOrdersSection() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text);
  const [page, setPage] = useState(1);
  // currentData: a new search or page shows no stale orders while it runs.
  const { currentData: data, error } = useGetAdminOrdersQuery({ q, page });
  const pending = text !== q || (!data && !error);
  const orders = data?.orders ?? [];

  return (
    <div className="flex flex-col gap-4">
      <SearchBox
        label="Search by order id"
        placeholder="Search by order id"
        value={text}
        onChange={(value) => {
          setText(value);
          setPage(1);
        }}
      />
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

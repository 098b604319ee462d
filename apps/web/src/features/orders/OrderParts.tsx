import type { ReactNode } from 'react';
import { toDollars, type Order, type OrderItem, type ShippingAddress } from '@pixel-vault/shared';
// Prices go through the shop's <Price>: it also keeps this shared chunk tied to the first download.
import { Price } from '../../ui/Price';
import { ItemName } from '../../ui/ItemName';
import { lineQuantity, lineTotalCents } from '../../ui/orderMath';

/**
 * Pieces of an order shown by the confirmation, the customer's order detail and (issue 4) the admin
 * order detail, with the spec's fallback texts (section 2).
 */

export function OrderItemsList({
  items,
  action,
}: {
  items: readonly OrderItem[];
  /** Something to do with one item (issue 14: "Review this product"), under its price line. */
  action?: (item: OrderItem) => ReactNode;
}) {
  if (items.length === 0) return <p className="text-zinc-300">No items in this order.</p>;
  return (
    <ul aria-label="Order items" className="flex flex-col">
      {items.map((item) => (
        <li
          key={item._id}
          className="flex items-center gap-4 border-b-2 border-zinc-800 py-3 last:border-b-0"
        >
          {item.displayImage ? (
            <img
              src={item.displayImage}
              alt={item.itemName}
              width={64}
              height={64}
              loading="lazy"
              className="h-16 w-16 shrink-0 border-2 border-zinc-700 bg-zinc-900 object-contain"
            />
          ) : (
            <div aria-hidden="true" className="no-image h-16 w-16 shrink-0 border-2 border-zinc-700" />
          )}
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
              <ItemName name={item.itemName} variantTitle={item.variantTitle} />
              <p className="shrink-0 text-zinc-300 tabular-nums">
                {lineQuantity(item)} x <Price value={item.itemPrice} /> ={' '}
                <Price value={toDollars(lineTotalCents(item))} />
              </p>
            </div>
            {action?.(item)}
          </div>
        </li>
      ))}
    </ul>
  );
}

function hasAddress(address: Partial<ShippingAddress> | null | undefined): address is ShippingAddress {
  return Boolean(address && (address.address || address.city || address.postalCode || address.country));
}

export function ShippingAddressView({ address }: { address: Partial<ShippingAddress> | null | undefined }) {
  if (!hasAddress(address)) return <p className="text-zinc-300">No shipping address available.</p>;
  return (
    <address className="text-zinc-200 not-italic">
      {address.address}
      <br />
      {address.city}, {address.postalCode}
      <br />
      {address.country}
    </address>
  );
}

/** Green 'Paid' or red 'Not Paid' (spec section 2). */
export function PaymentBadge({ order }: { order: Pick<Order, 'isPaid'> }) {
  return order.isPaid ? (
    <span className="border-2 border-green-400 bg-green-950 px-2 py-0.5 text-sm font-semibold text-green-300">
      Paid
    </span>
  ) : (
    <span className="border-2 border-red-400 bg-red-950 px-2 py-0.5 text-sm font-semibold text-red-300">
      Not Paid
    </span>
  );
}

/** What an order's one badge says, and its colours (issue 30). */
export function orderBadge(order: Pick<Order, 'status' | 'refundedPrice'>): { text: string; colors: string } {
  const partly = order.refundedPrice > 0;
  switch (order.status) {
    case 'awaiting_payment':
      return { text: 'Not Paid', colors: BADGE_COLORS.red };
    case 'paid':
      return partly
        ? { text: 'Partly refunded', colors: BADGE_COLORS.sky }
        : { text: 'Paid', colors: BADGE_COLORS.green };
    case 'delivered':
      return { text: partly ? 'Delivered, partly refunded' : 'Delivered', colors: BADGE_COLORS.lime };
    case 'cancelled':
      return { text: 'Cancelled', colors: BADGE_COLORS.amber };
    case 'refunded':
      return { text: 'Refunded', colors: BADGE_COLORS.sky };
    case 'expired':
      return { text: 'Expired', colors: BADGE_COLORS.zinc };
  }
}

const BADGE_COLORS = {
  red: 'border-red-400 bg-red-950 text-red-300',
  green: 'border-green-400 bg-green-950 text-green-300',
  lime: 'border-lime-400 bg-lime-950 text-lime-200',
  amber: 'border-amber-400 bg-amber-950 text-amber-200',
  sky: 'border-sky-400 bg-sky-950 text-sky-200',
  zinc: 'border-zinc-400 bg-zinc-800 text-zinc-200',
};

/**
 * One badge per order, from its status (issue 30): the spec's Paid (green) and Not Paid (red), and
 * beside them in the same place Delivered, Cancelled, Refunded, Partly refunded and Expired. A cancelled
 * order that had been paid is no longer also badged 'Paid'.
 */
export function OrderStatusBadge({ order }: { order: Pick<Order, 'status' | 'refundedPrice'> }) {
  const { text, colors } = orderBadge(order);
  return <span className={`border-2 px-2 py-0.5 text-sm font-semibold ${colors}`}>{text}</span>;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-4 border-zinc-800 p-5">
      <h2 className="pixel-heading mb-4 text-sm text-cyan-300">{title}</h2>
      {children}
    </section>
  );
}

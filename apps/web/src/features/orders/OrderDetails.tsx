import { formatOrderDate, orderNumberText, toDollars, type Order } from '@pixel-vault/shared';
import { ORDER_STATUS_LABELS } from '../../ui/orderStatus';
import { Price } from '../../ui/Price';
import { Fact } from '../../ui/Fact';
import { OrderItemsList, PaymentBadge, Section, ShippingAddressView } from './OrderParts';
import { customerEmail, discountLine, itemsTotalCents } from '../../ui/orderMath';
import { OrderTimeline, type TimelineReader } from './OrderTimeline';
import { ReviewItemLink, canReviewItems } from './reviewLink';

const NOT_AVAILABLE = 'Not available';

function DollarsOrNA({ value }: { value: number | null | undefined }) {
  return typeof value === 'number' && Number.isFinite(value) ? <Price value={value} /> : NOT_AVAILABLE;
}

/**
 * Every field of an order (spec section 2, order detail), shared by /order/:orderId and the admin
 * order page (issue 4). The items total is recomputed from the lines (spec section 9). Issue 12 adds the
 * order's status, the amount refunded and its timeline; issue 32 its discount code, if any.
 */
export function OrderDetails({
  order,
  reviewLinks = false,
  reader = 'customer',
}: {
  order: Order;
  /** Issue 14: "Review this product" on each item of the customer's own paid or delivered order. */
  reviewLinks?: boolean;
  /** Whose reading: the customer's own order, or an admin's (the timeline's words, issue 30). */
  reader?: TimelineReader;
}) {
  const date = order.createdAt ? formatOrderDate(order.createdAt) : '';
  const discount = discountLine(order);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="Summary">
        <dl>
          {/* Issue 30: the number people read; the spec's id below it. */}
          {order.orderNumber > 0 && <Fact label="Order Number">{orderNumberText(order.orderNumber)}</Fact>}
          <Fact label="Order ID">{order._id || NOT_AVAILABLE}</Fact>
          <Fact label="Customer Email">{customerEmail(order) ?? NOT_AVAILABLE}</Fact>
          <Fact label="Date">{date || NOT_AVAILABLE}</Fact>
          <Fact label="Items Total">
            <Price value={toDollars(itemsTotalCents(order.orderItems ?? []))} />
          </Fact>
          {/* Issue 32: the code's discount, off the items total; the total is after it. */}
          {discount && <Fact label={discount.label}>{discount.value}</Fact>}
          <Fact label="Shipping Price">
            <DollarsOrNA value={order.shippingPrice} />
          </Fact>
          <Fact label="Tax Price">
            <DollarsOrNA value={order.taxPrice} />
          </Fact>
          <Fact label="Total Price">
            <DollarsOrNA value={order.totalPrice} />
          </Fact>
          <Fact label="Payment Status">
            <PaymentBadge order={order} />
          </Fact>
          <Fact label="Delivery Status">{order.isDelivered ? 'Delivered' : 'Pending'}</Fact>
          {/* Issue 12: where the order is in its life, and the money given back so far. */}
          <Fact label="Order Status">{ORDER_STATUS_LABELS[order.status] ?? order.status}</Fact>
          {order.refundedPrice > 0 && (
            <Fact label="Amount Refunded">
              <Price value={order.refundedPrice} />
            </Fact>
          )}
        </dl>
      </Section>
      <div className="flex flex-col gap-6">
        <Section title="Shipping Address">
          <ShippingAddressView address={order.shippingAddress} />
        </Section>
        <Section title="Order Items">
          <OrderItemsList
            items={order.orderItems ?? []}
            action={
              reviewLinks && canReviewItems(order) ? (item) => <ReviewItemLink item={item} /> : undefined
            }
          />
        </Section>
      </div>
      {order.timeline && (
        <div className="lg:col-span-2">
          <Section title="Timeline">
            <OrderTimeline
              events={order.timeline}
              reader={reader}
              customer={typeof order.user === 'object' && order.user ? order.user.name : order.customer?.name}
            />
          </Section>
        </div>
      )}
    </div>
  );
}

import { Link, useParams } from 'react-router';
import { formatCents, formatDollars, formatOrderDate, orderNumberText } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetOrderQuery } from '../../app/ordersApi';
import { Fact } from '../../ui/Fact';
import { OrderItemsList, Section, ShippingAddressView } from './OrderParts';
import { customerEmail, discountLine, itemsTotalCents } from '../../ui/orderMath';

/**
 * /order-confirmation/:orderId (spec section 2). The confirmation e-mail is queued by the server when
 * the order becomes paid (issue 3), exactly once; this page only shows the order and sends nothing.
 */
export default function OrderConfirmationPage() {
  useDocumentTitle('Order Confirmation');
  const { orderId = '' } = useParams();
  const { data: order, error, isLoading } = useGetOrderQuery(orderId, { skip: !orderId });

  if (isLoading) return <Spinner label="Loading your order" />;
  const discount = order ? discountLine(order) : null;
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      {error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !order ? (
        <p className="text-zinc-300">No order details available.</p>
      ) : (
        <div className="flex flex-col gap-6">
          <div>
            <h1 className="pixel-heading mb-4 text-xl text-lime-300 sm:text-2xl">
              Thank you for your order!
            </h1>
            {order.isPaid ? (
              <p className="text-zinc-200">
                A confirmation email has been sent to {customerEmail(order) ?? 'your email address'}.
              </p>
            ) : (
              // The e-mail goes out when the payment arrives (issue 3); say so rather than claim it.
              <p role="status" className="text-yellow-300">
                This order is not paid yet; the confirmation email is sent once it is.
              </p>
            )}
          </div>
          <Section title="Order">
            <dl>
              <Fact label="Order Number">{orderNumberText(order.orderNumber)}</Fact>
              <Fact label="Order ID">{order._id}</Fact>
              <Fact label="Date">{formatOrderDate(order.createdAt)}</Fact>
              <Fact label="Items Total">{formatCents(itemsTotalCents(order.orderItems))}</Fact>
              {/* Issue 32: the code's discount, off the items total; the total is after it. */}
              {discount && <Fact label={discount.label}>{discount.value}</Fact>}
              <Fact label="Shipping Price">{formatDollars(order.shippingPrice)}</Fact>
              <Fact label="Tax Price">{formatDollars(order.taxPrice)}</Fact>
              <Fact label="Total Price">{formatDollars(order.totalPrice)}</Fact>
            </dl>
          </Section>
          <Section title="Shipping Address">
            <ShippingAddressView address={order.shippingAddress} />
          </Section>
          <Section title="Items">
            <OrderItemsList items={order.orderItems} />
          </Section>
        </div>
      )}
      <Link to="/" className="btn btn-primary mt-8">
        Continue Shopping
      </Link>
    </section>
  );
}

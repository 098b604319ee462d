import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import OrderConfirmationPage from './OrderConfirmationPage';
import OrderDetailPage from './OrderDetailPage';
import OrderHistoryPage from './OrderHistoryPage';
import { makeOrder, makeOrderItem, paid } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serveOrders(orders: Order[]) {
  return stubFetch((_req, url) => {
    if (url.pathname === '/api/orders') return jsonResponse(orders);
    const order = orders.find((o) => url.pathname === `/api/orders/${o._id}`);
    return order ? jsonResponse(order) : jsonResponse({ message: 'Order not found' }, 404);
  });
}

function renderAt(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/order-history" element={<OrderHistoryPage />} />
        <Route path="/order/:orderId" element={<OrderDetailPage />} />
        <Route path="/order-confirmation/:orderId" element={<OrderConfirmationPage />} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route, preloadedState: { auth: { userInfo: makeUser() } } },
  );
}

/** The line 'qty x $price = $subtotal' as one text, whatever elements carry its parts. */
const line = (text: string) => (_: string, el: Element | null) =>
  el?.tagName === 'P' && el.textContent === text;

const factOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('OrderHistoryPage (My Orders)', () => {
  it("lists each order with #id, a 'Jan 5th 24' date, the total, a Paid / Not Paid badge and a details link", async () => {
    const paidOrder = paid(makeOrder({ createdAt: '2024-01-05T12:00:00.000Z', totalPrice: 59.97 }));
    const unpaid = makeOrder({ createdAt: '2023-11-22T12:00:00.000Z', totalPrice: 1234.5 });
    const expired = makeOrder({ createdAt: '2023-03-01T12:00:00.000Z', status: 'expired' });
    serveOrders([paidOrder, unpaid, expired]);
    renderAt('/order-history');
    expect(screen.getByText('Loading orders')).toBeInTheDocument();
    const rows = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);

    const first = within(rows[0]!);
    expect(first.getByText(`#${paidOrder._id}`)).toBeInTheDocument();
    expect(first.getByText('Jan 5th 24')).toBeInTheDocument();
    expect(first.getByText('$59.97')).toBeInTheDocument();
    expect(first.getByText('Paid')).toHaveClass('text-green-300');
    expect(first.queryByText('Not Paid')).not.toBeInTheDocument();
    expect(first.getByRole('link', { name: /View details/ })).toHaveAttribute(
      'href',
      `/order/${paidOrder._id}`,
    );

    const second = within(rows[1]!);
    expect(second.getByText('Nov 22nd 23')).toBeInTheDocument();
    expect(second.getByText('$1,234.50')).toBeInTheDocument();
    expect(second.getByText('Not Paid')).toHaveClass('text-red-300');
    expect(second.queryByText('expired')).not.toBeInTheDocument();

    const third = within(rows[2]!);
    expect(third.getByText('Mar 1st 23')).toBeInTheDocument();
    expect(third.getByText('Not Paid')).toBeInTheDocument();
    expect(third.getByText('expired')).toBeInTheDocument();
  });

  it('says when there are no orders yet, with a link to shop', async () => {
    serveOrders([]);
    renderAt('/order-history');
    expect(await screen.findByText('You have no orders yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Shopping' })).toHaveAttribute('href', '/');
  });

  it("shows 'Error: {message}' when the orders cannot be loaded", async () => {
    stubFetch(() => jsonResponse({ message: 'Database unavailable' }, 503));
    renderAt('/order-history');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Database unavailable');
  });
});

describe('OrderDetailPage', () => {
  it('shows every field, recomputing the items total from the lines', async () => {
    const order = paid(
      makeOrder({
        createdAt: '2024-01-05T12:00:00.000Z',
        orderItems: [
          makeOrderItem({
            itemName: 'Tetris',
            itemPrice: 19.99,
            itemQuantity: 3,
            displayImage: '/uploads/t.webp',
          }),
          makeOrderItem({ itemName: 'Doom', itemPrice: 0.1, itemQuantity: 0 }),
        ],
        price: 999,
        shippingPrice: 7.99,
        taxPrice: 9.01,
        totalPrice: 77.07,
        isDelivered: true,
      }),
    );
    serveOrders([order]);
    renderAt(`/order/${order._id}`);
    expect(await screen.findByText(order._id)).toBeInTheDocument();
    expect(factOf('Order ID')).toHaveTextContent(order._id);
    expect(factOf('Customer Email')).toHaveTextContent('ada@example.com');
    expect(factOf('Date')).toHaveTextContent('Jan 5th 24');
    // 3 x 19.99 + 1 x 0.10 (a missing quantity counts as 1) = 60.07, not the order's `price`.
    expect(factOf('Items Total')).toHaveTextContent('$60.07');
    expect(factOf('Shipping Price')).toHaveTextContent('$7.99');
    expect(factOf('Tax Price')).toHaveTextContent('$9.01');
    expect(factOf('Total Price')).toHaveTextContent('$77.07');
    expect(factOf('Payment Status')).toHaveTextContent('Paid');
    expect(factOf('Delivery Status')).toHaveTextContent('Delivered');
    const address = screen.getByText(/1 Main St/);
    expect(address).toHaveTextContent('Sacramento, 95814');
    expect(address).toHaveTextContent(/USA$/);
    const items = within(screen.getByRole('list', { name: 'Order items' }));
    expect(items.getByRole('img', { name: 'Tetris' })).toHaveAttribute('src', '/uploads/t.webp');
    expect(items.getByText(line('3 x $19.99 = $59.97'))).toBeInTheDocument();
    expect(items.getByText(line('1 x $0.10 = $0.10'))).toBeInTheDocument();
  });

  it('shows the fallbacks: Not available, Not Paid, Pending, no address, no items', async () => {
    const order = makeOrder({
      user: null,
      orderItems: [],
      shippingAddress: { address: '', city: '', postalCode: '', country: '' },
    });
    serveOrders([order]);
    renderAt(`/order/${order._id}`);
    expect(await screen.findByText(order._id)).toBeInTheDocument();
    expect(factOf('Customer Email')).toHaveTextContent(/^Not available$/);
    expect(factOf('Payment Status')).toHaveTextContent('Not Paid');
    expect(factOf('Delivery Status')).toHaveTextContent('Pending');
    expect(factOf('Items Total')).toHaveTextContent('$0.00');
    expect(screen.getByText('No shipping address available.')).toBeInTheDocument();
    expect(screen.getByText('No items in this order.')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' in red, and goes back to the history", async () => {
    const user = userEvent.setup();
    serveOrders([]);
    renderAt('/order/00000000-0000-4000-9000-00000000dead');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Order not found');
    expect(alert).toHaveClass('text-red-500');
    await user.click(screen.getByRole('button', { name: 'Back to Order History' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/order-history');
  });
});

describe('OrderConfirmationPage', () => {
  it('shows a spinner, then the thank-you, the e-mail note and the order; sends nothing itself', async () => {
    const user = userEvent.setup();
    const order = paid(
      makeOrder({
        createdAt: '2024-01-05T12:00:00.000Z',
        orderItems: [makeOrderItem({ itemName: 'Tetris', itemPrice: 45.2, itemQuantity: 2 })],
        shippingPrice: 0,
        taxPrice: 13.56,
        totalPrice: 103.96,
      }),
    );
    const mock = serveOrders([order]);
    renderAt(`/order-confirmation/${order._id}`);
    expect(screen.getByText('Loading your order')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Thank you for your order!' })).toBeInTheDocument();
    expect(screen.getByText('A confirmation email has been sent to ada@example.com.')).toBeInTheDocument();
    expect(factOf('Order ID')).toHaveTextContent(order._id);
    expect(factOf('Date')).toHaveTextContent('Jan 5th 24');
    expect(factOf('Items Total')).toHaveTextContent('$90.40');
    expect(factOf('Shipping Price')).toHaveTextContent('$0.00');
    expect(factOf('Tax Price')).toHaveTextContent('$13.56');
    expect(factOf('Total Price')).toHaveTextContent('$103.96');
    expect(screen.getByText(line('2 x $45.20 = $90.40'))).toBeInTheDocument();
    expect(screen.getByText(/1 Main St/)).toBeInTheDocument();
    // The server sends the e-mail when the order becomes paid: the page only read the order.
    expect(calledUrls(mock)).toEqual([`/api/orders/${order._id}`]);
    await user.click(screen.getByRole('link', { name: 'Continue Shopping' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it("falls back to 'your email address', 'No shipping address available.' and 'No items in this order.'", async () => {
    const order = paid(
      makeOrder({
        user: null,
        orderItems: [],
        shippingAddress: { address: '', city: '', postalCode: '', country: '' },
      }),
    );
    serveOrders([order]);
    renderAt(`/order-confirmation/${order._id}`);
    expect(
      await screen.findByText('A confirmation email has been sent to your email address.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No shipping address available.')).toBeInTheDocument();
    expect(screen.getByText('No items in this order.')).toBeInTheDocument();
  });

  it('does not claim an e-mail was sent for an order that is not paid', async () => {
    const order = makeOrder();
    serveOrders([order]);
    renderAt(`/order-confirmation/${order._id}`);
    expect(await screen.findByText(/This order is not paid yet/)).toBeInTheDocument();
    expect(screen.queryByText(/A confirmation email has been sent/)).not.toBeInTheDocument();
    expect(factOf('Order ID')).toHaveTextContent(order._id);
  });

  it("shows 'Error: {message}' when the order cannot be read", async () => {
    serveOrders([]);
    renderAt('/order-confirmation/00000000-0000-4000-9000-00000000dead');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Order not found');
    expect(screen.queryByRole('heading', { name: 'Thank you for your order!' })).not.toBeInTheDocument();
  });
});

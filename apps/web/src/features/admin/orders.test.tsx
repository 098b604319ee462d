import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeOrder, paid } from '../../test/orders';
import AdminOrderPage from '../../app/pages/AdminOrderPage';
import { ManageOrdersSection } from './ManageOrdersSection';
import { adminState, jsonBody } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** An in-memory admin order list whose delivery call really changes the order. */
function serveOrders(initial: Order[]) {
  let orders = initial;
  const deliveries: unknown[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/orders/admin/vieworders') {
      return jsonResponse({ orders, page: 1, totalPage: 1, total: orders.length });
    }
    const delivery = /^\/api\/orders\/([^/]+)\/delivery$/.exec(url.pathname);
    if (delivery && request.method === 'PUT') {
      deliveries.push(await jsonBody(request));
      orders = orders.map((o) => (o._id === delivery[1] ? { ...o, isDelivered: true } : o));
      return jsonResponse(orders.find((o) => o._id === delivery[1]));
    }
    const one = orders.find((o) => url.pathname === `/api/orders/${o._id}`);
    return one ? jsonResponse(one) : jsonResponse({ message: 'Order not found' }, 404);
  });
  return { mock, deliveries };
}

describe('Manage Orders', () => {
  it('shows each order with customer id or N/A, total, Paid/Unpaid, Delivered/Not Delivered and a details link', async () => {
    const unpaid = makeOrder({ user: 'cust-42', totalPrice: 59.9 });
    const delivered = paid(makeOrder({ user: null, totalPrice: 12 }), { isDelivered: true });
    serveOrders([unpaid, delivered]);
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    const cards = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('listitem');

    const first = within(cards[0]!);
    expect(first.getByText(unpaid._id)).toBeInTheDocument();
    expect(first.getByText('cust-42')).toBeInTheDocument();
    expect(first.getByText('$59.90', { exact: false })).toBeInTheDocument();
    expect(first.getByText('Unpaid')).toBeInTheDocument();
    expect(first.getByText('Not Delivered')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'View Details' })).toHaveAttribute(
      'href',
      `/admin/order/${unpaid._id}`,
    );
    // Unpaid: the button is there but disabled, with the reason.
    expect(first.getByRole('button', { name: 'Mark as Delivered' })).toBeDisabled();
    expect(first.getByText('Only paid orders can be delivered')).toBeInTheDocument();

    const second = within(cards[1]!);
    expect(second.getByText('N/A')).toBeInTheDocument();
    expect(second.getByText('Paid')).toBeInTheDocument();
    expect(second.getByText('Delivered')).toBeInTheDocument();
    expect(second.queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();
  });

  it('marks a paid order delivered with { isDelivered: true } and the list reloads', async () => {
    const order = paid(makeOrder({ user: 'cust-1' }));
    const { mock, deliveries } = serveOrders([order]);
    const user = userEvent.setup();
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Mark as Delivered' }));
    // In the order's card (the status filter offers 'Delivered' too).
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Orders' })).getByText('Delivered')).toBeInTheDocument(),
    );
    expect(deliveries).toEqual([{ isDelivered: true }]);
    expect(screen.queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();
    expect(calledUrls(mock).filter((u) => u.startsWith('/api/orders/admin/vieworders'))).toHaveLength(2);
  });

  it("says 'No orders found' and 'Error loading orders: {message}'", async () => {
    serveOrders([]);
    const { unmount } = renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    unmount();

    stubFetch(() => jsonResponse({ message: 'Database is down' }, 500));
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading orders: Database is down');
  });

  it('pages through the orders when there is more than one page', async () => {
    const first = makeOrder();
    const second = makeOrder();
    const mock = stubFetch((_req, url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      return jsonResponse({ orders: [page === 1 ? first : second], page, totalPage: 2, total: 2 });
    });
    const user = userEvent.setup();
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    expect(await screen.findByText(first._id)).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(second._id)).toBeInTheDocument();
    expect(screen.queryByText(first._id)).not.toBeInTheDocument();
    expect(calledUrls(mock)).toContain('/api/orders/admin/vieworders?page=2');
  });

  it('heads each card with the order number and names the customer beside the spec ids (issue 30)', async () => {
    const order = makeOrder({
      orderNumber: 1042,
      user: 'user-id-1',
      customer: { name: 'Grace Hopper', email: 'grace@example.com' },
    });
    serveOrders([order]);
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    const card = within((await screen.findAllByRole('listitem'))[0]!);
    expect(card.getByRole('heading', { name: 'Order #1042' })).toBeInTheDocument();
    expect(card.getByText('Grace Hopper <grace@example.com>')).toBeInTheDocument();
    expect(card.getByText(order._id)).toBeInTheDocument();
    expect(card.getByText('user-id-1')).toBeInTheDocument();
  });

  it('shows no pager for a single page', async () => {
    serveOrders([makeOrder()]);
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    await screen.findByRole('list', { name: 'Orders' });
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });

  it('searches by order id with the server q parameter', async () => {
    const { mock } = serveOrders([makeOrder()]);
    const user = userEvent.setup();
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    await screen.findByRole('list', { name: 'Orders' });
    await user.type(screen.getByRole('searchbox', { name: 'Search by order number or id' }), 'abc1');
    await waitFor(() => expect(calledUrls(mock)).toContain('/api/orders/admin/vieworders?q=abc1&page=1'));
  });
});

describe('Manage Orders: status filter (issue 12)', () => {
  it('filters by status with the server status parameter, keeping the search and going back to page 1', async () => {
    const mock = stubFetch((_req, url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      return jsonResponse({ orders: [makeOrder()], page, totalPage: 3, total: 3 });
    });
    const user = userEvent.setup();
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    await screen.findByRole('list', { name: 'Orders' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(calledUrls(mock)).toContain('/api/orders/admin/vieworders?page=2'));

    const filter = screen.getByRole('combobox', { name: 'Filter by status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Awaiting payment', 'Paid', 'Delivered', 'Cancelled', 'Refunded', 'Expired']);
    expect(filter).toHaveValue('');
    await user.selectOptions(filter, 'Cancelled');
    await waitFor(() =>
      expect(calledUrls(mock)).toContain('/api/orders/admin/vieworders?page=1&status=cancelled'),
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search by order number or id' }), 'abc1');
    await waitFor(() =>
      expect(calledUrls(mock)).toContain('/api/orders/admin/vieworders?q=abc1&page=1&status=cancelled'),
    );
    await user.selectOptions(filter, 'All');
    await waitFor(() => expect(calledUrls(mock).at(-1)).toBe('/api/orders/admin/vieworders?q=abc1&page=1'));
  });

  it('says what became of a closed order, and offers no delivery for it', async () => {
    const cancelled = paid(makeOrder({ user: 'cust-1' }), { status: 'cancelled', refundedPrice: 59.97 });
    const refunded = paid(makeOrder({ user: 'cust-2' }), { status: 'refunded', refundedPrice: 59.97 });
    const expired = makeOrder({ user: 'cust-3', status: 'expired' });
    const open = paid(makeOrder({ user: 'cust-4' }));
    serveOrders([cancelled, refunded, expired, open]);
    renderWithProviders(<ManageOrdersSection />, { preloadedState: adminState });
    const cards = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('listitem');
    expect(within(cards[0]!).getByText('Cancelled')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Refunded')).toBeInTheDocument();
    expect(within(cards[2]!).getByText('Expired')).toBeInTheDocument();
    for (const card of cards.slice(0, 3)) {
      expect(within(card).queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();
    }
    expect(within(cards[3]!).queryByText(/^(Cancelled|Refunded|Expired)$/)).not.toBeInTheDocument();
    expect(within(cards[3]!).getByRole('button', { name: 'Mark as Delivered' })).toBeEnabled();
  });
});

describe('AdminOrderPage', () => {
  function renderAt(order: Order) {
    return renderWithProviders(
      <>
        <Routes>
          <Route path="/admin/order/:orderId" element={<AdminOrderPage />} />
          <Route path="/admin/dashboard" element={<p>Dashboard</p>} />
        </Routes>
        <LocationProbe />
      </>,
      { route: `/admin/order/${order._id}`, preloadedState: adminState },
    );
  }

  it("shows 'Not available' for a missing customer e-mail and goes 'Back to Admin Dashboard'", async () => {
    const order = makeOrder({ user: null });
    serveOrders([order]);
    const user = userEvent.setup();
    renderAt(order);
    const email = await screen.findByText('Customer Email', { selector: 'dt' });
    expect(email.nextElementSibling).toHaveTextContent('Not available');
    expect(screen.getByText('Payment Status', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.getByText('Delivery Status', { selector: 'dt' })).toBeInTheDocument();
    // Unpaid: no delivery button on the detail page.
    expect(screen.queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Admin Dashboard' }));
    // Back to the orders list the admin came from, not the dashboard's first section (Overview).
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/dashboard\?section=manage-orders$/);
  });

  it('marks a paid order delivered from its detail page, which then reloads', async () => {
    const order = paid(makeOrder());
    const { deliveries } = serveOrders([order]);
    const user = userEvent.setup();
    renderAt(order);
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark as Delivered' }));
    await waitFor(() =>
      expect(screen.getByText('Delivery Status', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
        'Delivered',
      ),
    );
    expect(deliveries).toEqual([{ isDelivered: true }]);
    expect(screen.queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();
  });
});

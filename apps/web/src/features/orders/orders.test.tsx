import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order, UserInfo } from '@pixel-vault/shared';
import { makeCartItem } from '../../test/factories';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import AdminOrderPage from '../../app/pages/AdminOrderPage';
import { initialCartState } from '../../app/cartSlice';
import OrderConfirmationPage from './OrderConfirmationPage';
import OrderDetailPage from '../../app/pages/OrderDetailPage';
import OrderHistoryPage from './OrderHistoryPage';
import { makeOrder, makeOrderItem, paid } from '../../test/orders';

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
  it("lists each order with its #number, a 'Jan 5th 24' date, the total, its status badge and a details link", async () => {
    const paidOrder = paid(makeOrder({ createdAt: '2024-01-05T12:00:00.000Z', totalPrice: 59.97 }));
    const unpaid = makeOrder({ createdAt: '2023-11-22T12:00:00.000Z', totalPrice: 1234.5 });
    const expired = makeOrder({ createdAt: '2023-03-01T12:00:00.000Z', status: 'expired' });
    serveOrders([paidOrder, unpaid, expired]);
    renderAt('/order-history');
    expect(screen.getByText('Loading orders')).toBeInTheDocument();
    const rows = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);

    const first = within(rows[0]!);
    expect(first.getByText(`#${paidOrder.orderNumber}`)).toBeInTheDocument();
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
    expect(second.queryByText('Expired')).not.toBeInTheDocument();

    const third = within(rows[2]!);
    expect(third.getByText('Mar 1st 23')).toBeInTheDocument();
    expect(third.queryByText('Not Paid')).not.toBeInTheDocument();
    expect(third.getByText('Expired')).toBeInTheDocument();
  });

  it("offers 'Pay now' for each unpaid order that still holds its stock, and for no other", async () => {
    const inAnHour = new Date(Date.now() + 60 * 60_000).toISOString();
    const open = makeOrder({ expiresAt: inAnHour });
    const paidOrder = paid(makeOrder());
    const overdue = makeOrder({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const expired = makeOrder({ status: 'expired', expiresAt: null });
    serveOrders([open, paidOrder, overdue, expired]);
    renderAt('/order-history');
    const list = await screen.findByRole('list', { name: 'Orders' });

    const pay = within(list).getAllByRole('link', { name: /^Pay now/ });
    expect(pay).toHaveLength(1);
    expect(pay[0]).toHaveAccessibleName(`Pay now for order #${open.orderNumber}`);
    expect(pay[0]).toHaveAttribute('href', `/order/${open._id}`);

    const user = userEvent.setup();
    await user.click(pay[0]!);
    expect(screen.getByTestId('location')).toHaveTextContent(`/order/${open._id}`);
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
    expect(factOf('Order Number')).toHaveTextContent(`#${order.orderNumber}`);
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

describe('OrderDetailPage: Pay for this order', () => {
  const customer = makeUser();
  const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000).toISOString();

  /** The customer's unpaid order, still holding its stock: $59.97 due. */
  const openOrder = (overrides: Partial<Order> = {}) =>
    makeOrder({
      user: { _id: customer._id, name: customer.name, email: customer.email },
      expiresAt: inHalfAnHour(),
      ...overrides,
    });

  interface Sent {
    method: string;
    path: string;
    body: unknown;
  }

  /**
   * The API for one existing order at the fetch edge: the demo payment provider, gift card 'GOOD'
   * with `balance` dollars; `overrides` answer first.
   */
  function serveOpenOrder(
    initial: Order,
    { balance = 100, overrides = {} }: { balance?: number; overrides?: Record<string, () => Response> } = {},
  ) {
    let order = initial;
    let cardCents = Math.round(balance * 100);
    const sent: Sent[] = [];
    const settle = (next: Order): Order =>
      next.amountDue > 0 ? next : paid(next, { paymentMethod: 'Gift Card' });
    stubFetch(async (request, url) => {
      const text = request.method === 'GET' ? '' : await request.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      sent.push({ method: request.method, path: url.pathname, body });
      const key = `${request.method} ${url.pathname}`;
      const answer = overrides[key]?.();
      if (answer) return answer;
      const at = `/api/orders/${order._id}`;
      switch (key) {
        case 'GET /api/config':
          return jsonResponse({ clientId: '', mode: 'demo', currency: 'USD' });
        case `GET ${at}`:
          return jsonResponse(order);
        case 'POST /api/giftcards/check-balance':
          return jsonResponse({ balance: cardCents / 100 });
        case 'POST /api/giftcards/use': {
          const { amount, orderId } = body as { amount: number; orderId: string };
          if (orderId !== order._id) return jsonResponse({ message: 'Order not found' }, 404);
          const cents = Math.round(amount * 100);
          cardCents -= cents;
          const dueCents = Math.round(order.amountDue * 100) - cents;
          order = settle({
            ...order,
            giftCardAmount: order.giftCardAmount + cents / 100,
            amountDue: dueCents / 100,
          });
          const left = cardCents / 100;
          return jsonResponse({
            orderId,
            balance: left,
            updatedBalance: left,
            applied: cents / 100,
            amountDue: dueCents / 100,
            message: 'Gift card applied.',
          });
        }
        case `PUT ${at}/payment`:
          if (order.amountDue > 0) return jsonResponse({ message: 'Payment is not complete' }, 402);
          order = settle(order);
          return jsonResponse(order);
        case `POST ${at}/paypal`:
          return jsonResponse({ id: 'DEMO-1', status: 'CREATED' });
        case `POST ${at}/paypal/capture`:
          order = paid(order, { paymentMethod: 'paypal' });
          return jsonResponse(order);
        default:
          return jsonResponse({ message: `No route ${key}` }, 404);
      }
    });
    return {
      sent,
      calls: (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path),
    };
  }

  function renderPage(route: string, user: UserInfo = customer) {
    return renderWithProviders(
      <>
        <Routes>
          <Route path="/order/:orderId" element={<OrderDetailPage />} />
          <Route path="/admin/order/:orderId" element={<AdminOrderPage />} />
          <Route path="/order-confirmation/:orderId" element={<p>Confirmation page</p>} />
        </Routes>
        <LocationProbe />
      </>,
      {
        route,
        preloadedState: {
          auth: { userInfo: user },
          cart: { ...initialCartState, cartItems: [makeCartItem({ name: 'Zelda II', qty: 2 })] },
        },
      },
    );
  }

  const section = () => screen.queryByRole('region', { name: 'Pay for this order' });

  /** Moves the focus forward with Tab until it reaches `target` (it must be reachable by keyboard). */
  async function tabTo(user: ReturnType<typeof userEvent.setup>, target: HTMLElement) {
    for (let i = 0; i < 20 && document.activeElement !== target; i += 1) await user.tab();
    expect(target).toHaveFocus();
  }

  it("shows the section only for the customer's own open order: not when paid, expired, overdue, someone else's, or on the admin page", async () => {
    const cases: { name: string; order: Order; route?: string; user?: UserInfo; shown: boolean }[] = [
      { name: 'open', order: openOrder(), shown: true },
      { name: 'paid', order: paid(openOrder()), shown: false },
      { name: 'expired', order: openOrder({ status: 'expired', expiresAt: null }), shown: false },
      {
        name: 'overdue',
        order: openOrder({ expiresAt: new Date(Date.now() - 1000).toISOString() }),
        shown: false,
      },
      {
        name: "another customer's, read by an admin",
        order: openOrder(),
        user: makeUser({ _id: '11111111-2222-4333-8444-555555555555', isAdmin: true }),
        shown: false,
      },
    ];
    const admin = makeUser({ isAdmin: true });
    cases.push({ name: 'admin page', order: openOrder(), route: '/admin/order/', user: admin, shown: false });

    for (const c of cases) {
      serveOpenOrder(c.order);
      const { unmount } = renderPage(`${c.route ?? '/order/'}${c.order._id}`, c.user);
      expect(await screen.findByText(c.order._id, { selector: 'dd' })).toBeInTheDocument();
      if (c.shown) {
        const region = await screen.findByRole('region', { name: 'Pay for this order' });
        expect(within(region).getByRole('heading', { level: 2, name: 'Pay for this order' })).toBeVisible();
        expect(within(region).getByRole('radio', { name: 'Gift Card' })).toBeInTheDocument();
        expect(
          within(region).getByText('Amount due', { selector: 'dt' }).nextElementSibling,
        ).toHaveTextContent('$59.97');
        expect(
          await within(region).findByRole('button', { name: 'Demo payment — no money moves' }),
        ).toBeEnabled();
        expect(
          within(region).queryByRole('button', { name: 'Back to Shipping Address' }),
        ).not.toBeInTheDocument();
      } else {
        expect(section(), c.name).not.toBeInTheDocument();
        expect(screen.queryByRole('radio', { name: 'Gift Card' }), c.name).not.toBeInTheDocument();
      }
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('pays the open order with a gift card, by keyboard: that order is paid, the cart is kept, the confirmation shown', async () => {
    const user = userEvent.setup();
    const order = openOrder();
    const api = serveOpenOrder(order, { balance: 100 });
    const { store } = renderPage(`/order/${order._id}`);
    const region = await screen.findByRole('region', { name: 'Pay for this order' });

    await user.click(within(region).getByRole('radio', { name: 'Gift Card' }));
    await user.type(within(region).getByLabelText('Gift card code'), 'GOOD{Enter}');
    const amounts = within(await within(region).findByLabelText('Gift card amounts'));
    expect(amounts.getByText('Amount to apply').nextSibling).toHaveTextContent('$59.97');
    expect(amounts.getByText('Remainder').nextSibling).toHaveTextContent('$0.00');
    await tabTo(user, within(region).getByRole('button', { name: 'Apply Gift Card' }));
    await user.keyboard('{Enter}');
    const placeOrder = within(region).getByRole('button', { name: 'Place Order' });
    await waitFor(() => expect(placeOrder).toBeEnabled());
    await tabTo(user, placeOrder);
    await user.keyboard('{Enter}');

    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/order-confirmation/${order._id}`),
    );
    expect(api.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 59.97, orderId: order._id },
    ]);
    expect(api.calls('PUT', `/api/orders/${order._id}/payment`).map((c) => c.body)).toEqual([
      expect.objectContaining({ order_id: order._id, payment_method: 'Gift Card', gift_card_code: 'GOOD' }),
    ]);
    // The order exists: checkout's order creation is never used.
    expect(api.calls('POST', '/api/orders')).toHaveLength(0);
    expect(store.getState().cart.cartItems).toEqual([expect.objectContaining({ name: 'Zelda II', qty: 2 })]);
  });

  it('takes what the server says is due on a partly paid order, for the card and for PayPal', async () => {
    const user = userEvent.setup();
    // $25.00 of a gift card was applied earlier: $34.97 of $59.97 is left.
    const order = openOrder({ giftCardAmount: 25, amountDue: 34.97 });
    const api = serveOpenOrder(order, { balance: 100 });
    const { store } = renderPage(`/order/${order._id}`);
    const region = await screen.findByRole('region', { name: 'Pay for this order' });
    expect(within(region).getByText('Already paid').nextElementSibling).toHaveTextContent('$25.00');
    expect(within(region).getByText('Amount due').nextElementSibling).toHaveTextContent('$34.97');
    expect(within(region).getByText('Amount to pay with PayPal:').textContent).toContain('$34.97');

    await user.click(within(region).getByRole('radio', { name: 'Gift Card' }));
    await user.type(within(region).getByLabelText('Gift card code'), 'GOOD');
    await user.click(within(region).getByRole('button', { name: 'Check Balance' }));
    const amounts = within(await within(region).findByLabelText('Gift card amounts'));
    expect(amounts.getByText('Amount to apply').nextSibling).toHaveTextContent('$34.97');

    await user.click(within(region).getByRole('radio', { name: 'PayPal' }));
    await user.click(await within(region).findByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/order-confirmation/${order._id}`),
    );
    expect(api.calls('POST', `/api/orders/${order._id}/paypal`)).toHaveLength(1);
    expect(api.calls('POST', `/api/orders/${order._id}/paypal/capture`)).toHaveLength(1);
    expect(store.getState().cart.cartItems).toHaveLength(1);
  });

  it("shows the server's message and no payment controls when the order expired meanwhile", async () => {
    const user = userEvent.setup();
    const order = openOrder();
    const api = serveOpenOrder(order, {
      overrides: {
        [`POST /api/orders/${order._id}/paypal`]: () =>
          jsonResponse(
            { message: 'This order has expired. Please place it again.', code: 'ORDER_EXPIRED' },
            409,
          ),
      },
    });
    const { store } = renderPage(`/order/${order._id}`);
    const region = await screen.findByRole('region', { name: 'Pay for this order' });
    await user.click(await within(region).findByRole('button', { name: 'Demo payment — no money moves' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Error: This order has expired. Please place it again.',
    );
    expect(within(region).queryByRole('button', { name: /Demo payment/ })).not.toBeInTheDocument();
    expect(within(region).queryByRole('radio', { name: 'Gift Card' })).not.toBeInTheDocument();
    // Never replaced by a new order, as checkout would.
    expect(api.calls('POST', `/api/orders/${order._id}/paypal`)).toHaveLength(1);
    expect(api.calls('POST', '/api/orders')).toHaveLength(0);
    expect(screen.getByTestId('location')).toHaveTextContent(`/order/${order._id}`);
    expect(store.getState().cart.cartItems).toHaveLength(1);
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
    expect(factOf('Order Number')).toHaveTextContent(`#${order.orderNumber}`);
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
    expect(factOf('Order Number')).toHaveTextContent(`#${order.orderNumber}`);
  });

  it("shows 'Error: {message}' when the order cannot be read", async () => {
    serveOrders([]);
    renderAt('/order-confirmation/00000000-0000-4000-9000-00000000dead');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Order not found');
    expect(screen.queryByRole('heading', { name: 'Thank you for your order!' })).not.toBeInTheDocument();
  });
});

describe("an order's tiers (issue 31)", () => {
  it('shows the tier bought under the name in the confirmation, the order detail and the admin order detail', async () => {
    const order = paid(
      makeOrder({
        orderItems: [
          makeOrderItem({ itemName: 'Zelda II', variantTitle: 'Complete in box / PAL', itemPrice: 150 }),
          makeOrderItem({ itemName: 'Zelda II', variantTitle: 'Loose / NTSC-U', itemPrice: 34.5 }),
          makeOrderItem({ itemName: 'Tetris', variantTitle: '' }),
        ],
      }),
    );
    serveOrders([order]);
    for (const route of [
      `/order-confirmation/${order._id}`,
      `/order/${order._id}`,
      `/admin/order/${order._id}`,
    ]) {
      const { unmount } = renderWithProviders(
        <Routes>
          <Route path="/order/:orderId" element={<OrderDetailPage />} />
          <Route path="/order-confirmation/:orderId" element={<OrderConfirmationPage />} />
          <Route path="/admin/order/:orderId" element={<AdminOrderPage />} />
        </Routes>,
        { route, preloadedState: { auth: { userInfo: makeUser({ isAdmin: route.startsWith('/admin') }) } } },
      );
      const list = await screen.findByRole('list', { name: 'Order items' });
      // The title line right under the name; none for a product sold in one form.
      const titles = within(list)
        .getAllByRole('listitem')
        .map((item) => {
          const name = within(item).getByText(/^(Zelda II|Tetris)$/, { selector: 'p' });
          return [name.textContent, name.nextElementSibling?.textContent ?? null];
        });
      expect(titles, route).toEqual([
        ['Zelda II', 'Complete in box / PAL'],
        ['Zelda II', 'Loose / NTSC-U'],
        ['Tetris', null],
      ]);
      unmount();
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order, UserInfo } from '@pixel-vault/shared';
import OrderDetailPage from '../../app/pages/OrderDetailPage';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import OrderHistoryPage from './OrderHistoryPage';
import { makeEvent, makeOrder, paid } from '../../test/orders';

/** Issue 12 on the customer's pages: status, refunds, timeline, badges and 'Cancel order'. */

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const customer = makeUser();
const mine = { _id: customer._id, name: customer.name, email: customer.email };
const farFuture = '2099-01-01T00:00:00.000Z';

/** The customer's order awaiting payment ($59.97), its stock still held. */
const openOrder = (overrides: Partial<Order> = {}) =>
  makeOrder({
    user: mine,
    expiresAt: farFuture,
    timeline: [makeEvent({ at: '2024-01-05T10:00:00.000Z' })],
    ...overrides,
  });

/** The same order once paid in full. */
const paidOrder = (overrides: Partial<Order> = {}) =>
  paid(openOrder(), {
    timeline: [
      makeEvent({ at: '2024-01-05T10:00:00.000Z' }),
      makeEvent({ at: '2024-01-05T10:05:00.000Z', event: 'paid', amount: 59.97, note: 'paypal' }),
    ],
    ...overrides,
  });

/** What the server answers to a cancel: the order cancelled, a paid one refunded in full. */
function cancelledVersion(order: Order): Order {
  const refund = order.isPaid ? order.totalPrice - order.refundedPrice : 0;
  const at = '2024-01-05T11:00:00.000Z';
  return {
    ...order,
    status: 'cancelled',
    expiresAt: null,
    refundedPrice: order.refundedPrice + refund,
    timeline: [
      ...(order.timeline ?? []),
      ...(refund > 0
        ? [
            makeEvent({
              at,
              event: 'refunded',
              amount: refund,
              note: `Cancelled by the customer; $${refund.toFixed(2)} back to your PayPal account`,
            }),
          ]
        : []),
      makeEvent({ at, event: 'cancelled' }),
    ],
  };
}

/**
 * The customer's orders at the fetch edge. POST .../cancel answers `cancelAnswer()` when given (then
 * the order becomes `after`, if given), else cancels the order as the server would.
 */
function serve(
  initial: Order[],
  { cancelAnswer, after }: { cancelAnswer?: () => Response | Promise<Response>; after?: Order } = {},
) {
  let orders = initial;
  const cancels: string[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/orders' && request.method === 'GET') {
      return jsonResponse(orders.map(({ timeline: _timeline, ...o }) => o));
    }
    const cancel = /^\/api\/orders\/([^/]+)\/cancel$/.exec(url.pathname);
    if (cancel && request.method === 'POST') {
      cancels.push(cancel[1]!);
      if (cancelAnswer) {
        const answer = await cancelAnswer();
        if (after) orders = orders.map((o) => (o._id === after._id ? after : o));
        return answer;
      }
      const order = orders.find((o) => o._id === cancel[1]);
      if (!order) return jsonResponse({ message: 'Order not found' }, 404);
      const cancelled = cancelledVersion(order);
      orders = orders.map((o) => (o._id === order._id ? cancelled : o));
      return jsonResponse(cancelled);
    }
    const one = orders.find((o) => url.pathname === `/api/orders/${o._id}`);
    return one ? jsonResponse(one) : jsonResponse({ message: 'Order not found' }, 404);
  });
  return { mock, cancels };
}

function renderAt(route: string, user: UserInfo = customer) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/order-history" element={<OrderHistoryPage />} />
        <Route path="/order/:orderId" element={<OrderDetailPage />} />
        <Route path="/contact" element={<p>Contact page</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route, preloadedState: { auth: { userInfo: user } } },
  );
}

const factOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
const cancelButton = () => screen.queryByRole('button', { name: 'Cancel order' });
const cancelRegion = () => screen.queryByRole('region', { name: 'Cancel or return' });

/** Waits until the order's details are on the page. */
const shown = (order: Order) => screen.findByText(order._id, { selector: 'dd' });

describe('My Orders: badges', () => {
  it('shows one badge per order, from its status: a cancelled paid order is no longer also "Paid" (issue 30)', async () => {
    const cancelledPaid = cancelledVersion(paidOrder());
    const cancelledUnpaid = cancelledVersion(openOrder());
    const refunded = paidOrder({ status: 'refunded', refundedPrice: 59.97 });
    const expired = openOrder({ status: 'expired', expiresAt: null });
    const delivered = paidOrder({ status: 'delivered', isDelivered: true });
    const deliveredPartly = paidOrder({ status: 'delivered', isDelivered: true, refundedPrice: 10 });
    const partly = paidOrder({ refundedPrice: 10 });
    const open = openOrder();
    const paid = paidOrder();
    serve([
      cancelledPaid,
      cancelledUnpaid,
      refunded,
      expired,
      delivered,
      deliveredPartly,
      partly,
      open,
      paid,
    ]);
    renderAt('/order-history');
    const rows = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('listitem');

    const badges = (row: HTMLElement) =>
      within(row)
        .getAllByText(/^(Paid|Not Paid|Delivered.*|Cancelled|Refunded|Partly refunded|Expired)$/)
        .map((el) => el.textContent);
    expect(rows.map(badges)).toEqual([
      ['Cancelled'],
      ['Cancelled'],
      ['Refunded'],
      ['Expired'],
      ['Delivered'],
      ['Delivered, partly refunded'],
      ['Partly refunded'],
      ['Not Paid'],
      ['Paid'],
    ]);
    // The spec's colours for its two words.
    expect(within(rows[8]!).getByText('Paid')).toHaveClass('text-green-300');
    expect(within(rows[7]!).getByText('Not Paid')).toHaveClass('text-red-300');
  });
});

describe('Order detail: status, refunds and timeline', () => {
  it('shows the readable status, the amount refunded and the timeline, oldest first, in words', async () => {
    const order = paidOrder({
      status: 'delivered',
      isDelivered: true,
      refundedPrice: 20,
      timeline: [
        makeEvent({ at: '2024-01-05T10:00:00.000Z' }),
        makeEvent({ at: '2024-01-05T10:05:00.000Z', event: 'paid', amount: 59.97, note: 'paypal' }),
        makeEvent({ at: '2024-01-06T09:00:00.000Z', event: 'delivered', by: 'admin' }),
        makeEvent({
          at: '2024-01-07T12:00:00.000Z',
          event: 'refund_failed',
          by: 'system',
          amount: 20,
          note: 'PayPal refused the refund',
        }),
        makeEvent({
          at: '2024-01-08T12:00:00.000Z',
          event: 'refunded',
          by: 'admin',
          amount: 20,
          note: 'Scratched box; $20.00 back to your PayPal account',
        }),
      ],
    });
    serve([order]);
    renderAt(`/order/${order._id}`);
    await shown(order);
    expect(factOf('Order Status')).toHaveTextContent(/^Delivered$/);
    expect(factOf('Amount Refunded')).toHaveTextContent(/^\$20\.00$/);

    const items = within(screen.getByRole('list', { name: 'Order timeline' })).getAllByRole('listitem');
    // In words for the customer reading it (issue 30).
    expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'You placed this order',
      'We received your payment of $59.97',
      'We delivered your order',
      'A refund of $20.00 could not be made yet',
      'We refunded $20.00',
    ]);
    expect(items[4]).toHaveTextContent('Scratched box; $20.00 back to your PayPal account');
    expect(items[3]).toHaveTextContent('PayPal refused the refund');
    // Each line says when, as the spec's order date with the time, machine-readable too.
    const time = items[0]!.querySelector('time');
    expect(time).toHaveAttribute('datetime', '2024-01-05T10:00:00.000Z');
    expect(time?.textContent).toMatch(/^Jan [56]th 24, \d{1,2}:\d{2}\s?[AP]M$/);
  });

  it.each([
    ['awaiting_payment', 'Awaiting payment'],
    ['paid', 'Paid'],
    ['cancelled', 'Cancelled'],
    ['refunded', 'Refunded'],
    ['expired', 'Expired'],
  ] as const)(
    'labels the status %s as %s, and shows no refund line when nothing was refunded',
    async (status, label) => {
      const order = openOrder({ status });
      serve([order]);
      renderAt(`/order/${order._id}`);
      await shown(order);
      expect(factOf('Order Status')).toHaveTextContent(new RegExp(`^${label}$`));
      expect(screen.queryByText('Amount Refunded')).not.toBeInTheDocument();
    },
  );
});

describe("Order detail: 'Cancel order'", () => {
  it("offers it on the customer's own order awaiting payment or paid; a delivered one says to contact the shop; closed or someone else's: nothing", async () => {
    const admin = makeUser({ _id: '11111111-2222-4333-8444-555555555555', isAdmin: true });
    const cases: { name: string; order: Order; user?: UserInfo; button: boolean; contact: boolean }[] = [
      { name: 'awaiting payment', order: openOrder(), button: true, contact: false },
      { name: 'paid', order: paidOrder(), button: true, contact: false },
      {
        name: 'delivered',
        order: paidOrder({ status: 'delivered', isDelivered: true }),
        button: false,
        contact: true,
      },
      { name: 'cancelled', order: cancelledVersion(paidOrder()), button: false, contact: false },
      { name: 'refunded', order: paidOrder({ status: 'refunded' }), button: false, contact: false },
      { name: 'expired', order: openOrder({ status: 'expired' }), button: false, contact: false },
      {
        name: 'awaiting payment, its hold run out (expiring)',
        order: openOrder({ expiresAt: '2024-01-05T10:30:00.000Z' }),
        button: false,
        contact: false,
      },
      {
        name: "another customer's, read by an admin",
        order: paidOrder(),
        user: admin,
        button: false,
        contact: false,
      },
    ];
    for (const c of cases) {
      serve([c.order]);
      const { unmount } = renderAt(`/order/${c.order._id}`, c.user);
      await shown(c.order);
      expect(cancelButton() !== null, c.name).toBe(c.button);
      const contact = screen.queryByRole('link', { name: 'contact us' });
      expect(contact !== null, c.name).toBe(c.contact);
      if (c.contact) {
        expect(cancelRegion()).toHaveTextContent(
          'This order was delivered, so it can no longer be cancelled here. To return it, please contact us.',
        );
        expect(contact).toHaveAttribute('href', '/contact');
      }
      if (!c.button && !c.contact) expect(cancelRegion(), c.name).not.toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('asks first, saying nothing is charged for an unpaid order; Keep order and Escape send nothing', async () => {
    const user = userEvent.setup();
    const order = openOrder({ giftCardAmount: 10, amountDue: 49.97 });
    const { cancels } = serve([order]);
    renderAt(`/order/${order._id}`);
    await shown(order);

    await user.click(cancelButton()!);
    const dialog = screen.getByRole('dialog', { name: 'Cancel this order?' });
    expect(dialog).toHaveAccessibleDescription(
      'Nothing will be charged, and any gift-card money held for this order goes back to your card. The items go back on the shelf.',
    );
    // The safe choice has the focus.
    expect(within(dialog).getByRole('button', { name: 'Keep order' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cancelButton()).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Cancel this order?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cancels).toEqual([]);
  });

  it('says a paid order is refunded in full to where the money came from', async () => {
    const user = userEvent.setup();
    const order = paidOrder({ giftCardAmount: 10, refundedPrice: 5 });
    serve([order]);
    renderAt(`/order/${order._id}`);
    await shown(order);
    await user.click(cancelButton()!);
    expect(screen.getByRole('dialog', { name: 'Cancel this order?' })).toHaveAccessibleDescription(
      'You will get a full refund of $54.97, the gift-card part back to your gift card, the rest to PayPal. The items go back on the shelf.',
    );
  });

  it('cancels a paid order once confirmed: progress in the dialog, then the cancelled order, its refund and timeline; My Orders shows it too', async () => {
    const user = userEvent.setup();
    const order = paidOrder();
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { cancels } = serve([order], {
      cancelAnswer: async () => {
        await answered;
        return jsonResponse(cancelledVersion(order));
      },
      after: cancelledVersion(order),
    });
    renderAt('/order-history');
    // My Orders was read before the cancel: it must be read again after it.
    const row = within(await screen.findByRole('list', { name: 'Orders' })).getByRole('listitem');
    expect(within(row).queryByText('Cancelled')).not.toBeInTheDocument();
    await user.click(within(row).getByRole('link', { name: /View details/ }));
    await shown(order);

    await user.click(cancelButton()!);
    const dialog = screen.getByRole('dialog', { name: 'Cancel this order?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, cancel order' }));
    expect(within(dialog).getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
    release();

    const status = await screen.findByText(/^Your order was cancelled\./);
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent(
      'Your order was cancelled. $59.97 is on its way back to you; we have e-mailed you the details.',
    );
    // Focus moves in an effect that React runs after the commit that shows the text.
    await waitFor(() => expect(status).toHaveFocus());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cancelButton()).not.toBeInTheDocument();
    expect(cancels).toEqual([order._id]);
    await waitFor(() => expect(factOf('Order Status')).toHaveTextContent('Cancelled'));
    expect(factOf('Payment Status')).toHaveTextContent('Paid');
    expect(factOf('Amount Refunded')).toHaveTextContent('$59.97');
    const timeline = within(screen.getByRole('list', { name: 'Order timeline' }));
    expect(timeline.getByText('We refunded', { exact: false })).toHaveTextContent('We refunded $59.97');
    expect(timeline.getByText('You cancelled this order')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Order History' }));
    const again = within(await screen.findByRole('list', { name: 'Orders' })).getByRole('listitem');
    await waitFor(() => expect(within(again).getByText('Cancelled')).toBeInTheDocument());
  });

  it('cancels an unpaid order: nothing was charged', async () => {
    const user = userEvent.setup();
    const order = openOrder();
    serve([order]);
    renderAt(`/order/${order._id}`);
    await shown(order);
    await user.click(cancelButton()!);
    await user.click(screen.getByRole('button', { name: 'Yes, cancel order' }));
    expect(
      await screen.findByText(
        'Your order was cancelled. Nothing was charged; we have e-mailed you a confirmation.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(factOf('Order Status')).toHaveTextContent('Cancelled'));
    expect(screen.queryByText('Amount Refunded')).not.toBeInTheDocument();
  });

  it("shows the server's refusal as an alert, and the order as it now is", async () => {
    const user = userEvent.setup();
    const order = paidOrder();
    const message =
      'This order was delivered, so it can no longer be cancelled here. Please contact us to return it.';
    serve([order], {
      cancelAnswer: () => jsonResponse({ message, code: 'ORDER_DELIVERED' }, 409),
      after: { ...order, status: 'delivered', isDelivered: true },
    });
    renderAt(`/order/${order._id}`);
    await shown(order);
    await user.click(cancelButton()!);
    await user.click(screen.getByRole('button', { name: 'Yes, cancel order' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${message}`);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Read again: it was delivered meanwhile, so the page now says to contact the shop.
    expect(await screen.findByRole('link', { name: 'contact us' })).toBeInTheDocument();
    expect(cancelButton()).not.toBeInTheDocument();
    expect(factOf('Order Status')).toHaveTextContent('Delivered');
  });

  it('shows a refund PayPal has not confirmed yet as information, not as an error, and lets the customer ask again', async () => {
    const user = userEvent.setup();
    const order = paidOrder();
    const message =
      'PayPal did not answer. The refund is recorded and will be completed automatically; nothing more is needed.';
    const { cancels } = serve([order], {
      cancelAnswer: () => jsonResponse({ message, code: 'REFUND_PENDING' }, 502),
    });
    renderAt(`/order/${order._id}`);
    await shown(order);
    await user.click(cancelButton()!);
    await user.click(screen.getByRole('button', { name: 'Yes, cancel order' }));

    const info = await screen.findByText(message);
    expect(info).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(cancelButton()).toBeInTheDocument();
    expect(cancels).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import AdminOrderPage from '../../app/pages/AdminOrderPage';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeEvent, makeOrder, paid } from '../../test/orders';
import { adminState, jsonBody } from './test-helpers';

/** Issue 12 on the admin order page: the refund form, and the order's refunds and timeline. */

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A paid order of $59.97, delivered. */
const deliveredOrder = (overrides: Partial<Order> = {}) =>
  paid(makeOrder(), {
    status: 'delivered',
    isDelivered: true,
    timeline: [
      makeEvent(),
      makeEvent({ event: 'paid', amount: 59.97, note: 'paypal' }),
      makeEvent({ event: 'delivered', by: 'admin' }),
    ],
    ...overrides,
  });

/**
 * One order at the fetch edge. POST .../refund answers once `hold` has settled: `refundAnswer()` when
 * given, else it refunds as the server would (partially, or in full: then the order is `refunded`).
 */
function serve(
  initial: Order,
  { refundAnswer, hold }: { refundAnswer?: () => Response | Promise<Response>; hold?: Promise<void> } = {},
) {
  let order = initial;
  const refunds: unknown[] = [];
  stubFetch(async (request, url) => {
    if (url.pathname === `/api/orders/${order._id}/refund` && request.method === 'POST') {
      const body = (await jsonBody(request)) as { amount?: number; reason: string };
      refunds.push(body);
      await hold;
      if (refundAnswer) return refundAnswer();
      const amount = body.amount ?? order.totalPrice - order.refundedPrice;
      const refundedPrice = Math.round((order.refundedPrice + amount) * 100) / 100;
      order = {
        ...order,
        refundedPrice,
        status: refundedPrice >= order.totalPrice ? 'refunded' : order.status,
        timeline: [
          ...(order.timeline ?? []),
          // An admin's reading names the admin who did it (issue 30).
          makeEvent({
            event: 'refunded',
            by: 'admin',
            amount,
            note: `${body.reason}; back to PayPal`,
            byUser: { name: 'Ada Admin', email: 'ada@shop.test' },
          }),
        ],
      };
      return jsonResponse(order);
    }
    if (url.pathname === `/api/orders/${order._id}`) return jsonResponse(order);
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { refunds };
}

function renderAt(order: Order) {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/order/:orderId" element={<AdminOrderPage />} />
    </Routes>,
    { route: `/admin/order/${order._id}`, preloadedState: adminState },
  );
}

const factOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
const refundForm = () => screen.queryByRole('form', { name: 'Refund' });
const shown = (order: Order) => screen.findByText(order._id, { selector: 'dd' });

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  { amount, reason, restock }: { amount?: string; reason?: string; restock?: boolean },
) {
  const form = within(refundForm()!);
  if (amount) await user.type(form.getByLabelText('Amount (USD)'), amount);
  if (reason) await user.type(form.getByLabelText('Reason'), reason);
  if (restock) await user.click(form.getByRole('checkbox', { name: 'Put the items back in stock' }));
}

describe('AdminOrderPage: Refund', () => {
  it('offers the form on a paid or delivered order with money left, and shows the timeline on every order', async () => {
    const cases: { name: string; order: Order; form: boolean }[] = [
      { name: 'paid', order: paid(makeOrder()), form: true },
      { name: 'delivered', order: deliveredOrder(), form: true },
      { name: 'delivered, partly refunded', order: deliveredOrder({ refundedPrice: 50 }), form: true },
      { name: 'awaiting payment', order: makeOrder(), form: false },
      {
        name: 'cancelled',
        order: paid(makeOrder(), { status: 'cancelled', refundedPrice: 59.97 }),
        form: false,
      },
      { name: 'refunded', order: deliveredOrder({ status: 'refunded', refundedPrice: 59.97 }), form: false },
      { name: 'expired', order: makeOrder({ status: 'expired' }), form: false },
    ];
    for (const c of cases) {
      serve({ ...c.order, timeline: c.order.timeline ?? [makeEvent()] });
      const { unmount } = renderAt(c.order);
      await shown(c.order);
      expect(refundForm() !== null, c.name).toBe(c.form);
      expect(screen.getByRole('list', { name: 'Order timeline' }), c.name).toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('shows the maximum, and leaves no way to deliver a cancelled order', async () => {
    const order = deliveredOrder({ refundedPrice: 10 });
    serve(order);
    renderAt(order);
    await shown(order);
    expect(factOf('Amount Refunded')).toHaveTextContent('$10.00');
    expect(within(refundForm()!).getByLabelText('Amount (USD)')).toHaveAccessibleDescription(
      'Leave empty to refund everything left: at most $49.97.',
    );
    vi.unstubAllGlobals();

    const cancelled = paid(makeOrder(), { status: 'cancelled', refundedPrice: 59.97, timeline: [] });
    serve(cancelled);
    renderAt(cancelled);
    await shown(cancelled);
    expect(screen.queryByRole('button', { name: 'Mark as Delivered' })).not.toBeInTheDocument();
  });

  it.each([
    [{ reason: '' }, 'Error: A reason is required', 'Reason'],
    [{ reason: '   ' }, 'Error: A reason is required', 'Reason'],
    [
      { amount: '49.98', reason: 'Broken' },
      'Error: At most $49.97 can be refunded on this order',
      'Amount (USD)',
    ],
    [{ amount: '0', reason: 'Broken' }, 'Error: Amount must be greater than 0', 'Amount (USD)'],
    [{ amount: '1.234', reason: 'Broken' }, 'Error: At most two decimals', 'Amount (USD)'],
  ])('checks the form before asking: %o -> %s', async (values, message, field) => {
    const user = userEvent.setup();
    const order = deliveredOrder({ refundedPrice: 10 });
    const { refunds } = serve(order);
    renderAt(order);
    await shown(order);
    await fill(user, values);
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    const input = within(refundForm()!).getByLabelText(field);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // Focus moves in an effect that React runs after the commit that shows the text.
    await waitFor(() => expect(input).toHaveFocus());
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message.replace('Error: ', '')));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(refunds).toEqual([]);
  });

  it('refunds part of a delivered order once confirmed: progress, success, and the order reloads with the refund in its timeline', async () => {
    const user = userEvent.setup();
    const order = deliveredOrder();
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { refunds } = serve(order, { hold: answered });
    renderAt(order);
    await shown(order);
    await fill(user, { amount: '10', reason: 'Scratched box', restock: true });
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));

    const dialog = screen.getByRole('dialog', { name: 'Refund $10.00 of this order?' });
    expect(dialog).toHaveAccessibleDescription(
      "The money goes back to the customer's gift cards first, then to PayPal, and the customer is e-mailed. Reason: Scratched box The items go back in stock.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Refund $10.00' }));
    expect(within(dialog).getByRole('button', { name: 'Refunding…' })).toBeDisabled();
    expect(within(refundForm()!).getByRole('button', { name: 'Refunding…' })).toBeDisabled();
    release();

    const status = await screen.findByText('Refunded $10.00. The customer will be e-mailed.');
    expect(status).toHaveAttribute('role', 'status');
    // Focus moves in an effect that React runs after the commit that shows the text.
    await waitFor(() => expect(status).toHaveFocus());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(refunds).toEqual([{ amount: 10, reason: 'Scratched box', restock: true }]);
    await waitFor(() => expect(factOf('Amount Refunded')).toHaveTextContent('$10.00'));
    expect(factOf('Order Status')).toHaveTextContent('Delivered');
    const timeline = within(screen.getByRole('list', { name: 'Order timeline' }));
    // The admin reads who did it, by name and e-mail (issue 30).
    expect(timeline.getByText(/^Refunded/)).toHaveTextContent('Refunded $10.00 by Ada Admin (ada@shop.test)');
    expect(timeline.getByText('Scratched box; back to PayPal')).toBeInTheDocument();
    // Ready for another: cleared, with the new maximum.
    const form = within(refundForm()!);
    expect(form.getByLabelText('Amount (USD)')).toHaveValue(null);
    expect(form.getByLabelText('Reason')).toHaveValue('');
    expect(form.getByRole('checkbox', { name: 'Put the items back in stock' })).not.toBeChecked();
    expect(form.getByLabelText('Amount (USD)')).toHaveAccessibleDescription(
      'Leave empty to refund everything left: at most $49.97.',
    );
  });

  it('refunds everything left when the amount is empty; then nothing is left to refund', async () => {
    const user = userEvent.setup();
    const order = deliveredOrder({ refundedPrice: 9.97 });
    const { refunds } = serve(order);
    renderAt(order);
    await shown(order);
    await fill(user, { reason: 'Lost in the post' });
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund $50.00 of this order?' });
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining('The stock stays as it is.'));
    await user.click(within(dialog).getByRole('button', { name: 'Refund $50.00' }));

    expect(await screen.findByText('Refunded $50.00. The customer will be e-mailed.')).toBeInTheDocument();
    expect(refunds).toEqual([{ reason: 'Lost in the post', restock: false }]);
    await waitFor(() => expect(factOf('Order Status')).toHaveTextContent('Refunded'));
    expect(factOf('Amount Refunded')).toHaveTextContent('$59.97');
    expect(refundForm()).not.toBeInTheDocument();
    expect(screen.getByText('Nothing is left to refund on this order.')).toBeInTheDocument();
  });

  it('sends nothing when the admin cancels the confirmation', async () => {
    const user = userEvent.setup();
    const order = deliveredOrder();
    const { refunds } = serve(order);
    renderAt(order);
    await shown(order);
    await fill(user, { reason: 'Changed my mind' });
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(refunds).toEqual([]);
    expect(within(refundForm()!).getByLabelText('Reason')).toHaveValue('Changed my mind');
  });

  it.each([
    [
      409,
      'REFUND_IN_PROGRESS',
      'A refund for this order is already in progress. Please try again in a minute.',
    ],
    [502, 'REFUND_DECLINED', 'PayPal refused the refund: INSTRUMENT_DECLINED'],
  ])("shows the server's %i %s as an alert and keeps the form filled", async (status, code, message) => {
    const user = userEvent.setup();
    const order = deliveredOrder();
    serve(order, { refundAnswer: () => jsonResponse({ message, code }, status) });
    renderAt(order);
    await shown(order);
    await fill(user, { amount: '5', reason: 'Dent' });
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund $5.00' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${message}`);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(refundForm()!).getByLabelText('Amount (USD)')).toHaveValue(5);
    expect(within(refundForm()!).getByLabelText('Reason')).toHaveValue('Dent');
  });

  it('shows a refund PayPal has not confirmed yet as information, not as an error', async () => {
    const user = userEvent.setup();
    const order = deliveredOrder();
    const message =
      'PayPal did not answer. The refund is recorded and will be completed automatically; nothing more is needed.';
    serve(order, { refundAnswer: () => jsonResponse({ message, code: 'REFUND_PENDING' }, 502) });
    renderAt(order);
    await shown(order);
    await fill(user, { reason: 'Dent' });
    await user.click(within(refundForm()!).getByRole('button', { name: 'Refund' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund $59.97' }));

    const info = await screen.findByText(message);
    expect(info).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { makeOrder, paid } from '../../test/orders';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { initialCartState, type ShippingAddress } from '../../app/cartSlice';
import PlaceOrderPage from './PlaceOrderPage';

/**
 * Issue 30: "Remove" beside an applied gift card at checkout. The card comes off the unpaid order
 * (POST /api/giftcards/remove), the amounts shown are the server's answer, and the code field, Check
 * Balance and Apply work again, for another card or the same one.
 */

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ADDRESS: ShippingAddress = {
  address: '1 Main St',
  city: 'Sacramento',
  postalCode: '95814',
  country: 'USA',
};

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/**
 * The shop's gift-card and order calls at the fetch edge, keeping cards and the one order as the
 * server would: `use` takes from the card, `remove` gives back what the card holds on the order.
 * `removeAnswer` answers remove first (a refusal, or a promise to hold it open).
 */
function fakeShop({
  order = makeOrder(),
  cards = { GOOD: 25, OTHER: 10 } as Record<string, number>,
  removeAnswer,
  lateOrderReads = false,
}: {
  order?: Order;
  cards?: Record<string, number>;
  removeAnswer?: () => Promise<Response> | Response;
  /** A read of the order answers what it was when asked, but only once the test lets it (`releaseReads`). */
  lateOrderReads?: boolean;
} = {}) {
  const sent: Sent[] = [];
  const balance = new Map(Object.entries(cards).map(([code, dollars]) => [code, Math.round(dollars * 100)]));
  const held = new Map<string, number>();
  let current = order;
  const heldReads: (() => void)[] = [];
  const owed = () => current.totalPrice * 100 - [...held.values()].reduce((a, b) => a + b, 0);
  const update = () => {
    const dueCents = Math.round(owed());
    current = {
      ...current,
      giftCardAmount: Math.round(current.totalPrice * 100 - dueCents) / 100,
      amountDue: dueCents / 100,
    };
    if (dueCents === 0) current = paid(current, { paymentMethod: 'Gift Card' });
  };

  stubFetch(async (request, url) => {
    const text = request.method === 'GET' ? '' : await request.text();
    const body = (text ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined;
    sent.push({ method: request.method, path: url.pathname, body });
    const key = `${request.method} ${url.pathname}`;
    if (key === 'GET /api/config') return jsonResponse({ clientId: '', mode: 'demo', currency: 'USD' });
    if (key === 'POST /api/orders') return jsonResponse(current, 201);
    if (key === `GET /api/orders/${order._id}`) {
      const asked = current;
      if (lateOrderReads) await new Promise<void>((resolve) => heldReads.push(resolve));
      return jsonResponse(asked);
    }
    const code = String(body?.code ?? '');
    if (key === 'POST /api/giftcards/check-balance') {
      const cents = balance.get(code);
      return cents == null
        ? jsonResponse({ message: 'Gift card not found' }, 404)
        : jsonResponse({ balance: cents / 100 });
    }
    if (key === 'POST /api/giftcards/use') {
      const cents = Math.round(Number(body?.amount) * 100);
      balance.set(code, balance.get(code)! - cents);
      held.set(code, cents);
      update();
      return jsonResponse({
        orderId: order._id,
        balance: balance.get(code)! / 100,
        updatedBalance: balance.get(code)! / 100,
        applied: cents / 100,
        amountDue: current.amountDue,
        message: 'Gift card applied.',
      });
    }
    if (key === 'POST /api/giftcards/remove') {
      if (removeAnswer) return removeAnswer();
      const cents = held.get(code) ?? 0;
      held.delete(code);
      balance.set(code, balance.get(code)! + cents);
      update();
      return jsonResponse({
        orderId: order._id,
        balance: balance.get(code)! / 100,
        released: cents / 100,
        amountDue: current.amountDue,
        message: `Gift card removed: $${(cents / 100).toFixed(2)} went back to the card.`,
      });
    }
    if (key === `POST /api/orders/${order._id}/paypal`)
      return jsonResponse({ id: 'DEMO-1', status: 'CREATED' });
    if (key === `POST /api/orders/${order._id}/paypal/capture`) {
      current = paid(current, { paymentMethod: 'paypal' });
      return jsonResponse(current);
    }
    return jsonResponse({ message: `No route ${key}` }, 404);
  });
  return {
    calls: (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path),
    /** Lets the held reads of the order answer, in the order they were asked. */
    releaseReads: () => heldReads.splice(0).forEach((release) => release()),
  };
}

function renderCheckout() {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/place-order" element={<PlaceOrderPage />} />
        <Route path="/order-confirmation/:orderId" element={<p>Confirmation page</p>} />
      </Routes>
      <LocationProbe />
    </>,
    {
      route: '/place-order',
      preloadedState: {
        auth: { userInfo: makeUser({ email: 'ada@example.com' }) },
        cart: {
          ...initialCartState,
          // $45.20 of items: tax $6.78 + shipping $7.99 -> total $59.97.
          cartItems: [makeCartItem({ name: 'Tetris', price: 45.2, qty: 1 })],
          shippingAddress: ADDRESS,
          paymentMethod: 'gift',
        },
      },
    },
  );
}

type User = ReturnType<typeof userEvent.setup>;

async function applyCard(user: User, code: string) {
  const field = screen.getByLabelText('Gift card code');
  await user.clear(field);
  await user.type(field, code);
  await user.click(screen.getByRole('button', { name: 'Check Balance' }));
  await screen.findByLabelText('Gift card amounts');
  await user.click(screen.getByRole('button', { name: 'Apply Gift Card' }));
  await screen.findByText('Gift card applied to your order.');
}

async function toPayment(user: User) {
  await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  await screen.findByRole('button', { name: 'Back to Shipping Address' });
}

const amount = (label: string) =>
  within(screen.getByLabelText('Gift card amounts')).getByText(label).nextSibling?.textContent;

describe('checkout: Remove beside an applied gift card', () => {
  it('takes the card off, shows the balance and amounts the server answered, and lets another card be applied', async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = fakeShop({ order });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    expect(amount('Applied amount')).toBe('$25.00');
    expect(amount('Remainder')).toBe('$34.97');
    expect(screen.getByLabelText('Gift card code')).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove gift card' }));
    expect(await screen.findByText('Gift card removed: $25.00 went back to the card.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(shop.calls('POST', '/api/giftcards/remove').map((c) => c.body)).toEqual([
      { code: 'GOOD', orderId: order._id },
    ]);
    // The card is off: no Remove, no PayPal for the old remainder, the code can be used again.
    expect(screen.queryByRole('button', { name: 'Remove gift card' })).not.toBeInTheDocument();
    expect(screen.queryByText('Gift card applied to your order.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Demo payment — no money moves' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Gift card code')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Check Balance' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Apply Gift Card' })).toBeEnabled();
    expect(amount('Balance')).toBe('$25.00');
    expect(amount('Amount to apply')).toBe('$25.00');
    expect(amount('Remainder')).toBe('$34.97');

    // Another card: its amount comes from the whole total again, and the remainder is paid by PayPal.
    await applyCard(user, 'OTHER');
    expect(shop.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 25, orderId: order._id },
      { code: 'OTHER', amount: 10, orderId: order._id },
    ]);
    expect(amount('Applied amount')).toBe('$10.00');
    expect(amount('Remainder')).toBe('$49.97');
    expect(screen.getByText('Amount to pay with PayPal:').textContent).toContain('$49.97');
    await user.click(screen.getByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(`/order-confirmation/${order._id}`),
    );
  });

  it('keeps what the removal answered when a read of the order begun before it arrives after it', async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = fakeShop({ order, lateOrderReads: true });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    // Applying the card asked for the order again; that read is still under way.
    const reads = () => shop.calls('GET', `/api/orders/${order._id}`).length;
    await waitFor(() => expect(reads()).toBe(1));
    await user.click(screen.getByRole('button', { name: 'Remove gift card' }));
    await screen.findByText('Gift card removed: $25.00 went back to the card.');
    expect(amount('Remainder')).toBe('$34.97');
    // The read asked while the card was on ($34.97 due, $25.00 paid by it) lands after the removal.
    shop.releaseReads();
    await waitFor(() => expect(reads()).toBe(2));
    expect(amount('Remainder')).toBe('$34.97');
    expect(amount('Amount to apply')).toBe('$25.00');
    // The read the removal asked for answers the order as it is now.
    shop.releaseReads();
    await applyCard(user, 'OTHER');
    // The whole total was owed again: $10.00 of it from the second card.
    expect(shop.calls('POST', '/api/giftcards/use').at(-1)?.body).toEqual({
      code: 'OTHER',
      amount: 10,
      orderId: order._id,
    });
    expect(amount('Remainder')).toBe('$49.97');
  });

  it('applies the same card again after removing it', async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = fakeShop({ order });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Remove gift card' }));
    await screen.findByText('Gift card removed: $25.00 went back to the card.');
    await user.click(screen.getByRole('button', { name: 'Apply Gift Card' }));
    await screen.findByText('Gift card applied to your order.');
    expect(shop.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 25, orderId: order._id },
      { code: 'GOOD', amount: 25, orderId: order._id },
    ]);
    expect(amount('Remainder')).toBe('$34.97');
  });

  it('is reached with the keyboard and is busy while the server works', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    fakeShop({ removeAnswer: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    const remove = screen.getByRole('button', { name: 'Remove gift card' });
    remove.focus();
    expect(remove).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(remove).toHaveAttribute('aria-busy', 'true'));
    expect(remove).toBeDisabled();
    expect(remove).toHaveTextContent('Removing...');
    answer(jsonResponse({ message: 'This gift card is not applied to this order.' }, 409));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: This gift card is not applied to this order.',
    );
    expect(screen.getByRole('button', { name: 'Remove gift card' })).toHaveAttribute('aria-busy', 'false');
  });

  it('says so when the order was paid meanwhile, and offers no PayPal for it', async () => {
    const user = userEvent.setup();
    fakeShop({
      removeAnswer: () =>
        jsonResponse(
          { message: 'This order is paid; the gift card can no longer be removed.', code: 'ORDER_PAID' },
          409,
        ),
    });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Remove gift card' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: This order is paid; the gift card can no longer be removed.',
    );
    expect(screen.queryByRole('button', { name: 'Remove gift card' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Demo payment — no money moves' })).not.toBeInTheDocument();
    expect(screen.getByText('Gift card applied to your order.')).toBeInTheDocument();
  });

  it('offers no Remove once a card paid the whole order', async () => {
    const user = userEvent.setup();
    fakeShop({ cards: { GOOD: 100 } });
    renderCheckout();
    await toPayment(user);
    await applyCard(user, 'GOOD');
    expect(amount('Remainder')).toBe('$0.00');
    expect(screen.queryByRole('button', { name: 'Remove gift card' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Place Order' })).toBeEnabled();
  });
});

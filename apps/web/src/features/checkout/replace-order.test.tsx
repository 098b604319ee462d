import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { jsonResponse } from '../../test/fetch';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import {
  addToCart,
  initialCartState,
  removeFromCart,
  updateQty,
  type PaymentMethod,
} from '../../app/cartSlice';
import { makeOrder } from '../../test/orders';
import PlaceOrderPage from './PlaceOrderPage';
import { fakeShop } from './test-server';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Issue 9: an unpaid order holds stock (and gift-card money); a checkout whose cart changed names its
// earlier order, so the server releases it instead of counting it against the customer's holds.

const ADDRESS = { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' };

function renderCheckout(
  paymentMethod: PaymentMethod,
  item = makeCartItem({ name: 'Tetris', price: 45.2, qty: 1, countInStock: 5 }),
) {
  const rendered = renderWithProviders(
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
        cart: { ...initialCartState, cartItems: [item], shippingAddress: ADDRESS, paymentMethod },
      },
    },
  );
  const changeCart = () => act(() => rendered.store.dispatch(updateQty({ product: item.product, qty: 2 })));
  return { ...rendered, changeCart };
}

const location = () => screen.getByTestId('location').textContent;

async function toPayment(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  await screen.findByRole('button', { name: 'Back to Shipping Address' });
}

const replaces = (body: unknown) => (body as { replacesOrderId?: string }).replacesOrderId;

/** What the gift-card area shows against `term` ('Balance', 'Applied amount', 'Remainder'). */
function amount(term: string) {
  const amounts = within(screen.getByLabelText('Gift card amounts'));
  return amounts.getByText(term).nextElementSibling?.textContent;
}

describe('checkout: a new order after the cart changed replaces the earlier one', () => {
  it('sends the earlier order as replacesOrderId, and none with the first order', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = makeOrder();
    const shop = fakeShop({
      orders: [first, second],
      overrides: {
        [`POST /api/orders/${first._id}/paypal/capture`]: () => jsonResponse({ message: 'Declined' }, 402),
      },
    });
    const { changeCart } = renderCheckout('paypal');
    await toPayment(user);
    const demo = await screen.findByRole('button', { name: 'Demo payment — no money moves' });
    await user.click(demo);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Declined');

    changeCart();
    await user.click(screen.getByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${second._id}`));
    const created = shop.calls('POST', '/api/orders');
    expect(created.map((c) => replaces(c.body))).toEqual([undefined, first._id]);
    expect(created[1]!.body).toMatchObject({ orderItems: [{ itemQuantity: 2 }] });
  });

  it('no longer shows a card applied to the replaced order; the next order names that order', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = makeOrder();
    const shop = fakeShop({ orders: [first, second], balance: 25 });
    const { changeCart } = renderCheckout('gift');
    await toPayment(user);
    await user.type(screen.getByLabelText('Gift card code'), 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    await user.click(await screen.findByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();

    changeCart();
    expect(screen.queryByText('Gift card applied to your order.')).not.toBeInTheDocument();
    expect(screen.queryByText('Applied amount')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check Balance' })).toBeEnabled();

    // Paying the rest another way places the new cart, releasing the first order (and its card money).
    await user.click(screen.getByRole('radio', { name: 'PayPal' }));
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${second._id}`));
    expect(shop.calls('POST', '/api/orders').map((c) => replaces(c.body))).toEqual([undefined, first._id]);
  });

  it('applies a card used up on the replaced order again, with its balance read after the release', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = makeOrder({ totalPrice: 10, amountDue: 10 });
    const shop = fakeShop({ orders: [first, second], balance: 25 });
    const { changeCart } = renderCheckout('gift');
    await toPayment(user);
    await user.type(screen.getByLabelText('Gift card code'), 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    await user.click(await screen.findByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();
    expect(amount('Balance')).toBe('$0.00');

    // The $0 belonged to the first order; the server gives its $25 back when it makes the next one.
    changeCart();
    expect(screen.queryByText('Balance')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();
    expect(shop.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 25, orderId: first._id },
      { code: 'GOOD', amount: 10, orderId: second._id },
    ]);
    expect(amount('Applied amount')).toBe('$10.00');
    expect(amount('Balance')).toBe('$15.00');

    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${second._id}`));
    expect(shop.calls('POST', '/api/orders').map((c) => replaces(c.body))).toEqual([undefined, first._id]);
  });

  it('applies the refreshed, higher balance of a card partly used on the replaced order', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = makeOrder();
    // Checked at $25, the card then got $10 back from elsewhere: applying $25 leaves $10 on it and
    // the first order unpaid (a card that covers an order pays it, and a paid order is not released).
    let checks = 0;
    const shop = fakeShop({
      orders: [first, second],
      balance: 35,
      overrides: {
        'POST /api/giftcards/check-balance': () =>
          checks++ === 0 ? jsonResponse({ balance: 25 }) : undefined,
      },
    });
    const { changeCart } = renderCheckout('gift');
    await toPayment(user);
    await user.type(screen.getByLabelText('Gift card code'), 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    await user.click(await screen.findByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();
    expect(amount('Balance')).toBe('$10.00');

    changeCart();
    await user.click(screen.getByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();
    expect(shop.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 25, orderId: first._id },
      { code: 'GOOD', amount: 35, orderId: second._id },
    ]);
    expect(amount('Applied amount')).toBe('$35.00');
    expect(amount('Remainder')).toBe('$24.97');
    expect(await screen.findByRole('button', { name: 'Demo payment — no money moves' })).toBeEnabled();
  });
});

describe('checkout: another tier of the same game (issue 31)', () => {
  it('is another order, sent with its variant, replacing the earlier one', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = makeOrder();
    const shop = fakeShop({
      orders: [first, second],
      overrides: {
        [`POST /api/orders/${first._id}/paypal/capture`]: () => jsonResponse({ message: 'Declined' }, 402),
      },
    });
    const loose = makeCartItem({ name: 'Zelda II', variant: 'v-loose', variantTitle: 'Loose', price: 34.5 });
    const { store } = renderCheckout('paypal', loose);
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Declined');

    // The same game, quantity and price, in another tier.
    act(() => {
      store.dispatch(removeFromCart(loose));
      store.dispatch(addToCart({ ...loose, variant: 'v-boxed', variantTitle: 'Complete in box' }));
    });
    await user.click(screen.getByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${second._id}`));
    const created = shop.calls('POST', '/api/orders');
    expect(created.map((c) => replaces(c.body))).toEqual([undefined, first._id]);
    expect(
      created.map((c) => (c.body as { orderItems: { variant?: string }[] }).orderItems[0]?.variant),
    ).toEqual(['v-loose', 'v-boxed']);
  });
});

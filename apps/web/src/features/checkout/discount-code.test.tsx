import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { CheckDiscountResponse, Order } from '@pixel-vault/shared';
import { jsonResponse } from '../../test/fetch';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { initialCartState, updateQty, type PaymentMethod } from '../../app/cartSlice';
import AccountMenu from '../../app/layout/AccountMenu';
import { makeOrder } from '../../test/orders';
import PlaceOrderPage from './PlaceOrderPage';
import { fakeShop } from './test-server';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Issue 32 (decision 009): a discount code at checkout, checked by the server, sent with the order.

const ADDRESS = { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' };

/** Tetris, $45.20: 10% off is $4.52, tax 15% of $40.68 = $6.10, shipping $7.99 -> $54.77. */
const RETRO10: CheckDiscountResponse = {
  code: 'RETRO10',
  kind: 'percentage',
  description: '10% off puzzles',
  price: 45.2,
  discountPrice: 4.52,
  shippingPrice: 7.99,
  taxPrice: 6.1,
  totalPrice: 54.77,
};

const discounted = (overrides: Partial<Order> = {}) =>
  makeOrder({
    discountCode: 'RETRO10',
    discountPrice: 4.52,
    taxPrice: 6.1,
    totalPrice: 54.77,
    amountDue: 54.77,
    ...overrides,
  });

const MIN_SUBTOTAL = {
  message: 'Spend $25.00 on puzzles to use this code',
  code: 'DISCOUNT_CODE_MIN_SUBTOTAL',
};

/** The server's check: RETRO10 is accepted, any other code is unknown. */
function checkCode(body: unknown): Response {
  const { code } = body as { code: string };
  return code === 'RETRO10'
    ? jsonResponse(RETRO10)
    : jsonResponse({ message: 'This code is not valid', code: 'DISCOUNT_CODE_UNKNOWN' }, 400);
}

const item = () => makeCartItem({ name: 'Tetris', price: 45.2, qty: 1, countInStock: 5, variant: 'v-boxed' });

function renderCheckout({
  paymentMethod = 'paypal' as PaymentMethod,
  discountCode,
}: { paymentMethod?: PaymentMethod; discountCode?: string } = {}) {
  const line = item();
  const rendered = renderWithProviders(
    <>
      <AccountMenu name="Ada Lovelace" isAdmin={false} />
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
          cartItems: [line],
          shippingAddress: ADDRESS,
          paymentMethod,
          ...(discountCode && { discountCode }),
        },
      },
    },
  );
  return { ...rendered, line };
}

const location = () => screen.getByTestId('location').textContent;

/** What the summary shows against `label`, or null without that line. */
function total(label: string): string | null {
  const totals = within(screen.getByLabelText('Totals'));
  return totals.queryByText(label)?.nextSibling?.textContent ?? null;
}

/** The discount box's own status line (the page has others). */
const discountStatus = () =>
  within(screen.getByRole('region', { name: 'Discount Code' })).getByRole('status');

async function applyCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.type(screen.getByLabelText('Discount code'), `${code}{Enter}`);
}

async function toPayment(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  await screen.findByRole('button', { name: 'Back to Shipping Address' });
}

const bodyOf = (c: { body: unknown }) =>
  c.body as { discountCode?: string; replacesOrderId?: string; orderItems: unknown[] };

describe('checkout: applying a discount code', () => {
  it("checks the typed code for the cart's lines on Enter and shows the discount, the lower total and a status", async () => {
    const user = userEvent.setup();
    let answer = () => undefined as void;
    const shop = fakeShop({
      overrides: {
        'POST /api/promotions/check': (body) =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(checkCode(body));
          }),
      },
    });
    const { line, store } = renderCheckout();
    expect(total('Total')).toBe('$59.97');

    await applyCode(user, 'retro10');
    const applying = await screen.findByRole('button', { name: 'Applying…' });
    expect(applying).toBeDisabled();
    // Sent as the order sends its lines (with the tier), the code upper-cased.
    expect(shop.calls('POST', '/api/promotions/check').map((c) => c.body)).toEqual([
      { code: 'RETRO10', orderItems: [{ product: line.product, variant: 'v-boxed', itemQuantity: 1 }] },
    ]);
    act(() => answer());

    await waitFor(() => expect(discountStatus()).toHaveTextContent('RETRO10 applied: 10% off puzzles'));
    expect(total('Discount (RETRO10)')).toBe('−$4.52');
    expect(total('Items')).toBe('$45.20');
    expect(total('Tax')).toBe('$6.10');
    expect(total('Total')).toBe('$54.77');
    expect(screen.queryByLabelText('Discount code')).not.toBeInTheDocument();
    // The keyboard lands on the applied code's Remove.
    expect(screen.getByRole('button', { name: 'Remove discount code RETRO10' })).toHaveFocus();
    expect(store.getState().cart.discountCode).toBe('RETRO10');
    // Nothing is placed just to check a code.
    expect(shop.calls('POST', '/api/orders')).toHaveLength(0);
  });

  it("shows the server's refusal beside the field, as it is, and keeps no code", async () => {
    const user = userEvent.setup();
    fakeShop({
      overrides: { 'POST /api/promotions/check': () => jsonResponse(MIN_SUBTOTAL, 400) },
    });
    const { store } = renderCheckout();
    await applyCode(user, 'PUZZLE25');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Spend \$25\.00 on puzzles to use this code$/);
    const field = screen.getByLabelText('Discount code');
    expect(field).toHaveAccessibleDescription('Spend $25.00 on puzzles to use this code');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();
    expect(total('Total')).toBe('$59.97');
    expect(screen.queryByText(/^Discount \(/)).not.toBeInTheDocument();
    expect(store.getState().cart.discountCode).toBeUndefined();
  });

  it('refuses a code of the wrong shape without asking the server', async () => {
    const user = userEvent.setup();
    const shop = fakeShop();
    renderCheckout();
    await applyCode(user, 'A!');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A discount code is 3 to 32 letters, digits, - or _',
    );
    expect(shop.calls('POST', '/api/promotions/check')).toHaveLength(0);
  });

  it('sends the applied code as discountCode when the order is placed, and the summary follows the order', async () => {
    const user = userEvent.setup();
    // The server's own figures (a cent apart from the check's): the order's are what is charged.
    const order = discounted({ taxPrice: 6.11, totalPrice: 54.78, amountDue: 54.78 });
    const shop = fakeShop({
      orders: [order],
      overrides: {
        'POST /api/promotions/check': checkCode,
        [`POST /api/orders/${order._id}/paypal/capture`]: () => jsonResponse({ message: 'Declined' }, 402),
      },
    });
    renderCheckout();
    await applyCode(user, 'RETRO10');
    await screen.findByText('Discount (RETRO10)');
    expect(total('Total')).toBe('$54.77');
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Declined');

    const placed = shop.calls('POST', '/api/orders');
    expect(placed.map((c) => bodyOf(c).discountCode)).toEqual(['RETRO10']);
    expect(total('Discount (RETRO10)')).toBe('−$4.52');
    expect(total('Total')).toBe('$54.78');
  });

  it('leaves discountCode out of an order placed without a code', async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = fakeShop({ orders: [order] });
    renderCheckout();
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${order._id}`));
    expect(bodyOf(shop.calls('POST', '/api/orders')[0]!)).not.toHaveProperty('discountCode');
  });

  it("prices the gift card's share from the discounted total", async () => {
    const user = userEvent.setup();
    const order = discounted();
    const shop = fakeShop({
      orders: [order],
      balance: 25,
      overrides: { 'POST /api/promotions/check': checkCode },
    });
    renderCheckout({ paymentMethod: 'gift' });
    await applyCode(user, 'RETRO10');
    await screen.findByText('Discount (RETRO10)');
    await toPayment(user);
    await user.type(screen.getByLabelText('Gift card code'), 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    const amounts = within(await screen.findByLabelText('Gift card amounts'));
    // Before the order exists, the check's total: $54.77 - $25.00.
    expect(amounts.getByText('Remainder').nextElementSibling).toHaveTextContent('$29.77');

    await user.click(screen.getByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByText('Gift card applied to your order.')).toBeInTheDocument();
    expect(shop.calls('POST', '/api/giftcards/use').map((c) => c.body)).toEqual([
      { code: 'GOOD', amount: 25, orderId: order._id },
    ]);
    expect(amounts.getByText('Remainder').nextElementSibling).toHaveTextContent('$29.77');
    expect(bodyOf(shop.calls('POST', '/api/orders')[0]!).discountCode).toBe('RETRO10');
  });
});

describe('checkout: a code applied or removed once the order exists', () => {
  it('can no longer be removed once a gift card paid the whole order', async () => {
    const user = userEvent.setup();
    fakeShop({
      orders: [discounted()],
      balance: 100,
      overrides: { 'POST /api/promotions/check': checkCode },
    });
    renderCheckout({ paymentMethod: 'gift' });
    await applyCode(user, 'RETRO10');
    const remove = await screen.findByRole('button', { name: 'Remove discount code RETRO10' });
    expect(remove).toBeEnabled();
    await toPayment(user);
    await user.type(screen.getByLabelText('Gift card code'), 'GOOD');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    await user.click(await screen.findByRole('button', { name: 'Apply Gift Card' }));
    expect(await screen.findByRole('button', { name: 'Place Order' })).toBeEnabled();
    await waitFor(() => expect(remove).toBeDisabled());
  });

  it('cannot be changed while a payment is under way, and can again once it failed', async () => {
    const user = userEvent.setup();
    let answerCapture: (response: Response) => void = () => {};
    fakeShop({
      orders: [discounted()],
      overrides: {
        'POST /api/promotions/check': checkCode,
      },
    });
    // The demo capture is held open: the payment is under way until the test answers it.
    const held = new Promise<Response>((resolve) => (answerCapture = resolve));
    vi.stubGlobal(
      'fetch',
      ((original: typeof fetch) => async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
        if (url.pathname.endsWith('/paypal/capture')) return held;
        return original(input, init);
      })(globalThis.fetch),
    );
    renderCheckout();
    await applyCode(user, 'RETRO10');
    const remove = await screen.findByRole('button', { name: 'Remove discount code RETRO10' });
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: /Demo payment/ }));
    await waitFor(() => expect(remove).toBeDisabled());
    await act(async () => answerCapture(jsonResponse({ message: 'The payment was declined' }, 402)));
    await waitFor(() => expect(remove).toBeEnabled());
  });

  it('places the order again with the code, replacing the one without it; Remove places it again without', async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    const second = discounted();
    const third = makeOrder();
    const shop = fakeShop({
      orders: [first, second, third],
      overrides: {
        'POST /api/promotions/check': checkCode,
        [`POST /api/orders/${first._id}/paypal/capture`]: () => jsonResponse({ message: 'Declined' }, 402),
      },
    });
    const { store } = renderCheckout();
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Declined');
    expect(shop.calls('POST', '/api/orders')).toHaveLength(1);

    await applyCode(user, 'RETRO10');
    await waitFor(() => expect(discountStatus()).toHaveTextContent('RETRO10 applied: 10% off puzzles'));
    await waitFor(() => expect(shop.calls('POST', '/api/orders')).toHaveLength(2));
    const again = bodyOf(shop.calls('POST', '/api/orders')[1]!);
    expect(again).toMatchObject({ discountCode: 'RETRO10', replacesOrderId: first._id });
    expect(total('Discount (RETRO10)')).toBe('−$4.52');
    expect(total('Total')).toBe('$54.77');

    await user.click(screen.getByRole('button', { name: 'Remove discount code RETRO10' }));
    await waitFor(() => expect(shop.calls('POST', '/api/orders')).toHaveLength(3));
    const without = bodyOf(shop.calls('POST', '/api/orders')[2]!);
    expect(without.replacesOrderId).toBe(second._id);
    expect(without).not.toHaveProperty('discountCode');
    expect(await screen.findByLabelText('Discount code')).toHaveFocus();
    expect(discountStatus()).toHaveTextContent('RETRO10 removed.');
    expect(screen.queryByText(/^Discount \(/)).not.toBeInTheDocument();
    expect(total('Total')).toBe('$59.97');
    expect(store.getState().cart.discountCode).toBeUndefined();

    // The last order, without the code, is the one paid.
    await user.click(screen.getByRole('button', { name: 'Demo payment — no money moves' }));
    await waitFor(() => expect(location()).toBe(`/order-confirmation/${third._id}`));
  });

  it("keeps the code off when placing the order again with it is refused, showing the server's message", async () => {
    const user = userEvent.setup();
    const first = makeOrder();
    let placed = 0;
    const shop = fakeShop({
      orders: [first],
      overrides: {
        'POST /api/promotions/check': checkCode,
        [`POST /api/orders/${first._id}/paypal/capture`]: () => jsonResponse({ message: 'Declined' }, 402),
        'POST /api/orders': () =>
          placed++ === 0
            ? undefined
            : jsonResponse({ message: 'This code has been used up', code: 'DISCOUNT_CODE_USED_UP' }, 409),
      },
    });
    const { store } = renderCheckout();
    await toPayment(user);
    await user.click(await screen.findByRole('button', { name: 'Demo payment — no money moves' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Declined');

    await applyCode(user, 'RETRO10');
    await waitFor(() =>
      expect(screen.getByText('This code has been used up', { exact: true })).toBeInTheDocument(),
    );
    expect(store.getState().cart.discountCode).toBeUndefined();
    expect(screen.getByLabelText('Discount code')).toBeInTheDocument();
    expect(total('Total')).toBe('$59.97');
    expect(shop.calls('POST', '/api/orders')).toHaveLength(2);
  });
});

describe('checkout: the applied code kept with the cart', () => {
  it('is priced again after a reload, without typing it again', async () => {
    const shop = fakeShop({ overrides: { 'POST /api/promotions/check': checkCode } });
    renderCheckout({ discountCode: 'RETRO10' });
    expect(await screen.findByText('Discount (RETRO10)')).toBeInTheDocument();
    expect(total('Total')).toBe('$54.77');
    expect(discountStatus()).toHaveTextContent('RETRO10 applied: 10% off puzzles');
    expect(shop.calls('POST', '/api/promotions/check')).toHaveLength(1);
  });

  it("is checked again when the cart changes, and the server's refusal is shown", async () => {
    const shop = fakeShop({
      overrides: {
        'POST /api/promotions/check': (body) =>
          (body as { orderItems: { itemQuantity: number }[] }).orderItems[0]?.itemQuantity === 1
            ? checkCode(body)
            : jsonResponse(MIN_SUBTOTAL, 400),
      },
    });
    const { store, line } = renderCheckout({ discountCode: 'RETRO10' });
    expect(await screen.findByText('Discount (RETRO10)')).toBeInTheDocument();

    act(() => {
      store.dispatch(updateQty({ product: line.product, variant: line.variant, qty: 2 }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Spend $25.00 on puzzles to use this code');
    expect(screen.queryByText('Discount (RETRO10)')).not.toBeInTheDocument();
    expect(total('Total')).toBe('$111.95');
    expect(shop.calls('POST', '/api/promotions/check')).toHaveLength(2);
    // Still applied: Remove takes it off, or the cart can change back.
    expect(screen.getByRole('button', { name: 'Remove discount code RETRO10' })).toBeInTheDocument();
  });

  it('is forgotten on Sign Out, like the address', async () => {
    const user = userEvent.setup();
    fakeShop({ overrides: { 'POST /api/promotions/check': checkCode } });
    const { store } = renderCheckout({ discountCode: 'RETRO10' });
    expect(await screen.findByText('Discount (RETRO10)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(store.getState().auth.userInfo).toBeNull();
    expect(store.getState().cart.discountCode).toBeUndefined();
    expect(store.getState().cart.shippingAddress).toBeNull();
    expect(store.getState().cart.cartItems).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { jsonResponse } from '../../test/fetch';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { initialCartState } from '../../app/cartSlice';
import { makeOrder } from '../../test/orders';
import PlaceOrderPage from './PlaceOrderPage';
import { fakeShop } from './test-server';

interface FakeButtonsProps {
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
  onError: (err: unknown) => void;
  disabled?: boolean;
}

const scriptOptions = vi.hoisted(() => ({ current: null as unknown }));

// PayPal's SDK talks to paypal.com; the buttons are replaced by one that drives the same callbacks
// the real ones would: createOrder, then onApprove with PayPal's order id.
vi.mock('@paypal/react-paypal-js', () => ({
  PayPalScriptProvider: ({ options, children }: { options: unknown; children: ReactNode }) => {
    scriptOptions.current = options;
    return children;
  },
  PayPalButtons: (props: FakeButtonsProps) => (
    <button
      type="button"
      disabled={props.disabled}
      onClick={async () => {
        try {
          const id = await props.createOrder();
          await props.onApprove({ orderID: id });
        } catch (err) {
          props.onError(err);
        }
      }}
    >
      PayPal (fake)
    </button>
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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
        auth: { userInfo: makeUser() },
        cart: {
          ...initialCartState,
          cartItems: [makeCartItem({ price: 45.2 })],
          shippingAddress: { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' },
        },
      },
    },
  );
}

describe('checkout with PayPal credentials', () => {
  it("loads PayPal's buttons with the server's client id; createOrder and onApprove call our endpoints", async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    const shop = fakeShop({ orders: [order], mode: 'paypal' });
    const { store } = renderCheckout();
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await user.click(await screen.findByRole('button', { name: 'PayPal (fake)' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/order-confirmation/${order._id}`),
    );
    expect(scriptOptions.current).toEqual({ clientId: 'test-client-id', currency: 'USD', intent: 'capture' });
    expect(screen.queryByRole('button', { name: 'Demo payment — no money moves' })).not.toBeInTheDocument();
    expect(shop.calls('POST', `/api/orders/${order._id}/paypal`)).toHaveLength(1);
    expect(shop.calls('POST', `/api/orders/${order._id}/paypal/capture`)[0]!.body).toEqual({
      paypalOrderId: `PAYPAL-${order._id.slice(-4)}`,
    });
    expect(store.getState().cart.cartItems).toEqual([]);
  });

  it("shows our server's message when creating the PayPal order fails", async () => {
    const user = userEvent.setup();
    const order = makeOrder();
    fakeShop({
      orders: [order],
      mode: 'paypal',
      overrides: {
        [`POST /api/orders/${order._id}/paypal`]: () =>
          jsonResponse({ message: 'PayPal is unreachable' }, 502),
      },
    });
    renderCheckout();
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await user.click(await screen.findByRole('button', { name: 'PayPal (fake)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error: PayPal is unreachable$/);
    expect(screen.getByTestId('location')).toHaveTextContent('/place-order');
  });
});

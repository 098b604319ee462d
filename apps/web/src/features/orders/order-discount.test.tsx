import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Order } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { makeOrder, paid } from '../../test/orders';
import OrderConfirmationPage from './OrderConfirmationPage';
import { OrderDetailScreen } from './OrderDetailScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Issue 32: an order placed with a discount code shows it among its totals; `price` stays the
// subtotal before it and `totalPrice` is after it.

function serve(order: Order) {
  stubFetch((_req, url) =>
    url.pathname === `/api/orders/${order._id}`
      ? jsonResponse(order)
      : jsonResponse({ message: 'Order not found' }, 404),
  );
}

function renderAt(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/order/:orderId" element={<OrderDetailScreen back={{ to: '/', label: 'Back' }} />} />
      <Route path="/order-confirmation/:orderId" element={<OrderConfirmationPage />} />
    </Routes>,
    { route, preloadedState: { auth: { userInfo: makeUser() } } },
  );
}

const factOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

/** Tetris, $45.20, with RETRO10: −$4.52, tax $6.10, shipping $7.99, total $54.77. */
const withCode = () =>
  paid(makeOrder({ discountCode: 'RETRO10', discountPrice: 4.52, taxPrice: 6.1, totalPrice: 54.77 }));

describe.each([
  ['the order detail', (id: string) => `/order/${id}`],
  ['the confirmation', (id: string) => `/order-confirmation/${id}`],
])('%s of an order with a discount code', (_page, path) => {
  it('shows the discount line after the items total, and the total after it', async () => {
    const order = withCode();
    serve(order);
    renderAt(path(order._id));
    expect(await screen.findByText('Discount (RETRO10)', { selector: 'dt' })).toBeInTheDocument();
    expect(factOf('Discount (RETRO10)')).toHaveTextContent(/^−\$4\.52$/);
    expect(factOf('Items Total')).toHaveTextContent('$45.20');
    expect(factOf('Tax Price')).toHaveTextContent('$6.10');
    expect(factOf('Total Price')).toHaveTextContent('$54.77');
    // Items Total, then the discount, then shipping.
    const labels = screen.getAllByText(/./, { selector: 'dt' }).map((dt) => dt.textContent);
    const at = labels.indexOf('Discount (RETRO10)');
    expect(labels[at - 1]).toBe('Items Total');
    expect(labels[at + 1]).toBe('Shipping Price');
  });

  it("names a free-shipping code with 'Free shipping'", async () => {
    const order = paid(
      makeOrder({ discountCode: 'SHIPFREE', discountPrice: 0, shippingPrice: 0, totalPrice: 51.98 }),
    );
    serve(order);
    renderAt(path(order._id));
    expect(await screen.findByText('Discount (SHIPFREE)', { selector: 'dt' })).toBeInTheDocument();
    expect(factOf('Discount (SHIPFREE)')).toHaveTextContent(/^Free shipping$/);
    expect(factOf('Shipping Price')).toHaveTextContent('$0.00');
  });

  it('shows no discount line for an order without a code', async () => {
    const order = paid(makeOrder());
    serve(order);
    renderAt(path(order._id));
    expect(await screen.findByText('Total Price', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.queryByText(/^Discount/, { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Free shipping/)).not.toBeInTheDocument();
    expect(factOf('Total Price')).toHaveTextContent('$59.97');
  });
});

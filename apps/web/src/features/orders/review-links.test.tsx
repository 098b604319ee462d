import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { ORDER_STATUSES, type Order } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import AdminOrderPage from '../../app/pages/AdminOrderPage';
import OrderDetailPage from '../../app/pages/OrderDetailPage';
import { canReviewItems, reviewPath } from './reviewLink';
import { makeOrder, makeOrderItem, paid } from '../../test/orders';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderOrder(order: Order, route = `/order/${order._id}`) {
  stubFetch((_req, url) =>
    url.pathname === `/api/orders/${order._id}`
      ? jsonResponse(order)
      : jsonResponse({ message: 'Not found' }, 404),
  );
  return renderWithProviders(
    <Routes>
      <Route path="/order/:orderId" element={<OrderDetailPage />} />
      <Route path="/admin/order/:orderId" element={<AdminOrderPage />} />
    </Routes>,
    { route, preloadedState: { auth: { userInfo: makeUser({ isAdmin: route.startsWith('/admin') }) } } },
  );
}

const twoItems = () => [
  makeOrderItem({ itemName: 'Tetris', product: '00000000-0000-4000-9000-00000000aaaa' }),
  makeOrderItem({ itemName: 'Catan', product: '00000000-0000-4000-9000-00000000bbbb' }),
];

describe('"Review this product" on an order (issue 14)', () => {
  it('is offered for paid and delivered orders only', () => {
    const offered = ORDER_STATUSES.filter((status) => canReviewItems({ status }));
    expect(offered).toEqual(['paid', 'delivered']);
  });

  it("links each item of the customer's paid order to its product page's review form", async () => {
    const order = paid(makeOrder({ orderItems: twoItems() }));
    renderOrder(order);
    const items = await screen.findByRole('list', { name: 'Order items' });
    const links = within(items).getAllByRole('link', { name: /^Review this product/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/product/00000000-0000-4000-9000-00000000aaaa#write-review',
      '/product/00000000-0000-4000-9000-00000000bbbb#write-review',
    ]);
    expect(links[0]).toHaveAccessibleName('Review this product: Tetris');
    expect(reviewPath('a b')).toBe('/product/a%20b#write-review');
  });

  it('is on a delivered order too', async () => {
    renderOrder(paid(makeOrder(), { status: 'delivered', isDelivered: true }));
    expect(await screen.findByRole('link', { name: /^Review this product/ })).toBeInTheDocument();
  });

  it('is not on an unpaid, cancelled, refunded or expired order', async () => {
    const orders = [
      makeOrder(),
      paid(makeOrder(), { status: 'cancelled' }),
      paid(makeOrder(), { status: 'refunded' }),
      makeOrder({ status: 'expired', expiresAt: null }),
    ];
    for (const order of orders) {
      const { unmount } = renderOrder(order);
      expect(await screen.findByText(order._id, { selector: 'dd' })).toBeInTheDocument();
      expect(
        screen.queryByRole('link', { name: /Review this product/ }),
        order.status,
      ).not.toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it("is not on the admin's view of a paid order", async () => {
    const order = paid(makeOrder());
    renderOrder(order, `/admin/order/${order._id}`);
    expect(await screen.findByText(order._id, { selector: 'dd' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Review this product/ })).not.toBeInTheDocument();
  });
});

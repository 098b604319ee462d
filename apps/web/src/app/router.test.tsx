import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { logout } from '../features/account/authSlice';
import { makeProductList } from '../test/factories';
import { jsonResponse, stubFetch } from '../test/fetch';
import { LocationProbe } from '../test/LocationProbe';
import { renderWithProviders } from '../test/render';
import { makeUser } from '../test/users';
import { AppRoutes } from './router';

beforeEach(() => {
  stubFetch(() => jsonResponse(makeProductList([])));
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(route: string, user: ReturnType<typeof makeUser> | null = null) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route, preloadedState: { auth: { userInfo: user } } },
  );
}

const location = () => screen.getByTestId('location').textContent;

describe('routes (spec section 2)', () => {
  it('shows the home page with header, footer and a skip link', async () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Level up your collection' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shop Now' })).toHaveAttribute('href', '/shop/retro-games');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2024 All rights reserved');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(document.getElementById('main')).toBeInTheDocument();
    await waitFor(() =>
      expect(document.title).toBe('Pixel Vault — retro games, board games, puzzles & consoles'),
    );
  });

  it('serves the home page at /shop/home too', () => {
    renderAt('/shop/home');
    expect(screen.getByRole('heading', { name: 'A few of our Favorites' })).toBeInTheDocument();
  });

  it('sends unknown paths and unknown categories to /', () => {
    renderAt('/no/such/page');
    expect(location()).toBe('/');
  });

  it('sends an unknown category to /', async () => {
    renderAt('/shop/toasters');
    // The category page's code loads on demand (issue 10): the redirect follows.
    await waitFor(() => expect(location()).toBe('/'));
  });

  it('sends a visitor who opens checkout to /login, to come back after logging in', async () => {
    renderAt('/place-order');
    expect(location()).toBe('/login?redirect=%2Fplace-order');
  });

  it.each([
    '/order-history',
    '/order/abc',
    '/order-confirmation/abc',
    '/account',
    '/tradeins',
    '/tradeins/abc',
  ])('requires login for %s', (path) => {
    renderAt(path);
    expect(location()).toMatch(/^\/login\?redirect=/);
  });

  it('shows checkout to a logged-in shopper', async () => {
    renderAt('/place-order', makeUser());
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    // The lazy page sets its title in an effect that can run after its heading shows.
    await waitFor(() => expect(document.title).toBe('Checkout — Pixel Vault'));
  });

  it('sends a shopper who signs out at checkout home, and one whose session the server ended to /login', async () => {
    const signedOut = renderAt('/place-order', makeUser());
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    act(() => signedOut.store.dispatch(logout()));
    await waitFor(() => expect(location()).toBe('/'));
    signedOut.unmount();

    const ended = renderAt('/place-order', makeUser());
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    act(() => ended.store.dispatch(logout('SESSION_ENDED')));
    await waitFor(() => expect(location()).toMatch(/^\/login\?redirect=%2Fplace-order/));
  });

  it('sends a non-admin away from the dashboard to /', () => {
    renderAt('/admin/dashboard', makeUser({ isAdmin: false }));
    expect(location()).toBe('/');
  });

  it('shows the dashboard to an admin', async () => {
    // Issue 15: the dashboard opens on the Overview, which asks for the shop's numbers.
    stubFetch((_request, url) =>
      url.pathname === '/api/admin/stats'
        ? jsonResponse({ message: 'Not found' }, 404)
        : jsonResponse(makeProductList([])),
    );
    renderAt('/admin/dashboard', makeUser({ isAdmin: true }));
    // The dashboard's chunk is the largest lazy page: its first load here can take over a second.
    expect(
      await screen.findByRole('heading', { name: 'Admin Dashboard' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('serves the password pages of issue 11 to visitors, and My Account to a logged-in shopper', async () => {
    const { unmount } = renderAt('/forgot-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot Password' })).toBeInTheDocument();
    unmount();

    const reset = renderAt('/reset-password/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde');
    expect(await screen.findByLabelText('Confirm New Password')).toBeInTheDocument();
    reset.unmount();

    renderAt('/account', makeUser());
    expect(await screen.findByRole('heading', { level: 1, name: 'My Account' })).toBeInTheDocument();
    expect(location()).toBe('/account');
  });

  it('shows the cart page', async () => {
    renderAt('/cart');
    expect(await screen.findByRole('heading', { level: 1, name: 'Shopping cart' })).toBeInTheDocument();
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
  });
});

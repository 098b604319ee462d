import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeCartItem } from '../../test/factories';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { initialCartState, type CartItem } from '../cartSlice';
import { Header } from './Header';

function renderHeader({ user = null as ReturnType<typeof makeUser> | null, items = [] as CartItem[] } = {}) {
  return renderWithProviders(
    <>
      <Header />
      <LocationProbe />
    </>,
    {
      route: '/shop/puzzles',
      preloadedState: { auth: { userInfo: user }, cart: { ...initialCartState, cartItems: items } },
    },
  );
}

function setScrollY(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  fireEvent.scroll(window);
}

describe('Header', () => {
  it('links the brand to / and each category to /shop/{label lowercased, hyphenated}', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Pixel Vault home' })).toHaveAttribute('href', '/');
    const nav = screen.getAllByRole('navigation', { name: 'Categories' })[0]!;
    const hrefs = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Home', '/shop/home'],
      ['Board Games', '/shop/board-games'],
      ['Retro Games', '/shop/retro-games'],
      ['Puzzles', '/shop/puzzles'],
      ['Consoles', '/shop/consoles'],
    ]);
    expect(screen.getAllByRole('link', { name: 'Puzzles' })[0]).toHaveAttribute('aria-current', 'page');
  });

  it('shows a Login link and no account menu when logged out', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: /Ada/ })).not.toBeInTheDocument();
  });

  it('opens the account menu with My Account, My Orders and Sign Out, but no Admin Portal for a shopper', async () => {
    const user = userEvent.setup();
    renderHeader({ user: makeUser({ name: 'Ada Lovelace' }) });
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    const button = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'My Account' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('link', { name: 'My Orders' })).toHaveAttribute('href', '/order-history');
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin Portal' })).not.toBeInTheDocument();
  });

  it('shows Admin Portal to an admin', async () => {
    const user = userEvent.setup();
    renderHeader({ user: makeUser({ name: 'Root', isAdmin: true }) });
    await user.click(await screen.findByRole('button', { name: /Root/ }));
    expect(screen.getByRole('link', { name: 'Admin Portal' })).toHaveAttribute('href', '/admin/dashboard');
  });

  it('closes the account menu on Escape (focus back on its button) and on an outside click', async () => {
    const user = userEvent.setup();
    renderHeader({ user: makeUser() });
    const button = await screen.findByRole('button', { name: /Ada/ });
    await user.click(button);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'My Orders' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(screen.getByTestId('location'));
    expect(screen.queryByRole('link', { name: 'My Orders' })).not.toBeInTheDocument();
  });

  it('signs out: forgets the user and goes to /', async () => {
    const user = userEvent.setup();
    const { store } = renderHeader({ user: makeUser() });
    await user.click(await screen.findByRole('button', { name: /Ada/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(store.getState().auth.userInfo).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('shows no badge for an empty cart', () => {
    renderHeader();
    expect(screen.getByRole('button', { name: 'Open cart, 0 items' })).toBeInTheDocument();
    expect(screen.queryByTestId('cart-badge')).not.toBeInTheDocument();
  });

  it('badges the cart with the total quantity and opens the panel', async () => {
    const user = userEvent.setup();
    const { store } = renderHeader({ items: [makeCartItem({ qty: 2 }), makeCartItem({ qty: 3 })] });
    const cart = screen.getByRole('button', { name: 'Open cart, 5 items' });
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('5');
    await user.click(cart);
    expect(store.getState().cartPanel.isOpen).toBe(true);
  });

  it('collapses the categories into a toggle on phones', async () => {
    const user = userEvent.setup();
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Browse categories' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!);
    expect(menu).not.toBeNull();
    await user.click(menu!.querySelector('a[href="/shop/consoles"]')!);
    expect(screen.getByTestId('location')).toHaveTextContent('/shop/consoles');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('hides when scrolling down past 100 px and shows again when scrolling up', async () => {
    renderHeader();
    const header = screen.getByRole('banner');
    act(() => setScrollY(80));
    await new Promise((r) => requestAnimationFrame(r));
    expect(header).not.toHaveClass('-translate-y-full');
    act(() => setScrollY(400));
    await waitFor(() => expect(header).toHaveClass('-translate-y-full'));
    act(() => setScrollY(300));
    await waitFor(() => expect(header).not.toHaveClass('-translate-y-full'));
    setScrollY(0);
  });
});

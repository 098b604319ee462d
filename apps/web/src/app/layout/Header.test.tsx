import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { makeCartItem } from '../../test/factories';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { makeOrder } from '../../test/orders';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { initialCartState, type CartItem } from '../cartSlice';
import { ordersApi } from '../ordersApi';
import { startPersistence } from '../persist';
import { makeStore } from '../store';
import { Header, firstNameOf } from './Header';
import { initialOf } from './AccountMenu';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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

  it('signs out: forgets the user, their address, payment method and cached orders, in the store and in persist:root; the cart items stay (issue 30)', async () => {
    const user = userEvent.setup();
    const ada = makeUser({ name: 'Ada Lovelace', email: 'ada@example.com', token: 'ada.secret.token' });
    const address = { address: '12 Engine Row', city: 'London', postalCode: 'W1', country: 'UK' };
    const item = makeCartItem({ name: 'Tetris', qty: 2 });
    stubFetch(() => jsonResponse([makeOrder({ shippingAddress: address })]));
    const store = makeStore({
      auth: { userInfo: ada },
      cart: { cartItems: [item], shippingAddress: address, paymentMethod: 'gift' },
    });
    const persistor = await startPersistence(store);
    await store.dispatch(ordersApi.endpoints.getMyOrders.initiate());
    await persistor.flush();
    expect(localStorage.getItem('persist:root')).toContain('12 Engine Row');
    expect(Object.keys(store.getState().api.queries)).not.toEqual([]);

    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/order-history']}>
          <Header />
          <LocationProbe />
        </MemoryRouter>
      </Provider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));

    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    const state = store.getState();
    expect(state.auth.userInfo).toBeNull();
    expect(state.cart).toEqual({ cartItems: [item], shippingAddress: null, paymentMethod: 'paypal' });
    expect(state.api.queries).toEqual({});
    await persistor.flush();
    const stored = localStorage.getItem('persist:root')!;
    for (const personal of [
      'Ada',
      'ada@example.com',
      'ada.secret.token',
      '12 Engine Row',
      'London',
      'gift',
    ]) {
      expect(stored).not.toContain(personal);
    }
    expect(JSON.parse(JSON.parse(stored).cart as string).cartItems).toEqual([item]);
    expect(screen.getByRole('button', { name: 'Open cart, 2 items' })).toBeInTheDocument();
    persistor.pause();
  });

  it('shows the first name, with the full name as the accessible name (issue 30)', async () => {
    // On a phone the header used to cut this one to "Tes…".
    renderHeader({ user: makeUser({ name: 'Test User' }) });
    const button = await screen.findByRole('button', { name: 'Test User' });
    expect(screen.getByTestId('account-name')).toHaveTextContent(/^Test$/);
    expect(button).toHaveAttribute('title', 'Test User');
  });

  it('shows the initial, never a cut word, where the first name does not fit; the first name again once there is room', async () => {
    // jsdom has no layout: 10 px a letter, in a name slot that is 60 px wide until the window grows.
    let room = 60;
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return (this.textContent ?? '').length * 10;
    });
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return Math.min((this.textContent ?? '').length * 10, room);
    });
    renderHeader({ user: makeUser({ name: 'Maximiliana Featherstonehaugh' }) });
    const button = await screen.findByRole('button', { name: 'Maximiliana Featherstonehaugh' });
    expect(screen.getByTestId('account-name')).toHaveTextContent(/^M$/);
    room = 200;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.getByTestId('account-name')).toHaveTextContent(/^Maximiliana$/);
    expect(button).toHaveAccessibleName('Maximiliana Featherstonehaugh');
  });

  it('takes the first word of the name, and its initial as a whole, capital letter', () => {
    expect(firstNameOf('  Ada   Lovelace ')).toBe('Ada');
    expect(initialOf('ada')).toBe('A');
    expect(initialOf('Élodie')).toBe('É');
    expect(initialOf('\u{1F47E}bot')).toBe('\u{1F47E}');
  });

  it("holds the shop's search: a combobox in a GET form to /search, behind an icon on phones (issue 33)", async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse([]));
    renderHeader();
    const form = screen.getByRole('search', { name: 'Shop' });
    expect(form).toHaveAttribute('action', '/search');
    expect(form).toHaveAttribute('method', 'get');
    const input = within(form).getByRole('combobox', { name: 'Search the shop' });
    expect(input).toHaveAttribute('name', 'q');
    // On a phone the icon opens the box; the search it sends is another page, which closes it.
    const toggle = screen.getByRole('button', { name: 'Search the shop' });
    await user.click(toggle);
    expect(input).toHaveFocus();
    await user.type(input, 'zelda{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/search?q=zelda');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it("leaves the phone menu open when an Escape is the search box's (issue 33)", async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse([]));
    renderHeader();
    const menu = screen.getByRole('button', { name: 'Browse categories' });
    await user.click(menu);
    await user.click(screen.getByRole('button', { name: 'Search the shop' }));
    await user.keyboard('zelda{Escape}');
    expect(screen.getByRole('combobox', { name: 'Search the shop' })).toHaveValue('');
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    // With nothing left for the box, Escape closes it; the menu's own Escape still works from its button.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Search the shop' })).toHaveFocus();
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
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

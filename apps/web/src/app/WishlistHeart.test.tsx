import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { loggedIn, logout } from '../features/account/authSlice';
import { LocationProbe } from '../test/LocationProbe';
import { jsonResponse, stubFetch } from '../test/fetch';
import { renderWithProviders } from '../test/render';
import { makeUser } from '../test/users';
import { WishlistHeart } from './WishlistHeart';
import { wishlistLoaded, wishlistMarked, wishlistSlice } from './wishlistSlice';

const item = (product: string) => ({
  product,
  name: 'Tetris',
  image: '',
  price: 10,
  countInStock: 3,
  category: 'puzzles',
  addedAt: '2026-11-27T03:00:00.000Z',
});

describe('wishlist hearts’ state', () => {
  it('marks and unmarks a product at once, and forgets the list when the session changes', () => {
    let state = wishlistSlice.reducer(undefined, { type: 'init' });
    expect(state.ids).toBeNull();
    state = wishlistSlice.reducer(state, wishlistLoaded(['a']));
    state = wishlistSlice.reducer(state, wishlistMarked({ product: 'b', on: true }));
    expect(state.ids).toEqual(['b', 'a']);
    expect(wishlistSlice.reducer(state, wishlistMarked({ product: 'b', on: true }))).toBe(state);
    state = wishlistSlice.reducer(state, wishlistMarked({ product: 'a', on: false }));
    expect(state.ids).toEqual(['b']);
    expect(wishlistSlice.reducer(state, logout()).ids).toBeNull();
    expect(wishlistSlice.reducer(state, loggedIn(makeUser())).ids).toBeNull();
  });
});

describe('WishlistHeart', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes a visitor to the login page, to come back here after it', () => {
    renderWithProviders(
      <Routes>
        <Route path="/shop/puzzles" element={<WishlistHeart productId="p1" productName="Tetris" />} />
        <Route path="*" element={<LocationProbe />} />
      </Routes>,
      { route: '/shop/puzzles' },
    );
    const heart = screen.getByRole('button', { name: 'Add Tetris to wishlist' });
    expect(heart).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(heart);
    expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fshop%2Fpuzzles');
  });

  it('reads the list for a logged-in shopper, and one press puts the product on it', async () => {
    let list = [item('p2')];
    const fetchMock = stubFetch((request, url) => {
      if (url.pathname === '/api/wishlist') return jsonResponse({ items: list });
      if (url.pathname === '/api/wishlist/p1' && request.method === 'PUT') {
        list = [item('p1'), ...list];
        return jsonResponse({ items: list }, 201);
      }
      return jsonResponse({ message: 'Not found' }, 404);
    });
    renderWithProviders(<WishlistHeart productId="p1" productName="Tetris" />, {
      preloadedState: { auth: { userInfo: makeUser() } },
    });
    // The heart's calls load on demand (with the data layer): the first import takes a moment here.
    await waitFor(() => expect(fetchMock).toHaveBeenCalled(), { timeout: 10_000 });
    const heart = screen.getByRole('button', { name: 'Add Tetris to wishlist' });
    fireEvent.click(heart);
    const pressed = await screen.findByRole(
      'button',
      { name: 'Remove Tetris from wishlist' },
      { timeout: 5000 },
    );
    expect(pressed).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([r]) => (r as Request).method === 'PUT')).toBe(true),
    );
  });

  it('puts the heart back and says why when the server refuses', async () => {
    stubFetch((request, url) => {
      if (url.pathname === '/api/wishlist' && request.method === 'GET') return jsonResponse({ items: [] });
      return jsonResponse({ message: 'Your wishlist is full', code: 'WISHLIST_FULL' }, 409);
    });
    renderWithProviders(<WishlistHeart productId="p1" productName="Tetris" />, {
      preloadedState: { auth: { userInfo: makeUser() } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add Tetris to wishlist' }));
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'Your wishlist is full',
    );
    expect(screen.getByRole('button', { name: 'Add Tetris to wishlist' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});

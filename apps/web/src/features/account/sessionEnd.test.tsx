import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import type { SessionEndCode } from '@pixel-vault/shared';
import { Header } from '../../app/layout/Header';
import { RequireAuth } from '../../app/router';
import { initialCartState } from '../../app/cartSlice';
import { useAppSelector } from '../../app/hooks';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { LocationProbe } from '../../test/LocationProbe';
import { renderWithProviders } from '../../test/render';
import { makeCartItem } from '../../test/factories';
import { makeUser } from '../../test/users';
import { useGetProfileQuery } from './api';
import LoginPage from './LoginPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A page that asks the server for something of the logged-in user's, as long as there is one. */
function ProfileProbe() {
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const { data } = useGetProfileQuery(loggedIn ? undefined : skipToken);
  return <p>{data ? `Hello ${data.name}` : 'Loading profile'}</p>;
}

function renderApp(route: string, code: string) {
  const item = makeCartItem();
  // As the server answers: the session's code to the token it ended, a plain refusal without one.
  stubFetch((request, url) =>
    url.pathname === '/api/users/profile'
      ? jsonResponse(
          {
            message: 'Not authorized!',
            code: request.headers.has('authorization') ? code : 'NOT_AUTHORIZED',
          },
          401,
        )
      : jsonResponse({ message: 'No route' }, 404),
  );

  const rendered = renderWithProviders(
    <>
      <Header />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route
          path="/account"
          element={
            <RequireAuth>
              <ProfileProbe />
            </RequireAuth>
          }
        />
        <Route path="*" element={<ProfileProbe />} />
      </Routes>
      <LocationProbe />
    </>,
    {
      route,
      preloadedState: {
        auth: { userInfo: makeUser({ name: 'Ada Lovelace' }) },
        cart: {
          ...initialCartState,
          cartItems: [item],
          shippingAddress: { address: '1 Main St', city: 'Sacramento', postalCode: '95814', country: 'USA' },
          paymentMethod: 'gift',
        },
      },
    },
  );
  return { ...rendered, item };
}

describe('a session the server ended (issue 30)', () => {
  it('an admin deleted the account: the next call logs out, goes to /login and says why, once', async () => {
    const { store, item } = renderApp('/shop/puzzles?q=zelda', 'ACCOUNT_DELETED');

    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(
      'Your account has been closed, so you have been signed out. If you think this is a mistake, please contact us.',
    );
    expect(screen.getByRole('link', { name: 'contact us' })).toHaveAttribute('href', '/contact');
    // Logging in again brings them back where they were.
    expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Fshop%2Fpuzzles%3Fq%3Dzelda');
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();

    const state = store.getState();
    expect(state.auth.userInfo).toBeNull();
    // Said once: the store forgets it (and so does the browser's stored copy), the page keeps showing it.
    await waitFor(() => expect(store.getState().auth.sessionEnded).toBeUndefined());
    expect(screen.getByRole('alert')).toBeInTheDocument();
    // Nothing of theirs stays for the next person; the cart items do.
    expect(state.cart).toEqual({ cartItems: [item], shippingAddress: null, paymentMethod: 'paypal' });
  });

  it.each([
    ['SESSION_ENDED', 'Your session has ended. Please log in again.'],
    ['SESSION_EXPIRED', 'Your session has expired. Please log in again.'],
  ] satisfies [SessionEndCode, string][])(
    '%s on a page that needs a login: the login page says "%s"',
    async (code, text) => {
      renderApp('/account', code);
      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect=%2Faccount');
    },
  );

  it("a plain 'Not authorized!' (no session-end code) logs out without a notice", async () => {
    const { store } = renderApp('/shop/puzzles', 'NOT_AUTHORIZED');
    await waitFor(() => expect(store.getState().auth.userInfo).toBeNull());
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/shop\/puzzles$/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

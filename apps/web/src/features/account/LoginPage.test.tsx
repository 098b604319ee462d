import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { RootState } from '../../app/store';
import { renderWithProviders } from '../../test/render';
import LoginPage from './LoginPage';
import { makeUser } from '../../test/users';
import { sentRequest, stubFetchJson } from './test-helpers';

function renderLogin(route = '/login', preloadedState?: Partial<RootState>) {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/" element={<p>Home page</p>} />
      <Route path="/place-order" element={<p>Checkout page</p>} />
    </Routes>,
    { route, preloadedState },
  );
}

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('shows required, labelled email and password fields and a link to /register', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('autocomplete', 'email');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(document.title).toBe('Login — Pixel Vault');
  });

  it('posts the credentials, stores the user info and goes to the redirect target', async () => {
    const userInfo = makeUser();
    const fetchMock = stubFetchJson(200, userInfo);
    const { store } = renderLogin('/login?redirect=/place-order');

    await fillAndSubmit('ada@example.com', 'correct horse');

    expect(await screen.findByText('Checkout page')).toBeInTheDocument();
    const request = sentRequest(fetchMock);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/users/login');
    expect(request.headers.get('content-type')).toMatch(/application\/json/);
    expect(await request.json()).toEqual({ email: 'ada@example.com', password: 'correct horse' });
    expect(store.getState().auth.userInfo).toEqual(userInfo);
  });

  it('goes home after login when the redirect target leaves the site', async () => {
    stubFetchJson(200, makeUser());
    renderLogin('/login?redirect=//evil.example/phish');

    await fillAndSubmit('ada@example.com', 'correct horse');

    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });

  it('shows the server message in red on a 401 and stays logged out', async () => {
    stubFetchJson(401, { message: 'Invalid email or password' });
    const { store } = renderLogin();

    await fillAndSubmit('ada@example.com', 'wrong password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Invalid email or password');
    expect(alert).toHaveClass('text-red-500');
    expect(store.getState().auth.userInfo).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.queryByText('Home page')).not.toBeInTheDocument();
  });

  it('shows a spinner and disables the button while logging in', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderLogin();

    await fillAndSubmit('ada@example.com', 'correct horse');

    expect(screen.getByRole('status')).toHaveTextContent('Signing in');
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    answer(
      new Response(JSON.stringify(makeUser()), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });

  it('sends someone already logged in to the home page, ignoring ?redirect=', () => {
    const fetchMock = stubFetchJson(200, {});
    renderLogin('/login?redirect=/place-order', { auth: { userInfo: makeUser() } });

    expect(screen.getByText('Home page')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links to /forgot-password for a forgotten password', () => {
    renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('carries the redirect target to the registration link', () => {
    renderLogin('/login?redirect=/place-order');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/register?redirect=%2Fplace-order',
    );
  });
});

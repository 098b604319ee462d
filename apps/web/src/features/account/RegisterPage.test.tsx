import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { RootState } from '../../app/store';
import { renderWithProviders } from '../../test/render';
import RegisterPage from './RegisterPage';
import { makeUser } from '../../test/users';
import { sentRequest, stubFetchJson } from './test-helpers';

function renderRegister(route = '/register', preloadedState?: Partial<RootState>) {
  return renderWithProviders(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/" element={<p>Home page</p>} />
      <Route path="/place-order" element={<p>Checkout page</p>} />
    </Routes>,
    { route, preloadedState },
  );
}

async function fillAndSubmit(fields: { first: string; last: string; email: string; password: string }) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('First Name'), fields.first);
  await user.type(screen.getByLabelText('Last Name'), fields.last);
  await user.type(screen.getByLabelText('Email'), fields.email);
  await user.type(screen.getByLabelText('Password'), fields.password);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

const ada = { first: ' Ada ', last: ' Lovelace ', email: 'ada@example.com', password: 'analytical1' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RegisterPage', () => {
  it('shows four required, labelled fields, the password rule and a link to /login', () => {
    renderRegister();
    expect(screen.getByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    for (const label of ['First Name', 'Last Name', 'Email', 'Password']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters.');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(document.title).toBe('Register — Pixel Vault');
  });

  it('sends the first and last name trimmed and joined, stores the user info and goes home', async () => {
    const userInfo = makeUser();
    const fetchMock = stubFetchJson(201, userInfo);
    const { store } = renderRegister();

    await fillAndSubmit(ada);

    expect(await screen.findByText('Home page')).toBeInTheDocument();
    const request = sentRequest(fetchMock);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/users');
    expect(await request.json()).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical1',
    });
    expect(store.getState().auth.userInfo).toEqual(userInfo);
  });

  it('goes to a same-site ?redirect= target after registering', async () => {
    stubFetchJson(201, makeUser());
    renderRegister('/register?redirect=/place-order');

    await fillAndSubmit(ada);

    expect(await screen.findByText('Checkout page')).toBeInTheDocument();
  });

  it('shows the server message in red when the email is taken (409)', async () => {
    stubFetchJson(409, { message: 'An account with this email already exists' });
    const { store } = renderRegister();

    await fillAndSubmit(ada);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: An account with this email already exists');
    expect(alert).toHaveClass('text-red-500');
    expect(store.getState().auth.userInfo).toBeNull();
  });

  it('refuses a 7-character password without calling the server', async () => {
    const fetchMock = stubFetchJson(201, makeUser());
    renderRegister();

    await fillAndSubmit({ ...ada, password: 'short12' });

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Password must be at least 8 characters');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a last name of spaces only without calling the server', async () => {
    const fetchMock = stubFetchJson(201, makeUser());
    renderRegister();

    await fillAndSubmit({ ...ada, last: '   ' });

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Last name is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends someone already logged in to the home page', () => {
    renderRegister('/register', { auth: { userInfo: makeUser() } });
    expect(screen.getByText('Home page')).toBeInTheDocument();
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
  });
});

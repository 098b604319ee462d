import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { RESET_TOKEN_INVALID_MESSAGE } from '@pixel-vault/shared';
import type { RootState } from '../../app/store';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import ResetPasswordPage from './ResetPasswordPage';
import { sentRequest, stubFetchJson } from './test-helpers';

/** A well-formed token: 43 base64url characters, as mailed. */
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

function renderReset(token = TOKEN, preloadedState?: Partial<RootState>) {
  return renderWithProviders(
    <Routes>
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route path="/forgot-password" element={<p>Forgot password page</p>} />
      <Route path="/" element={<p>Home page</p>} />
    </Routes>,
    { route: `/reset-password/${token}`, preloadedState },
  );
}

const newPasswordField = () => screen.getByLabelText('New Password');
const confirmField = () => screen.getByLabelText('Confirm New Password');

async function fillAndSubmit(password: string, confirm = password) {
  const user = userEvent.setup();
  await user.type(newPasswordField(), password);
  await user.type(confirmField(), confirm);
  await user.click(screen.getByRole('button', { name: 'Set New Password' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResetPasswordPage', () => {
  it('asks for the new password twice, with the rule in the hint and its title', () => {
    renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeInTheDocument();
    for (const field of [newPasswordField(), confirmField()]) {
      expect(field).toHaveAttribute('type', 'password');
      expect(field).toHaveAttribute('autocomplete', 'new-password');
      expect(field).toBeRequired();
    }
    expect(newPasswordField()).toHaveAccessibleDescription('At least 8 characters.');
    expect(document.title).toBe('Reset Password — Pixel Vault');
  });

  it('hints at the strength of the password as it is typed', async () => {
    const user = userEvent.setup();
    renderReset();

    await user.type(newPasswordField(), 'short');
    expect(newPasswordField()).toHaveAccessibleDescription(
      'At least 8 characters. Strength: Too short. Use at least 8 characters.',
    );
    await user.clear(newPasswordField());
    await user.type(newPasswordField(), 'analytical1');
    expect(newPasswordField()).toHaveAccessibleDescription(
      'At least 8 characters. Strength: Fair. Longer is stronger: try 12 characters or more.',
    );
    await user.clear(newPasswordField());
    await user.type(newPasswordField(), 'Analytical-Engine-1843');
    expect(newPasswordField()).toHaveAccessibleDescription('At least 8 characters. Strength: Strong.');
    expect(screen.getByTestId('strength-meter')).toHaveAttribute('data-score', '4');
  });

  it('sends the token and password, stores the answer as userInfo and goes home', async () => {
    const userInfo = makeUser({ token: 'fresh.token.value' });
    const fetchMock = stubFetchJson(200, userInfo);
    const { store } = renderReset();

    await fillAndSubmit('new-password-1');

    expect(await screen.findByText('Home page')).toBeInTheDocument();
    const request = sentRequest(fetchMock);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/users/password/reset');
    expect(await request.json()).toEqual({ token: TOKEN, password: 'new-password-1' });
    expect(store.getState().auth.userInfo).toEqual(userInfo);
  });

  it('replaces the stored userInfo of someone already logged in with the reset account', async () => {
    const userInfo = makeUser({ name: 'Grace Hopper', email: 'grace@example.com', token: 'grace.token' });
    stubFetchJson(200, userInfo);
    const { store } = renderReset(TOKEN, { auth: { userInfo: makeUser() } });

    await fillAndSubmit('new-password-1');

    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(store.getState().auth.userInfo).toEqual(userInfo);
  });

  it('refuses two passwords that differ without calling the server', async () => {
    const fetchMock = stubFetchJson(200, makeUser());
    renderReset();

    await fillAndSubmit('new-password-1', 'new-password-2');

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a password shorter than the shared rule without calling the server', async () => {
    const fetchMock = stubFetchJson(200, makeUser());
    renderReset();

    await fillAndSubmit('short12');

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Password must be at least 8 characters');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's 400 message with a link to ask for a new one, and stays logged out", async () => {
    stubFetchJson(400, { message: RESET_TOKEN_INVALID_MESSAGE });
    const { store } = renderReset();

    await fillAndSubmit('new-password-1');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Error: ${RESET_TOKEN_INVALID_MESSAGE}`);
    expect(alert).toHaveClass('text-red-500');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(store.getState().auth.userInfo).toBeNull();
  });

  it('shows a spinner and disables the button while saving', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderReset();

    await fillAndSubmit('new-password-1');

    expect(within(screen.getByRole('status')).getByText('Saving your new password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set New Password' })).toBeDisabled();
    answer(
      new Response(JSON.stringify(makeUser()), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });

  it('says at once that a malformed link cannot work, without a form', () => {
    const fetchMock = stubFetchJson(200, makeUser());
    renderReset('cut-short');

    expect(screen.getByRole('alert')).toHaveTextContent(`Error: ${RESET_TOKEN_INVALID_MESSAGE}`);
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('ResetPasswordPage with two-factor sign-in (issue 36)', () => {
  it('asks for the code after saving the password, then signs in and goes home', async () => {
    const user = makeUser({ name: 'Ada' });
    const fetchMock = vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      const answer =
        path === '/api/users/password/reset'
          ? { twoFactorRequired: true, challenge: 'challenge-1' }
          : path === '/api/users/login/2fa'
            ? user
            : { message: 'Nope' };
      return new Response(JSON.stringify(answer), {
        status: path === '/api/users/password/reset' || path === '/api/users/login/2fa' ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const { store } = renderReset();
    await fillAndSubmit('a new long password');

    const field = await screen.findByLabelText('Authentication code');
    expect(screen.getByText(/Your new password is saved/)).toBeInTheDocument();
    // The password alone signs nobody in.
    expect(store.getState().auth.userInfo).toBeNull();
    await userEvent.setup().type(field, '123456');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(store.getState().auth.userInfo).toEqual(user);
    const paths = fetchMock.mock.calls.map(([request]) => new URL(request.url).pathname);
    expect(paths).toEqual(['/api/users/password/reset', '/api/users/login/2fa']);
  });
});

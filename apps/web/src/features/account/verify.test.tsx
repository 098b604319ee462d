import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { VERIFY_TOKEN_INVALID_MESSAGE, type PublicUser } from '@pixel-vault/shared';
import { VerifyBannerSlot } from '../../app/layout/VerifyBannerSlot';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { ProfileForm } from './ProfileForm';
import VerifyEmailPage from './VerifyEmailPage';

/** Issue 36: the verification banner, the link's page, and the pending address on My Account. */

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const unverified = makeUser({ emailVerified: false, email: 'vera@example.com' });

function profileOf(overrides: Partial<PublicUser> = {}): PublicUser {
  const { token: _token, ...user } = makeUser();
  return { ...user, ...overrides };
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('VerifyEmailPage', () => {
  const renderPage = (loggedIn = false) =>
    renderWithProviders(
      <Routes>
        <Route path="/verify-email/:token" element={<VerifyEmailPage />} />
      </Routes>,
      {
        route: `/verify-email/${TOKEN}`,
        ...(loggedIn ? { preloadedState: { auth: { userInfo: unverified } } } : {}),
      },
    );

  it('sends the token once on load and says the address is verified', async () => {
    const fetchMock = stubFetch(async (request, url) => {
      if (url.pathname === '/api/users/verify') {
        expect(request.method).toBe('POST');
        expect(await request.json()).toEqual({ token: TOKEN });
        return jsonResponse({
          message: 'Thank you: vera@example.com is verified.',
          email: 'vera@example.com',
        });
      }
      return jsonResponse({ message: 'Not found' }, 404);
    });
    renderPage();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Your e-mail address is verified.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Thank you: vera@example.com is verified.');
    expect(screen.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', '/');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(document.title).toBe('Confirm e-mail address — Pixel Vault');
  });

  it('updates the logged-in shopper: the stored user info becomes verified', async () => {
    stubFetch((_request, url) =>
      url.pathname === '/api/users/verify'
        ? jsonResponse({ message: 'Verified.', email: unverified.email })
        : jsonResponse({
            ...profileOf({ _id: unverified._id, email: unverified.email }),
            emailVerified: true,
          }),
    );
    const { store } = renderPage(true);
    await waitFor(() => expect(store.getState().auth.userInfo?.emailVerified).toBe(true));
    expect(store.getState().auth.userInfo?.token).toBe(unverified.token);
  });

  it('shows the server message for a used or expired link, with a way to a new one', async () => {
    stubFetch(() =>
      jsonResponse({ message: VERIFY_TOKEN_INVALID_MESSAGE, code: 'VERIFY_TOKEN_INVALID' }, 400),
    );
    renderPage(true);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${VERIFY_TOKEN_INVALID_MESSAGE}`);
    expect(screen.getByRole('link', { name: 'Ask for a new link in My Account' })).toHaveAttribute(
      'href',
      '/account',
    );
  });
});

describe('the verification banner', () => {
  const renderSlot = (userInfo = unverified, route = '/') =>
    renderWithProviders(<VerifyBannerSlot />, { route, preloadedState: { auth: { userInfo } } });

  it('asks a logged-in, unverified shopper to confirm, and sends the link again', async () => {
    const fetchMock = stubFetch((request, url) => {
      expect(url.pathname).toBe('/api/users/verify/resend');
      expect(request.method).toBe('POST');
      return jsonResponse({ message: 'We sent a new link to vera@example.com.', sent: true });
    });
    renderSlot();
    const banner = await screen.findByRole('region', { name: 'Confirm your e-mail address' });
    expect(banner).toHaveTextContent(
      'Please confirm your e-mail address: we sent a link to vera@example.com.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send it again' }));
    const said = await screen.findByText('We sent a new link to vera@example.com.');
    expect(said).toHaveAttribute('aria-live', 'polite');
    expect(banner).toContainElement(said);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([r]) => (r as Request).url.endsWith('/resend'))).toHaveLength(1);
  });

  it('is dismissed for the rest of the session', async () => {
    renderSlot();
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Dismiss the e-mail confirmation message' }));
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
    // A new page load in the same session: still dismissed.
    renderSlot();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
  });

  it('shows nothing to a visitor, a verified shopper, one stored before issue 36, or on the link page', async () => {
    const cases = [
      renderWithProviders(<VerifyBannerSlot />),
      renderSlot(makeUser({ emailVerified: true })),
      renderSlot({ ...makeUser(), emailVerified: undefined } as unknown as typeof unverified),
      renderSlot(unverified, `/verify-email/${TOKEN}`),
    ];
    await new Promise((r) => setTimeout(r, 20));
    for (const { container } of cases) expect(container).toBeEmptyDOMElement();
  });
});

describe('My Account: the e-mail address', () => {
  it('shows the pending address with a note, and the account keeps the old one', () => {
    renderWithProviders(
      <ProfileForm profile={profileOf({ email: 'old@example.com', pendingEmail: 'new@example.com' })} />,
    );
    expect(screen.getByLabelText('Email')).toHaveValue('old@example.com');
    expect(screen.getByText(/Waiting for confirmation:/)).toHaveTextContent(
      'Waiting for confirmation: new@example.com. Open the link we sent there to make it your e-mail address; until then you log in with old@example.com.',
    );
    expect(screen.getByRole('button', { name: 'Send it again' })).toBeInTheDocument();
  });

  it('says a new e-mail waits for its link once saved', async () => {
    stubFetch(() =>
      jsonResponse({
        ...makeUser(),
        pendingEmail: 'new@example.com',
        message: 'We sent a link to new@example.com. Open it to confirm the new address.',
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ProfileForm profile={profileOf()} />, {
      preloadedState: { auth: { userInfo: makeUser() } },
    });
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Current Password'), 'secret password');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('We sent a link to new@example.com. Open it to confirm the new address.'),
    ).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('shows nothing more for a verified address with nothing pending', () => {
    renderWithProviders(<ProfileForm profile={profileOf()} />);
    expect(screen.queryByRole('button', { name: 'Send it again' })).not.toBeInTheDocument();
  });
});

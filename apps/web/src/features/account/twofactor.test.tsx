import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { TwoFactorStatus } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import LoginPage from './LoginPage';
import { TwoFactorSection } from './TwoFactorSection';
import { groupedSecret } from './TwoFactorSetupStep';

const ada = makeUser({ token: 'ada.session.token' });
const CHALLENGE = 'challenge-1234';
const RECOVERY_CODES = [...'abcdefghjk'].map((letter) => `abcd${letter}-fgh23`);
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

interface Call {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

/** Records each call with its JSON body, answering with `answer` (404 for anything it does not know). */
function serve(answer: (call: Call) => Response | undefined) {
  const calls: Call[] = [];
  stubFetch(async (request, url) => {
    const text = request.method === 'GET' ? '' : await request.text();
    const call = {
      method: request.method,
      path: url.pathname,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      authorization: request.headers.get('authorization'),
    };
    calls.push(call);
    return answer(call) ?? jsonResponse({ message: 'Not found' }, 404);
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('login with two-factor sign-in', () => {
  function renderLogin() {
    return renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/place-order" element={<p>Checkout page</p>} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>,
      { route: '/login?redirect=/place-order' },
    );
  }

  async function passwordStep(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    return screen.findByLabelText('Authentication code');
  }

  it('asks for the app code after the password, then logs in and goes where it was asked', async () => {
    const calls = serve(({ path, body }) => {
      if (path === '/api/users/login') return jsonResponse({ twoFactorRequired: true, challenge: CHALLENGE });
      if (path === '/api/users/login/2fa' && (body as { code: string }).code === '123456')
        return jsonResponse(ada);
      return undefined;
    });
    const user = userEvent.setup();
    const { store } = renderLogin();

    const field = await passwordStep(user);
    // No token after the password alone.
    expect(store.getState().auth.userInfo).toBeNull();
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toBeRequired();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Two-factor sign-in' })).toBeInTheDocument();

    await user.type(field, '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Checkout page')).toBeInTheDocument();
    expect(store.getState().auth.userInfo).toEqual(ada);
    expect(calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      {
        method: 'POST',
        path: '/api/users/login',
        body: { email: 'ada@example.com', password: 'correct horse' },
      },
      { method: 'POST', path: '/api/users/login/2fa', body: { challenge: CHALLENGE, code: '123456' } },
    ]);
  });

  it('sends an admin the shop requires it of to My Account’s section, and any other admin on', async () => {
    for (const required of [true, false]) {
      const admin = { ...ada, isAdmin: true };
      serve(({ path }) => {
        if (path === '/api/users/login') return jsonResponse(admin);
        if (path === '/api/users/2fa')
          return jsonResponse({ enabled: false, recoveryCodesLeft: 0, required });
        return undefined;
      });
      const user = userEvent.setup();
      const view = renderWithProviders(
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/account" element={<p>Account page</p>} />
          <Route path="/place-order" element={<p>Checkout page</p>} />
        </Routes>,
        { route: '/login?redirect=/place-order' },
      );
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse');
      await user.click(screen.getByRole('button', { name: 'Login' }));
      expect(await screen.findByText(required ? 'Account page' : 'Checkout page')).toBeInTheDocument();
      view.unmount();
      vi.unstubAllGlobals();
    }
  });

  it('takes a recovery code instead, with its own label and keyboard', async () => {
    const calls = serve(({ path, body }) => {
      if (path === '/api/users/login') return jsonResponse({ twoFactorRequired: true, challenge: CHALLENGE });
      if (path === '/api/users/login/2fa' && (body as { code: string }).code === 'abcde-fgh23')
        return jsonResponse(ada);
      return undefined;
    });
    const user = userEvent.setup();
    const { store } = renderLogin();
    await passwordStep(user);

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('inputmode', 'text');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use your authenticator app instead' })).toBeInTheDocument();

    await user.type(field, 'abcde-fgh23');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Checkout page')).toBeInTheDocument();
    expect(store.getState().auth.userInfo).toEqual(ada);
    expect(calls.at(-1)?.body).toEqual({ challenge: CHALLENGE, code: 'abcde-fgh23' });
  });

  it('shows a wrong code in an alert and keeps the code step', async () => {
    serve(({ path }) => {
      if (path === '/api/users/login') return jsonResponse({ twoFactorRequired: true, challenge: CHALLENGE });
      if (path === '/api/users/login/2fa') return jsonResponse({ message: 'That code is not right' }, 401);
      return undefined;
    });
    const user = userEvent.setup();
    const { store } = renderLogin();
    const field = await passwordStep(user);

    // A code that cannot be one is caught before it is sent.
    await user.type(field, '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Error: The code is 6 digits');

    await user.type(field, '6');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Error: That code is not right'));
    expect(screen.getByLabelText('Authentication code')).toHaveFocus();
    expect(store.getState().auth.userInfo).toBeNull();
  });

  it('sends the person back to the password step when the sign-in has expired', async () => {
    serve(({ path }) => {
      if (path === '/api/users/login') return jsonResponse({ twoFactorRequired: true, challenge: CHALLENGE });
      if (path === '/api/users/login/2fa')
        return jsonResponse({ message: 'This sign-in has expired. Please log in again.' }, 401);
      return undefined;
    });
    const user = userEvent.setup();
    renderLogin();
    const field = await passwordStep(user);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const password = await screen.findByLabelText('Password');
    expect(screen.getByRole('alert')).toHaveTextContent('This sign-in has expired. Please log in again.');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(password).toHaveValue('');
    expect(password).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });
});

describe('TwoFactorSection', () => {
  /** The 2FA routes over a state kept here. */
  function serveTwoFactor(start: Partial<TwoFactorStatus> = {}) {
    let status: TwoFactorStatus = { enabled: false, recoveryCodesLeft: 0, required: false, ...start };
    return serve(({ method, path, body }) => {
      const { code, password } = (body ?? {}) as { code?: string; password?: string };
      if (method === 'GET' && path === '/api/users/2fa') return jsonResponse(status);
      if (path === '/api/users/2fa/setup')
        return jsonResponse({
          secret: SECRET,
          otpauthUrl: `otpauth://totp/Pixel%20Vault:ada%40example.com?secret=${SECRET}&issuer=Pixel%20Vault`,
        });
      if (path === '/api/users/2fa/enable') {
        if (code !== '123456') return jsonResponse({ message: 'That code is not right' }, 400);
        status = { ...status, enabled: true, recoveryCodesLeft: 10, required: false };
        return jsonResponse({ recoveryCodes: RECOVERY_CODES });
      }
      if (path === '/api/users/2fa/disable') {
        if (password !== 'correct horse')
          return jsonResponse({ message: 'Current password is incorrect' }, 400);
        status = { ...status, enabled: false, recoveryCodesLeft: 0 };
        return jsonResponse({ message: 'Two-factor sign-in is off' });
      }
      if (path === '/api/users/2fa/recovery-codes') {
        status = { ...status, recoveryCodesLeft: 10 };
        return jsonResponse({ recoveryCodes: RECOVERY_CODES.map((c) => c.replace('a', 'n')) });
      }
      return undefined;
    });
  }

  function renderSection() {
    return renderWithProviders(<TwoFactorSection />, {
      route: '/account',
      preloadedState: { auth: { userInfo: ada } },
    });
  }

  const section = () => within(screen.getByRole('region', { name: 'Two-factor sign-in' }));

  it('turns on: QR code, key in groups of 4, a first code, then the recovery codes shown once', async () => {
    const calls = serveTwoFactor();
    const user = userEvent.setup();
    // user-event puts a clipboard of its own in place.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:codes');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    renderSection();

    expect(screen.getByText('Loading two-factor sign-in')).toBeInTheDocument();
    expect(await section().findByText('Off.')).toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'Turn on' }));

    const setup = await section().findByRole('form', { name: 'Set up your authenticator app' });
    expect(within(setup).getByRole('heading', { name: 'Set up your authenticator app' })).toHaveFocus();
    const qr = await within(setup).findByRole('img', { name: /QR code to scan with your authenticator app/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(within(setup).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.click(within(setup).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(section().getByRole('status')).toHaveTextContent('Copied the key.');

    const field = within(setup).getByLabelText('Authentication code');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(field, '654321');
    await user.click(within(setup).getByRole('button', { name: 'Turn on' }));
    expect(await within(setup).findByRole('alert')).toHaveTextContent('Error: That code is not right');
    await user.clear(field);
    await user.type(field, '123456');
    await user.click(within(setup).getByRole('button', { name: 'Turn on' }));

    const codes = await section().findByRole('group', { name: 'Your recovery codes' });
    expect(within(codes).getByRole('heading', { name: 'Your recovery codes' })).toHaveFocus();
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(RECOVERY_CODES);
    expect(section().getByRole('status')).toHaveTextContent(
      'Two-factor sign-in is on. Save your 10 recovery codes now.',
    );

    await user.click(within(codes).getByRole('button', { name: 'Copy codes' }));
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining(RECOVERY_CODES.join('\n')));
    await user.click(within(codes).getByRole('button', { name: 'Download codes' }));
    const blob = createObjectURL.mock.calls[0]![0];
    expect(await blob.text()).toContain(RECOVERY_CODES.join('\n'));
    expect(section().getByRole('status')).toHaveTextContent('Downloaded pixel-vault-recovery-codes.txt.');

    await user.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    expect(section().queryByRole('group', { name: 'Your recovery codes' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toHaveFocus();
    expect(await section().findByText(/10 recovery codes left/)).toBeInTheDocument();
    expect(section().getByRole('button', { name: 'Turn off' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body, c.authorization])).toEqual([
      ['/api/users/2fa/setup', undefined, 'Bearer ada.session.token'],
      ['/api/users/2fa/enable', { code: '654321' }, 'Bearer ada.session.token'],
      ['/api/users/2fa/enable', { code: '123456' }, 'Bearer ada.session.token'],
    ]);
  });

  it('turns off only with the password and a code', async () => {
    const calls = serveTwoFactor({ enabled: true, recoveryCodesLeft: 7 });
    const user = userEvent.setup();
    renderSection();
    expect(await section().findByText(/7 recovery codes left/)).toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'Turn off' }));

    const form = section().getByRole('form', { name: 'Turn off two-factor sign-in' });
    expect(within(form).getByLabelText('Password')).toHaveFocus();
    await user.type(within(form).getByLabelText('Password'), 'wrong');
    await user.type(within(form).getByLabelText('Authentication code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Error: Current password is incorrect');

    await user.clear(within(form).getByLabelText('Password'));
    await user.type(within(form).getByLabelText('Password'), 'correct horse');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));

    await waitFor(() =>
      expect(section().getByRole('status')).toHaveTextContent('Two-factor sign-in is off.'),
    );
    expect(await section().findByText('Off.')).toBeInTheDocument();
    expect(section().getByRole('button', { name: 'Turn on' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)).toMatchObject({
      path: '/api/users/2fa/disable',
      body: { password: 'correct horse', code: '123456' },
    });
  });

  it('makes a new set of recovery codes and shows them once', async () => {
    serveTwoFactor({ enabled: true, recoveryCodesLeft: 1 });
    const user = userEvent.setup();
    renderSection();
    expect(await section().findByText(/1 recovery code left\. Make new ones/)).toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'New recovery codes' }));
    const form = section().getByRole('form', { name: 'New recovery codes' });
    await user.type(within(form).getByLabelText('Password'), 'correct horse');
    await user.type(within(form).getByLabelText('Authentication code'), 'abcde-fgh23');
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));
    const codes = await section().findByRole('group', { name: 'Your recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(section().getByRole('status')).toHaveTextContent('The old ones no longer work.');
  });

  it('tells an admin that the shop requires it', async () => {
    serveTwoFactor({ required: true });
    renderSection();
    expect(
      await section().findByText(/Two-factor sign-in is required for admins\. Turn it on here/),
    ).toBeInTheDocument();
  });

  it('shows a loading error with a way to try again', async () => {
    serve(() => jsonResponse({ message: 'Something went wrong' }, 500));
    const user = userEvent.setup();
    renderSection();
    expect(await section().findByRole('alert')).toHaveTextContent('Error: Something went wrong');
    serveTwoFactor();
    await user.click(section().getByRole('button', { name: 'Try again' }));
    expect(await section().findByText('Off.')).toBeInTheDocument();
  });
});

describe('groupedSecret', () => {
  it('splits the key into groups of 4', () => {
    expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });
});

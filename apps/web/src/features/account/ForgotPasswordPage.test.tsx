import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { FORGOT_PASSWORD_MESSAGE } from '@pixel-vault/shared';
import { renderWithProviders } from '../../test/render';
import ForgotPasswordPage from './ForgotPasswordPage';
import { NETWORK_ERROR_MESSAGE, TOO_MANY_REQUESTS_MESSAGE } from '../../app/readableError';
import { sentRequest, stubFetchJson } from './test-helpers';

function renderForgot() {
  return renderWithProviders(
    <Routes>
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
    </Routes>,
    { route: '/forgot-password' },
  );
}

async function submit(email: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ForgotPasswordPage', () => {
  it('shows a required, labelled email field, a link back to /login and its title', () => {
    renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(document.title).toBe('Forgot Password — Pixel Vault');
  });

  it("posts the e-mail (trimmed, lower case) and shows the server's neutral message in the status region", async () => {
    const fetchMock = stubFetchJson(202, { message: FORGOT_PASSWORD_MESSAGE });
    renderForgot();

    await submit('  Ada@Example.com ');

    expect(await screen.findByText(FORGOT_PASSWORD_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText(FORGOT_PASSWORD_MESSAGE).closest('[role="status"]')).not.toBeNull();
    const request = sentRequest(fetchMock);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/users/password/forgot');
    expect(await request.json()).toEqual({ email: 'ada@example.com' });
    // The form is done with: only the way back to login is left.
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('refuses an invalid e-mail without calling the server', async () => {
    const fetchMock = stubFetchJson(202, { message: FORGOT_PASSWORD_MESSAGE });
    renderForgot();

    // The browser's own check lets an address without a dot in its domain through; the shared schema does not.
    await submit('ada@example');

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Please enter a valid email address');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a spinner and disables the button while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderForgot();

    await submit('ada@example.com');

    expect(screen.getByText('Sending the link').closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeDisabled();
    answer(
      new Response(JSON.stringify({ message: FORGOT_PASSWORD_MESSAGE }), {
        status: 202,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(await screen.findByText(FORGOT_PASSWORD_MESSAGE)).toBeInTheDocument();
  });

  it("shows the server's message when rate limited (429) and keeps the form", async () => {
    stubFetchJson(429, { message: 'Too many reset requests. Please try again later.' });
    renderForgot();

    await submit('ada@example.com');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Too many reset requests. Please try again later.');
    expect(alert).toHaveClass('text-red-500');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('explains a 429 without a message, and a network failure, in words', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('slow down', { status: 429 })),
    );
    renderForgot();
    await submit('ada@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${TOO_MANY_REQUESTS_MESSAGE}`);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(`Error: ${NETWORK_ERROR_MESSAGE}`)).toBeInTheDocument();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../test/render';
import ContactPage from './ContactPage';

const SENT = 'Message sent. Wait to hear back from us.';
const FAILED = 'Something went wrong. Please try again.';

function stubFetchJson(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_request: Request) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function fillAndSend() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Message'), 'Do you have a boxed Atari 2600?');
  await user.click(screen.getByRole('button', { name: 'Send Message' }));
}

function expectFieldsKept() {
  expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
  expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  expect(screen.getByLabelText('Message')).toHaveValue('Do you have a boxed Atari 2600?');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ContactPage', () => {
  it('shows the heading and three required, labelled fields', () => {
    renderWithProviders(<ContactPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Message')).toBeRequired();
    expect(screen.getByLabelText('Message').tagName).toBe('TEXTAREA');
    expect(document.title).toBe('Contact Us — Pixel Vault');
  });

  it('posts the exact payload, confirms and clears the form', async () => {
    const fetchMock = stubFetchJson(202, { message: 'Message sent' });
    renderWithProviders(<ContactPage />);

    await fillAndSend();

    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = fetchMock.mock.calls[0]![0];
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/contact');
    expect(await request.json()).toEqual({
      from_name: 'Ada Lovelace',
      from_email: 'ada@example.com',
      message: 'Do you have a boxed Atari 2600?',
    });
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the failure line and keeps what was typed on a 500', async () => {
    stubFetchJson(500, { message: 'Something went wrong' });
    renderWithProviders(<ContactPage />);

    await fillAndSend();

    const alert = await screen.findByRole('alert');
    // A server fault is not the sender's business: only the failure line shows.
    expect(alert).toHaveTextContent(new RegExp(`^${FAILED.replace('.', '\\.')}$`));
    expect(screen.queryByText(SENT)).not.toBeInTheDocument();
    expectFieldsKept();
  });

  it('shows the failure line and keeps what was typed when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderWithProviders(<ContactPage />);

    await fillAndSend();

    expect(await screen.findByRole('alert')).toHaveTextContent(FAILED);
    expectFieldsKept();
  });

  it("adds the server's rate-limit message under the failure line (429)", async () => {
    stubFetchJson(429, { message: 'Too many messages. Please try again in a few minutes.' });
    renderWithProviders(<ContactPage />);

    await fillAndSend();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(FAILED);
    expect(alert).toHaveTextContent('Too many messages. Please try again in a few minutes.');
    expectFieldsKept();
  });

  it('reads "Sending..." and is disabled while the message is on its way', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderWithProviders(<ContactPage />);

    await fillAndSend();

    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    answer(new Response(null, { status: 204 }));
    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('refuses a message of spaces only without calling the server', async () => {
    const fetchMock = stubFetchJson(202, {});
    renderWithProviders(<ContactPage />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Message'), '   ');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByRole('alert')).toHaveTextContent('Message is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows five social links opening safely, the shop e-mail and the Sacramento address', () => {
    renderWithProviders(<ContactPage />);
    const social = within(
      screen.getByRole('heading', { name: 'Follow us' }).closest('section')!,
    ).getAllByRole('link');
    expect(social).toHaveLength(5);
    for (const link of social) {
      expect(link).toHaveAttribute('aria-label', expect.stringMatching(/^Pixel Vault on /));
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
    }
    expect(screen.getByRole('link', { name: 'hello@pixelvault.shop' })).toHaveAttribute(
      'href',
      'mailto:hello@pixelvault.shop',
    );
    expect(screen.getByText('Sacramento, CA 95814')).toBeInTheDocument();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserSession } from '@pixel-vault/shared';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import { SessionsSection, lastUsedText } from './SessionsSection';

const ada = makeUser({ token: 'this.browser.token' });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const here: UserSession = {
  _id: '11111111-1111-4111-8111-111111111111',
  device: 'Firefox on macOS',
  ip: '203.0.113.7',
  createdAt: minutesAgo(600),
  lastUsedAt: minutesAgo(0),
  current: true,
};
const phone: UserSession = {
  _id: '22222222-2222-4222-8222-222222222222',
  device: 'Chrome on Android',
  ip: '198.51.100.23',
  createdAt: minutesAgo(3000),
  lastUsedAt: minutesAgo(12),
  current: false,
};
const tablet: UserSession = {
  _id: '33333333-3333-4333-8333-333333333333',
  device: 'Safari on iPad',
  ip: null,
  createdAt: minutesAgo(9000),
  lastUsedAt: minutesAgo(5 * 60),
  current: false,
};

/** The session routes as the section meets them, over a list kept here; records the calls. */
function serveSessions(start: UserSession[], { failWith }: { failWith?: Response } = {}) {
  let sessions = [...start];
  const calls: string[] = [];
  const mock = stubFetch((request, url) => {
    calls.push(`${request.method} ${url.pathname} ${request.headers.get('authorization')}`);
    if (failWith) return failWith.clone();
    if (request.method === 'GET' && url.pathname === '/api/users/sessions') return jsonResponse({ sessions });
    if (request.method === 'POST' && url.pathname === '/api/users/sessions/revoke-others') {
      sessions = sessions.filter((s) => s.current);
      return jsonResponse({ sessions });
    }
    const match = /^\/api\/users\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'DELETE' && match) {
      if (!sessions.some((s) => s._id === match[1]))
        return jsonResponse({ message: 'Session not found' }, 404);
      sessions = sessions.filter((s) => s._id !== match[1]);
      return jsonResponse({ sessions });
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, calls };
}

function renderSection() {
  return renderWithProviders(<SessionsSection />, {
    route: '/account',
    preloadedState: { auth: { userInfo: ada } },
  });
}

const section = () => screen.getByRole('region', { name: 'Where you’re signed in' });
const items = async () =>
  within(await screen.findByRole('list', { name: 'Where you’re signed in' })).getAllByRole('listitem');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SessionsSection', () => {
  it('lists each session with its device, address and last use, this browser marked and first', async () => {
    const { calls } = serveSessions([here, phone, tablet]);
    renderSection();
    expect(screen.getByText('Loading where you are signed in')).toBeInTheDocument();
    const [first, second, third] = await items();
    expect(first).toHaveTextContent('Firefox on macOS');
    expect(first).toHaveTextContent('This device');
    expect(first).toHaveTextContent('203.0.113.7');
    expect(first).toHaveTextContent('Last used just now');
    expect(within(first!).queryByRole('button')).not.toBeInTheDocument();
    expect(second).toHaveTextContent('Chrome on Android');
    expect(second).toHaveTextContent('Last used 12 minutes ago');
    expect(second).not.toHaveTextContent('This device');
    expect(third).toHaveTextContent('Unknown address');
    expect(third).toHaveTextContent('Last used 5 hours ago');
    // Each button says which session it ends.
    expect(
      within(second!).getByRole('button', { name: 'Sign out Chrome on Android, 198.51.100.23' }),
    ).toBeEnabled();
    expect(
      within(third!).getByRole('button', { name: 'Sign out Safari on iPad, Unknown address' }),
    ).toBeEnabled();
    expect(calls).toEqual(['GET /api/users/sessions Bearer this.browser.token']);
  });

  it('signs one other session out, says so in the live region, and keeps focus in the section', async () => {
    const { calls } = serveSessions([here, phone, tablet]);
    const user = userEvent.setup();
    renderSection();
    const [, second] = await items();
    await user.click(within(second!).getByRole('button', { name: /^Sign out Chrome on Android/ }));

    await waitFor(() =>
      expect(screen.getByText('Signed out Chrome on Android (198.51.100.23).')).toHaveAttribute(
        'role',
        'status',
      ),
    );
    expect((await items()).map((li) => li.textContent)).toEqual([
      expect.stringContaining('Firefox on macOS'),
      expect.stringContaining('Safari on iPad'),
    ]);
    expect(screen.getByRole('heading', { name: 'Where you’re signed in' })).toHaveFocus();
    expect(calls).toContain(`DELETE /api/users/sessions/${phone._id} Bearer this.browser.token`);
  });

  it('signs out everywhere else only after the question is confirmed', async () => {
    const { calls } = serveSessions([here, phone, tablet]);
    const user = userEvent.setup();
    renderSection();
    await items();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    let dialog = screen.getByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveAccessibleDescription(/You stay signed in here/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    dialog = screen.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));

    expect(await screen.findByText('Signed out of 2 other sessions.')).toHaveAttribute('role', 'status');
    const left = await items();
    expect(left).toHaveLength(1);
    expect(left[0]).toHaveTextContent('This device');
    expect(screen.getByText('You are not signed in anywhere else.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
    expect(calls).toContain('POST /api/users/sessions/revoke-others Bearer this.browser.token');
  });

  it("shows the server's message when a sign-out fails, and the list stays", async () => {
    serveSessions([here, phone]);
    const user = userEvent.setup();
    renderSection();
    const [, second] = await items();
    // The session was ended meanwhile elsewhere: the server answers 404.
    stubFetch(() => jsonResponse({ message: 'Session not found' }, 404));
    await user.click(within(second!).getByRole('button', { name: /^Sign out Chrome/ }));
    expect(await within(section()).findByRole('alert')).toHaveTextContent('Error: Session not found');
    expect(await items()).toHaveLength(2);
  });

  it('shows a loading error with a way to try again', async () => {
    serveSessions([], { failWith: jsonResponse({ message: 'Something went wrong' }, 500) });
    const user = userEvent.setup();
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong');
    serveSessions([here]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await items()).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when this is the only session', async () => {
    serveSessions([here]);
    renderSection();
    await items();
    expect(screen.getByText('You are not signed in anywhere else.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });
});

describe('lastUsedText', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  it.each([
    ['2026-11-27T11:59:10Z', 'just now'],
    ['2026-11-27T11:57:30Z', '2 minutes ago'],
    ['2026-11-27T11:01:00Z', '59 minutes ago'],
    ['2026-11-27T11:00:00Z', '1 hour ago'],
    ['2026-11-26T13:00:00Z', '23 hours ago'],
  ])('says %s as %s', (iso, text) => {
    expect(lastUsedText(iso, now)).toBe(text);
  });
  it('gives the date and time after a day', () => {
    expect(lastUsedText('2026-11-20T09:30:00Z', now)).toMatch(/^Nov 20, 2026, \d{1,2}:30\s?[AP]M$/);
  });
});

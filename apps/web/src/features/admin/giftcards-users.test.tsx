import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GiftCard, PublicUser } from '@pixel-vault/shared';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { ManageGiftCardsSection } from './ManageGiftCardsSection';
import { ManageUsersSection } from './ManageUsersSection';
import { adminState, jsonBody, makeGiftCard, makePublicUser } from './test-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serveGiftCards(initial: GiftCard[], { failAddBalance }: { failAddBalance?: string } = {}) {
  let cards = initial;
  const bodies: unknown[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/giftcards/admin/getall') return jsonResponse(cards);
    const add = /^\/api\/giftcards\/admin\/([^/]+)\/add-balance$/.exec(url.pathname);
    if (add && request.method === 'PUT') {
      if (failAddBalance) return jsonResponse({ message: failAddBalance }, 400);
      const { amount } = (await jsonBody(request)) as { amount: number };
      bodies.push({ amount });
      cards = cards.map((c) => (c._id === add[1] ? { ...c, balance: c.balance + amount } : c));
      return jsonResponse(cards.find((c) => c._id === add[1]));
    }
    const del = /^\/api\/giftcards\/admin\/delete\/([^/]+)$/.exec(url.pathname);
    if (del && request.method === 'DELETE') {
      cards = cards.filter((c) => c._id !== del[1]);
      return jsonResponse({ message: 'Gift card deleted' });
    }
    if (url.pathname === '/api/giftcards/admin/create' && request.method === 'POST') {
      const body = (await jsonBody(request)) as { code: string; balance: number };
      bodies.push(body);
      const card = makeGiftCard(body);
      cards = [...cards, card];
      return jsonResponse(card, 201);
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, bodies };
}

describe('Manage Gift Cards', () => {
  it("says 'No gift cards available' when there are none", async () => {
    serveGiftCards([]);
    renderWithProviders(<ManageGiftCardsSection />, { preloadedState: adminState });
    expect(await screen.findByText('No gift cards available')).toBeInTheDocument();
  });

  it('adds balance with the amount, shows the success line and the reloaded balance', async () => {
    const card = makeGiftCard({ code: 'RETRO-10', balance: 10 });
    const { bodies } = serveGiftCards([card]);
    const user = userEvent.setup();
    renderWithProviders(<ManageGiftCardsSection />, { preloadedState: adminState });
    const item = within((await screen.findByRole('list', { name: 'Gift cards' })).querySelector('li')!);
    expect(item.getByText('RETRO-10')).toBeInTheDocument();
    expect(item.getByText('$10.00')).toBeInTheDocument();

    await user.type(item.getByLabelText('Amount to add to RETRO-10'), '5.5');
    await user.click(item.getByRole('button', { name: 'Add Balance' }));
    expect(await screen.findByText('Action completed successfully!')).toBeInTheDocument();
    expect(bodies).toEqual([{ amount: 5.5 }]);
    expect(await item.findByText('$15.50')).toBeInTheDocument();
  });

  it('refuses an amount of 0 without a call, and shows the server error as Error: {message}', async () => {
    const card = makeGiftCard({ code: 'RETRO-10' });
    const { mock } = serveGiftCards([card], { failAddBalance: 'Gift card not found' });
    const user = userEvent.setup();
    renderWithProviders(<ManageGiftCardsSection />, { preloadedState: adminState });
    const input = await screen.findByLabelText('Amount to add to RETRO-10');
    await user.type(input, '0');
    await user.click(screen.getByRole('button', { name: 'Add Balance' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Amount must be greater than 0');
    expect(calledUrls(mock).some((u) => u.includes('add-balance'))).toBe(false);

    await user.clear(input);
    await user.type(input, '3');
    await user.click(screen.getByRole('button', { name: 'Add Balance' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Error: Gift card not found'));
  });

  it('asks for confirmation in a dialog before deleting a gift card', async () => {
    const card = makeGiftCard({ code: 'BYE-1' });
    serveGiftCards([card]);
    const user = userEvent.setup();
    renderWithProviders(<ManageGiftCardsSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Delete Gift Card' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this gift card?' });

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('BYE-1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Gift Card' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No gift cards available')).toBeInTheDocument();
    expect(screen.getByText('Action completed successfully!')).toBeInTheDocument();
  });

  it('creates a gift card with its code and initial balance', async () => {
    const { bodies } = serveGiftCards([]);
    const user = userEvent.setup();
    renderWithProviders(<ManageGiftCardsSection />, { preloadedState: adminState });
    await screen.findByText('No gift cards available');
    await user.type(screen.getByLabelText('Code'), 'NEW-CARD');
    await user.type(screen.getByLabelText('Initial Balance'), '20');
    await user.click(screen.getByRole('button', { name: 'Create Gift Card' }));
    expect(await screen.findByText('NEW-CARD')).toBeInTheDocument();
    expect(bodies).toEqual([{ code: 'NEW-CARD', balance: 20 }]);
  });
});

function serveUsers(
  initial: PublicUser[],
  { failUpdate, failReset }: { failUpdate?: string; failReset?: string } = {},
) {
  let users = initial;
  const updates: unknown[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname === '/api/users/admin/users') {
      return jsonResponse({ users, page: 1, totalPage: 1, total: users.length });
    }
    const reset = /^\/api\/users\/admin\/user\/([^/]+)\/password-reset$/.exec(url.pathname);
    if (reset && request.method === 'POST') {
      if (failReset) return jsonResponse({ message: failReset }, 404);
      return jsonResponse({ message: 'Password reset link sent' }, 202);
    }
    if (/^\/api\/users\/admin\/user\/[^/]+\/2fa\/reset$/.test(url.pathname) && request.method === 'POST') {
      return jsonResponse({ message: 'Two-factor sign-in reset' });
    }
    const one = /^\/api\/users\/admin\/user\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const found = users.find((u) => u._id === one[1]);
      if (!found) return jsonResponse({ message: 'User not found' }, 404);
      if (request.method === 'GET') return jsonResponse(found);
      if (request.method === 'PUT') {
        if (failUpdate) return jsonResponse({ message: failUpdate }, 400);
        const body = (await jsonBody(request)) as Partial<PublicUser>;
        updates.push(body);
        users = users.map((u) => (u._id === found._id ? { ...u, ...body } : u));
        return jsonResponse(users.find((u) => u._id === found._id));
      }
      if (request.method === 'DELETE') {
        users = users.filter((u) => u._id !== found._id);
        return jsonResponse({ message: 'User removed' });
      }
    }
    return jsonResponse({ message: 'Not found' }, 404);
  });
  return { mock, updates };
}

describe('Manage Users', () => {
  it('shows at most 9 users with Admin: Yes / Admin: No, and asks for the limit', async () => {
    const users = Array.from({ length: 12 }, (_, i) => makePublicUser({ isAdmin: i === 0 }));
    const { mock } = serveUsers(users);
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    const cards = within(await screen.findByRole('list', { name: 'Users' })).getAllByRole('listitem');
    expect(cards).toHaveLength(9);
    expect(within(cards[0]!).getByText('Admin: Yes')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Admin: No')).toBeInTheDocument();
    expect(calledUrls(mock)).toContain('/api/users/admin/users?page=1&limit=9');
  });

  it("says 'No users found'", async () => {
    serveUsers([]);
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('Edit opens the modal; Make Admin / Revoke Admin toggles the isAdmin sent by Update User', async () => {
    const player = makePublicUser({ name: 'Grace', email: 'grace@example.com' });
    const { updates } = serveUsers([player]);
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('button', { name: 'Close', expanded: true })).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Grace');

    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Revoke Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([{ name: 'Grace', email: 'grace@example.com', isAdmin: true }]);
    expect(await screen.findByText('Admin: Yes')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('shows the server refusal of an update in red and keeps the modal open', async () => {
    const player = makePublicUser({ isAdmin: true });
    serveUsers([player], { failUpdate: 'You cannot demote yourself' });
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    const line = await within(dialog).findByText('You cannot demote yourself');
    expect(line.closest('ul')).toHaveClass('text-red-500');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('Add New User checks the fields first and shows red lines', async () => {
    const { mock } = serveUsers([]);
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    await screen.findByText('No users found');
    const form = screen.getByRole('form', { name: 'Add New User' });
    await user.type(within(form).getByLabelText('Email'), 'not-an-email');
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Add New User' }));
    const alert = within(form).getByRole('alert');
    expect(alert).toHaveClass('text-red-500');
    expect(alert).toHaveTextContent('Name is required');
    expect(alert).toHaveTextContent('Please enter a valid email address');
    expect(alert).toHaveTextContent('Password must be at least 8 characters');
    expect(calledUrls(mock).some((u) => u.includes('/api/users/admin/add'))).toBe(false);
  });

  it('deletes a user after the confirmation and the list reloads', async () => {
    const player = makePublicUser({ name: 'Leaving' });
    serveUsers([player]);
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this user?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('sends a password reset link after a confirmation naming the e-mail, and says it was sent', async () => {
    const player = makePublicUser({ email: 'grace@example.com' });
    const { mock } = serveUsers([player]);
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    const card = within((await screen.findByRole('list', { name: 'Users' })).querySelector('li')!);

    await user.click(card.getByRole('button', { name: 'Send password reset' }));
    const dialog = screen.getByRole('dialog', { name: 'Send a password reset link to grace@example.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calledUrls(mock).some((u) => u.includes('password-reset'))).toBe(false);

    await user.click(card.getByRole('button', { name: 'Send password reset' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(card.getAllByRole('status')[0]).toHaveTextContent('Password reset link sent'));
    expect(calledUrls(mock)).toContain(`/api/users/admin/user/${player._id}/password-reset`);
    const sent = mock.mock.calls
      .map(([input]) => input as Request)
      .find((r) => r.url.includes('password-reset'));
    expect(sent?.method).toBe('POST');
  });

  it('resets a user’s two-factor sign-in after a confirmation naming the e-mail (issue 36)', async () => {
    const player = makePublicUser({ email: 'lost.phone@example.com' });
    const { mock } = serveUsers([player]);
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });
    const card = within((await screen.findByRole('list', { name: 'Users' })).querySelector('li')!);

    await user.click(card.getByRole('button', { name: 'Reset two-factor sign-in' }));
    const dialog = screen.getByRole('dialog', {
      name: /Turn off two-factor sign-in for lost\.phone@example\.com\?/,
    });
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(card.getAllByRole('status')[1]).toHaveTextContent('Two-factor sign-in reset'));
    expect(calledUrls(mock)).toContain(`/api/users/admin/user/${player._id}/2fa/reset`);
  });

  it('shows a refused password reset in red on the card', async () => {
    const player = makePublicUser();
    serveUsers([player], { failReset: 'User not found' });
    const user = userEvent.setup();
    renderWithProviders(<ManageUsersSection />, { preloadedState: adminState });

    await user.click(await screen.findByRole('button', { name: 'Send password reset' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: User not found');
    expect(alert).toHaveClass('text-red-500');
    expect(screen.queryByText('Password reset link sent')).not.toBeInTheDocument();
  });
});

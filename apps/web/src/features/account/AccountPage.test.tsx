import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicUser, UserInfo } from '@pixel-vault/shared';
import { Header } from '../../app/layout/Header';
import { calledUrls, jsonResponse, stubFetch } from '../../test/fetch';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/users';
import AccountPage from './AccountPage';

const ada = makeUser({ name: 'Ada Lovelace', email: 'ada@example.com', token: 'old.token' });
const { token: _token, ...adaProfile } = ada;

interface Put {
  body: unknown;
  authorization: string | null;
}

/**
 * The profile routes of issue 11 as the page meets them: GET answers the saved profile; PUT answers
 * `answer(body)` (a user info with a fresh token by default) and records what was sent.
 */
function serveProfile({
  answer,
}: { answer?: (body: Record<string, unknown>) => Response | Promise<Response> } = {}) {
  let profile: PublicUser = adaProfile;
  const puts: Put[] = [];
  const mock = stubFetch(async (request, url) => {
    if (url.pathname !== '/api/users/profile') return jsonResponse({ message: 'Not found' }, 404);
    if (request.method === 'GET') return jsonResponse(profile);
    const body = (await request.json()) as Record<string, unknown>;
    puts.push({ body, authorization: request.headers.get('authorization') });
    if (answer) return answer(body);
    profile = {
      ...profile,
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      ...(typeof body.email === 'string' ? { email: body.email } : {}),
    };
    return jsonResponse({ ...profile, token: `fresh.token.${puts.length}` } satisfies UserInfo);
  });
  return { mock, puts };
}

function renderAccount() {
  return renderWithProviders(
    <>
      <Header />
      <AccountPage />
    </>,
    { route: '/account', preloadedState: { auth: { userInfo: ada } } },
  );
}

async function detailsForm() {
  return within(await screen.findByRole('form', { name: 'Your Details' }));
}
async function passwordForm() {
  return within(await screen.findByRole('form', { name: 'Change Password' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AccountPage', () => {
  it('loads the saved name and e-mail into the details form, beside a change-password form', async () => {
    serveProfile();
    renderAccount();
    expect(screen.getByRole('heading', { level: 1, name: 'My Account' })).toBeInTheDocument();
    expect(screen.getByText('Loading your account')).toBeInTheDocument();

    const details = await detailsForm();
    expect(details.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(details.getByLabelText('Name')).toBeRequired();
    expect(details.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(details.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(details.queryByLabelText('Current Password')).not.toBeInTheDocument();

    const password = await passwordForm();
    expect(password.getByLabelText('Current Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(password.getByLabelText('New Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(password.getByLabelText('Confirm New Password')).toBeRequired();
    expect(document.title).toBe('My Account — Pixel Vault');
  });

  it('saves a new name, replaces the stored userInfo (fresh token) and the header shows it at once', async () => {
    const { puts } = serveProfile();
    const user = userEvent.setup();
    const { store } = renderAccount();
    const details = await detailsForm();

    await user.clear(details.getByLabelText('Name'));
    await user.type(details.getByLabelText('Name'), '  Ada King ');
    await user.click(details.getByRole('button', { name: 'Save Changes' }));

    expect(await details.findByText('Your details have been saved.')).toHaveAttribute('role', 'status');
    // Only what changed is sent; the e-mail did not, so no password is asked for.
    expect(puts).toEqual([{ body: { name: 'Ada King' }, authorization: 'Bearer old.token' }]);
    expect(store.getState().auth.userInfo).toEqual({ ...ada, name: 'Ada King', token: 'fresh.token.1' });
    expect(details.getByLabelText('Name')).toHaveValue('Ada King');
    expect(await screen.findByRole('button', { name: /Ada King/ })).toBeInTheDocument();
  });

  it('asks for the current password once the e-mail changes, and sends it with the new e-mail', async () => {
    const { mock, puts } = serveProfile();
    const user = userEvent.setup();
    const { store } = renderAccount();
    const details = await detailsForm();

    await user.clear(details.getByLabelText('Email'));
    await user.type(details.getByLabelText('Email'), 'ADA.KING@example.com');
    const current = details.getByLabelText('Current Password');
    expect(current).toBeRequired();
    expect(current).toHaveAccessibleDescription('Needed to change your email.');

    await user.type(current, 'analytical1');
    await user.click(details.getByRole('button', { name: 'Save Changes' }));

    expect(await details.findByText('Your details have been saved.')).toBeInTheDocument();
    expect(puts.map((p) => p.body)).toEqual([
      { email: 'ada.king@example.com', currentPassword: 'analytical1' },
    ]);
    expect(store.getState().auth.userInfo).toMatchObject({
      email: 'ada.king@example.com',
      token: 'fresh.token.1',
    });
    // Saved: the e-mail is the saved one again, so the password field goes away (and is forgotten).
    // The profile cache is updated after the mutation settles (api.ts), a render after the message.
    await waitFor(() => expect(details.queryByLabelText('Current Password')).not.toBeInTheDocument());
    // The profile was read once and saved once (the sessions section, issue 36, makes calls of its own).
    expect(calledUrls(mock).filter((url) => url === '/api/users/profile')).toHaveLength(2);
  });

  it("shows a taken e-mail's 409 in red and keeps the stored userInfo", async () => {
    serveProfile({
      answer: () => jsonResponse({ message: 'An account with this email already exists' }, 409),
    });
    const user = userEvent.setup();
    const { store } = renderAccount();
    const details = await detailsForm();

    await user.clear(details.getByLabelText('Email'));
    await user.type(details.getByLabelText('Email'), 'grace@example.com');
    await user.type(details.getByLabelText('Current Password'), 'analytical1');
    await user.click(details.getByRole('button', { name: 'Save Changes' }));

    const alert = await details.findByRole('alert');
    expect(alert).toHaveTextContent('Error: An account with this email already exists');
    expect(alert).toHaveClass('text-red-500');
    expect(details.queryByText('Your details have been saved.')).not.toBeInTheDocument();
    expect(store.getState().auth.userInfo).toEqual(ada);
  });

  it('says there is nothing to change without calling the server', async () => {
    const { puts } = serveProfile();
    const user = userEvent.setup();
    renderAccount();
    const details = await detailsForm();

    await user.click(details.getByRole('button', { name: 'Save Changes' }));

    expect(details.getByRole('alert')).toHaveTextContent('Error: Nothing to change');
    expect(puts).toEqual([]);
  });

  it('disables Save Changes and says it is saving while the change is sent', async () => {
    let release: () => void = () => undefined;
    serveProfile({
      answer: async (body) => {
        await new Promise<void>((resolve) => (release = resolve));
        return jsonResponse({ ...adaProfile, ...body, token: 'fresh.token' });
      },
    });
    const user = userEvent.setup();
    renderAccount();
    const details = await detailsForm();

    await user.type(details.getByLabelText('Name'), ' Byron');
    await user.click(details.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(details.getByRole('status')).toHaveTextContent('Saving your details…'));
    expect(details.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    release();
    expect(await details.findByText('Your details have been saved.')).toBeInTheDocument();
    expect(details.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('changes the password: sends current and new, stores the fresh token and empties the fields', async () => {
    const { puts } = serveProfile();
    const user = userEvent.setup();
    const { store } = renderAccount();
    const form = await passwordForm();

    await user.type(form.getByLabelText('Current Password'), 'analytical1');
    await user.type(form.getByLabelText('New Password'), 'difference-engine-2');
    await user.type(form.getByLabelText('Confirm New Password'), 'difference-engine-2');
    await user.click(form.getByRole('button', { name: 'Change Password' }));

    expect(await form.findByText('Your password has been changed.')).toHaveAttribute('role', 'status');
    expect(puts.map((p) => p.body)).toEqual([
      { currentPassword: 'analytical1', newPassword: 'difference-engine-2' },
    ]);
    expect(store.getState().auth.userInfo).toEqual({ ...ada, token: 'fresh.token.1' });
    for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
      expect(form.getByLabelText(label)).toHaveValue('');
    }
  });

  it('refuses a new password that does not match its confirmation or breaks the shared rule', async () => {
    const { puts } = serveProfile();
    const user = userEvent.setup();
    renderAccount();
    const form = await passwordForm();

    await user.type(form.getByLabelText('Current Password'), 'analytical1');
    await user.type(form.getByLabelText('New Password'), 'difference-engine-2');
    await user.type(form.getByLabelText('Confirm New Password'), 'difference-engine-3');
    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(form.getByRole('alert')).toHaveTextContent('Error: Passwords do not match');

    await user.clear(form.getByLabelText('New Password'));
    await user.type(form.getByLabelText('New Password'), 'short');
    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(form.getByRole('alert')).toHaveTextContent('Error: Password must be at least 8 characters');
    expect(puts).toEqual([]);
  });

  it("shows a wrong current password's 400 in red and keeps the old token", async () => {
    serveProfile({ answer: () => jsonResponse({ message: 'Current password is incorrect' }, 400) });
    const user = userEvent.setup();
    const { store } = renderAccount();
    const form = await passwordForm();

    await user.type(form.getByLabelText('Current Password'), 'not-my-password');
    await user.type(form.getByLabelText('New Password'), 'difference-engine-2');
    await user.type(form.getByLabelText('Confirm New Password'), 'difference-engine-2');
    await user.click(form.getByRole('button', { name: 'Change Password' }));

    expect(await form.findByRole('alert')).toHaveTextContent('Error: Current password is incorrect');
    expect(store.getState().auth.userInfo).toEqual(ada);
    // The other form is not affected.
    expect((await detailsForm()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an error when the profile cannot be loaded', async () => {
    stubFetch(() => jsonResponse({ message: 'Something went wrong' }, 500));
    renderAccount();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong');
  });
});

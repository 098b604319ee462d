import { useId, useState, type FormEvent } from 'react';
import { AdminAddUserBody, AdminUpdateUserBody, USER_SEARCH_MAX, type PublicUser } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { Modal } from '../../ui/Modal';
import { ProblemList } from '../../ui/ProblemList';
import { Spinner } from '../../ui/Spinner';
import {
  useAddAdminUserMutation,
  useDeleteAdminUserMutation,
  useGetAdminUserQuery,
  useGetAdminUsersQuery,
  useSendPasswordResetMutation,
  useResetTwoFactorMutation,
  useUpdateAdminUserMutation,
} from './api';
import { Field } from './fields';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { SearchBox } from './SearchBox';
import { validateAndSend } from './submit';

export const CONFIRM_DELETE_USER = 'Are you sure you want to delete this user?';
export const confirmPasswordReset = (email: string) => `Send a password reset link to ${email}?`;

function AddUserForm() {
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<string[]>([]);
  const [addUser, { isLoading }] = useAddAdminUserMutation();
  const titleId = useId();
  const set = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors([]);
    const problems = await validateAndSend(AdminAddUserBody, values, (body) => addUser(body).unwrap());
    setErrors(problems);
    if (problems.length === 0) setValues({ name: '', email: '', password: '' });
  }

  return (
    <form
      aria-labelledby={titleId}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4 border-2 border-zinc-700 p-4"
    >
      <h3 id={titleId} className="text-lg font-semibold text-lime-300">
        Add New User
      </h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Name" value={values.name} onChange={set('name')} autoComplete="off" required />
        <Field
          label="Email"
          type="email"
          value={values.email}
          onChange={set('email')}
          autoComplete="off"
          required
        />
        <Field
          label="Password"
          type="password"
          value={values.password}
          onChange={set('password')}
          autoComplete="new-password"
          required
        />
      </div>
      <ProblemList problems={errors} />
      <button type="submit" className="btn btn-primary self-start" disabled={isLoading}>
        Add New User
      </button>
    </form>
  );
}

function EditUserModal({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [isAdmin, setIsAdmin] = useState(user.isAdmin);
  const [errors, setErrors] = useState<string[]>([]);
  const [updateUser, { isLoading }] = useUpdateAdminUserMutation();
  const titleId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = await validateAndSend(AdminUpdateUserBody, { name, email, isAdmin }, (body) =>
      updateUser({ id: user._id, body }).unwrap(),
    );
    if (problems.length > 0) setErrors(problems);
    else onClose();
  }

  return (
    <Modal onClose={onClose} labelledBy={titleId}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
        <h3 id={titleId} className="pixel-heading text-base text-lime-300">
          Edit User
        </h3>
        <Field label="Name" value={name} onChange={setName} required />
        <Field label="Email" type="email" value={email} onChange={setEmail} required />
        <p className="text-zinc-300">Admin: {isAdmin ? 'Yes' : 'No'}</p>
        <button
          type="button"
          className="btn btn-secondary self-start"
          aria-pressed={isAdmin}
          onClick={() => setIsAdmin((v) => !v)}
        >
          {isAdmin ? 'Revoke Admin' : 'Make Admin'}
        </button>
        <ProblemList problems={errors} />
        <div className="flex justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={isLoading}>
            Update User
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The modal shows once the selected user is loaded (spec section 6). */
function SelectedUser({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: user, error } = useGetAdminUserQuery(id);
  if (error) return <ErrorLine message={errorMessage(error)} />;
  if (!user) return null;
  return <EditUserModal key={user._id} user={user} onClose={onClose} />;
}

export const confirmTwoFactorReset = (email: string) =>
  `Turn off two-factor sign-in for ${email}? Do it only for the account's owner (they lost their phone and recovery codes): they can log in with the password alone, and are mailed.`;

/**
 * An action on a user that mails them and answers a message (issue 11's reset link, issue 36's
 * two-factor reset): asked first, and the line under the button says what the server answered.
 */
function UserActionButton({
  label,
  confirmMessage,
  confirmLabel,
  busyText,
  userId,
  useAction,
}: {
  label: string;
  confirmMessage: string;
  confirmLabel: string;
  busyText: string;
  userId: string;
  useAction: typeof useSendPasswordResetMutation;
}) {
  const [confirming, setConfirming] = useState(false);
  const [act, { data, isLoading, error, reset }] = useAction();
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary self-start"
        disabled={isLoading}
        onClick={() => {
          reset();
          setConfirming(true);
        }}
      >
        {label}
      </button>
      {/* Present from the start, so that the outcome is announced when it arrives. */}
      <p role="status" className={data ? 'text-lime-300' : 'sr-only'}>
        {isLoading ? busyText : (data?.message ?? '')}
      </p>
      {error && <ErrorLine message={errorMessage(error)} />}
      {confirming && (
        <ConfirmDialog
          message={confirmMessage}
          confirmLabel={confirmLabel}
          busy={isLoading}
          onConfirm={() => {
            setConfirming(false);
            act(userId).catch(() => undefined);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

function UserCard({
  user,
  selected,
  onToggle,
}: {
  user: PublicUser;
  selected: boolean;
  onToggle: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleteUser, { isLoading, error }] = useDeleteAdminUserMutation();
  return (
    <li className="flex flex-col gap-2 border-2 border-zinc-700 bg-zinc-950 p-4">
      <p className="font-semibold text-lime-300">{user.name}</p>
      <p className="break-all text-zinc-300">{user.email}</p>
      <p>Admin: {user.isAdmin ? 'Yes' : 'No'}</p>
      <div className="flex gap-3">
        <button type="button" className="btn btn-secondary" aria-expanded={selected} onClick={onToggle}>
          {selected ? 'Close' : 'Edit'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      {error && <ErrorLine message={errorMessage(error)} />}
      {/* Issue 11: the user gets a mail with a reset link; the admin never sees or sets the password. */}
      <UserActionButton
        label="Send password reset"
        confirmMessage={confirmPasswordReset(user.email)}
        confirmLabel="Send"
        busyText="Sending the link…"
        userId={user._id}
        useAction={useSendPasswordResetMutation}
      />
      <UserActionButton
        label="Reset two-factor sign-in"
        confirmMessage={confirmTwoFactorReset(user.email)}
        confirmLabel="Reset"
        busyText="Resetting…"
        userId={user._id}
        useAction={useResetTwoFactorMutation}
      />
      {confirming && (
        <ConfirmDialog
          message={CONFIRM_DELETE_USER}
          busy={isLoading}
          onConfirm={() => {
            setConfirming(false);
            void deleteUser(user._id);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/**
 * Manage Users (spec sections 2 and 6): add, search (at most 9 shown), edit, grant or revoke admin, delete;
 * send a password reset link (issue 11).
 */
export function ManageUsersSection() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // currentData: a new search shows no stale users while it runs.
  const { currentData, error } = useGetAdminUsersQuery({ q, limit: USER_SEARCH_MAX });
  const pending = text !== q || (!currentData && !error);
  const users = (currentData?.users ?? []).slice(0, USER_SEARCH_MAX);

  return (
    <div className="flex flex-col gap-6">
      <AddUserForm />
      <SearchBox
        label="Search users by name"
        placeholder="Search users by name"
        value={text}
        onChange={setText}
      />
      {pending ? (
        <Spinner label="Loading users" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : users.length === 0 ? (
        <p className="text-zinc-300">No users found</p>
      ) : (
        <ul aria-label="Users" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {users.map((user) => (
            <UserCard
              key={user._id}
              user={user}
              selected={selectedId === user._id}
              onToggle={() => setSelectedId((id) => (id === user._id ? null : user._id))}
            />
          ))}
        </ul>
      )}
      {selectedId && <SelectedUser id={selectedId} onClose={() => setSelectedId(null)} />}
    </div>
  );
}

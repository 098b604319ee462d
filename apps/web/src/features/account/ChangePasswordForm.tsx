import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { UpdateProfileBody } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { useUpdateProfileMutation } from './api';
import { textLinkClass } from './AuthPanel';
import { FormField } from './FormField';
import { FormStatus } from './FormStatus';
import { NewPasswordFields, newPasswordProblem } from './NewPasswordFields';
import { readableError } from '../../app/readableError';

export const PASSWORD_CHANGED = 'Your password has been changed.';
export const CURRENT_PASSWORD_REQUIRED = 'Current password is required';

/**
 * Change password (issue 11): current, new, and the new one again. The server ends every other session
 * and answers a fresh token for this one, which replaces the stored userInfo (see api.ts).
 */
export function ChangePasswordForm() {
  const [updateProfile, { isLoading, isSuccess, error, reset }] = useUpdateProfileMutation();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const titleId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = !currentPassword ? CURRENT_PASSWORD_REQUIRED : newPasswordProblem(newPassword, confirm);
    const parsed = UpdateProfileBody.safeParse({ currentPassword, newPassword });
    if (problem || !parsed.success) {
      reset();
      setInvalid(problem ?? parsed.error?.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    const saved = await updateProfile(parsed.data)
      .unwrap()
      .catch(() => null);
    if (!saved) return;
    setCurrentPassword('');
    setNewPassword('');
    setConfirm('');
  }

  const shownError = invalid ?? (error ? readableError(error) : null);

  return (
    <form
      aria-labelledby={titleId}
      aria-busy={isLoading}
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
    >
      <h2 id={titleId} className="text-lg font-semibold text-lime-300">
        Change Password
      </h2>
      <FormField
        label="Current Password"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
      />
      <NewPasswordFields
        password={newPassword}
        confirm={confirm}
        onPasswordChange={setNewPassword}
        onConfirmChange={setConfirm}
      />
      <button type="submit" disabled={isLoading} className="btn btn-primary self-start">
        Change Password
      </button>
      <FormStatus message={isLoading ? 'Changing your password…' : isSuccess ? PASSWORD_CHANGED : null} />
      {shownError && <ErrorLine message={shownError} />}
      <p className="text-sm text-zinc-300">
        Forgot your current password?{' '}
        <Link to="/forgot-password" className={textLinkClass}>
          Get a reset link
        </Link>
      </p>
    </form>
  );
}

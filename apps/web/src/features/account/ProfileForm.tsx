import { useId, useState, type FormEvent } from 'react';
import { UpdateProfileBody, type PublicUser } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { useUpdateProfileMutation } from './api';
import { EmailStatus } from './EmailStatus';
import { FormField } from './FormField';
import { FormStatus } from './FormStatus';
import { readableError } from '../../app/readableError';

export const PROFILE_SAVED = 'Your details have been saved.';

/**
 * Name and e-mail (issue 11). Only what changed is sent; a new e-mail needs the current password, whose
 * field appears once the e-mail differs from the saved one.
 */
export function ProfileForm({ profile }: { profile: PublicUser }) {
  const [updateProfile, { data: savedAnswer, isLoading, isSuccess, error, reset }] =
    useUpdateProfileMutation();
  const [name, setName] = useState(profile.name);
  const [email, setEmail] = useState(profile.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const titleId = useId();

  const nameChanged = name.trim() !== profile.name;
  const emailChanged = email.trim().toLowerCase() !== profile.email.toLowerCase();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Nothing changed: the shared schema answers 'Nothing to change'.
    const parsed = UpdateProfileBody.safeParse({
      ...(nameChanged ? { name } : {}),
      ...(emailChanged ? { email, currentPassword } : {}),
    });
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    // Success replaces the stored userInfo, token included (see api.ts): the header follows at once.
    const saved = await updateProfile(parsed.data)
      .unwrap()
      .catch(() => null);
    if (!saved) return;
    setName(saved.name);
    setEmail(saved.email);
    setCurrentPassword('');
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
        Your Details
      </h2>
      <FormField
        label="Name"
        name="name"
        autoComplete="name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <FormField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <EmailStatus profile={profile} />
      {emailChanged && (
        <FormField
          label="Current Password"
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          required
          hint="Needed to change your email."
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
        />
      )}
      <button type="submit" disabled={isLoading} className="btn btn-primary self-start">
        Save Changes
      </button>
      <FormStatus
        message={
          isLoading ? 'Saving your details…' : isSuccess ? (savedAnswer?.message ?? PROFILE_SAVED) : null
        }
      />
      {shownError && <ErrorLine message={shownError} />}
    </form>
  );
}

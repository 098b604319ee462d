import type { PublicUser } from '@pixel-vault/shared';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { useResendVerificationMutation } from './verifyApi';

/**
 * Issue 36, under the e-mail field of My Account: a new address waiting for its link (the account keeps
 * the old one until then), or the account's own address not confirmed yet; with "Send it again".
 */
export function EmailStatus({ profile }: { profile: PublicUser }) {
  const [resend, { data, error, isLoading }] = useResendVerificationMutation();
  if (!profile.pendingEmail && profile.emailVerified !== false) return null;
  return (
    <div className="flex flex-col gap-2 border-l-4 border-amber-400 bg-zinc-800 px-3 py-2 text-sm text-zinc-200">
      {profile.pendingEmail ? (
        <p>
          Waiting for confirmation: <strong className="break-all">{profile.pendingEmail}</strong>. Open the
          link we sent there to make it your e-mail address; until then you log in with{' '}
          <span className="break-all">{profile.email}</span>.
        </p>
      ) : (
        <p>
          Your e-mail address is not confirmed yet: open the link we sent to{' '}
          <strong className="break-all">{profile.email}</strong>.
        </p>
      )}
      <button
        type="button"
        className="btn btn-secondary self-start"
        disabled={isLoading}
        onClick={() => void resend().catch(() => undefined)}
      >
        Send it again
      </button>
      {/* A live region, not a second role="status": the form has its own (FormStatus). */}
      <p aria-live="polite" className={data ? 'font-semibold text-lime-300' : 'sr-only'}>
        {data?.message ?? ''}
      </p>
      {error && <ErrorLine message={readableError(error)} />}
    </div>
  );
}

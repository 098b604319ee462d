import { useState, type FormEvent } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { RESET_TOKEN_INVALID_MESSAGE, ResetPasswordBody, ResetToken } from '@pixel-vault/shared';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { isTwoFactorChallenge, useResetPasswordMutation } from './api';
import { LoginCodeStep } from './LoginCodeStep';
import { AuthPanel, submitButtonClass, textLinkClass } from './AuthPanel';
import { NewPasswordFields, newPasswordProblem } from './NewPasswordFields';
import { failedStatus, readableError } from '../../app/readableError';

function AskAgain() {
  return (
    <p className="mt-6 text-center text-sm text-zinc-300">
      <Link to="/forgot-password" className={textLinkClass}>
        Ask for a new link
      </Link>
    </p>
  );
}

/**
 * /reset-password/:token (issue 11), opened from the mailed link: the new password twice, then the
 * customer is logged in (the answer is kept as userInfo, as after login) and sent to the home page.
 */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const [resetPassword, { isLoading, isSuccess, error, reset, data }] = useResetPasswordMutation();
  // Issue 36: the password is saved; an account with two-factor sign-in still needs its code.
  const [challengeOver, setChallengeOver] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  useDocumentTitle('Reset Password');

  if (isSuccess && loggedIn) return <Navigate to="/" replace />;

  if (data && isTwoFactorChallenge(data)) {
    return (
      <AuthPanel title="Reset Password">
        <p className="mb-4 text-sm text-zinc-300">
          Your new password is saved. Your account uses two-factor sign-in: enter a code to sign in.
        </p>
        {challengeOver ? (
          <>
            <ErrorLine message={challengeOver} />
            <p className="mt-4 text-sm">
              <Link to="/login" className={textLinkClass}>
                Log in with your new password
              </Link>
            </p>
          </>
        ) : (
          <LoginCodeStep challenge={data.challenge} onChallengeOver={setChallengeOver} />
        )}
      </AuthPanel>
    );
  }

  // A link cut short by a mail program cannot work: say so before a password is typed for nothing.
  if (!ResetToken.safeParse(token).success) {
    return (
      <AuthPanel title="Reset Password">
        <ErrorLine message={RESET_TOKEN_INVALID_MESSAGE} />
        <AskAgain />
      </AuthPanel>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = newPasswordProblem(password, confirm);
    const parsed = ResetPasswordBody.safeParse({ token, password });
    if (problem || !parsed.success) {
      reset();
      setInvalid(problem ?? parsed.error?.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    // Success stores userInfo (see api.ts), then this page sends the customer home.
    resetPassword(parsed.data).catch(() => undefined);
  }

  const shownError = invalid ?? (error ? readableError(error) : null);
  // 400: the link was used, has expired or is unknown; only a new one helps.
  const linkRefused = !invalid && failedStatus(error) === 400;

  return (
    <AuthPanel title="Reset Password">
      <p className="mb-4 text-sm text-zinc-300">Choose a new password for your account.</p>
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={isLoading}>
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
        />
        <button type="submit" disabled={isLoading} className={submitButtonClass}>
          Set New Password
        </button>
        {isLoading && <Spinner label="Saving your new password" />}
        {shownError && <ErrorLine message={shownError} />}
      </form>
      {linkRefused && <AskAgain />}
    </AuthPanel>
  );
}

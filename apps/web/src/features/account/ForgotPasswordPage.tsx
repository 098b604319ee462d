import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ForgotPasswordBody } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useForgotPasswordMutation } from './api';
import { AuthPanel, submitButtonClass, textLinkClass } from './AuthPanel';
import { FormField } from './FormField';
import { readableError } from '../../app/readableError';

/**
 * /forgot-password (issue 11): asks for a reset link. The answer is the same whether or not the e-mail
 * has an account, so the page shows the server's neutral message and nothing else.
 */
export default function ForgotPasswordPage() {
  const [forgotPassword, { isLoading, data, error, reset }] = useForgotPasswordMutation();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  useDocumentTitle('Forgot Password');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ForgotPasswordBody.safeParse({ email });
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    forgotPassword(parsed.data).catch(() => undefined);
  }

  const shownError = invalid ?? (error ? readableError(error) : null);

  return (
    <AuthPanel title="Forgot Password">
      {/* Present from the start, so that the confirmation is announced when it arrives. */}
      <div role="status" aria-live="polite">
        {data && <p className="mb-6 text-zinc-100">{data.message}</p>}
      </div>
      {data ? (
        <p className="text-center text-sm text-zinc-300">
          <Link to="/login" className={textLinkClass}>
            Back to Login
          </Link>
        </p>
      ) : (
        <>
          <p className="mb-4 text-sm text-zinc-300">
            Enter the email address of your account and we will send you a link to choose a new password.
          </p>
          <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={isLoading}>
            <FormField
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <button type="submit" disabled={isLoading} className={submitButtonClass}>
              Send Reset Link
            </button>
            {isLoading && <Spinner label="Sending the link" />}
            {shownError && <ErrorLine message={shownError} />}
          </form>
          <p className="mt-6 text-center text-sm text-zinc-300">
            Remembered it?{' '}
            <Link to="/login" className={textLinkClass}>
              Login
            </Link>
          </p>
        </>
      )}
    </AuthPanel>
  );
}

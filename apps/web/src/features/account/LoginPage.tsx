import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { LoginBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useLoginMutation } from './api';
import { AuthPanel, submitButtonClass, textLinkClass } from './AuthPanel';
import { FormField } from './FormField';
import { redirectQuery, safeRedirect } from './redirect';

/**
 * /login (spec section 2): Email and Password, both required; link to /register; "Forgot password?" to
 * /forgot-password (issue 11).
 */
export default function LoginPage() {
  const userInfo = useAppSelector((state) => state.auth.userInfo);
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const [login, { isLoading, isSuccess, error, reset }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  useDocumentTitle('Login');

  // Someone already logged in is sent home (spec sections 2 and 6); this login goes where it was asked.
  if (userInfo) return <Navigate to={isSuccess ? redirect : '/'} replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = LoginBody.safeParse({ email, password });
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    // The outcome is read from the mutation state; success stores userInfo (see api.ts).
    login(parsed.data).catch(() => undefined);
  }

  const shownError = invalid ?? (error ? errorMessage(error) : null);

  return (
    <AuthPanel title="Login">
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
        <FormField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className={textLinkClass}>
            Forgot password?
          </Link>
        </p>
        <button type="submit" disabled={isLoading} className={submitButtonClass}>
          Login
        </button>
        {isLoading && <Spinner label="Signing in" />}
        {shownError && <ErrorLine message={shownError} />}
      </form>
      <p className="mt-6 text-center text-sm text-zinc-300">
        New customer?{' '}
        <Link to={`/register${redirectQuery(redirect)}`} className={textLinkClass}>
          Register
        </Link>
      </p>
    </AuthPanel>
  );
}

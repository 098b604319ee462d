import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN, RegisterBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useRegisterMutation } from './api';
import { AuthPanel, submitButtonClass, textLinkClass } from './AuthPanel';
import { FormField } from './FormField';
import { fullName } from './fullName';
import { redirectQuery, safeRedirect } from './redirect';

/** /register (spec section 2): First Name, Last Name, Email, Password, all required; link to /login. */
export default function RegisterPage() {
  const userInfo = useAppSelector((state) => state.auth.userInfo);
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const [register, { isLoading, isSuccess, error, reset }] = useRegisterMutation();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  useDocumentTitle('Register');

  // Registration counts as login (spec section 4); someone already logged in is sent home.
  if (userInfo) return <Navigate to={isSuccess ? redirect : '/'} replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // `required` lets a field of spaces through; the trimmed name must still have both parts.
    const problem = !firstName.trim()
      ? 'First name is required'
      : !lastName.trim()
        ? 'Last name is required'
        : null;
    const parsed = RegisterBody.safeParse({ name: fullName(firstName, lastName), email, password });
    if (problem || !parsed.success) {
      reset();
      setInvalid(problem ?? parsed.error?.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    register(parsed.data).catch(() => undefined);
  }

  const shownError = invalid ?? (error ? errorMessage(error) : null);

  return (
    <AuthPanel title="Register">
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={isLoading}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            required
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <FormField
            label="Last Name"
            name="lastName"
            autoComplete="family-name"
            required
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
        </div>
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
          autoComplete="new-password"
          required
          hint={`At least ${PASSWORD_MIN} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" disabled={isLoading} className={submitButtonClass}>
          Register
        </button>
        {isLoading && <Spinner label="Creating your account" />}
        {shownError && <ErrorLine message={shownError} />}
      </form>
      <p className="mt-6 text-center text-sm text-zinc-300">
        Already have an account?{' '}
        <Link to={`/login${redirectQuery(redirect)}`} className={textLinkClass}>
          Login
        </Link>
      </p>
    </AuthPanel>
  );
}

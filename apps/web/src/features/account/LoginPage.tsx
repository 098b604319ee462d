import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { LoginBody, type SessionEndCode } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { isTwoFactorChallenge, useLoginMutation } from './api';
import { AuthPanel, submitButtonClass, textLinkClass } from './AuthPanel';
import { FormField } from './FormField';
import { LoginCodeStep } from './LoginCodeStep';
import { TWO_FACTOR_SECTION_ID, useGetTwoFactorStatusQuery } from './twoFactorApi';
import { redirectQuery, safeRedirect } from './redirect';
import { selectSessionEnded, sessionEndShown } from './authSlice';

/** Why the person was signed out, by the server's code (issue 30). */
const SESSION_END_NOTICES: Record<SessionEndCode, ReactNode> = {
  SESSION_EXPIRED: 'Your session has expired. Please log in again.',
  SESSION_ENDED: 'Your session has ended. Please log in again.',
  ACCOUNT_DELETED: (
    <>
      Your account has been closed, so you have been signed out. If you think this is a mistake, please{' '}
      <Link to="/contact" className={textLinkClass}>
        contact us
      </Link>
      .
    </>
  ),
};

/**
 * Says once why the server ended the session, if it did (the store forgets it as soon as this page
 * has it): shown for as long as the page is.
 */
function useSessionEndNotice(): SessionEndCode | null {
  const dispatch = useAppDispatch();
  const ended = useAppSelector(selectSessionEnded);
  const [notice, setNotice] = useState(ended);
  if (ended && ended !== notice) setNotice(ended);
  useEffect(() => {
    if (ended) dispatch(sessionEndShown());
  }, [ended, dispatch]);
  return notice;
}

/**
 * Where an admin goes after logging in: My Account's two-factor section while REQUIRE_ADMIN_2FA asks
 * them to turn it on (every admin route refuses them until then), else where the login was asked to go.
 */
function AdminAfterLogin({ redirect }: { redirect: string }) {
  const { data, isError } = useGetTwoFactorStatusQuery();
  if (!data && !isError) return <Spinner label="Signing in" />;
  return <Navigate to={data?.required ? `/account#${TWO_FACTOR_SECTION_ID}` : redirect} replace />;
}

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
  // Issue 36: the login of an account with two-factor sign-in answers a challenge for the code step.
  const [challenge, setChallenge] = useState<string | null>(null);
  const passwordStep = useRef<HTMLFormElement>(null);
  const backFromCode = useRef(false);
  // The keyboard goes to the password once its step is back.
  useEffect(() => {
    if (challenge || !backFromCode.current) return;
    backFromCode.current = false;
    passwordStep.current?.querySelector<HTMLInputElement>('input[name="password"]')?.focus();
  }, [challenge]);
  const sessionEnd = useSessionEndNotice();

  useDocumentTitle('Login');

  // Someone already logged in is sent home (spec sections 2 and 6); this login goes where it was asked,
  // unless it is an admin who must turn on two-factor sign-in first (REQUIRE_ADMIN_2FA, issue 36).
  if (userInfo) {
    if (!isSuccess) return <Navigate to="/" replace />;
    return userInfo.isAdmin ? <AdminAfterLogin redirect={redirect} /> : <Navigate to={redirect} replace />;
  }

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
    login(parsed.data)
      .unwrap()
      .then((answer) => {
        if (isTwoFactorChallenge(answer)) setChallenge(answer.challenge);
      })
      .catch(() => undefined);
  }

  /** The challenge expired or took too many codes: the password again, with the server's reason. */
  function backToPassword(message: string) {
    setChallenge(null);
    setPassword('');
    reset();
    setInvalid(message);
    backFromCode.current = true;
  }

  const shownError = invalid ?? (error ? errorMessage(error) : null);

  return (
    <AuthPanel title="Login">
      {sessionEnd && (
        <p role="alert" className="mb-6 border-2 border-amber-400 bg-zinc-950 p-3 text-amber-200">
          {SESSION_END_NOTICES[sessionEnd]}
        </p>
      )}
      {challenge ? (
        <LoginCodeStep challenge={challenge} onChallengeOver={backToPassword} />
      ) : (
        <form ref={passwordStep} onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={isLoading}>
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
      )}
      <p className="mt-6 text-center text-sm text-zinc-300">
        New customer?{' '}
        <Link to={`/register${redirectQuery(redirect)}`} className={textLinkClass}>
          Register
        </Link>
      </p>
    </AuthPanel>
  );
}

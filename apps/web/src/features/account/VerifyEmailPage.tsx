import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { AuthPanel, textLinkClass } from './AuthPanel';
import { useVerifyEmailMutation } from './verifyApi';

/**
 * /verify-email/:token (issue 36): the link of a verification mail. The page sends the token once it
 * is open in a browser (opening the link changes nothing: mail scanners fetch links, they do not POST),
 * then says which address is verified.
 */
export default function VerifyEmailPage() {
  useDocumentTitle('Confirm e-mail address');
  const { token = '' } = useParams();
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const [verify, { data, error, isLoading, isUninitialized }] = useVerifyEmailMutation();
  const sent = useRef('');
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    verify(token).catch(() => undefined);
  }, [token, verify]);

  return (
    <AuthPanel title="Confirm your e-mail address">
      <div role="status" aria-live="polite">
        {data && (
          <>
            <p className="font-semibold text-lime-300">Your e-mail address is verified.</p>
            <p className="mt-2 text-zinc-200">{data.message}</p>
          </>
        )}
      </div>
      {(isLoading || isUninitialized) && <Spinner label="Confirming your e-mail address" />}
      {error && <ErrorLine message={readableError(error)} />}
      {(data || error) && (
        <p className="mt-6 text-center text-sm text-zinc-300">
          {error ? (
            <Link to={loggedIn ? '/account' : '/login?redirect=%2Faccount'} className={textLinkClass}>
              {loggedIn ? 'Ask for a new link in My Account' : 'Log in to ask for a new link'}
            </Link>
          ) : (
            <Link to="/" className={textLinkClass}>
              Continue shopping
            </Link>
          )}
        </p>
      )}
    </AuthPanel>
  );
}

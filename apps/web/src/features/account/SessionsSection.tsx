import { useEffect, useId, useRef, useState } from 'react';
import { type UserSession, dateTimeFormat } from '@pixel-vault/shared';
import { useAppSelector } from '../../app/hooks';
import { readableError } from '../../app/readableError';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { FormStatus } from './FormStatus';
import { useGetSessionsQuery, useRevokeOtherSessionsMutation, useRevokeSessionMutation } from './sessionsApi';

/** Last-used times are written at most once a minute: anything this recent is "now". */
const ACTIVE_NOW_MS = 2 * 60_000;

/** "just now", "12 minutes ago", "3 hours ago", else the date and time. */
export function lastUsedText(iso: string, now = Date.now()): string {
  const ago = now - new Date(iso).getTime();
  if (ago < ACTIVE_NOW_MS) return 'just now';
  const minutes = Math.floor(ago / 60_000);
  if (minutes < 60) return `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

const signedOutOthersText = (count: number) =>
  count === 0
    ? 'No other sessions were signed in.'
    : count === 1
      ? 'Signed out of 1 other session.'
      : `Signed out of ${count} other sessions.`;

/**
 * "Where you're signed in" (issue 36), in My Account: each session's device, address and last use,
 * this browser's marked, a sign-out for each other one, and "Sign out everywhere else" (confirmed).
 * A signed-out browser is refused on its next call and lands on the login page.
 */
export function SessionsSection() {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const token = useAppSelector((state) => state.auth.userInfo?.token);
  const { data, error, isFetching, refetch } = useGetSessionsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [revokeSession, revokeState] = useRevokeSessionMutation();
  const [revokeOthers, revokeOthersState] = useRevokeOtherSessionsMutation();
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // A password or e-mail change on this page answers a fresh token and ends the other sessions.
  const firstToken = useRef(token);
  useEffect(() => {
    if (token !== firstToken.current) {
      firstToken.current = token;
      void refetch();
    }
  }, [token, refetch]);

  const busy = revokeState.isLoading || revokeOthersState.isLoading;

  async function signOut(session: UserSession) {
    setFailure(null);
    setStatus(`Signing out ${session.device}…`);
    const done = await revokeSession(session._id)
      .unwrap()
      .then(() => true)
      .catch((e: unknown) => {
        setFailure(readableError(e));
        return false;
      });
    setStatus(done ? `Signed out ${session.device}${session.ip ? ` (${session.ip})` : ''}.` : null);
    // Its button is gone: keep the keyboard in this section rather than at the top of the page.
    if (done) headingRef.current?.focus();
  }

  async function signOutOthers() {
    setConfirming(false);
    setFailure(null);
    const before = data?.sessions.filter((s) => !s.current).length ?? 0;
    setStatus('Signing out everywhere else…');
    const answer = await revokeOthers()
      .unwrap()
      .catch((e: unknown) => {
        setFailure(readableError(e));
        return null;
      });
    setStatus(answer ? signedOutOthersText(before - answer.sessions.filter((s) => !s.current).length) : null);
    if (answer) headingRef.current?.focus();
  }

  const others = data?.sessions.filter((s) => !s.current) ?? [];

  return (
    <section aria-labelledby={titleId} aria-busy={isFetching || busy} className="flex flex-col gap-4">
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-lime-300">
        Where you&rsquo;re signed in
      </h2>
      {error && !data ? (
        <div className="flex flex-col items-start gap-2">
          <ErrorLine message={readableError(error)} />
          <button type="button" className="btn btn-secondary" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <Spinner label="Loading where you are signed in" />
      ) : (
        <>
          <ul aria-labelledby={titleId} className="flex flex-col gap-3">
            {data.sessions.map((session) => (
              <SessionItem
                key={session._id}
                session={session}
                busy={busy}
                onSignOut={() => void signOut(session)}
              />
            ))}
          </ul>
          {data.sessions.length === 0 && (
            <p className="text-sm text-zinc-300">No other browser or device is signed in to your account.</p>
          )}
          {others.length > 0 ? (
            <button
              type="button"
              className="btn btn-secondary self-start"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              Sign out everywhere else
            </button>
          ) : (
            data.sessions.length > 0 && (
              <p className="text-sm text-zinc-300">You are not signed in anywhere else.</p>
            )
          )}
        </>
      )}
      <FormStatus message={status} />
      {failure && <ErrorLine message={failure} />}
      {confirming && (
        <ConfirmDialog
          message="Sign out everywhere else?"
          details="Every other browser and device signed in to your account will be signed out. You stay signed in here."
          confirmLabel="Sign out everywhere else"
          busy={busy}
          onConfirm={() => void signOutOthers()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

function SessionItem({
  session,
  busy,
  onSignOut,
}: {
  session: UserSession;
  busy: boolean;
  onSignOut: () => void;
}) {
  const address = session.ip ?? 'Unknown address';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 border-2 border-zinc-700 p-3">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-zinc-100">
          <span className="break-words">{session.device}</span>
          {session.current && (
            <span className="border border-lime-400 px-1.5 text-xs font-bold uppercase text-lime-300">
              This device
            </span>
          )}
        </p>
        <p className="text-sm break-all text-zinc-300">{address}</p>
        <p className="text-sm text-zinc-300">
          Last used{' '}
          <time dateTime={session.lastUsedAt} title={new Date(session.lastUsedAt).toLocaleString('en-US')}>
            {lastUsedText(session.lastUsedAt)}
          </time>
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={onSignOut}
          // The visible words first (WCAG label in name), then which of the sessions it ends.
          aria-label={`Sign out ${session.device}, ${address}`}
        >
          Sign out
        </button>
      )}
    </li>
  );
}

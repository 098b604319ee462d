import { useId, useState } from 'react';
import { useLocation } from 'react-router';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { useResendVerificationMutation } from './verifyApi';

/** Dismissed for the rest of the browser session, for this address (a new address shows it again). */
const DISMISSED_KEY = 'pv-verify-banner-dismissed';

function dismissedFor(): string | null {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * Issue 36: under the header while the logged-in shopper's address is not verified. Loaded only then
 * (app/layout/VerifyBannerSlot.tsx), so the first download of a page stays as it was. Not on the
 * link's own page, which says the outcome itself.
 */
export default function VerifyBanner({ email }: { email: string }) {
  const [resend, { data, error, isLoading }] = useResendVerificationMutation();
  const titleId = useId();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState<string | null>(dismissedFor);
  if (dismissed === email || pathname.startsWith('/verify-email/')) return null;
  const onDismiss = () => {
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, email);
    } catch {
      // Storage refused (private mode): dismissed until the page reloads.
    }
    setDismissed(email);
  };
  return (
    <section
      aria-labelledby={titleId}
      className="border-b-2 border-amber-400 bg-zinc-900 px-4 py-3 text-sm text-zinc-100"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <h2 id={titleId} className="sr-only">
          Confirm your e-mail address
        </h2>
        <p className="min-w-0 flex-1 basis-64 break-words">
          Please confirm your e-mail address: we sent a link to <strong>{email}</strong>.
        </p>
        <div className="flex items-center gap-2">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={isLoading}
            onClick={() => void resend().catch(() => undefined)}
          >
            Send it again
          </button>
          <button
            type="button"
            className="px-3 py-2 font-semibold text-zinc-300 hover:text-lime-200"
            aria-label="Dismiss the e-mail confirmation message"
            onClick={onDismiss}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        {/* A live region without role="status": a page's own status line stays the only one. */}
        <p aria-live="polite" className={data ? 'basis-full font-semibold text-lime-300' : 'sr-only'}>
          {isLoading ? 'Sending…' : (data?.message ?? '')}
        </p>
        {error && (
          <div className="basis-full">
            <ErrorLine message={readableError(error)} />
          </div>
        )}
      </div>
    </section>
  );
}

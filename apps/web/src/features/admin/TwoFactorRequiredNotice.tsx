import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import type { RootState } from '../../app/store';

/** What an admin route answers (403) while REQUIRE_ADMIN_2FA is on and this admin has not turned it on. */
const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED';

function refusedForTwoFactor(entry: { error?: unknown } | undefined): boolean {
  const data = (entry?.error as { data?: { code?: unknown } } | undefined)?.data;
  return data?.code === TWO_FACTOR_REQUIRED;
}

/** Whether any call of the dashboard was refused because this admin has no two-factor sign-in yet. */
function selectTwoFactorRequired(state: RootState): boolean {
  // The data layer joins the store with its first call (app/store.ts): before it, nothing was refused.
  const api = state.api as RootState['api'] | undefined;
  if (!api) return false;
  return (
    Object.values(api.queries).some(refusedForTwoFactor) ||
    Object.values(api.mutations).some(refusedForTwoFactor)
  );
}

/**
 * Issue 36: with REQUIRE_ADMIN_2FA on, each section shows the server's message; this says where to turn
 * it on, with the link.
 */
export function TwoFactorRequiredNotice() {
  const required = useAppSelector(selectTwoFactorRequired);
  if (!required) return null;
  return (
    <p role="alert" className="mb-6 border-2 border-amber-400 bg-zinc-950 p-3 text-amber-200">
      Two-factor sign-in is required for admins.{' '}
      <Link
        to="/account"
        className="font-semibold text-cyan-300 underline underline-offset-4 hover:text-fuchsia-300"
      >
        Turn it on in My Account
      </Link>
      , then come back.
    </p>
  );
}

import { Suspense, lazy } from 'react';
import { useAppSelector } from '../hooks';

// Issue 36: the banner's code (its dismissal, its call) loads only for a shopper who needs it; this
// slot is all the first download carries.
const VerifyBanner = lazy(() => import('../../features/account/VerifyBanner'));

/** Under the header: "Please confirm your e-mail address" while the logged-in address is unverified. */
export function VerifyBannerSlot() {
  // Only false, not missing: a userInfo stored before issue 36 says nothing, and shows no banner.
  const email = useAppSelector((state) =>
    state.auth.userInfo?.emailVerified === false ? state.auth.userInfo.email : null,
  );
  if (email === null) return null;
  return (
    <Suspense fallback={null}>
      <VerifyBanner email={email} />
    </Suspense>
  );
}

import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetProfileQuery } from './api';
import { AuthPanel } from './AuthPanel';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileForm } from './ProfileForm';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';
import { readableError } from '../../app/readableError';

/** /account, "My Account" in the account menu (issue 11): the customer's details and password. */
export default function AccountPage() {
  const { data: profile, error } = useGetProfileQuery();

  useDocumentTitle('My Account');

  return (
    <AuthPanel title="My Account">
      {error ? (
        <ErrorLine message={readableError(error)} />
      ) : !profile ? (
        <Spinner label="Loading your account" />
      ) : (
        <div className="flex flex-col gap-8">
          {/* Keyed by the user: the forms start from the saved values of whoever is logged in. */}
          <ProfileForm key={profile._id} profile={profile} />
          <hr className="border-t-2 border-zinc-700" />
          <ChangePasswordForm key={`${profile._id}-password`} />
          <hr className="border-t-2 border-zinc-700" />
          <TwoFactorSection key={`${profile._id}-two-factor`} />
          <hr className="border-t-2 border-zinc-700" />
          <SessionsSection key={`${profile._id}-sessions`} />
        </div>
      )}
    </AuthPanel>
  );
}

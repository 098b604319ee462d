import { useState, type FormEvent } from 'react';
import { AlertSubscribeBody } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { Spinner } from '../../ui/Spinner';
import { useSubscribeAlertMutation } from './api';

/**
 * Issue 34: "Notify me when it is back", under the product page's disabled "Unavailable" button, for the
 * variant chosen (`variantId`, left out for a product without options). A logged-in shopper subscribes
 * with one press; a visitor gives an e-mail address and is told to confirm it with the mailed link (the
 * server's answer, the same for every address). The answer is said in a live region present from the
 * start. Keyed by the variant where it is used: another variant is another alert to ask for.
 */
export function NotifyMe({
  productId,
  variantId,
  name,
}: {
  productId: string;
  variantId: string | undefined;
  name: string;
}) {
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const [subscribe, { isLoading, data, error, reset }] = useSubscribeAlertMutation();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const target = { product: productId, ...(variantId && { variant: variantId }) };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = AlertSubscribeBody.safeParse(loggedIn ? target : { ...target, email });
    if (!parsed.success) {
      reset();
      setInvalid(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    setInvalid(null);
    subscribe(parsed.data).catch(() => undefined);
  }

  const done = data
    ? 'message' in data
      ? data.message
      : `Done: we will e-mail you once when ${name} is back in stock.`
    : null;
  const shownError = invalid ?? (error ? errorMessage(error) : null);

  return (
    <div className="flex flex-col gap-3 border-2 border-zinc-800 p-4">
      <div role="status" aria-live="polite">
        {done && <p className="font-semibold text-lime-300">{done}</p>}
      </div>
      {!done && (
        <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-busy={isLoading}>
          {!loggedIn && (
            <LabelledField label="Email" hint="We will ask you to confirm it first.">
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  type="email"
                  name="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  className="field w-full bg-zinc-950"
                />
              )}
            </LabelledField>
          )}
          <button type="submit" disabled={isLoading} className="btn btn-secondary w-full sm:w-auto">
            Notify me when it is back
          </button>
          {isLoading && <Spinner label="Asking for the alert" />}
          {shownError && <ErrorLine message={shownError} />}
        </form>
      )}
    </div>
  );
}

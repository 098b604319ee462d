import { Link, useParams } from 'react-router';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useUnsubscribeAlertsMutation } from './api';

/**
 * /alerts/unsubscribe/:token (issue 34): the link in every alert mail. Opening it asks; only the button
 * unsubscribes (mail scanners open links, and must not unsubscribe anyone). Mail clients use the
 * one-click address of the List-Unsubscribe header instead.
 */
export default function AlertUnsubscribePage() {
  useDocumentTitle('Stop back-in-stock alerts');
  const { token = '' } = useParams();
  const [unsubscribe, { data, error, isLoading }] = useUnsubscribeAlertsMutation();

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <h1 className="pixel-heading text-xl text-lime-300 sm:text-2xl">Stop back-in-stock alerts?</h1>
      <div role="status" aria-live="polite">
        {data && <p className="font-semibold text-zinc-100">{data.message}</p>}
      </div>
      {data ? (
        <Link to="/" className="btn btn-secondary self-start">
          Back to the shop
        </Link>
      ) : (
        <>
          <p className="text-zinc-300">
            This address will get no more mails about games coming back in stock. Mails about your orders are
            not affected.
          </p>
          <button
            type="button"
            disabled={isLoading}
            onClick={() => void unsubscribe(token).catch(() => undefined)}
            className="btn btn-primary self-start"
          >
            Unsubscribe
          </button>
          {isLoading && <Spinner label="Unsubscribing" />}
          {error && <ErrorLine message={errorMessage(error)} />}
        </>
      )}
    </section>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { nameWithVariant, type StockAlert } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useCancelAlertMutation, useGetMyAlertsQuery } from './api';

const STATUS_TEXT: Record<StockAlert['status'], string> = {
  waiting: 'Waiting: we will e-mail you once when it is back',
  notified: 'Back in stock: we e-mailed you',
  cancelled: 'Cancelled',
  discontinued: 'No longer sold',
};

/**
 * "My alerts" (issue 34): the logged-in shopper's back-in-stock alerts, newest first, each with what
 * became of it; a waiting one can be cancelled.
 */
export function MyAlerts() {
  const { data, error, isLoading } = useGetMyAlertsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [cancel, cancelling] = useCancelAlertMutation();
  const [status, setStatus] = useState('');

  async function onCancel(alert: StockAlert) {
    const label = nameWithVariant(alert.name, alert.variantTitle ?? '');
    const result = await cancel(alert._id);
    setStatus(result.error ? '' : `Alert for ${label} cancelled`);
  }

  return (
    <section aria-labelledby="my-alerts-title" className="mx-auto max-w-4xl px-4 pb-10">
      <h2 id="my-alerts-title" className="pixel-heading mb-4 text-lg text-lime-300">
        My alerts
      </h2>
      <p role="status" className="sr-only">
        {status}
      </p>
      {cancelling.error && <ErrorLine message={errorMessage(cancelling.error)} />}
      {isLoading ? (
        <Spinner label="Loading your alerts" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : !data || data.items.length === 0 ? (
        <p className="text-zinc-300">
          No alerts. On a sold-out game, press “Notify me when it is back” to hear when it returns.
        </p>
      ) : (
        <ul aria-label="My alerts" className="flex flex-col gap-3">
          {data.items.map((alert) => {
            const label = nameWithVariant(alert.name, alert.variantTitle ?? '');
            return (
              <li
                key={alert._id}
                className="flex flex-wrap items-center justify-between gap-3 border-4 border-zinc-800 p-3"
              >
                <div className="flex min-w-0 flex-col gap-1">
                  <Link
                    to={`/shop/${alert.category}/product/${alert.product}?variant=${alert.variant}`}
                    className="font-semibold break-words text-zinc-100 underline-offset-4 hover:text-lime-200 hover:underline"
                  >
                    {label}
                  </Link>
                  <span className="text-sm text-zinc-300">{STATUS_TEXT[alert.status]}</span>
                </div>
                {alert.status === 'waiting' && (
                  <button
                    type="button"
                    disabled={cancelling.isLoading}
                    onClick={() => void onCancel(alert)}
                    aria-label={`Cancel the alert for ${label}`}
                    className="btn btn-secondary"
                  >
                    Cancel
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

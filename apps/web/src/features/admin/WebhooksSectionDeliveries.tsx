import { useEffect, useId, useRef, useState } from 'react';
import {
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from '@pixel-vault/shared';
import { useAppDispatch } from '../../app/hooks';
import { readableError } from '../../app/readableError';
import { ErrorLine } from '../../ui/ErrorLine';
import { LabelledField } from '../../ui/LabelledField';
import { Pager } from '../../ui/Pager';
import { Spinner } from '../../ui/Spinner';
import { sendOrRefusal } from './submit';
import { DELIVERY_STATUS_LABELS, momentText, prettyPayload } from './webhook-form';
import {
  refreshWebhooksList,
  useGetWebhookDeliveriesQuery,
  useRetryWebhookDeliveryMutation,
} from './webhooksApi';

export const DELIVERIES_PAGE_SIZE = 10;
/** How often the log is read again while a delivery on screen is about to be tried. */
export const DELIVERIES_POLL_MS = 2000;
/**
 * How often while some other delivery on screen is pending: its next try is later, or it is being
 * sent right now (a worker's claim moves `nextAttemptAt` two minutes on while it sends: a lease, not
 * a retry time), so its outcome can come at any moment.
 */
export const DELIVERIES_SLOW_POLL_MS = 10_000;
/** A pending delivery due within this long is "about to be tried". */
const DUE_SOON_MS = 15_000;

/** How often to read the log again for what it shows: 0 when nothing on it is pending. */
export function pollInterval(deliveries: readonly WebhookDelivery[], now = Date.now()): number {
  const pending = deliveries.filter((d) => d.status === 'pending');
  if (pending.length === 0) return 0;
  const dueSoon = pending.some(
    (d) => d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - now < DUE_SOON_MS,
  );
  return dueSoon ? DELIVERIES_POLL_MS : DELIVERIES_SLOW_POLL_MS;
}

const STATUS_CLASSES: Record<WebhookDeliveryStatus, string> = {
  pending: 'border-cyan-300 text-cyan-200',
  succeeded: 'border-lime-400 text-lime-300',
  failed: 'border-red-500 text-red-400',
};

/** The receiver's answer at the last try, in words. */
function responseText(delivery: WebhookDelivery): string {
  if (delivery.responseStatus !== null) return `HTTP ${delivery.responseStatus}`;
  return delivery.attempts === 0 ? 'Not tried yet' : 'No answer';
}

function DeliveryItem({
  delivery,
  retrying,
  onRetry,
}: {
  delivery: WebhookDelivery;
  retrying: boolean;
  onRetry: () => void;
}) {
  const created = momentText(delivery.createdAt);
  const row = (term: string, description: string) => (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-zinc-400">{term}:</dt>
      <dd className="min-w-0 break-words text-zinc-100">{description}</dd>
    </div>
  );
  return (
    <li className="flex flex-col gap-2 border-2 border-zinc-700 bg-zinc-950 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-mono text-sm font-semibold break-all text-zinc-50">{delivery.eventType}</p>
        <span className={`border-2 px-2 py-0.5 text-sm font-semibold ${STATUS_CLASSES[delivery.status]}`}>
          {DELIVERY_STATUS_LABELS[delivery.status]}
        </span>
      </div>
      <dl className="flex flex-col gap-1 text-sm">
        {row('Created', created)}
        {row('Attempts', String(delivery.attempts))}
        {row('Response', responseText(delivery))}
        {delivery.lastAttemptAt && row('Last try', momentText(delivery.lastAttemptAt))}
        {/* Not yet tried, it is due now (or being sent: its next-try time is then the worker's lease). */}
        {delivery.nextAttemptAt &&
          delivery.attempts > 0 &&
          row('Next try', momentText(delivery.nextAttemptAt))}
        {delivery.lastError && row('Last error', delivery.lastError)}
        {row('Event id', delivery.eventId)}
      </dl>
      {/* The body is built at the first attempt (the same bytes on every attempt after). */}
      {delivery.payload ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-cyan-300">Payload</summary>
          <pre className="mt-2 max-h-64 overflow-auto border border-zinc-700 bg-black/40 p-2 font-mono text-xs break-all whitespace-pre-wrap text-zinc-200">
            {prettyPayload(delivery.payload)}
          </pre>
        </details>
      ) : (
        <p className="text-sm text-zinc-400">Payload: written at the first attempt.</p>
      )}
      {delivery.status !== 'succeeded' && (
        <button
          type="button"
          className="btn btn-secondary self-start"
          aria-busy={retrying}
          aria-label={`Retry now: ${delivery.eventType} of ${created}`}
          onClick={onRetry}
        >
          Retry now
        </button>
      )}
    </li>
  );
}

/**
 * One endpoint's delivery log (issue 37), newest first: a status filter, pages, each delivery's
 * attempts, the receiver's answer, the last error and the next try, its payload on demand, and
 * "Retry now" for one not delivered yet. While a delivery on screen is about to be tried, the log reads
 * itself again every two seconds, so a test event is seen to succeed without a reload.
 */
export function WebhooksSectionDeliveries({ id, name }: { id: string; name: string }) {
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [page, setPage] = useState(1);
  const [said, setSaid] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const headingId = useId();
  const [poll, setPoll] = useState(0);
  const {
    currentData: data,
    error,
    isFetching,
    refetch,
  } = useGetWebhookDeliveriesQuery(
    { id, ...(status ? { status } : {}), page, limit: DELIVERIES_PAGE_SIZE },
    { refetchOnMountOrArgChange: true, pollingInterval: poll },
  );
  const [retry, { isLoading: retrying, originalArgs }] = useRetryWebhookDeliveryMutation();

  // Polling follows what is on screen; decided from the data, not in render.
  const wantsPoll = data ? pollInterval(data.deliveries) : 0;
  if (wantsPoll !== poll) setPoll(wantsPoll);

  // Nothing waits any more: the endpoint's pending count and failure state moved.
  const dispatch = useAppDispatch();
  const polled = useRef(false);
  useEffect(() => {
    if (polled.current && poll === 0) dispatch(refreshWebhooksList());
    polled.current = poll > 0;
  }, [poll, dispatch]);

  async function onRetry(delivery: WebhookDelivery) {
    // Not disabled while it runs (the focus would drop off the button): a second click waits.
    if (retrying) return;
    const refused = await sendOrRefusal(() => retry({ id, deliveryId: delivery._id }).unwrap());
    setSaid(
      refused
        ? { kind: 'error', message: refused.message }
        : { kind: 'success', message: `Retrying ${delivery.eventType} now` },
    );
  }

  let body;
  if (!data && !error) body = <Spinner label="Loading deliveries" />;
  else if (error) body = <ErrorLine prefix="Error loading deliveries: " message={readableError(error)} />;
  else if (!data || data.deliveries.length === 0)
    body = (
      <p className="text-zinc-300">{status ? 'No deliveries with this status.' : 'No deliveries yet.'}</p>
    );
  else
    body = (
      <>
        <ul aria-label={`Deliveries to ${name}`} aria-busy={isFetching} className="flex flex-col gap-3">
          {data.deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery._id}
              delivery={delivery}
              retrying={retrying && originalArgs?.deliveryId === delivery._id}
              onRetry={() => void onRetry(delivery)}
            />
          ))}
        </ul>
        <Pager
          page={page}
          shownPage={data.page}
          totalPage={data.pages}
          label="Delivery pages"
          busy={isFetching}
          onPage={setPage}
        />
      </>
    );

  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 border-t-2 border-zinc-800 pt-3"
    >
      <h4 id={headingId} className="pixel-heading text-sm text-cyan-300">
        Delivery log
        {data && <span className="ml-2 font-sans text-sm font-normal text-zinc-400">({data.total})</span>}
      </h4>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-40 flex-1">
          <LabelledField label="Status">
            {({ id: selectId }) => (
              <select
                id={selectId}
                className="field w-full"
                value={status}
                onChange={(event) => {
                  setStatus(event.target.value as WebhookDeliveryStatus | '');
                  setPage(1);
                }}
              >
                <option value="">All deliveries</option>
                {WEBHOOK_DELIVERY_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {DELIVERY_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            )}
          </LabelledField>
        </div>
        {/* Never disabled while a poll reads the log: the focus would drop off it. */}
        <button type="button" className="btn btn-secondary" onClick={() => void refetch()}>
          Refresh
        </button>
      </div>
      <div aria-live="polite">
        {said?.kind === 'success' && <p className="text-lime-300">{said.message}</p>}
        {said?.kind === 'error' && <ErrorLine message={said.message} />}
      </div>
      {body}
    </section>
  );
}

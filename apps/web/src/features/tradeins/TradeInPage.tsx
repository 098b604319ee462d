import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { formatDollars, formatOrderDate } from '@pixel-vault/shared';
import { ErrorLine } from '../../ui/ErrorLine';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useGetTradeInQuery } from './api';
import { failedStatus, readableError } from '../../app/readableError';
import { PackingSlip } from './PackingSlip';
import { TradeInNextStep } from './TradeInNextStep';
import { StatusBadge, TradeInItems, TradeInTimeline, TradeInTotals } from './TradeInParts';
import { expiryText, tradeInRef } from './tradeInWords';

/** Statuses in which the box is still to reach the shop: the packing slip is shown. */
const SLIP_STATUSES = new Set(['quoted', 'shipped']);

function NotFound() {
  return (
    <div className="flex flex-col items-start gap-4">
      <p className="text-zinc-300">
        We could not find this trade-in. It may have been mistyped, or belong to another account.
      </p>
      <Link to="/tradeins" className="btn btn-secondary">
        My Trade-ins
      </Link>
    </div>
  );
}

/**
 * /tradeins/:id (issue 35): one of the shopper's trade-ins: its status, what to do next, its items
 * (offered and inspected credit, outcome, reason), the totals, the timeline and, until the box arrives,
 * the printable packing slip. After a move (or the quote, coming from the sell page) the outcome is said
 * in a status line that takes the focus.
 */
export default function TradeInPage({ shopAddress = [] }: { shopAddress?: readonly string[] }) {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const quoted = (location.state as { quoted?: unknown } | null)?.quoted === true;
  const { data: tradeIn, error, isLoading } = useGetTradeInQuery(id, { skip: !id });
  useDocumentTitle(tradeIn ? `Trade-in ${tradeInRef(tradeIn)}` : 'Trade-in');
  const [message, setMessage] = useState('');
  const statusRef = useRef<HTMLParagraphElement>(null);
  const saidQuote = useRef(false);
  const itemsHeadingId = useId();
  const timelineHeadingId = useId();

  const announce = useCallback((text: string) => {
    setMessage(text);
    // After the render that shows the new status.
    setTimeout(() => statusRef.current?.focus(), 0);
  }, []);

  useEffect(() => {
    if (!quoted || !tradeIn || saidQuote.current) return;
    saidQuote.current = true;
    // Said once: a reload of the page is not a new quote.
    void navigate(location.pathname, { replace: true, state: null });
    announce(
      `Your quote is ready: ${formatDollars(tradeIn.totalCredit)} in store credit, held until ${expiryText(tradeIn)}.`,
    );
  }, [quoted, tradeIn, announce, navigate, location.pathname]);

  const notFound = [400, 404].includes(failedStatus(error) ?? 0);

  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <div data-print="hide">
        <Link to="/tradeins" className="btn btn-secondary">
          Back to My Trade-ins
        </Link>
      </div>
      <div className="flex flex-col gap-2" data-print="hide">
        <h1 className="pixel-heading text-xl text-lime-300 sm:text-2xl">
          {notFound ? 'Trade-in not found' : tradeIn ? `Trade-in ${tradeInRef(tradeIn)}` : 'Trade-in'}
        </h1>
        <p
          ref={statusRef}
          role="status"
          tabIndex={-1}
          className={message ? 'font-semibold text-lime-300 outline-none' : 'sr-only'}
        >
          {message}
        </p>
      </div>
      {isLoading ? (
        <Spinner label="Loading trade-in" />
      ) : notFound ? (
        <NotFound />
      ) : error ? (
        <ErrorLine message={readableError(error)} />
      ) : tradeIn ? (
        <>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start" data-print="hide">
            <div className="flex min-w-0 flex-col gap-6">
              <dl className="flex flex-wrap items-center gap-x-6 gap-y-2">
                <div className="flex items-center gap-2">
                  <dt className="text-zinc-400">Status</dt>
                  <dd>
                    <StatusBadge status={tradeIn.status} />
                  </dd>
                </div>
                <div className="flex items-center gap-2">
                  <dt className="text-zinc-400">Quoted on</dt>
                  <dd className="text-zinc-100">{formatOrderDate(tradeIn.createdAt)}</dd>
                </div>
              </dl>
              <TradeInNextStep tradeIn={tradeIn} onDone={announce} />
              <section aria-labelledby={itemsHeadingId} className="flex flex-col gap-4">
                <h2 id={itemsHeadingId} className="pixel-heading text-sm text-cyan-300">
                  Items
                </h2>
                <TradeInItems tradeIn={tradeIn} />
                <TradeInTotals tradeIn={tradeIn} />
              </section>
            </div>
            <section
              aria-labelledby={timelineHeadingId}
              className="flex flex-col gap-3 border-4 border-zinc-800 p-4"
            >
              <h2 id={timelineHeadingId} className="pixel-heading text-sm text-cyan-300">
                Timeline
              </h2>
              <TradeInTimeline events={tradeIn.timeline} />
            </section>
          </div>
          {SLIP_STATUSES.has(tradeIn.status) && <PackingSlip tradeIn={tradeIn} shopAddress={shopAddress} />}
        </>
      ) : null}
    </section>
  );
}

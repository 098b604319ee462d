import { useEffect, useId, useRef, useState } from 'react';
import { formatDollars, formatOrderDate } from '@pixel-vault/shared';
import { errorMessage } from '../../app/api';
import { ErrorLine } from '../../ui/ErrorLine';
import { Fact } from '../../ui/Fact';
import { Spinner } from '../../ui/Spinner';
import { useGetAdminTradeInQuery, useReceiveTradeInMutation } from './tradeinsApi';
import { TradeInInspectForm } from './TradeInsSectionInspect';
import {
  ADMIN_TRADE_IN_STATUS_LABELS,
  AdminTradeInItems,
  AdminTradeInTimeline,
  itemsCount,
} from './TradeInsSectionParts';

/** What the shop does next with a trade-in in this status, when it is not a button or the form. */
const WAITING: Partial<Record<string, string>> = {
  quoted: 'The customer has not sent it yet: it can be received once they mark it as shipped.',
  inspected: 'Waiting for the customer to accept the inspected credit or have the items sent back.',
  returned: 'The customer declined: send the items back to them.',
  cancelled: 'Cancelled: nothing to do.',
  expired: 'The quote expired before it was shipped: nothing to do.',
};

/**
 * One trade-in in the admin's Trade-ins section (issue 35): the customer, the items, the totals, the
 * timeline, and the shop's next step: "Mark received" for a shipped box, the inspection form for a
 * received one. After a step its outcome is said in a status line that takes the focus.
 */
export function TradeInsSectionDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [message, setMessage] = useState('');
  const { data: tradeIn, error, isLoading } = useGetAdminTradeInQuery(id);
  const [receive, receiving] = useReceiveTradeInMutation();
  const timelineId = useId();
  const itemsId = useId();

  // Opened: the reader starts at its heading.
  useEffect(() => headingRef.current?.focus(), [id]);

  function said(text: string) {
    setMessage(text);
    setTimeout(() => statusRef.current?.focus(), 0);
  }

  async function onReceive() {
    try {
      await receive(id).unwrap();
      said('Marked as received: inspect the items below.');
    } catch {
      // Shown from the mutation's error.
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <button type="button" className="btn btn-secondary self-start" onClick={onBack}>
        Back to the queue
      </button>
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold break-all text-zinc-50 outline-none"
      >
        Trade-in <span className="font-mono">{id.slice(0, 8).toUpperCase()}</span>
      </h3>
      <p
        ref={statusRef}
        role="status"
        tabIndex={-1}
        className={message ? 'font-semibold text-lime-300 outline-none' : 'sr-only'}
      >
        {message}
      </p>
      {isLoading ? (
        <Spinner label="Loading trade-in" />
      ) : error ? (
        <ErrorLine message={errorMessage(error)} />
      ) : tradeIn ? (
        <>
          <dl>
            <Fact label="Number">
              <span className="font-mono">{tradeIn._id}</span>
            </Fact>
            <Fact label="Status">{ADMIN_TRADE_IN_STATUS_LABELS[tradeIn.status]}</Fact>
            {tradeIn.user && (
              <Fact label="Customer">
                {tradeIn.user.name} &lt;{tradeIn.user.email}&gt;
              </Fact>
            )}
            <Fact label="Items">{itemsCount(tradeIn.items)}</Fact>
            <Fact label="Quoted">{formatDollars(tradeIn.totalCredit)}</Fact>
            {tradeIn.inspectedCredit != null && (
              <Fact label="Inspected">{formatDollars(tradeIn.inspectedCredit)}</Fact>
            )}
            {tradeIn.status === 'accepted' && (
              <Fact label="Credited">
                {formatDollars(tradeIn.creditedAmount)}
                {tradeIn.giftCardCode ? ` (store credit ${tradeIn.giftCardCode})` : ''}
              </Fact>
            )}
            <Fact label="Tracking number">{tradeIn.trackingNumber ?? 'None given'}</Fact>
            <Fact label="Quoted on">{formatOrderDate(tradeIn.createdAt)}</Fact>
            {tradeIn.status === 'quoted' && (
              <Fact label="Quote expires">{formatOrderDate(tradeIn.expiresAt)}</Fact>
            )}
          </dl>

          {tradeIn.status === 'shipped' && (
            <div className="flex flex-col gap-2">
              <button
                type="button"
                className="btn btn-primary self-start"
                disabled={receiving.isLoading}
                onClick={() => void onReceive()}
              >
                {receiving.isLoading ? 'Saving…' : 'Mark received'}
              </button>
              {receiving.error && <ErrorLine message={errorMessage(receiving.error)} />}
            </div>
          )}
          {WAITING[tradeIn.status] && <p className="text-zinc-300">{WAITING[tradeIn.status]}</p>}

          {tradeIn.status === 'received' ? (
            <TradeInInspectForm tradeIn={tradeIn} onDone={said} />
          ) : (
            <section aria-labelledby={itemsId} className="flex flex-col gap-3">
              <h4 id={itemsId} className="pixel-heading text-sm text-cyan-300">
                Items
              </h4>
              <AdminTradeInItems tradeIn={tradeIn} />
            </section>
          )}

          <section aria-labelledby={timelineId} className="flex flex-col gap-2">
            <h4 id={timelineId} className="pixel-heading text-sm text-cyan-300">
              Timeline
            </h4>
            <AdminTradeInTimeline events={tradeIn.timeline} />
          </section>
        </>
      ) : null}
    </div>
  );
}

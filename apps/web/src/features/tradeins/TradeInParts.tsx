import { Timeline } from '../../ui/Timeline';
import type { TradeIn, TradeInEvent, TradeInStatus } from '@pixel-vault/shared';
import { Price } from '../../ui/Price';
import { ItemName } from '../../ui/ItemName';
import { STATUS_LABELS, eventText, lineCredit, optionsText, outcomeText } from './tradeInWords';

const STATUS_CLASS: Record<TradeInStatus, string> = {
  quoted: 'border-cyan-300 text-cyan-200',
  shipped: 'border-cyan-300 text-cyan-200',
  received: 'border-amber-300 text-amber-200',
  inspected: 'border-amber-300 text-amber-200',
  accepted: 'border-lime-400 text-lime-300',
  cancelled: 'border-zinc-500 text-zinc-300',
  returned: 'border-zinc-500 text-zinc-300',
  expired: 'border-zinc-500 text-zinc-300',
};

/** The status, in words (never only a colour). */
export function StatusBadge({ status }: { status: TradeInStatus }) {
  return (
    <span
      className={`inline-block border-2 px-2 text-xs leading-6 font-bold tracking-wide uppercase ${STATUS_CLASS[status]}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * The trade-in's items: quantity, the credit offered per unit and, once inspected, what the inspection
 * made of it (the outcome, the credit per unit, the reason).
 */
export function TradeInItems({ tradeIn }: { tradeIn: TradeIn }) {
  const inspected = tradeIn.items.some((item) => item.outcome != null);
  return (
    <ul aria-label="Items" className="flex flex-col gap-3">
      {tradeIn.items.map((item) => {
        const changed = item.outcome === 'lowered' || item.outcome === 'rejected';
        return (
          <li
            key={item._id}
            className="grid grid-cols-[3rem_minmax(0,1fr)] gap-x-3 gap-y-2 border-2 border-zinc-800 p-3 sm:grid-cols-[3rem_minmax(0,1fr)_auto]"
          >
            {item.image ? (
              <img src={item.image} alt="" width={48} height={48} className="h-12 w-12 object-contain" />
            ) : (
              <span aria-hidden="true" className="no-image h-12 w-12" />
            )}
            <div className="min-w-0">
              <ItemName name={item.productName} variantTitle={optionsText(item.options)} />
              <p className="text-sm text-zinc-300">
                {item.qty} × <Price value={item.offeredCredit} /> offered each
              </p>
              {item.outcome && (
                <p className={`text-sm break-words ${changed ? 'text-amber-200' : 'text-lime-300'}`}>
                  {outcomeText(item)}
                </p>
              )}
            </div>
            <p className="col-start-2 font-semibold text-lime-300 tabular-nums sm:col-start-3 sm:text-right">
              {inspected && item.inspectedCredit != null && item.inspectedCredit !== item.offeredCredit && (
                <>
                  <s className="mr-2 text-sm font-normal text-zinc-400">
                    <span className="sr-only">Quoted </span>
                    <Price value={lineCredit(item, false)} />
                  </s>
                  <span className="sr-only">Now </span>
                </>
              )}
              <Price value={lineCredit(item, inspected)} />
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** The quote's total, the inspected total and what was credited, as far as the trade-in has come. */
export function TradeInTotals({ tradeIn }: { tradeIn: TradeIn }) {
  return (
    <dl className="flex flex-col">
      <div className="flex justify-between gap-4 border-b border-zinc-800 py-2">
        <dt className="text-zinc-300">Quoted</dt>
        <dd className="font-semibold tabular-nums">
          <Price value={tradeIn.totalCredit} />
        </dd>
      </div>
      {tradeIn.inspectedCredit != null && (
        <div className="flex justify-between gap-4 border-b border-zinc-800 py-2">
          <dt className="text-zinc-300">After inspection</dt>
          <dd className="font-semibold tabular-nums">
            <Price value={tradeIn.inspectedCredit} />
          </dd>
        </div>
      )}
      {tradeIn.status === 'accepted' && (
        <div className="flex justify-between gap-4 py-2">
          <dt className="text-zinc-300">Credited</dt>
          <dd className="font-semibold text-lime-300 tabular-nums">
            <Price value={tradeIn.creditedAmount} />
          </dd>
        </div>
      )}
    </dl>
  );
}

/** What happened to the trade-in, oldest first as the server answers it. */
export function TradeInTimeline({ events }: { events: readonly TradeInEvent[] }) {
  return (
    <Timeline
      label="Trade-in timeline"
      entries={events.map((event) => ({ at: event.at, text: eventText(event), note: event.note }))}
    />
  );
}

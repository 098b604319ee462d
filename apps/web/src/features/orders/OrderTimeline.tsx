import { dateTimeFormat, formatOrderDate, type OrderEvent } from '@pixel-vault/shared';
import { Price } from '../../ui/Price';

/** What happened, in words (issue 12). */
const EVENT_TEXT: Record<OrderEvent['event'], string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  delivered: 'Marked as delivered',
  cancelled: 'Order cancelled',
  refunded: 'Refund issued',
  refund_failed: 'Refund failed',
  expired: 'Order expired: not paid in time',
};

/** Who did it: `system` is the shop itself (expiry, the payment reconciler, PayPal's answer). */
const BY_TEXT: Record<OrderEvent['by'], string> = {
  customer: 'by the customer',
  admin: 'by the shop',
  system: 'by the system',
};

/** 'Jan 5th 24, 10:05 AM' in the reader's time zone: the spec's order date with the time. */
export function formatEventTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatOrderDate(date)}, ${dateTimeFormat({ hour: 'numeric', minute: '2-digit' }).format(date)}`;
}

/** An order's timeline (issue 12), oldest first as the server answers it. */
export function OrderTimeline({ events }: { events: readonly OrderEvent[] }) {
  if (events.length === 0) return <p className="text-zinc-300">Nothing has happened to this order yet.</p>;
  return (
    <ol aria-label="Order timeline" className="flex flex-col">
      {events.map((event, index) => (
        <li
          // Events have no id; the list only ever grows at its end, so the index is stable.
          key={index}
          className="flex flex-col gap-1 border-b border-zinc-800 py-2 last:border-b-0"
        >
          <time dateTime={event.at} className="text-sm text-zinc-400">
            {formatEventTime(event.at)}
          </time>
          <p className="text-zinc-100">
            <span className="font-semibold">{EVENT_TEXT[event.event]}</span> {BY_TEXT[event.by]}
            {event.amount != null && (
              <>
                {': '}
                <Price value={event.amount} className="font-semibold text-lime-300 tabular-nums" />
              </>
            )}
          </p>
          {event.note && <p className="text-sm break-words text-zinc-300">{event.note}</p>}
        </li>
      ))}
    </ol>
  );
}

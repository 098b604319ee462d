import { dateTimeFormat, formatOrderDate, type OrderEvent } from '@pixel-vault/shared';
import { Price } from '../../ui/Price';

/** Who reads the timeline: the customer (their own order) or an admin (issue 30). */
export type TimelineReader = 'customer' | 'admin';

/**
 * What happened, in words for its reader (issues 12 and 30): the customer reads "You cancelled this
 * order" and "We refunded $12.00", never who at the shop did it; an admin reads who did it: the customer
 * by name, an admin by name and e-mail (`byUser`, only in an admin's answer), "an admin" once that
 * account is deleted. `{amount}` is where a refund's amount goes, when the event has one.
 */
export function eventText(event: OrderEvent, reader: TimelineReader, customer?: string): string {
  const by = event.by;
  if (reader === 'customer') {
    switch (event.event) {
      case 'placed':
        return 'You placed this order';
      case 'paid':
        return 'We received your payment of {amount}';
      case 'delivered':
        return 'We delivered your order';
      case 'cancelled':
        return by === 'customer' ? 'You cancelled this order' : 'We cancelled this order';
      case 'refunded':
        return 'We refunded {amount}';
      case 'refund_failed':
        return 'A refund of {amount} could not be made yet';
      case 'expired':
        return 'This order expired: it was not paid in time';
    }
  }
  const who =
    by === 'customer'
      ? customer || event.byUser?.name || 'the customer'
      : by === 'admin'
        ? event.byUser
          ? `${event.byUser.name} (${event.byUser.email})`
          : 'an admin'
        : 'the shop';
  switch (event.event) {
    case 'placed':
      return `Placed by ${who}`;
    case 'paid':
      return by === 'system'
        ? 'Payment of {amount} confirmed by the payment provider'
        : `Paid {amount} by ${who}`;
    case 'delivered':
      return `Marked as delivered by ${who}`;
    case 'cancelled':
      return `Cancelled by ${who}`;
    case 'refunded':
      return by === 'customer'
        ? `Refunded {amount} for ${who}'s cancellation`
        : `Refunded {amount} by ${who}`;
    case 'refund_failed':
      return `A refund of {amount} failed (${who})`;
    case 'expired':
      return 'Expired: not paid in time';
  }
}

/** `text` with `{amount}` as the event's amount; without it ("A refund could not be made") when it has none. */
function Worded({ text, amount }: { text: string; amount: number | null }) {
  if (amount == null || !text.includes('{amount}')) return <>{text.replace(/ (of )?\{amount\}/, '')}</>;
  const [before, after] = text.split('{amount}');
  return (
    <>
      {before}
      <Price value={amount} className="text-lime-300 tabular-nums" />
      {after}
    </>
  );
}

/** 'Jan 5th 24, 10:05 AM' in the reader's time zone: the spec's order date with the time. */
export function formatEventTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatOrderDate(date)}, ${dateTimeFormat({ hour: 'numeric', minute: '2-digit' }).format(date)}`;
}

/** An order's timeline (issue 12), oldest first as the server answers it, in words for its reader. */
export function OrderTimeline({
  events,
  reader = 'customer',
  customer,
}: {
  events: readonly OrderEvent[];
  reader?: TimelineReader;
  /** The customer's name, for an admin's reading (else the event's account, else "the customer"). */
  customer?: string;
}) {
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
          <p className="font-semibold text-zinc-100">
            <Worded text={eventText(event, reader, customer)} amount={event.amount} />
          </p>
          {event.note && <p className="text-sm break-words text-zinc-300">{event.note}</p>}
        </li>
      ))}
    </ol>
  );
}

import { Timeline } from '../../ui/Timeline';
import {
  formatDollars,
  nameWithVariant,
  toCents,
  toDollars,
  type TradeIn,
  type TradeInEvent,
  type TradeInItem,
  type TradeInStatus,
} from '@pixel-vault/shared';
import { Price } from '../../ui/Price';

/** Trade-in statuses as the shop reads them (issue 35); the customer's page words them for the customer. */
export const ADMIN_TRADE_IN_STATUS_LABELS: Record<TradeInStatus, string> = {
  quoted: 'Quoted (not sent yet)',
  shipped: 'Shipped (to receive)',
  received: 'Received (to inspect)',
  inspected: 'Inspected (customer deciding)',
  accepted: 'Accepted (credited)',
  returned: 'Returned (to send back)',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** "Super Mario 64 (Loose / NTSC-U)". */
export function itemLabel(item: Pick<TradeInItem, 'productName' | 'options'>): string {
  return nameWithVariant(
    item.productName,
    Object.values(item.options)
      .filter((value) => value !== '')
      .join(' / '),
  );
}

/** How many items (the sum of the quantities). */
export function itemsCount(items: readonly Pick<TradeInItem, 'qty'>[]): number {
  return items.reduce((sum, item) => sum + item.qty, 0);
}

/** One line of the shop's timeline, with its amount where the step has one. */
export function adminEventText(event: Pick<TradeInEvent, 'kind' | 'actor' | 'amount'>): string {
  const amount = event.amount != null ? ` ${formatDollars(event.amount)}` : '';
  switch (event.kind) {
    case 'quoted':
      return `Quoted${amount} to the customer`;
    case 'shipped':
      return 'Marked as shipped by the customer';
    case 'cancelled':
      return event.actor === 'customer' ? 'Cancelled by the customer' : 'Cancelled by the shop';
    case 'received':
      return 'Received';
    case 'inspected':
      return `Inspected:${amount || ' done'}`;
    case 'accepted':
      return event.actor === 'customer'
        ? `Accepted by the customer${amount ? `:${amount}` : ''}`
        : 'Accepted automatically: every item at its quote';
    case 'credited':
      return `Credited${amount} as store credit`;
    case 'returned':
      return 'Declined by the customer: send the items back';
    case 'expired':
      return 'Expired: not shipped in time';
  }
}

export function AdminTradeInTimeline({ events }: { events: readonly TradeInEvent[] }) {
  return (
    <Timeline
      label="Trade-in timeline"
      entries={events.map((event) => ({ at: event.at, text: adminEventText(event), note: event.note }))}
    />
  );
}

/** A line's credit for all its units, dollars: at the inspection's price once it has one. */
function lineTotal(item: TradeInItem): number {
  return toDollars(toCents(item.inspectedCredit ?? item.offeredCredit) * item.qty);
}

/** The trade-in's items as inspected so far: quantity, quote per unit, outcome, credit, reason. */
export function AdminTradeInItems({ tradeIn }: { tradeIn: TradeIn }) {
  return (
    <ul aria-label="Items" className="flex flex-col gap-2">
      {tradeIn.items.map((item) => (
        <li key={item._id} className="flex flex-col gap-1 border-2 border-zinc-700 bg-zinc-950 p-3">
          <p className="font-semibold break-words text-zinc-100">{itemLabel(item)}</p>
          <p className="text-sm text-zinc-300">
            {item.qty} × <Price value={item.offeredCredit} /> quoted · SKU{' '}
            <span className="font-mono break-all">{item.sku}</span>
          </p>
          {item.outcome && (
            <p className="text-sm break-words text-zinc-200">
              {item.outcome === 'accepted'
                ? 'Accepted at the quote'
                : item.outcome === 'lowered'
                  ? `Lowered to ${formatDollars(item.inspectedCredit ?? 0)} each`
                  : 'Rejected'}
              {item.reason ? `: ${item.reason}` : ''} · <Price value={lineTotal(item)} />
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

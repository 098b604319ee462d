import {
  formatDollars,
  formatOrderDate,
  toCents,
  toDollars,
  type InspectionOutcome,
  type TradeIn,
  type TradeInEvent,
  type TradeInItem,
  type TradeInStatus,
} from '@pixel-vault/shared';

/** A trade-in's status in a word or two, for its customer. */
export const STATUS_LABELS: Record<TradeInStatus, string> = {
  quoted: 'Quoted',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
  received: 'Received',
  inspected: 'Inspected',
  accepted: 'Credited',
  returned: 'Returned',
  expired: 'Expired',
};

export const OUTCOME_LABELS: Record<InspectionOutcome, string> = {
  accepted: 'Accepted at the quote',
  lowered: 'Lowered',
  rejected: 'Rejected',
};

/** A variant's option values as people read them: `Loose / NTSC-U`; empty for a product without options. */
export function optionsText(options: Readonly<Record<string, string>>): string {
  return Object.values(options)
    .filter((value) => value !== '')
    .join(' / ');
}

/** The trade-in's short reference, as its mails name it: the id's first 8 characters, capitals. */
export function tradeInRef(tradeIn: Pick<TradeIn, '_id'>): string {
  return tradeIn._id.slice(0, 8).toUpperCase();
}

/** What the customer gets, or would: the credited amount, else the inspected total, else the quote. */
export function currentTotal(
  tradeIn: Pick<TradeIn, 'status' | 'totalCredit' | 'inspectedCredit' | 'creditedAmount'>,
) {
  if (tradeIn.status === 'accepted') return tradeIn.creditedAmount;
  return tradeIn.inspectedCredit ?? tradeIn.totalCredit;
}

/** A line's credit for all its units, in dollars: at the inspection's price once inspected. */
export function lineCredit(
  item: Pick<TradeInItem, 'qty' | 'offeredCredit' | 'inspectedCredit'>,
  inspected: boolean,
) {
  const unit = inspected && item.inspectedCredit != null ? item.inspectedCredit : item.offeredCredit;
  return toDollars(toCents(unit) * item.qty);
}

/** The lines whose inspection changed the quote (lowered or rejected). */
export function differences(items: readonly TradeInItem[]): TradeInItem[] {
  return items.filter((item) => item.outcome === 'lowered' || item.outcome === 'rejected');
}

/** What a line's inspection said, in a sentence: "Lowered to $12.00 each: label faded". */
export function outcomeText(item: Pick<TradeInItem, 'outcome' | 'inspectedCredit' | 'reason'>): string {
  const why = item.reason ? `: ${item.reason}` : '';
  switch (item.outcome) {
    case 'accepted':
      return 'Accepted at the quote';
    case 'lowered':
      return `Lowered to ${formatDollars(item.inspectedCredit ?? 0)} each${why}`;
    case 'rejected':
      return `Rejected${why}`;
    default:
      return 'Not inspected yet';
  }
}

/** One line of the customer's timeline, with its amount where the step has one. */
export function eventText(event: Pick<TradeInEvent, 'kind' | 'actor' | 'amount'>): string {
  const amount = event.amount != null ? formatDollars(event.amount) : null;
  switch (event.kind) {
    case 'quoted':
      return amount ? `We quoted you ${amount} in store credit` : 'We quoted you';
    case 'shipped':
      return 'You marked it as shipped';
    case 'cancelled':
      return event.actor === 'customer' ? 'You cancelled this trade-in' : 'We cancelled this trade-in';
    case 'received':
      return 'We received your box';
    case 'inspected':
      return amount ? `We inspected your items: ${amount} in store credit` : 'We inspected your items';
    case 'accepted':
      if (event.actor !== 'customer') return 'Accepted: every item was worth its quote';
      return amount ? `You accepted ${amount} in store credit` : 'You accepted the inspected credit';
    case 'credited':
      return amount ? `We credited ${amount} to your store credit` : 'We credited your store credit';
    case 'returned':
      return 'You declined the inspected credit: we are sending your items back';
    case 'expired':
      return 'The quote expired: it was not shipped in time';
  }
}

/** The date a quote runs out, as the shop writes dates: "Dec 4th 26". */
export function expiryText(tradeIn: Pick<TradeIn, 'expiresAt'>): string {
  return formatOrderDate(tradeIn.expiresAt);
}

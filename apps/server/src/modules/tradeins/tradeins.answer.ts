import { type TradeIn, type TradeInEvent, type TradeInItem, toDollars } from '@pixel-vault/shared';
import type { Executor } from '../../db/client.js';
import type { TradeInEventRow, TradeInRow } from '../../db/schema/index.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import {
  type ItemView,
  type Customer,
  creditCodesOf,
  customersOf,
  eventsOf,
  itemsOf,
} from './tradeins.repo.js';
import { EVENT_ORDER } from './tradeins.transitions.js';

/**
 * Issue 35: trade-ins as the API answers them: dollars, ISO dates, image URLs through PUBLIC_URL, the
 * timeline, the credit's gift-card code once credited, and (for an admin) the customer.
 */

const dollarsOrNull = (cents: number | null) => (cents === null ? null : toDollars(cents));

function itemDto(item: ItemView, publicUrl: PublicUrlOf): TradeInItem {
  return {
    _id: item.id,
    product: item.productId,
    variant: item.variantId,
    productName: item.productName,
    options: item.options,
    sku: item.sku,
    image: item.image ? publicUrl(item.image) : '',
    qty: item.qty,
    offeredCredit: toDollars(item.offeredCents),
    outcome: item.outcome,
    inspectedCredit: dollarsOrNull(item.inspectedCents),
    reason: item.reason,
  };
}

/** In time order; steps written at the same instant (accepted, credited) in the order they happen. */
function timeline(events: TradeInEventRow[]): TradeInEvent[] {
  const rank = (kind: TradeInEventRow['kind']) => EVENT_ORDER.indexOf(kind);
  return [...events]
    .sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a.kind) - rank(b.kind))
    .map((event) => ({
      kind: event.kind,
      actor: event.actor,
      at: event.at.toISOString(),
      amount: dollarsOrNull(event.amountCents),
      note: event.note,
    }));
}

function tradeInDto(
  row: TradeInRow,
  parts: {
    items: ItemView[];
    events: TradeInEventRow[];
    code: string | undefined;
    customer: Customer | undefined;
  },
  publicUrl: PublicUrlOf,
): TradeIn {
  return {
    _id: row.id,
    status: row.status,
    items: parts.items.map((item) => itemDto(item, publicUrl)),
    totalCredit: toDollars(row.quotedCents),
    inspectedCredit: dollarsOrNull(row.inspectedCents),
    creditedAmount: toDollars(row.creditedCents),
    giftCardCode: parts.code ?? null,
    trackingNumber: row.trackingNumber,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    timeline: timeline(parts.events),
    ...(parts.customer
      ? { user: { _id: parts.customer.id, name: parts.customer.name, email: parts.customer.email } }
      : {}),
  };
}

/** The customer as the account says now, or as the quote kept them once the account is deleted. */
function customerOf(row: TradeInRow, customers: Map<string, Customer>): Customer {
  const now = row.userId === null ? undefined : customers.get(row.userId);
  return now ?? { id: row.userId, name: row.customerName, email: row.customerEmail };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The answers of several trade-ins in four queries; `forAdmin` adds each one's customer. */
export async function tradeInAnswers(
  ex: Executor,
  rows: readonly TradeInRow[],
  publicUrl: PublicUrlOf,
  { forAdmin = false }: { forAdmin?: boolean } = {},
): Promise<TradeIn[]> {
  const ids = rows.map((r) => r.id);
  const [items, events, codes, customers] = await Promise.all([
    itemsOf(ex, ids),
    eventsOf(ex, ids),
    creditCodesOf(ex, ids),
    forAdmin
      ? customersOf(
          ex,
          rows.map((r) => r.userId),
        )
      : Promise.resolve(new Map<string, Customer>()),
  ]);
  const itemsBy = groupBy(items, (i) => i.tradeInId);
  const eventsBy = groupBy(events, (e) => e.tradeInId);
  return rows.map((row) =>
    tradeInDto(
      row,
      {
        items: itemsBy.get(row.id) ?? [],
        events: eventsBy.get(row.id) ?? [],
        code: codes.get(row.id),
        customer: forAdmin ? customerOf(row, customers) : undefined,
      },
      publicUrl,
    ),
  );
}

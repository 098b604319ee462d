import { type SQLWrapper, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Order, type OrderEvent, toDollars } from '@pixel-vault/shared';
import { type Executor, queryRows } from '../../db/client.js';
import { byCodePoint } from '../../lib/sorting.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import {
  type OrderItemRow,
  type OrderRow,
  giftCardLedger,
  orderEvents,
  orderItems,
  orders,
  payments,
} from '../../db/schema/index.js';
import { type NewOrderEvent, statusOf } from './orders.lifecycle.js';

/** Locks one order row for the rest of the transaction (every money change on an order goes through it). */
export async function lockOrder(tx: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/**
 * Which ledger rows pay an order: its debits, less what a release (expiry, an unpaid cancellation) gave
 * back. A refund of a paid order (issue 12, `refund_id` set) does not unpay it: it counts in
 * `refunded_cents` instead.
 */
const payingLedgerRows = sql`${giftCardLedger.kind} in ('order_debit', 'order_refund') and ${giftCardLedger.refundId} is null`;

/** The money on an order, in cents (>= 0), read in one statement. */
export interface MoneyOnOrder {
  /** Net gift-card money applied: debits minus releases. */
  giftCents: number;
  /** Money captured by a payment provider, as the server verified it. */
  capturedCents: number;
}

/**
 * Both sums in one round trip (issue 13: every paid order asks this once or twice). With `cardId`, the
 * same statement also says whether that gift card has a debit on the order (`cardDebited`).
 */
export async function moneyOn(
  tx: Executor,
  orderId: string,
  cardId?: string,
): Promise<MoneyOnOrder & { cardDebited: boolean }> {
  const money = moneyColumns(orderId, cardId);
  const [row] = await queryRows<{ gift: string | number; captured: string | number; card_debited: boolean }>(
    tx,
    sql`select ${money.giftCents} as gift, ${money.capturedCents} as captured, ${money.cardDebited} as card_debited`,
  );
  return {
    giftCents: Number(row?.gift ?? 0),
    capturedCents: Number(row?.captured ?? 0),
    cardDebited: row?.card_debited === true,
  };
}

/**
 * moneyOn's three values as expressions, for a statement that reads them beside something else (the
 * gift-card payment reads them as it locks the card). `cardId` may be a column.
 */
export function moneyColumns(orderId: string, cardId?: string | SQLWrapper) {
  return {
    giftCents: sql<number>`(select coalesce(-sum(${giftCardLedger.amountCents}), 0) from ${giftCardLedger}
      where ${giftCardLedger.orderId} = ${orderId} and ${payingLedgerRows})`.mapWith(Number),
    capturedCents: sql<number>`(select coalesce(sum(${payments.amountCents}), 0) from ${payments}
      where ${payments.orderId} = ${orderId} and ${payments.status} = 'captured')`.mapWith(Number),
    cardDebited:
      cardId === undefined
        ? sql<boolean>`false`
        : sql<boolean>`exists (select 1 from ${giftCardLedger} where ${giftCardLedger.giftCardId} = ${cardId}
            and ${giftCardLedger.orderId} = ${orderId} and ${giftCardLedger.kind} = 'order_debit')`,
  };
}

/**
 * An order's lines by name, then id. Byte order (`collate "C"`), the same on both engines and the same
 * as sortItems, so an order placed and the same order read back list their lines alike.
 */
export async function itemsFor(tx: Executor, orderIds: string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  return tx
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.orderId), sql`${orderItems.name} collate "C"`, asc(orderItems.id));
}

/** One order's lines in itemsFor's order, for lines the caller has just written. */
export function sortItems(items: OrderItemRow[]): OrderItemRow[] {
  return [...items].sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id));
}

/** The one place an order row becomes the API's Order (dollars, `_id`, the spec's field names). */
export function toOrderDto(
  row: OrderRow,
  items: OrderItemRow[],
  giftCardCents: number,
  /** Provider money captured so far (a spec client's PayPal capture may cover part, decision 004). */
  capturedCents: number,
  publicUrl: PublicUrlOf = relativeUrls,
  timeline?: OrderEvent[],
): Order {
  const paid = row.paidAt !== null;
  const open = row.status === 'unpaid';
  return {
    _id: row.id,
    orderNumber: row.number,
    user: row.userId ? { _id: row.userId, name: row.customerName, email: row.customerEmail } : null,
    createdAt: row.createdAt.toISOString(),
    orderItems: items.map((item) => ({
      _id: item.id,
      itemName: item.name,
      itemQuantity: item.quantity,
      itemPrice: toDollars(item.unitPriceCents),
      displayImage: publicUrl(item.image),
      product: item.productId ?? '',
    })),
    shippingAddress: {
      address: row.shipAddress,
      city: row.shipCity,
      postalCode: row.shipPostalCode,
      country: row.shipCountry,
    },
    price: toDollars(row.itemsCents),
    shippingPrice: toDollars(row.shippingCents),
    taxPrice: toDollars(row.taxCents),
    totalPrice: toDollars(row.totalCents),
    paymentMethod: row.paymentMethod,
    isPaid: paid,
    paidAt: row.paidAt?.toISOString() ?? null,
    isDelivered: row.isDelivered,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    status: statusOf(row),
    expiresAt: open ? row.expiresAt.toISOString() : null,
    giftCardAmount: toDollars(giftCardCents),
    amountDue: open ? toDollars(Math.max(0, row.totalCents - giftCardCents - capturedCents)) : 0,
    paymentResult:
      paid && row.paymentResultMethod
        ? {
            method: row.paymentResultMethod,
            providerId: row.paymentResultProviderId,
            status: row.paymentResultStatus ?? 'COMPLETED',
            payerEmail: row.paymentResultPayerEmail,
            updateTime: (row.paymentResultUpdateTime ?? row.paidAt ?? row.updatedAt).toISOString(),
          }
        : null,
    refundedPrice: toDollars(row.refundedCents),
    ...(timeline ? { timeline } : {}),
  };
}

/** An order's timeline, oldest first (issue 12). */
export async function timelineFor(tx: Executor, orderId: string): Promise<OrderEvent[]> {
  const rows = await tx
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.at), asc(orderEvents.id));
  return rows.map(timelineEntry);
}

/** One event row (or one just written) as the timeline shows it. */
export function timelineEntry(
  e: Pick<NewOrderEvent, 'at' | 'kind' | 'actor'> & Partial<Pick<NewOrderEvent, 'amountCents' | 'note'>>,
): OrderEvent {
  return {
    at: e.at.toISOString(),
    event: e.kind,
    by: e.actor,
    amount: e.amountCents == null ? null : toDollars(e.amountCents),
    note: e.note ?? null,
  };
}

/** Orders as DTOs in at most four queries, whatever their number (no N+1). Keeps the given row order. */
export async function toOrderDtos(
  tx: Executor,
  rows: OrderRow[],
  publicUrl: PublicUrlOf = relativeUrls,
): Promise<Order[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const items = await itemsFor(tx, ids);
  const gift = await queryRows<{ order_id: string; cents: string | number }>(
    tx,
    sql`select ${giftCardLedger.orderId} as order_id, -sum(${giftCardLedger.amountCents}) as cents
        from ${giftCardLedger}
        where ${inArray(giftCardLedger.orderId, ids)}
          and ${payingLedgerRows}
        group by ${giftCardLedger.orderId}`,
  );
  const giftByOrder = new Map(gift.map((g) => [g.order_id, Number(g.cents)]));
  // Only an unpaid order can hold captured money that does not cover it yet; no query otherwise.
  const open = rows.filter((r) => r.status === 'unpaid').map((r) => r.id);
  const captured =
    open.length === 0
      ? []
      : await queryRows<{ order_id: string; cents: string | number }>(
          tx,
          sql`select ${payments.orderId} as order_id, sum(${payments.amountCents}) as cents
              from ${payments}
              where ${inArray(payments.orderId, open)} and ${payments.status} = 'captured'
              group by ${payments.orderId}`,
        );
  const capturedByOrder = new Map(captured.map((c) => [c.order_id, Number(c.cents)]));
  return rows.map((row) =>
    toOrderDto(
      row,
      items.filter((i) => i.orderId === row.id),
      giftByOrder.get(row.id) ?? 0,
      capturedByOrder.get(row.id) ?? 0,
      publicUrl,
    ),
  );
}

/** One order as the API answers it alone: with its timeline. */
export async function orderDto(
  tx: Executor,
  row: OrderRow,
  publicUrl: PublicUrlOf = relativeUrls,
): Promise<Order> {
  const [dto] = await toOrderDtos(tx, [row], publicUrl);
  if (!dto) throw new Error('orderDto: no order');
  return { ...dto, timeline: await timelineFor(tx, row.id) };
}

export async function listOrdersOf(
  tx: Executor,
  userId: string,
  publicUrl: PublicUrlOf = relativeUrls,
): Promise<Order[]> {
  const rows = await tx
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return toOrderDtos(tx, rows, publicUrl);
}

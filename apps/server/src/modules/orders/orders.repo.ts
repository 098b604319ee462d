import { type SQLWrapper, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Order, type OrderEvent, toDollars } from '@pixel-vault/shared';
import { builtOnce } from '../../db/built-once.js';
import { type Executor, queryRows } from '../../db/client.js';
import { byCodePoint } from '../../lib/sorting.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import {
  type OrderItemRow,
  type OrderRow,
  MAX_BALANCE_CENTS,
  giftCardLedger,
  giftCards,
  orderEvents,
  orderItems,
  orders,
  payments,
  users,
} from '../../db/schema/index.js';
import { type NewOrderEvent, statusOf } from './orders.lifecycle.js';

/** Every money change on an order runs this: built once (db/built-once.ts). */
const orderForUpdate = builtOnce<{ id: string }, OrderRow[]>((executor) =>
  executor
    .select()
    .from(orders)
    .where(eq(orders.id, sql.placeholder('id')))
    .for('update'),
);

/** Locks one order row for the rest of the transaction (every money change on an order goes through it). */
export async function lockOrder(tx: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await orderForUpdate(tx, { id: orderId });
  return row;
}

/**
 * Which ledger rows pay an order: its debits, less what a release (Remove at checkout, expiry, an unpaid
 * cancellation) gave back. A refund of a paid order (issue 12, `refund_id` set) does not unpay it: it
 * counts in `refunded_cents` instead.
 */
export const payingLedgerRows = sql`${giftCardLedger.kind} in ('order_debit', 'order_refund') and ${giftCardLedger.refundId} is null`;

/** One application of a gift card to an order (issue 30): what its debit took, and whether it went back. */
export interface CardApplication {
  giftCardId: string;
  application: number;
  cents: number;
  /** A release (Remove at checkout, expiry, an unpaid cancel) gave it back already. */
  released: boolean;
}

/** Every application of gift cards to an order (of `cardId` only, when given), by card and number. */
export async function applicationsOn(
  tx: Executor,
  orderId: string,
  cardId?: string,
): Promise<CardApplication[]> {
  const rows = await queryRows<{
    gift_card_id: string;
    application: number;
    cents: number;
    released: boolean;
  }>(
    tx,
    sql`select d.gift_card_id, d.application, -d.amount_cents as cents,
          exists (select 1 from ${giftCardLedger} r
            where r.gift_card_id = d.gift_card_id and r.order_id = d.order_id
              and r.application = d.application and r.kind = 'order_refund' and r.refund_id is null)
            as released
        from ${giftCardLedger} d
        where d.order_id = ${orderId}::uuid and d.kind = 'order_debit'
          ${cardId === undefined ? sql`` : sql`and d.gift_card_id = ${cardId}::uuid`}
        order by d.gift_card_id, d.application`,
  );
  return rows.map((r) => ({
    giftCardId: r.gift_card_id,
    application: Number(r.application),
    cents: Number(r.cents),
    released: r.released === true,
  }));
}

/**
 * Gives one held application back to its card: the balance goes up by what it debited and the release
 * row is written, by one statement, from the balance it left (its unique key makes it once-only).
 * Answers that balance, or undefined when the card would go above MAX_BALANCE_CENTS (nothing written).
 */
export async function releaseApplication(
  tx: Executor,
  orderId: string,
  held: CardApplication,
  actorUserId: string | null,
  now: Date,
): Promise<number | undefined> {
  const at = now.toISOString();
  const [release] = await queryRows<{ balance_after_cents: number }>(
    tx,
    sql`with credited as (
          update ${giftCards} set balance_cents = balance_cents + ${held.cents}::integer,
            updated_at = ${at}::timestamptz
          where id = ${held.giftCardId}::uuid and balance_cents <= ${MAX_BALANCE_CENTS - held.cents}::integer
          returning balance_cents)
        insert into ${giftCardLedger}
          (gift_card_id, order_id, kind, amount_cents, balance_after_cents, actor_user_id, application,
           created_at)
        select ${held.giftCardId}::uuid, ${orderId}::uuid, 'order_refund', ${held.cents}::integer,
          balance_cents, ${actorUserId}::uuid, ${held.application}::integer, ${at}::timestamptz
        from credited
        returning balance_after_cents`,
  );
  return release ? Number(release.balance_after_cents) : undefined;
}

/** The money on an order, in cents (>= 0), read in one statement. */
export interface MoneyOnOrder {
  /** Net gift-card money applied: debits minus releases. */
  giftCents: number;
  /** Money captured by a payment provider, as the server verified it. */
  capturedCents: number;
}

/**
 * Both sums in one round trip (issue 13: every paid order asks this once or twice). With `cardId`, the
 * same statement also says what that gift card holds on the order (`cardHeldCents`).
 */
export async function moneyOn(
  tx: Executor,
  orderId: string,
  cardId?: string,
): Promise<MoneyOnOrder & { cardHeldCents: number }> {
  const money = moneyColumns(orderId, cardId);
  const [row] = await queryRows<{
    gift: string | number;
    captured: string | number;
    card_held: string | number;
  }>(
    tx,
    sql`select ${money.giftCents} as gift, ${money.capturedCents} as captured, ${money.cardHeldCents} as card_held`,
  );
  return {
    giftCents: Number(row?.gift ?? 0),
    capturedCents: Number(row?.captured ?? 0),
    cardHeldCents: Number(row?.card_held ?? 0),
  };
}

/**
 * moneyOn's three values as expressions, for a statement that reads them beside something else (the
 * gift-card payment reads them as it locks the card). `cardId` may be a column. `cardHeldCents` is net
 * (issue 30): what the card's applications to the order debited, less what was released of them, so a
 * card applied and then removed holds nothing and is not "on the order" any more.
 */
export function moneyColumns(orderId: string | SQLWrapper, cardId?: string | SQLWrapper) {
  return {
    giftCents: sql<number>`(select coalesce(-sum(${giftCardLedger.amountCents}), 0) from ${giftCardLedger}
      where ${giftCardLedger.orderId} = ${orderId} and ${payingLedgerRows})`.mapWith(Number),
    capturedCents: sql<number>`(select coalesce(sum(${payments.amountCents}), 0) from ${payments}
      where ${payments.orderId} = ${orderId} and ${payments.status} = 'captured')`.mapWith(Number),
    cardHeldCents:
      cardId === undefined
        ? sql<number>`0`.mapWith(Number)
        : sql<number>`(select coalesce(-sum(${giftCardLedger.amountCents}), 0) from ${giftCardLedger}
            where ${giftCardLedger.giftCardId} = ${cardId} and ${giftCardLedger.orderId} = ${orderId}
              and ${payingLedgerRows})`.mapWith(Number),
  };
}

/** itemsFor's order within an order. */
const ITEM_ORDER = [
  sql`${orderItems.name} collate "C"`,
  sql`${orderItems.variantTitle} collate "C"`,
  asc(orderItems.id),
];

const itemsOfOne = builtOnce<{ orderId: string }, OrderItemRow[]>((executor) =>
  executor
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, sql.placeholder('orderId')))
    .orderBy(...ITEM_ORDER),
);

/**
 * An order's lines by name, then id. Byte order (`collate "C"`), the same on both engines and the same
 * as sortItems, so an order placed and the same order read back list their lines alike.
 */
export async function itemsFor(tx: Executor, orderIds: string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  // One order (a payment's confirmation mail, a delivery's): a statement built once.
  if (orderIds.length === 1) return itemsOfOne(tx, { orderId: orderIds[0]! });
  return tx
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.orderId), ...ITEM_ORDER);
}

/**
 * One order's lines as a column of another statement, in itemsFor's order (issue 28: a gift-card
 * payment reads them with the card's lock, a round trip fewer per paid order). Lines never change once
 * placed, so any statement of the transaction reads the same.
 */
export function itemsColumn(orderId: string | SQLWrapper) {
  const i = orderItems;
  return sql<OrderItemRow[]>`(select coalesce(json_agg(json_build_object(
      'id', ${i.id}, 'orderId', ${i.orderId}, 'productId', ${i.productId}, 'variantId', ${i.variantId},
      'name', ${i.name}, 'variantTitle', ${i.variantTitle}, 'image', ${i.image},
      'unitPriceCents', ${i.unitPriceCents}, 'quantity', ${i.quantity}, 'discountCents', ${i.discountCents})
      order by ${i.name} collate "C", ${i.variantTitle} collate "C", ${i.id}), '[]'::json)
    from ${orderItems} where ${i.orderId} = ${orderId})`;
}

/** One order's lines in itemsFor's order, for lines the caller has just written. */
export function sortItems(items: OrderItemRow[]): OrderItemRow[] {
  return [...items].sort(
    (a, b) =>
      byCodePoint(a.name, b.name) || byCodePoint(a.variantTitle, b.variantTitle) || byCodePoint(a.id, b.id),
  );
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
      variant: item.variantId,
      variantTitle: item.variantTitle,
    })),
    shippingAddress: {
      address: row.shipAddress,
      city: row.shipCity,
      postalCode: row.shipPostalCode,
      country: row.shipCountry,
    },
    price: toDollars(row.itemsCents),
    discountCode: row.discountCode,
    discountPrice: toDollars(row.discountCents),
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

/**
 * An order's timeline, oldest first (issue 12). `withActors` (an admin's reading only, issue 30) adds
 * who did it, `byUser: {name, email}`, from their account as it is now; an account since deleted
 * (actor_user_id set null) adds nothing. A customer's answer never carries it: it would name admins.
 */
export async function timelineFor(
  tx: Executor,
  orderId: string,
  { withActors = false }: { withActors?: boolean } = {},
): Promise<OrderEvent[]> {
  const order = [asc(orderEvents.at), asc(orderEvents.id)];
  if (!withActors) {
    const rows = await tx
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(...order);
    return rows.map(timelineEntry);
  }
  const rows = await tx
    .select({ event: orderEvents, name: users.name, email: users.email })
    .from(orderEvents)
    .leftJoin(users, eq(users.id, orderEvents.actorUserId))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(...order);
  return rows.map(({ event, name, email }) => ({
    ...timelineEntry(event),
    ...(name !== null && email !== null ? { byUser: { name, email } } : {}),
  }));
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

/**
 * One order as the API answers it alone: with its timeline. `forAdmin` (an admin reads it, issue 30):
 * the timeline names who did what, and `customer` gives the order's own snapshot of the customer, kept
 * when the account is deleted, as the admin list does.
 */
export async function orderDto(
  tx: Executor,
  row: OrderRow,
  publicUrl: PublicUrlOf = relativeUrls,
  { forAdmin = false }: { forAdmin?: boolean } = {},
): Promise<Order> {
  const [dto] = await toOrderDtos(tx, [row], publicUrl);
  if (!dto) throw new Error('orderDto: no order');
  const timeline = await timelineFor(tx, row.id, { withActors: forAdmin });
  if (!forAdmin) return { ...dto, timeline };
  return { ...dto, customer: { name: row.customerName, email: row.customerEmail }, timeline };
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

import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Order, toDollars } from '@pixel-vault/shared';
import { type Executor, queryRows } from '../../db/client.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import {
  type OrderItemRow,
  type OrderRow,
  giftCardLedger,
  orderItems,
  orders,
  payments,
} from '../../db/schema/index.js';

/** Locks one order row for the rest of the transaction (every money change on an order goes through it). */
export async function lockOrder(tx: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/** Net gift-card money applied to an order: debits minus refunds, in cents (>= 0). */
export async function giftCardCentsFor(tx: Executor, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(-sum(${giftCardLedger.amountCents}), 0)`.mapWith(Number) })
    .from(giftCardLedger)
    .where(
      and(eq(giftCardLedger.orderId, orderId), inArray(giftCardLedger.kind, ['order_debit', 'order_refund'])),
    );
  return row?.cents ?? 0;
}

/** Money captured by a payment provider for an order, in cents, as the server verified it. */
export async function capturedCentsFor(tx: Executor, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number) })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'captured')));
  return row?.cents ?? 0;
}

export async function itemsFor(tx: Executor, orderIds: string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  return tx
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.orderId), asc(orderItems.name), asc(orderItems.id));
}

/** The one place an order row becomes the API's Order (dollars, `_id`, the spec's field names). */
export function toOrderDto(
  row: OrderRow,
  items: OrderItemRow[],
  giftCardCents: number,
  /** Provider money captured so far (a spec client's PayPal capture may cover part, decision 004). */
  capturedCents: number,
  publicUrl: PublicUrlOf = relativeUrls,
): Order {
  const paid = row.status === 'paid';
  return {
    _id: row.id,
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
    status: row.status,
    expiresAt: row.status === 'unpaid' ? row.expiresAt.toISOString() : null,
    giftCardAmount: toDollars(giftCardCents),
    amountDue:
      paid || row.status === 'expired'
        ? 0
        : toDollars(Math.max(0, row.totalCents - giftCardCents - capturedCents)),
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
          and ${giftCardLedger.kind} in ('order_debit', 'order_refund')
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

export async function orderDto(
  tx: Executor,
  row: OrderRow,
  publicUrl: PublicUrlOf = relativeUrls,
): Promise<Order> {
  const [dto] = await toOrderDtos(tx, [row], publicUrl);
  if (!dto) throw new Error('orderDto: no order');
  return dto;
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

import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { formatCents } from '@pixel-vault/shared';
import type { HoldLimits } from '../../config.js';
import { builtOnce } from '../../db/built-once.js';
import type { Transaction } from '../../db/client.js';
import { type OrderRow, orders, payments, products } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { StockChange } from '../products/products.stock.js';
import { expireLocked, isOverdue } from './orders.expiry.js';
import { itemsFor } from './orders.repo.js';

/**
 * Bounded holds (issue 9): an unpaid order reserves stock until its hold ends, so what one customer's
 * unpaid orders may hold together is capped, or one customer could empty the shop for half an hour.
 */

/** What a customer's open unpaid orders hold, besides the order being placed. */
export interface Holds {
  orders: number;
  units: number;
  valueCents: number;
  /** When the first of them is released (null when none is open). */
  firstReleaseAt: Date | null;
  /**
   * Variant id -> units this call gave back (expired or replaced orders): the stock the new order may
   * count on beside what was read, and the low-stock check's starting point.
   */
  released: Map<string, number>;
}

export interface AdmitHoldInput {
  userId: string;
  /** The new order's lines: variant id -> quantity (issue 31: stock is the variants'). */
  cart: ReadonlyMap<string, number>;
  /** The products of those lines: their rows are locked before anything is released. */
  products: readonly string[];
  /**
   * The earlier order of the same checkout this one replaces (its cart or address changed). Only an
   * open unpaid order of this customer is released; any other id is ignored, telling nothing about it.
   */
  replacesOrderId?: string | undefined;
  now: Date;
  limits: HoldLimits;
  /** The stock of what is released, for the catalogue once the placement commits (issue 28). */
  moved?: StockChange[];
}

/** A payment the customer may still complete: an order carrying one is never released for them. */
const PAYMENT_UNDER_WAY = ['created', 'captured'] as const;

/** The customer's unpaid orders, locked in id order (every placement reads them: built once). */
const unpaidForUpdate = builtOnce<{ userId: string }, OrderRow[]>((executor) =>
  executor
    .select()
    .from(orders)
    .where(and(eq(orders.userId, sql.placeholder('userId')), eq(orders.status, 'unpaid')))
    .orderBy(asc(orders.id))
    .for('update'),
);

/**
 * Call with the customer's users row locked (their placements run one at a time), before reserving.
 * Locks their unpaid orders, then expires the ones whose hold ran out, and any open one with the same
 * lines as `cart` (placed again, e.g. from a reloaded checkout) or named by `replacesOrderId`, unless a
 * payment is under way on it: their stock and gift-card money go back. Refuses (409) an order that would go over the number of
 * orders or of units the rest hold; the value is checked once the order is priced (`checkHoldValue`).
 */
export async function admitHold(
  tx: Transaction,
  { userId, cart, products: cartProducts, replacesOrderId, now, limits, moved }: AdmitHoldInput,
): Promise<Holds> {
  // Lock order user -> orders -> products, as payments and the sweeper keep it: no deadlock.
  const unpaid = await unpaidForUpdate(tx, { userId });
  const lines = await linesOf(
    tx,
    unpaid.map((o) => o.id),
  );

  const overdue = unpaid.filter((o) => isOverdue(o, now));
  const open = unpaid.filter((o) => !isOverdue(o, now));
  // `open` holds only this customer's unpaid orders: another's id, or a paid or unknown one, names none.
  const replacedId = replacesOrderId?.toLowerCase();
  const replaced = open.filter((o) => o.id === replacedId || sameLines(lines.get(o.id) ?? [], cart));
  const paying = await ordersWithPaymentUnderWay(
    tx,
    replaced.map((o) => o.id),
  );
  const release = [...overdue, ...replaced.filter((o) => !paying.has(o.id))];

  if (release.length > 0) {
    // Stock goes back to some products and the new order takes from others: take every product
    // lock now, in id order, so no other placement can hold one of them while waiting for ours.
    const touched = new Set(cartProducts);
    for (const order of release) for (const l of lines.get(order.id) ?? []) touched.add(l.productId);
    await tx
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, [...touched]))
      .orderBy(asc(products.id))
      .for('update');
  }
  // expireLocked may still keep one (a payment it must wait for): then it holds, and counts if open.
  const released = new Set<string>();
  for (const order of release) if (await expireLocked(tx, order, now, moved)) released.add(order.id);

  const givenBack = new Map<string, number>();
  for (const id of released) {
    for (const l of lines.get(id) ?? [])
      givenBack.set(l.variantId, (givenBack.get(l.variantId) ?? 0) + l.quantity);
  }
  const kept = open.filter((o) => !released.has(o.id));
  const holds: Holds = {
    orders: kept.length,
    units: kept.reduce((sum, o) => sum + unitsOf(lines.get(o.id) ?? []), 0),
    valueCents: kept.reduce((sum, o) => sum + o.totalCents, 0),
    firstReleaseAt: kept.reduce<Date | null>(
      (first, o) => (first && first <= o.expiresAt ? first : o.expiresAt),
      null,
    ),
    released: givenBack,
  };

  if (holds.orders + 1 > limits.maxOrders) {
    const n = holds.orders;
    throw holdLimit(`You already have ${n} unpaid order${n === 1 ? '' : 's'}.`, holds, now);
  }
  const units = holds.units + [...cart.values()].reduce((sum, q) => sum + q, 0);
  if (units > limits.maxUnits) {
    throw holdLimit(
      `Unpaid orders may hold at most ${limits.maxUnits} items at once; this order would make it ${units}.`,
      holds,
      now,
    );
  }
  return holds;
}

/** After pricing the new order: refuses it (409) when the totals held would go over the value limit. */
export function checkHoldValue(holds: Holds, totalCents: number, limits: HoldLimits, now: Date): void {
  const value = holds.valueCents + totalCents;
  if (value <= limits.maxValueCents) return;
  throw holdLimit(
    `Unpaid orders may hold at most ${formatCents(limits.maxValueCents)} at once; this order would make it ${formatCents(value)}.`,
    holds,
    now,
  );
}

interface HeldLine {
  productId: string;
  variantId: string;
  quantity: number;
}

async function linesOf(tx: Transaction, orderIds: string[]): Promise<Map<string, HeldLine[]>> {
  const byOrder = new Map<string, HeldLine[]>();
  for (const row of await itemsFor(tx, orderIds)) {
    // A line of a product or variant deleted since: it holds no stock any more, and no cart can name it.
    if (!row.productId || !row.variantId) continue;
    const list = byOrder.get(row.orderId) ?? [];
    list.push({ productId: row.productId, variantId: row.variantId, quantity: row.quantity });
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

const unitsOf = (lines: readonly HeldLine[]) => lines.reduce((sum, l) => sum + l.quantity, 0);

/** Variant -> quantity equal, whatever the order of the lines. */
function sameLines(lines: readonly HeldLine[], cart: ReadonlyMap<string, number>): boolean {
  const held = new Map<string, number>();
  for (const l of lines) held.set(l.variantId, (held.get(l.variantId) ?? 0) + l.quantity);
  if (held.size !== cart.size) return false;
  for (const [id, quantity] of cart) if (held.get(id) !== quantity) return false;
  return true;
}

async function ordersWithPaymentUnderWay(tx: Transaction, orderIds: string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ orderId: payments.orderId })
    .from(payments)
    .where(and(inArray(payments.orderId, orderIds), inArray(payments.status, [...PAYMENT_UNDER_WAY])));
  return new Set(rows.map((r) => r.orderId));
}

/** 409 with what to do next: pay or wait for an open order, or (none open) order less. */
function holdLimit(reason: string, holds: Holds, now: Date): AppError {
  let advice = 'Please place a smaller order.';
  if (holds.firstReleaseAt) {
    const minutes = Math.max(1, Math.ceil((holds.firstReleaseAt.getTime() - now.getTime()) / 60_000));
    advice = `Please pay an open order in My Orders, or wait until it is released (in ${minutes} minute${minutes === 1 ? '' : 's'}).`;
  }
  return new AppError(409, `${reason} ${advice}`, 'HOLD_LIMIT');
}

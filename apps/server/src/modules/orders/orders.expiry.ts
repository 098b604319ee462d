import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, type Executor, queryRows } from '../../db/client.js';
import { type OrderRow, orderItems, orders, payments, productVariants } from '../../db/schema/index.js';
import { periodic } from '../../lib/periodic.js';
import { STOCK_LSN, type StockChange, parseLsn } from '../products/products.stock.js';
import { releaseUse } from '../promotions/promotions.repo.js';
import { orderExpired, recordEvent } from './orders.lifecycle.js';
import { applicationsOn, releaseApplication } from './orders.repo.js';

export { orderExpired };

/** An unpaid order whose hold ran out: it must be expired before anything else happens to it. */
export function isOverdue(order: OrderRow, now: Date): boolean {
  return order.status === 'unpaid' && order.expiresAt.getTime() <= now.getTime();
}

/**
 * A provider payment of this order still `created`: PayPal may hold a capture we have not recorded
 * yet (the server died in between, issue 9). The payment reconciler settles or fails it first.
 */
const paymentInFlight = (orderId: string | typeof orders.id) =>
  sql`select 1 from ${payments} where ${payments.orderId} = ${orderId} and ${payments.status} = 'created'`;

/**
 * unpaid -> expired, for an order the caller has locked (FOR UPDATE): the reserved stock goes back
 * to the shelf and every gift-card debit is refunded (ledger row + balance), in the caller's
 * transaction. A no-op (false) for an order that is not unpaid, or that has a payment in flight:
 * its stock and gift-card money are not given back while captured money may still come in (the
 * reconciler would settle the order with it).
 */
export async function expireLocked(
  tx: Executor,
  order: OrderRow,
  now: Date,
  moved?: StockChange[],
): Promise<boolean> {
  if (order.status !== 'unpaid') return false;
  if ((await queryRows(tx, paymentInFlight(order.id))).length > 0) return false;
  await releaseLocked(tx, order, now, 'expired', moved);
  await recordEvent(tx, { orderId: order.id, kind: 'expired', actor: 'system', at: now });
  return true;
}

/**
 * Puts an order's items back on the shelf, in product-id order (as when reserving, so a release and a
 * new order cannot deadlock). Lines of products deleted since are skipped. The caller holds the order's
 * lock and makes sure it happens once (`orders.restocked`). The new stock figures go into `moved`, for
 * the catalogue to show once the transaction has committed (issue 28).
 */
export async function returnStock(tx: Executor, orderId: string, moved?: StockChange[]): Promise<void> {
  const lines = await tx
    .select({
      productId: orderItems.productId,
      variantId: orderItems.variantId,
      quantity: orderItems.quantity,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId), asc(orderItems.variantId));
  for (const line of lines) {
    // Its product or variant was deleted since: there is no shelf to put it back on.
    if (!line.productId || !line.variantId) continue;
    const [row] = await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${line.quantity}` })
      .where(eq(productVariants.id, line.variantId))
      .returning({ stock: productVariants.stock, lsn: STOCK_LSN });
    if (row) {
      const soldOutChanged = row.stock - line.quantity <= 0;
      moved?.push({ id: line.variantId, stock: row.stock, lsn: parseLsn(row.lsn), soldOutChanged });
    }
  }
}

/**
 * Closes a locked unpaid order (expired, or cancelled by its customer, issue 12): its stock goes back
 * to the shelf and every gift-card debit still held is given back (ledger row + balance). A payment still in
 * flight is not waited for: a capture that arrives for a closed order is recorded and given back by
 * the payment reconciler, never used to pay it.
 */
export async function releaseLocked(
  tx: Executor,
  order: OrderRow,
  now: Date,
  to: 'expired' | 'cancelled',
  moved?: StockChange[],
): Promise<void> {
  await returnStock(tx, order.id, moved);

  // Only what is still held: an application removed at checkout (issue 30) was released already, and
  // its release row (same card, order and application) keeps it from being given back twice.
  for (const held of await applicationsOn(tx, order.id)) {
    if (held.released) continue;
    // The card had this money before the order took it; only top-ups since could leave no room.
    if ((await releaseApplication(tx, order.id, held, null, now)) === undefined) {
      throw new Error(
        `Gift card ${held.giftCardId} has no room for the ${held.cents} cents order ${order.id} held`,
      );
    }
  }

  // Its discount code's use goes back too (issue 32): a code used up by orders never paid is free again.
  if (order.discountCode !== null) await releaseUse(tx, order.id, now);

  await tx.update(orders).set({ status: to, restocked: true, updatedAt: now }).where(eq(orders.id, order.id));
  order.status = to;
  order.restocked = true;
}

export interface OrderExpiry {
  start(): void;
  stop(): Promise<void>;
  /** Expires every overdue unpaid order; answers how many. */
  sweepOnce(): Promise<number>;
}

export interface OrderExpiryOptions {
  db: Database;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
  clock?: () => Date;
  intervalMs?: number;
  /** Items went back on the shelf (committed): the catalogue shows the new stock. */
  onStockMoved?: (moved: StockChange[]) => void;
}

const SWEEP_BATCH = 50;

/**
 * Expires overdue unpaid orders. SKIP LOCKED lets several instances sweep side by side, and skips
 * an order someone is paying right now (that call expires it itself if it is overdue). An order with
 * a payment in flight waits for the payment reconciler (payments.reconciler.ts).
 */
export function createOrderExpiry({
  db,
  log,
  clock = () => new Date(),
  intervalMs = 60_000,
  onStockMoved,
}: OrderExpiryOptions): OrderExpiry {
  /** Answers how many orders it claimed (the loop goes on while batches are full) and expired. */
  async function sweepBatch(): Promise<{ claimed: number; expired: number }> {
    const now = clock();
    const moved: StockChange[] = [];
    const swept = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.status, 'unpaid'),
            lte(orders.expiresAt, now),
            sql`not exists (${paymentInFlight(orders.id)})`,
          ),
        )
        .orderBy(asc(orders.expiresAt))
        .limit(SWEEP_BATCH)
        .for('update', { skipLocked: true });
      let expired = 0;
      for (const order of due) if (await expireLocked(tx, order, now, moved)) expired += 1;
      return { claimed: due.length, expired };
    });
    if (moved.length > 0) onStockMoved?.(moved);
    return swept;
  }

  async function sweepOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, expired } = await sweepBatch();
      total += expired;
      if (claimed < SWEEP_BATCH) break;
    }
    if (total > 0) {
      log.info({ expired: total }, 'unpaid orders expired');
    }
    return total;
  }

  return {
    ...periodic(sweepOnce, intervalMs, (error) => log.error({ err: error }, 'order expiry failed')),
    sweepOnce,
  };
}

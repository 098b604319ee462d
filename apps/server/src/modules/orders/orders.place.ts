import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type CreateOrderBody, type Order, priceOrder } from '@pixel-vault/shared';
import type { HoldLimits } from '../../config.js';
import { type Database, type Transaction, queryRows } from '../../db/client.js';
import {
  type OrderItemRow,
  orderEvents,
  orderItems,
  orders,
  productVariants,
  products,
  users,
} from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, isDeadlock, notFound } from '../../lib/errors.js';
import { byCodePoint } from '../../lib/sorting.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type LowStockCrossing, lowStockMail } from '../admin/low-stock.mail.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import type { ProductsService } from '../products/products.service.js';
import { STOCK_LSN, type StockChange, parseLsn } from '../products/products.stock.js';
import { admitHold, checkHoldValue } from './orders.holds.js';
import { eventInsert } from './orders.lifecycle.js';
import { sortItems, timelineEntry, toOrderDto } from './orders.repo.js';

/**
 * Placing an order (`POST /api/orders`): the customer's holds admitted, the lines priced from the
 * catalogue, the order written and its stock reserved, in one transaction; the catalogue then shows
 * the stock the placement left (issue 28). Split from orders.service.ts, as holds, expiry and the
 * lifecycle are.
 */
export interface OrderPlacementOptions {
  db: Database;
  catalogue: Pick<ProductsService, 'stockMoved'>;
  mailer: Mailer;
  holdMinutes: number;
  holdLimits: HoldLimits;
  clock: () => Date;
  publicUrl: PublicUrlOf;
  lowStock?: { threshold: number; to: string };
}

/**
 * How often a placement is tried: priced again when an admin changes a price in the middle of it, or
 * run again when PostgreSQL aborted it as a deadlock's victim. Reservations lock products in id order,
 * but a placement that first gives back the customer's replaced or overdue order locks that order's
 * products before its own, so two placements can still wait on each other; the whole transaction was
 * rolled back, so running it again is safe.
 */
const PLACE_ATTEMPTS = 3;

/** A line's price or name changed between reading it and reserving it: price the order again. */
class PriceMoved extends Error {}

function outOfStock(name: string, stock: number): AppError {
  return stock <= 0
    ? new AppError(409, `${name} is sold out`, 'OUT_OF_STOCK')
    : new AppError(409, `Only ${stock} left of ${name}`, 'OUT_OF_STOCK');
}

interface ReservedLine {
  productId: string;
  /** The variant the line buys (issue 31): the product's default one, for a line naming the product only. */
  variantId: string;
  variantTitle: string;
  quantity: number;
  name: string;
  priceCents: number;
  image: string;
}

export function createOrderPlacement({
  db,
  catalogue,
  mailer,
  holdMinutes,
  holdLimits,
  clock,
  publicUrl,
  lowStock,
}: OrderPlacementOptions): (user: AuthUser, body: CreateOrderBody) => Promise<Order> {
  /**
   * What the order's lines cost, read without locking anything: the price and name the order records.
   * Unknown, deleted or short products are refused here with the message the shopper sees.
   */
  async function priceLines(tx: Transaction, quantities: Map<string, number>): Promise<ReservedLine[]> {
    const ids = [...quantities.keys()];
    const rows = await queryRows<{
      id: string;
      name: string;
      variant_id: string;
      price_cents: number;
      stock: number;
      image: string | null;
    }>(
      tx,
      sql`select p.id, p.name, v.id as variant_id, v.price_cents, v.stock,
            (select url from product_images i where i.product_id = p.id order by i.position limit 1) as image
          from ${products} p
          join ${productVariants} v on v.product_id = p.id and v.position = 0 and v.archived_at is null
          where p.id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}) and p.deleted_at is null`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw notFound('Product not found');
      const quantity = quantities.get(id) ?? 0;
      if (row.stock < quantity) throw outOfStock(row.name, row.stock);
      return {
        productId: id,
        variantId: row.variant_id,
        variantTitle: '',
        quantity,
        name: row.name,
        priceCents: Number(row.price_cents),
        image: row.image ?? '',
      };
    });
  }

  /**
   * The conditional update is the reservation: it cannot take what is not there (no overselling).
   * It takes the product's row lock, held until commit: every other order for that product waits for
   * it, so it runs last in the transaction, just before the commit (issue 13: a popular product's
   * orders are serialized for the time between this statement and the commit, not the whole
   * placement). It also proves the line's price still holds: a price changed since priceLines read it
   * is a conflict the placement retries.
   *
   * Answers the product when this placement took its stock from above the low-stock threshold to at
   * or below it (issue 15), read from the stock the update returns: no extra round trip. Under the row
   * lock the stock before the placement is exactly `stock + quantity - givenBack` (`givenBack`: what
   * the placement released of the customer's replaced or overdue orders), so of two orders that pass
   * the threshold one after the other only the first crosses it, and a checkout placed again does not.
   */
  async function reserve(
    tx: Transaction,
    line: ReservedLine,
    givenBack: number,
    moved: StockChange[],
  ): Promise<LowStockCrossing | undefined> {
    // The variant's row is the one locked; its product is only read (not locked: UPDATE ... FROM).
    const [row] = await queryRows<{ price_cents: number; name: string; stock: number; lsn: string }>(
      tx,
      sql`update ${productVariants} v set stock = v.stock - ${line.quantity}
          from ${products} p
          where v.id = ${line.variantId} and p.id = v.product_id and p.deleted_at is null
            and v.archived_at is null and v.stock >= ${line.quantity}
          returning v.price_cents, p.name, v.stock, ${STOCK_LSN} as lsn`,
    );
    if (row) {
      if (Number(row.price_cents) !== line.priceCents || row.name !== line.name) throw new PriceMoved();
      const stock = Number(row.stock);
      moved.push({ id: line.productId, stock, lsn: parseLsn(row.lsn), soldOutChanged: stock === 0 });
      return lowStock && stock <= lowStock.threshold && stock + line.quantity - givenBack > lowStock.threshold
        ? { productId: line.productId, name: row.name, stock }
        : undefined;
    }
    const [product] = await tx
      .select({ name: products.name, stock: productVariants.stock, deletedAt: products.deletedAt })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(productVariants.id, line.variantId), isNull(productVariants.archivedAt)));
    if (!product || product.deletedAt) throw notFound('Product not found');
    throw outOfStock(product.name, product.stock);
  }

  async function place(user: AuthUser, body: CreateOrderBody): Promise<Order> {
    const quantities = new Map<string, number>();
    for (const line of body.orderItems) {
      const id = line.product.toLowerCase();
      quantities.set(id, (quantities.get(id) ?? 0) + line.itemQuantity);
    }
    // Product-id order: two orders touching the same products lock them in the same order (no deadlock).
    const sorted = new Map([...quantities.entries()].sort(([a], [b]) => byCodePoint(a, b)));
    // An admin's price change between the read and the reservation: the order is priced again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await placeOnce(user, body, sorted);
      } catch (error) {
        if (isDeadlock(error) && attempt < PLACE_ATTEMPTS) continue;
        if (!(error instanceof PriceMoved)) throw error;
        if (attempt >= PLACE_ATTEMPTS) {
          throw new AppError(
            409,
            'Prices changed while the order was placed. Please try again.',
            'PRICE_CHANGED',
          );
        }
      }
    }
  }

  async function placeOnce(
    user: AuthUser,
    body: CreateOrderBody,
    quantities: Map<string, number>,
  ): Promise<Order> {
    const now = clock();
    let lowStockMails = 0;
    // The stock this placement gives back (replaced or overdue orders) and takes, in that order.
    const moved: StockChange[] = [];
    const order = await db.transaction(async (tx) => {
      // The customer's row lock runs their placements one at a time, so two at once cannot both slip
      // under the hold limits (issue 9). NO KEY UPDATE: inserts that only reference the user don't wait.
      const [customer] = await tx
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, user.id))
        .for('no key update');
      if (!customer) throw notAuthorized();
      const holds = await admitHold(tx, {
        userId: user.id,
        cart: quantities,
        replacesOrderId: body.replacesOrderId,
        now,
        limits: holdLimits,
        moved,
      });

      const lines = await priceLines(tx, quantities);
      const totals = priceOrder(lines.map((l) => ({ priceCents: l.priceCents, qty: l.quantity })));
      checkHoldValue(holds, totals.totalCents, holdLimits, now);

      // The order, its first timeline line and its lines are one statement (issue 13: two round trips
      // fewer per order), so their ids are chosen here. The lines' foreign keys are checked at the end
      // of the statement, when the order row exists.
      const orderId = randomUUID();
      const placed = {
        orderId,
        kind: 'placed',
        actor: 'customer',
        actorUserId: user.id,
        at: now,
      } as const;
      const items: OrderItemRow[] = lines.map((l) => ({
        id: randomUUID(),
        orderId,
        productId: l.productId,
        variantId: l.variantId,
        variantTitle: l.variantTitle,
        name: l.name,
        image: l.image,
        unitPriceCents: l.priceCents,
        quantity: l.quantity,
      }));
      const event = tx.$with('placed_event').as(eventInsert(tx, placed).returning({ id: orderEvents.id }));
      const itemRows = tx
        .$with('placed_items')
        .as(tx.insert(orderItems).values(items).returning({ id: orderItems.id }));
      const [row] = await tx
        .with(event, itemRows)
        .insert(orders)
        .values({
          id: orderId,
          userId: user.id,
          customerName: customer.name,
          customerEmail: customer.email,
          shipAddress: body.shippingAddress.address,
          shipCity: body.shippingAddress.city,
          shipPostalCode: body.shippingAddress.postalCode,
          shipCountry: body.shippingAddress.country,
          itemsCents: totals.itemsCents,
          taxCents: totals.taxCents,
          shippingCents: totals.shippingCents,
          totalCents: totals.totalCents,
          paymentMethod: body.paymentMethod,
          expiresAt: new Date(now.getTime() + holdMinutes * 60_000),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error('Order insert returned no row');
      // The answer is built from what this transaction wrote (issue 13: four reads fewer per order). A
      // new order has no gift-card money and no captured payment yet, and one line in its timeline.
      const dto = toOrderDto(row, sortItems(items), 0, 0, publicUrl, [timelineEntry(placed)]);
      // Last: the stock rows' locks are held from here to the commit only.
      const crossed: LowStockCrossing[] = [];
      for (const line of lines) {
        const crossing = await reserve(tx, line, holds.released.get(line.productId) ?? 0, moved);
        if (crossing) crossed.push(crossing);
      }
      // The owner hears when the stock is taken, which is when an order is placed (the paid order
      // keeps it). An order that expires gives it back; selling it down again is a new crossing.
      for (const product of crossed) {
        if (lowStock) await enqueueMail(tx, lowStockMail(lowStock.to, product, lowStock.threshold));
      }
      lowStockMails = crossed.length;
      return dto;
    });
    // Committed: the catalogue shows the new stock (it reads nothing again for it, issue 28).
    catalogue.stockMoved(moved);
    if (lowStockMails > 0) mailer.kick();
    return order;
  }

  return place;
}

import { randomUUID } from 'node:crypto';
import { type CreateOrderBody, type Order, priceDiscountedOrder } from '@pixel-vault/shared';
import type { HoldLimits } from '../../config.js';
import type { Database } from '../../db/client.js';
import { type OrderItemRow, orderEvents, orderItems, orders } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, isDeadlock } from '../../lib/errors.js';
import type { Signals } from '../../lib/signals.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type LowStockCrossing, lowStockMail } from '../admin/low-stock.mail.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import type { ProductsService } from '../products/products.service.js';
import { codeUnknown, discountOf, linesFor } from '../promotions/promotions.codes.js';
import { type CodeRow, CodeMoved, findByCode, reserveUse } from '../promotions/promotions.repo.js';
import type { Sales } from '../promotions/promotions.sales.js';
import type { PromotionsService } from '../promotions/promotions.service.js';
import type { StockChange } from '../products/products.stock.js';
import { lockUser } from '../users/users.lock.js';
import { admitHold, checkHoldValue } from './orders.holds.js';
import { eventInsert } from './orders.lifecycle.js';
import { PriceMoved, type WantedLine, outOfStock, priceLines, reserve, wantedLines } from './orders.lines.js';
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
  /** Discount codes (issue 32): found by what the shopper typed, against their wrong-code budget. */
  codes: Pick<PromotionsService, 'lookup'>;
  /** Scheduled sales (issue 32): a line costs its sale price while one runs. */
  sales: Sales;
  /** Told of each order placed, after the commit (issue 37). */
  signals: Pick<Signals, 'orderPlaced'>;
}

/** Who places the order: the customer, and the address they call from (for the discount-code budget). */
export type PlaceOrder = (user: AuthUser, body: CreateOrderBody, ip?: string) => Promise<Order>;

/**
 * How often a placement is tried: priced again when an admin changes a price in the middle of it, or
 * run again when PostgreSQL aborted it as a deadlock's victim. Reservations lock variants in (product,
 * variant) order, but a placement that first gives back the customer's replaced or overdue order locks
 * that order's products before its own, so two placements can still wait on each other; the whole transaction was
 * rolled back, so running it again is safe.
 */
const PLACE_ATTEMPTS = 3;

export function createOrderPlacement({
  db,
  catalogue,
  mailer,
  holdMinutes,
  holdLimits,
  clock,
  publicUrl,
  lowStock,
  codes,
  sales,
  signals,
}: OrderPlacementOptions): PlaceOrder {
  async function place(user: AuthUser, body: CreateOrderBody, ip = 'internal'): Promise<Order> {
    const wanted = wantedLines(body);
    // The code is found before the transaction, so a wrong one stays counted when the order fails.
    let code = body.discountCode ? await codes.lookup({ user, ip }, body.discountCode) : undefined;
    // An admin's price change between the read and the reservation: the order is priced again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await placeOnce(user, body, wanted, code);
      } catch (error) {
        if (isDeadlock(error) && attempt < PLACE_ATTEMPTS) continue;
        if (error instanceof CodeMoved && code && attempt < PLACE_ATTEMPTS) {
          // The code changed (or its window opened or closed) meanwhile: priced again with it as it is.
          code = await findByCode(db, code.code);
          if (!code) throw codeUnknown();
          continue;
        }
        if (!(error instanceof PriceMoved) && !(error instanceof CodeMoved)) throw error;
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
    wanted: WantedLine[],
    code: CodeRow | undefined,
  ): Promise<Order> {
    const now = clock();
    let lowStockMails = 0;
    // The stock this placement gives back (replaced or overdue orders) and takes, in that order.
    const moved: StockChange[] = [];
    // Read before the transaction: on PGlite it holds the one connection the book would read on.
    const book = await sales.book();
    // Which variant each line buys, at what price: read without locks, so before the transaction
    // (reserve() checks the price again under the variant's lock). A statement fewer while the
    // customer's lock is held, and on PGlite a wait fewer while the transaction holds its one session.
    const lines = await priceLines(db, wanted, { book, at: now.getTime() });
    const order = await db.transaction(async (tx) => {
      // The customer's row lock runs their placements one at a time, so two at once cannot both slip
      // under the hold limits (issue 9).
      const customer = await lockUser(tx, user.id);
      if (!customer) throw notAuthorized();
      const holds = await admitHold(tx, {
        userId: user.id,
        cart: new Map(lines.map((l) => [l.variantId, l.quantity])),
        products: lines.map((l) => l.productId),
        replacesOrderId: body.replacesOrderId,
        now,
        limits: holdLimits,
        moved,
      });
      // The stock as read, plus what releasing the customer's replaced or overdue orders gave back.
      for (const line of lines) {
        const stock = line.stock + (holds.released.get(line.variantId) ?? 0);
        if (stock < line.quantity) throw outOfStock(line, stock);
      }
      // The code's verdict on these lines (a 400 saying why it does not apply), then the one price rule.
      const priced = code
        ? linesFor(code, lines, now)
        : lines.map((l) => ({ priceCents: l.priceCents, qty: l.quantity, eligible: false }));
      const totals = priceDiscountedOrder(priced, code ? discountOf(code) : undefined);
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
      const items: OrderItemRow[] = lines.map((l, i) => ({
        id: randomUUID(),
        orderId,
        productId: l.productId,
        variantId: l.variantId,
        variantTitle: l.variantTitle,
        name: l.name,
        image: l.image,
        unitPriceCents: l.priceCents,
        quantity: l.quantity,
        discountCents: totals.lineDiscountCents[i] ?? 0,
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
          discountCode: code?.code ?? null,
          promotionId: code?.id ?? null,
          discountCents: totals.discountCents,
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
        const givenBack = holds.released.get(line.variantId) ?? 0;
        const crossing = await reserve(tx, line, givenBack, moved, lowStock?.threshold);
        if (crossing) crossed.push(crossing);
      }
      // The owner hears when the stock is taken, which is when an order is placed (the paid order
      // keeps it). An order that expires gives it back; selling it down again is a new crossing.
      for (const variant of crossed) {
        if (lowStock) await enqueueMail(tx, lowStockMail(lowStock.to, variant, lowStock.threshold));
      }
      lowStockMails = crossed.length;
      // The code's use last of all: its row is the one every order with the code waits for.
      if (code) await reserveUse(tx, code, orderId, user.id, now);
      return dto;
    });
    // Committed: the catalogue shows the new stock (it reads nothing again for it, issue 28).
    catalogue.stockMoved(moved);
    signals.orderPlaced();
    if (lowStockMails > 0) mailer.kick();
    return order;
  }

  return place;
}

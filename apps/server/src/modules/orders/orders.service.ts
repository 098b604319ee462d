import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import {
  type AdminOrdersQuery,
  type CreateOrderBody,
  type Order,
  formatCents,
  toDollars,
} from '@pixel-vault/shared';
import type { HoldLimits } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import {
  type OrderItemRow,
  type OrderRow,
  mailOutbox,
  orderEvents,
  orders,
  payments,
} from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import { enqueueMail, outboxInsert } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import type { ProductsService } from '../products/products.service.js';
import type { StockChange } from '../products/products.stock.js';
import { recordAudit } from '../audit/audit.repo.js';
import { expireLocked, isOverdue, orderExpired } from './orders.expiry.js';
import { createOrderPlacement } from './orders.place.js';
import { type QuoteDiscount, createDiscountQuote } from './orders.quote.js';
import type { PromotionsService } from '../promotions/promotions.service.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { type AdminOrdersPage, adminList } from './orders.admin.js';
import { confirmationMail, deliveredMail } from './orders.mail.js';
import { checkTransition, eventInsert, orderClosed, recordEvent } from './orders.lifecycle.js';
import { type MoneyOnOrder, itemsFor, listOrdersOf, lockOrder, moneyOn, orderDto } from './orders.repo.js';

export const orderNotFound = () => notFound('Order not found');
export const orderAlreadyPaid = () => new AppError(409, 'This order is already paid', 'ORDER_PAID');
export const nothingDue = () => new AppError(409, 'Nothing is left to pay on this order', 'NOTHING_DUE');
/** 402 with what is still to pay: the order stays open, and what was paid so far stays on it. */
export const paymentIncomplete = (dueCents: number) =>
  new AppError(402, `Payment is not complete: ${formatCents(dueCents)} still due`, 'PAYMENT_INCOMPLETE', {
    amountDue: toDollars(dueCents),
  });

/** What a transaction on an order did that needs doing after it commits. */
export interface OrderEffects {
  mailQueued: boolean;
}

export interface SettleResult {
  paid: boolean;
  /** Still to pay, in cents (0 once paid). */
  dueCents: number;
}

export interface LockOptions {
  /** Only this user's order (others get 404); null = any order (webhooks). */
  ownerId: string | null;
  /** Expire the order first when its hold ran out (and answer 409). Default true. */
  expireOverdue?: boolean;
}

export interface OrdersService {
  /** `ip`: the caller's address, for the discount-code budget (issue 32). */
  place(user: AuthUser, body: CreateOrderBody, ip?: string): Promise<Order>;
  /** POST /api/promotions/check: the cart priced with a code, or the refusal an order would get. */
  quote: QuoteDiscount;
  listMine(user: AuthUser): Promise<Order[]>;
  /**
   * The owner or an admin; anyone else 404. An admin's answer also names who did each step of the
   * timeline (`byUser`) and the order's `customer` (issue 30).
   */
  get(user: AuthUser, orderId: string): Promise<Order>;
  /** Settles from verified money only: the paid order, or 402 with what is still due. */
  confirmPayment(user: AuthUser, orderId: string): Promise<Order>;
  /** The id of the customer's most recent order (where the spec's `use` call, which names none, goes). */
  latestOrderIdOf(userId: string): Promise<string | undefined>;
  /**
   * Runs `work` in one transaction holding the order's row lock. Kicks the mail worker after the
   * commit when a confirmation was queued; an overdue order is expired (committed) and answers 409.
   */
  withLockedOrder<T>(
    orderId: string,
    options: LockOptions,
    work: (tx: Transaction, order: OrderRow, effects: OrderEffects) => Promise<T>,
  ): Promise<T>;
  /**
   * unpaid -> paid when gift cards + captured payments cover the total. Caller holds the lock. `known`:
   * the money on the order as the caller has just read and changed it under that lock (saves a read).
   */
  settle(
    tx: Transaction,
    order: OrderRow,
    effects: OrderEffects,
    known?: MoneyOnOrder,
  ): Promise<SettleResult>;
  /** What is left to pay on a locked unpaid order, in cents. */
  remainderCents(tx: Transaction, order: OrderRow): Promise<number>;
  dto(tx: Transaction, orderId: string): Promise<Order>;
  now(): Date;
  /**
   * Every matching order, newest first (no page asked for, spec section 7), or the page asked for;
   * `user` is the customer's id (or null once the account is deleted).
   */
  adminList(query: AdminOrdersQuery): Promise<Order[] | AdminOrdersPage>;
  /** paid -> delivered; repeating it changes nothing; an unpaid or expired order is a 409. */
  markDelivered(admin: AuthUser, orderId: string): Promise<Order>;
}

/**
 * Told in the transaction that marks an order paid, after the order's row changed (issue 34: its lines
 * leave the buyer's server cart). What it writes commits or rolls back with the payment.
 */
export type OrderPaidHook = (
  tx: Transaction,
  order: OrderRow,
  items: readonly OrderItemRow[],
) => Promise<void>;

export interface OrdersServiceOptions {
  db: Database;
  products: ProductsService;
  mailer: Mailer;
  holdMinutes: number;
  /** What one customer's unpaid orders may hold together (issue 9). */
  holdLimits: HoldLimits;
  clock?: () => Date;
  /** Makes item image paths absolute when PUBLIC_URL is set. */
  publicUrl?: PublicUrlOf;
  /** Mail `to` when an order takes a product's stock to `threshold` or below (issue 15); unset = no mail. */
  lowStock?: { threshold: number; to: string };
  /** Discount codes (issue 32). */
  codes: Pick<PromotionsService, 'lookup'>;
  /** Scheduled sales (issue 32): what a line costs while one runs. */
  sales: Sales;
  /** An order became paid (every path goes through settle): the cart module's hook (issue 34). */
  onPaid?: OrderPaidHook;
}

export function createOrdersService({
  db,
  products: catalogue,
  mailer,
  holdMinutes,
  holdLimits,
  clock = () => new Date(),
  publicUrl = relativeUrls,
  lowStock,
  codes,
  sales,
  onPaid,
}: OrdersServiceOptions): OrdersService {
  const toDto = (tx: Executor, row: OrderRow) => orderDto(tx, row, publicUrl);
  const place = createOrderPlacement({
    db,
    catalogue,
    mailer,
    holdMinutes,
    holdLimits,
    clock,
    publicUrl,
    ...(lowStock ? { lowStock } : {}),
    codes,
    sales,
  });
  const quote = createDiscountQuote({ db, codes, sales, clock });

  async function withLockedOrder<T>(
    orderId: string,
    { ownerId, expireOverdue = true }: LockOptions,
    work: (tx: Transaction, order: OrderRow, effects: OrderEffects) => Promise<T>,
  ): Promise<T> {
    const effects: OrderEffects = { mailQueued: false };
    try {
      const moved: StockChange[] = [];
      const outcome = await db.transaction(async (tx) => {
        const order = await lockOrder(tx, orderId);
        if (!order || (ownerId !== null && order.userId !== ownerId)) throw orderNotFound();
        const now = clock();
        // An overdue order with a payment in flight is not expired (expireLocked answers false):
        // the payment reconciler settles or fails that payment first (issue 9).
        if (expireOverdue && isOverdue(order, now) && (await expireLocked(tx, order, now, moved))) {
          return { expired: true as const };
        }
        return { expired: false as const, value: await work(tx, order, effects) };
      });
      if (outcome.expired) {
        catalogue.stockMoved(moved);
        throw orderExpired();
      }
      return outcome.value;
    } finally {
      if (effects.mailQueued) mailer.kick();
    }
  }

  async function remainderCents(tx: Transaction, order: OrderRow): Promise<number> {
    const { giftCents, capturedCents } = await moneyOn(tx, order.id);
    return Math.max(0, order.totalCents - giftCents - capturedCents);
  }

  async function settle(
    tx: Transaction,
    order: OrderRow,
    effects: OrderEffects,
    known?: MoneyOnOrder,
  ): Promise<SettleResult> {
    // Paid once (and perhaps refunded or cancelled since): nothing more to settle.
    if (order.paidAt !== null) return { paid: true, dueCents: 0 };
    if (order.status !== 'unpaid') throw orderClosed(order);

    const { giftCents, capturedCents } = known ?? (await moneyOn(tx, order.id));
    const dueCents = order.totalCents - giftCents - capturedCents;
    if (dueCents > 0) return { paid: false, dueCents };
    // The newest captured payment names the method and the provider's id (none: gift cards alone).
    const captured =
      capturedCents === 0
        ? []
        : await tx
            .select()
            .from(payments)
            .where(sql`${payments.orderId} = ${order.id} and ${payments.status} = 'captured'`)
            .orderBy(desc(payments.updatedAt))
            .limit(1);

    const now = clock();
    const last = captured[0];
    let method = 'Gift Card';
    if (last) {
      const provider = last.provider === 'paypal' ? 'PayPal' : 'demo';
      method = giftCents > 0 ? `Gift Card + ${provider}` : last.provider;
    }
    const items = await itemsFor(tx, [order.id]);
    // The confirmation mail, the timeline's line and the order's change go in one statement (issue 13:
    // two round trips fewer per paid order); the mail's id is chosen here so the order can name it.
    // A `with` clause's insert runs whatever the update finds; it finds the order (the caller holds
    // its lock), and if not, the error below rolls all three back.
    const mailId = randomUUID();
    const mail = tx
      .$with('confirmation_mail')
      .as(outboxInsert(tx, confirmationMail(order, items, now), mailId).returning({ id: mailOutbox.id }));
    const event = tx.$with('paid_event').as(
      eventInsert(tx, {
        orderId: order.id,
        kind: 'paid',
        actor: 'customer',
        actorUserId: order.userId,
        amountCents: order.totalCents,
        note: method,
        at: now,
      }).returning({ id: orderEvents.id }),
    );
    const [updated] = await tx
      .with(mail, event)
      .update(orders)
      .set({
        status: 'paid',
        paidAt: now,
        paymentResultMethod: method,
        paymentResultProviderId: last ? (last.captureId ?? last.providerOrderId) : null,
        paymentResultStatus: 'COMPLETED',
        paymentResultPayerEmail: last?.payerEmail ?? order.customerEmail,
        paymentResultUpdateTime: now,
        confirmationMailId: mailId,
        updatedAt: now,
      })
      .where(sql`${orders.id} = ${order.id} and ${orders.status} = 'unpaid'`)
      .returning();
    // The caller holds the row lock, so the order is still unpaid here; guard anyway.
    if (!updated) throw new Error('Order changed under its row lock');
    Object.assign(order, updated);
    if (onPaid) await onPaid(tx, order, items);
    effects.mailQueued = true;
    return { paid: true, dueCents: 0 };
  }

  return {
    place,
    quote,
    async listMine(user) {
      return listOrdersOf(db, user.id, publicUrl);
    },
    async get(user, orderId) {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
      if (!row || (row.userId !== user.id && !user.isAdmin)) throw orderNotFound();
      // An admin's reading names who did what (issue 30); the customer's never names an admin.
      return orderDto(db, row, publicUrl, { forAdmin: user.isAdmin });
    },
    async confirmPayment(user, orderId) {
      const settled = await withLockedOrder(orderId, { ownerId: user.id }, async (tx, order, effects) => {
        const { paid, dueCents } = await settle(tx, order, effects);
        return paid ? { order: await toDto(tx, order) } : { dueCents };
      });
      if (!settled.order) throw paymentIncomplete(settled.dueCents);
      return settled.order;
    },
    async latestOrderIdOf(userId) {
      const [row] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(1);
      return row?.id;
    },
    withLockedOrder,
    settle,
    remainderCents,
    async dto(tx, orderId) {
      const [row] = await tx.select().from(orders).where(eq(orders.id, orderId));
      if (!row) throw orderNotFound();
      return toDto(tx, row);
    },
    now: clock,

    adminList: (query) => adminList(db, query, publicUrl),

    async markDelivered(admin, orderId) {
      let mailQueued = false;
      const delivered = await db.transaction(async (tx) => {
        const order = await lockOrder(tx, orderId);
        if (!order) throw orderNotFound();
        if (order.isDelivered || checkTransition('deliver', order) === 'done') return toDto(tx, order);
        const now = clock();
        const [updated] = await tx
          .update(orders)
          .set({ isDelivered: true, deliveredAt: now, updatedAt: now })
          .where(sql`${orders.id} = ${order.id} and ${orders.status} = 'paid' and not ${orders.isDelivered}`)
          .returning();
        if (!updated) throw new Error('Order changed under its row lock');
        await recordAudit(tx, {
          actor: admin.id,
          action: 'order.deliver',
          targetType: 'order',
          targetId: order.id,
          before: { isDelivered: false, deliveredAt: null },
          after: { isDelivered: true, deliveredAt: now },
        });
        await recordEvent(tx, {
          orderId: order.id,
          kind: 'delivered',
          actor: 'admin',
          actorUserId: admin.id,
          at: now,
        });
        // Exactly once: this transaction is the only one that moves the order to delivered.
        await enqueueMail(tx, deliveredMail(updated, await itemsFor(tx, [order.id]), now));
        mailQueued = true;
        return toDto(tx, updated);
      });
      if (mailQueued) mailer.kick();
      return delivered;
    },
  };
}

import { desc, eq } from 'drizzle-orm';
import type { AdminOrdersQuery, CreateOrderBody, Order } from '@pixel-vault/shared';
import type { HoldLimits } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { type OrderItemRow, type OrderRow, orders } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import type { Mailer } from '../mail/mail.worker.js';
import type { ProductsService } from '../products/products.service.js';
import type { StockChange } from '../products/products.stock.js';
import type { PromotionsService } from '../promotions/promotions.service.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { type AdminOrdersPage, adminList } from './orders.admin.js';
import { markDelivered } from './orders.deliver.js';
import { orderNotFound, paymentIncomplete } from './orders.errors.js';
import { expireLocked, isOverdue, orderExpired } from './orders.expiry.js';
import { createOrderPlacement } from './orders.place.js';
import { type QuoteDiscount, createDiscountQuote } from './orders.quote.js';
import { type MoneyOnOrder, listOrdersOf, lockOrder, orderDto } from './orders.repo.js';
import {
  type OrderEffects,
  type OrderPaidHook,
  type SettleResult,
  createSettlement,
} from './orders.settle.js';

export type { OrderEffects, OrderPaidHook, SettleResult };
export { nothingDue, orderAlreadyPaid, orderNotFound, paymentIncomplete } from './orders.errors.js';

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
   * the money on the order as the caller has just read and changed it under that lock, perhaps with
   * the order's lines (each saves a read).
   */
  settle(
    tx: Transaction,
    order: OrderRow,
    effects: OrderEffects,
    known?: MoneyOnOrder & { items?: OrderItemRow[] },
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
  /** Told of orders placed and paid, after the commit (issue 37: metrics). */
  signals?: Signals;
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
  signals = NO_SIGNALS,
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
    signals,
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
      // Committed: every path that pays an order settles it in here.
      if (effects.paid) signals.orderPaid();
      return outcome.value;
    } finally {
      if (effects.mailQueued) mailer.kick();
    }
  }

  const { settle, remainderCents } = createSettlement({ clock, ...(onPaid ? { onPaid } : {}) });

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

    markDelivered: (admin, orderId) => markDelivered({ db, mailer, clock, publicUrl }, admin, orderId),
  };
}

import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { OrderEvent } from '@pixel-vault/shared';
import { productVariants, products } from './products.js';
import { users } from './users.js';

/**
 * What the row stores (issue 12). The API's status (awaiting_payment, paid, delivered, ...) is derived
 * from it and `is_delivered` in one place, orders.lifecycle.ts.
 */
export const ORDER_STATUSES = ['unpaid', 'paid', 'expired', 'cancelled', 'refunded'] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

/**
 * An order, priced by the server (money in cents). Kept for the books when its customer is deleted,
 * so the customer's name and e-mail are snapshots.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The number people read (issue 30: `#1042` in pages, mails, the CSV and the admin's search); URLs
     * and the API keep the id. From 1001, in the order orders were placed (migration 0013 numbered the
     * orders before it by date). A number taken by a placement that rolled back is not reused.
     */
    number: integer('number')
      .notNull()
      .unique('orders_number_unique')
      .generatedByDefaultAsIdentity({ startWith: 1001 }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    shipAddress: text('ship_address').notNull(),
    shipCity: text('ship_city').notNull(),
    shipPostalCode: text('ship_postal_code').notNull(),
    shipCountry: text('ship_country').notNull(),
    itemsCents: integer('items_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    /**
     * Issue 32: the discount code applied (upper-case, as it was then) and what it took off the items;
     * `total_cents` is items - discount + tax + shipping. Its use is the promotion_uses row of the order.
     */
    discountCode: text('discount_code'),
    discountCents: integer('discount_cents').notNull().default(0),
    /**
     * The promotion the code was (migration 0020): what the admin's `used` counts, whatever the code is
     * called since. No foreign key: promotions are never deleted, and its schema already points here.
     */
    promotionId: uuid('promotion_id'),
    paymentMethod: text('payment_method').notNull(),
    status: text('status').$type<OrderStatusValue>().notNull().default('unpaid'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    isDelivered: boolean('is_delivered').notNull().default(false),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Unpaid orders hold their stock (and gift-card money) until then. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paymentResultMethod: text('payment_result_method'),
    paymentResultProviderId: text('payment_result_provider_id'),
    paymentResultStatus: text('payment_result_status'),
    paymentResultPayerEmail: text('payment_result_payer_email'),
    paymentResultUpdateTime: timestamp('payment_result_update_time', { withTimezone: true }),
    /** The confirmation mail's outbox row: unique, so an order can never queue two. */
    confirmationMailId: uuid('confirmation_mail_id'),
    /** Money given back so far by cancellation and refunds (issue 12). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** The items went back on the shelf (a cancellation, or a refund with restock): at most once. */
    restocked: boolean('restocked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('orders_status_valid', sql`${t.status} in ('unpaid', 'paid', 'expired', 'cancelled', 'refunded')`),
    check(
      'orders_money_non_negative',
      sql`${t.itemsCents} >= 0 and ${t.taxCents} >= 0 and ${t.shippingCents} >= 0 and ${t.totalCents} >= 0`,
    ),
    // Paid and refunded orders were paid; unpaid and expired ones never were; a cancelled one either.
    check(
      'orders_paid_at_matches_status',
      sql`(${t.status} in ('paid', 'refunded') and ${t.paidAt} is not null) or (${t.status} in ('unpaid', 'expired') and ${t.paidAt} is null) or ${t.status} = 'cancelled'`,
    ),
    check(
      'orders_discount_within_items',
      sql`${t.discountCents} >= 0 and ${t.discountCents} <= ${t.itemsCents}`,
    ),
    check(
      'orders_refunded_within_total',
      sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.totalCents}`,
    ),
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('orders_status_expires_idx').on(t.status, t.expiresAt),
    // The admin's overview and CSV export (issue 15): the export pages through a date range by
    // (created_at, id); the sales per day read only paid orders; "to deliver" counts a small set.
    index('orders_created_id_idx').on(t.createdAt, t.id),
    index('orders_paid_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'paid'`),
    index('orders_to_deliver_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'paid' and not ${t.isDelivered}`),
    uniqueIndex('orders_confirmation_mail_unique').on(t.confirmationMailId),
    index('orders_promotion_idx')
      .on(t.promotionId)
      .where(sql`${t.promotionId} is not null`),
  ],
);

/** Lines keep name, image and price as charged, so history survives product changes and removal. */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** The variant bought (issue 31): its stock is what the line reserved and gives back. */
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The variant's option values as bought ("Complete in box / PAL"), empty without options. */
    variantTitle: text('variant_title').notNull().default(''),
    image: text('image').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    /** Issue 32: this line's share of the order's discount (the shares add up to the order's). */
    discountCents: integer('discount_cents').notNull().default(0),
  },
  (t) => [
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
    check('order_items_price_non_negative', sql`${t.unitPriceCents} >= 0`),
    check(
      'order_items_discount_valid',
      sql`${t.discountCents} >= 0 and ${t.discountCents} <= ${t.unitPriceCents} * ${t.quantity}`,
    ),
    index('order_items_order_idx').on(t.orderId),
  ],
);

export const PAYMENT_PROVIDERS = ['paypal', 'demo'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
/** `refunded`: captured for an order that had expired, and given back through the provider (issue 9). */
export const PAYMENT_STATUSES = ['created', 'captured', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** One provider order (PayPal or demo) created by the server for an order's remainder. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<PaymentStatus>().notNull().default('created'),
    captureId: text('capture_id'),
    payerEmail: text('payer_email'),
    /** PayPal-Request-Id of the capture: stored once, reused on every retry (Medusa #16292). */
    requestId: text('request_id').notNull(),
    raw: jsonb('raw'),
    /** The provider's refund id, once the reconciler gave an expired order's capture back. */
    refundId: text('refund_id'),
    /** Given back by order refunds (issue 12), at most amount_cents; the capture itself stays `captured`. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_provider_valid', sql`${t.provider} in ('paypal', 'demo')`),
    check('payments_status_valid', sql`${t.status} in ('created', 'captured', 'failed', 'refunded')`),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    check(
      'payments_refunded_within_amount',
      sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`,
    ),
    uniqueIndex('payments_provider_order_unique').on(t.providerOrderId),
    // One capture pays one order, once: a client cannot offer the same PayPal capture twice (issue 8).
    uniqueIndex('payments_capture_unique').on(t.captureId),
    index('payments_order_idx').on(t.orderId),
  ],
);

/** The demo provider's orders: in the database, so demo mode survives restarts and several instances. */
export const demoPaymentOrders = pgTable(
  'demo_payment_orders',
  {
    id: text('id').primaryKey(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('CREATED'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('demo_payment_orders_status_valid', sql`${t.status} in ('CREATED', 'APPROVED', 'COMPLETED')`),
  ],
);

/** The timeline's vocabulary is the API's (packages/shared OrderEvent); the CHECKs below spell it out. */
export type OrderEventKind = OrderEvent['event'];
export type OrderActor = OrderEvent['by'];

/** An order's timeline (issue 12): written in the same transaction as what it records. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<OrderEventKind>().notNull(),
    actor: text('actor').$type<OrderActor>().notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'order_events_kind_valid',
      sql`${t.kind} in ('placed', 'paid', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'expired')`,
    ),
    check('order_events_actor_valid', sql`${t.actor} in ('customer', 'admin', 'system')`),
    index('order_events_order_idx').on(t.orderId, t.at),
  ],
);

export const REFUND_KINDS = ['cancel', 'admin'] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];
export const REFUND_STATUSES = ['pending', 'completed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where a refund's money goes: gift cards first, then provider captures (orders.refunds.ts). */
export interface RefundPlan {
  giftCards: { giftCardId: string; cents: number }[];
  captures: { paymentId: string; captureId: string; currency: string; cents: number }[];
}

/**
 * A refund of a paid order (issue 12): planned and recorded `pending` under the order's lock, sent to
 * the provider with no lock held (one request id per capture, derived from this row: a retry after a
 * lost answer names the same refund), then completed under the lock. One pending refund per order.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<RefundKind>().notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    restock: boolean('restock').notNull().default(false),
    plan: jsonb('plan').$type<RefundPlan>().notNull(),
    /** What the provider answered per capture: its refund id and status. */
    providerRefunds: jsonb('provider_refunds').$type<Record<string, { id: string | null; status: string }>>(),
    failure: text('failure'),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_refunds_kind_valid', sql`${t.kind} in ('cancel', 'admin')`),
    check('order_refunds_status_valid', sql`${t.status} in ('pending', 'completed', 'failed')`),
    check('order_refunds_amount_positive', sql`${t.amountCents} > 0`),
    // Two admins (or an admin and the customer) at once: the second finds the first's refund.
    uniqueIndex('order_refunds_one_pending')
      .on(t.orderId)
      .where(sql`${t.status} = 'pending'`),
    index('order_refunds_status_updated_idx').on(t.status, t.updatedAt),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;
export type OrderRefundRow = typeof orderRefunds.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

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
import { products } from './products.js';
import { users } from './users.js';

export const ORDER_STATUSES = ['unpaid', 'paid', 'expired'] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

/**
 * An order, priced by the server (money in cents). Kept for the books when its customer is deleted,
 * so the customer's name and e-mail are snapshots.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('orders_status_valid', sql`${t.status} in ('unpaid', 'paid', 'expired')`),
    check(
      'orders_money_non_negative',
      sql`${t.itemsCents} >= 0 and ${t.taxCents} >= 0 and ${t.shippingCents} >= 0 and ${t.totalCents} >= 0`,
    ),
    check('orders_paid_has_paid_at', sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`),
    index('orders_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('orders_status_expires_idx').on(t.status, t.expiresAt),
    uniqueIndex('orders_confirmation_mail_unique').on(t.confirmationMailId),
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
    name: text('name').notNull(),
    image: text('image').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
    check('order_items_price_non_negative', sql`${t.unitPriceCents} >= 0`),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_provider_valid', sql`${t.provider} in ('paypal', 'demo')`),
    check('payments_status_valid', sql`${t.status} in ('created', 'captured', 'failed', 'refunded')`),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
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

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

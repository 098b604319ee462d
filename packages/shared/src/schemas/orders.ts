import { z } from 'zod';
import { Dollars, Id } from './common.js';
import { OptionalDiscountCode } from './discount-code.js';
import { GiftCardCode } from './giftcards.js';

/** Spec section 3: shipping address; all four fields required (spec section 5). */
const addressField = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(200, { message: `${label} is at most 200 characters` });

export const ShippingAddress = z.object({
  address: addressField('Address'),
  city: addressField('City'),
  postalCode: addressField('Postal code'),
  country: addressField('Country'),
});
export type ShippingAddress = z.infer<typeof ShippingAddress>;

/** Spec: the cart keeps `paypal` or `gift`; the payment update speaks `paypal` or `Gift Card`. */
export const PaymentMethod = z.enum(['paypal', 'gift', 'Gift Card'], {
  message: 'Payment method must be paypal or gift',
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const MAX_ORDER_LINES = 50;
export const MAX_LINE_QUANTITY = 99;

/**
 * POST /api/orders. The spec's payload also carries names, images, prices and totals: they are
 * accepted and ignored. Only product ids, quantities, the address and the method are trusted.
 */
export const OrderItemInput = z.object({
  product: Id,
  /**
   * Not in the spec (issue 31): which of the product's variants (`variants[]._id`); left out, its
   * default variant, the one whose price and stock the product shows.
   */
  variant: Id.optional(),
  itemQuantity: z
    .number({ message: 'Quantity must be a number' })
    .int({ message: 'Quantity must be a whole number' })
    .min(1, { message: 'Quantity must be at least 1' })
    .max(MAX_LINE_QUANTITY, { message: `Quantity must be at most ${MAX_LINE_QUANTITY}` }),
});
export type OrderItemInput = z.infer<typeof OrderItemInput>;

export const CreateOrderBody = z.object({
  orderItems: z
    .array(OrderItemInput, { message: 'Order items are required' })
    .min(1, { message: 'Your cart is empty' })
    .max(MAX_ORDER_LINES, { message: `At most ${MAX_ORDER_LINES} different products per order` }),
  shippingAddress: ShippingAddress,
  paymentMethod: PaymentMethod.default('paypal'),
  /**
   * Not in the spec: the caller's previous open order of this checkout, placed again because the
   * cart or the address changed. It is released with this one (stock and gift-card money go back)
   * if it is still theirs to release; otherwise the id is ignored.
   */
  replacesOrderId: Id.optional(),
  /**
   * Not in the spec (issue 32): a discount code. The server decides in the order's transaction whether
   * it applies (a refusal is a 400, or a 409 for a used-up limit) and what it takes off.
   */
  discountCode: OptionalDiscountCode,
});
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

export const OrderItem = z.object({
  _id: z.string(),
  itemName: z.string(),
  itemQuantity: z.number().int(),
  /** Unit price in dollars, as charged. */
  itemPrice: z.number(),
  displayImage: z.string(),
  product: z.string(),
  /**
   * Issue 31: the variant bought (null once it was deleted) and its option values as they were then
   * (`Complete in box / PAL`; empty for a product without options).
   */
  variant: z.string().nullable(),
  variantTitle: z.string(),
});
export type OrderItem = z.infer<typeof OrderItem>;

export const OrderUser = z.object({ _id: z.string(), name: z.string(), email: z.string() });
export type OrderUser = z.infer<typeof OrderUser>;

/**
 * Where an order is in its life (issue 12). `isPaid` and `isDelivered` keep their spec meaning (it was
 * paid; it was delivered) beside it: a cancelled order that had been paid still says `isPaid: true`.
 * Allowed moves: awaiting_payment -> paid | cancelled | expired; paid -> delivered | cancelled | refunded;
 * delivered -> refunded. A partial refund leaves the order where it is, with `refundedPrice` > 0.
 */
export const ORDER_STATUSES = [
  'awaiting_payment',
  'paid',
  'delivered',
  'cancelled',
  'refunded',
  'expired',
] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** One line of an order's timeline: what happened, when, and by whom. */
export const ORDER_EVENT_KINDS = [
  'placed',
  'paid',
  'delivered',
  'cancelled',
  'refunded',
  'refund_failed',
  'expired',
] as const;
export const OrderEvent = z.object({
  at: z.string(),
  event: z.enum(ORDER_EVENT_KINDS),
  /** `customer`, `admin` or `system` (the shop itself: expiry, the payment reconciler). */
  by: z.enum(['customer', 'admin', 'system']),
  /** Money the event moved, in dollars (a refund's amount). */
  amount: z.number().nullable(),
  /** A refund's reason, where the money went, or why a refund failed. */
  note: z.string().nullable(),
  /**
   * Who did it, by their account as it is now (issue 30): only in an admin's reading of an order, and
   * only while that account exists. A customer's answer never has it (it would name the shop's admins).
   */
  byUser: z.object({ name: z.string(), email: z.string() }).optional(),
});
export type OrderEvent = z.infer<typeof OrderEvent>;

export const PaymentResult = z.object({
  method: z.enum(['paypal', 'Gift Card', 'Gift Card + PayPal', 'demo']).or(z.string()),
  providerId: z.string().nullable(),
  status: z.string(),
  payerEmail: z.string().nullable(),
  updateTime: z.string(),
});
export type PaymentResult = z.infer<typeof PaymentResult>;

/** An order as the API answers it (spec section 3), money in dollars with two decimals. */
export const Order = z.object({
  _id: z.string(),
  /** The number people read (issue 30): `#1042` in pages, mails and the CSV; URLs keep `_id`. */
  orderNumber: z.number().int(),
  /** The customer: name and e-mail when read in full; just the id in the admin list. */
  user: z.union([OrderUser, z.string()]).nullable(),
  createdAt: z.string(),
  orderItems: z.array(OrderItem),
  shippingAddress: ShippingAddress,
  /** Items total (spec: `price`), before any discount. */
  price: z.number(),
  /** Issue 32: the discount code applied (upper-case) and what it took off the items, in dollars. */
  discountCode: z.string().nullable(),
  discountPrice: z.number(),
  shippingPrice: z.number(),
  /** 15% of the discounted items. */
  taxPrice: z.number(),
  /** What is owed: price - discountPrice + shippingPrice + taxPrice. */
  totalPrice: z.number(),
  paymentMethod: z.string(),
  isPaid: z.boolean(),
  paidAt: z.string().nullable(),
  isDelivered: z.boolean(),
  deliveredAt: z.string().nullable(),
  status: OrderStatus,
  /** Unpaid orders hold stock until then (ORDER_HOLD_MINUTES). */
  expiresAt: z.string().nullable(),
  /** Gift-card money applied to this order so far. */
  giftCardAmount: z.number(),
  /** What is left to pay: totalPrice - giftCardAmount - PayPal money captured so far (0 once paid). */
  amountDue: z.number(),
  paymentResult: PaymentResult.nullable(),
  /** Money given back so far (cancellation or admin refunds), in dollars. */
  refundedPrice: z.number(),
  /** Oldest first. Only on a single order (GET /api/orders/:id and the admin's), not in lists. */
  timeline: z.array(OrderEvent).optional(),
  /**
   * The customer's name and e-mail as the order keeps them (issue 30), kept when the account is deleted:
   * in the admin list (where `user` is an id, spec section 3) and in an admin's reading of one order.
   */
  customer: z.object({ name: z.string(), email: z.string() }).optional(),
});
export type Order = z.infer<typeof Order>;

/** The order's status as the spec's screens badge it: cancelled and refunded beside Paid / Not Paid. */
export const isClosedStatus = (status: OrderStatus) =>
  status === 'cancelled' || status === 'refunded' || status === 'expired';

/**
 * POST /api/orders/:id/refund (admin). `amount` in dollars; left out, everything still refundable.
 * `restock` puts the order's items back on the shelf (once per order).
 */
export const RefundBody = z.object({
  amount: Dollars.refine((v) => v > 0, { message: 'Amount must be greater than 0' }).optional(),
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(1, { message: 'A reason is required' })
    .max(500, { message: 'The reason is at most 500 characters' }),
  restock: z.boolean({ message: 'restock must be true or false' }).default(false),
});
export type RefundBody = z.infer<typeof RefundBody>;

/** `""` and `null` from a client mean "not sent". */
const absentIfEmpty = (v: unknown) => (v === '' || v === null ? undefined : v);

/** The spec's two payment methods, whatever the client's casing: `paypal` or `Gift Card` (`gift` too). */
export const PaymentUpdateMethod = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const key = v
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ');
    if (key === 'paypal') return 'paypal';
    if (key === 'gift card' || key === 'gift' || key === 'giftcard') return 'Gift Card';
    return v;
  },
  z.enum(['paypal', 'Gift Card'], { message: 'Payment method must be paypal or Gift Card' }),
);
export type PaymentUpdateMethod = z.infer<typeof PaymentUpdateMethod>;

/** PayPal order ids are short upper-case tokens; the demo provider's are `DEMO-<uuid>`. */
export const ProviderOrderId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, { message: 'order_id must be the PayPal order id' });

/**
 * PUT /api/orders/:id/payment (spec section 3 payload). Nothing the client says is trusted: a gift
 * card is debited by the server for what is due, and a PayPal order id is read back from PayPal.
 * - `Gift Card` + `gift_card_code`: debits that card for min(balance, amount due), then settles.
 * - `paypal` + `order_id` (the PayPal order id): the server reads that order from PayPal and records
 *   its completed capture (USD, at most the amount due, never used for another order).
 * `status`, `updated_time` (ISO string or epoch milliseconds, as the spec's client sends) and
 * `email_address` are accepted for the record and ignored.
 */
export const PaymentUpdateBody = z.object({
  order_id: z.preprocess(absentIfEmpty, z.string().trim().max(100).optional()),
  status: z.string().max(50).nullish(),
  updated_time: z.union([z.string().max(100), z.number().finite()]).nullish(),
  email_address: z.string().max(254).nullish(),
  payment_method: PaymentUpdateMethod,
  gift_card_code: z.preprocess(absentIfEmpty, GiftCardCode.optional()),
});
export type PaymentUpdateBody = z.infer<typeof PaymentUpdateBody>;

/** POST /api/orders/:id/paypal answers the provider's order id for the PayPal buttons. */
export const PayPalOrderResponse = z.object({ id: z.string(), status: z.string() });
export type PayPalOrderResponse = z.infer<typeof PayPalOrderResponse>;

/** POST /api/orders/:id/paypal/capture */
export const PayPalCaptureBody = z.object({
  paypalOrderId: z.string({ message: 'paypalOrderId is required' }).min(1).max(64),
});
export type PayPalCaptureBody = z.infer<typeof PayPalCaptureBody>;

/**
 * GET /api/config: how this shop takes payments, and where it is. (GET /api/config/paypal answers the
 * bare client id as text, as the spec says; this is the same id with what our web app also needs.)
 */
export const ShopConfigResponse = z.object({
  /** The PayPal client id for PayPal's script, or `demo` when no PayPal credentials are configured. */
  clientId: z.string(),
  mode: z.enum(['paypal', 'demo']),
  currency: z.literal('USD'),
  /** The shop's own country (SHOP_COUNTRY, ISO 3166-1 alpha-2): listed first at checkout (issue 30). */
  shopCountry: z.string(),
});
export type ShopConfigResponse = z.infer<typeof ShopConfigResponse>;

import { z } from 'zod';
import { CATEGORIES, categoryTitle } from '../categories.js';
import { formatCents, toCents } from '../money.js';
import { Dollars, Id } from './common.js';
import { DiscountCode } from './discount-code.js';
import { OrderItemInput } from './orders.js';

export { DiscountCode, OptionalDiscountCode } from './discount-code.js';

/**
 * Promotions (issue 32): discount codes a shopper types at checkout. Codes are 3 to 32 of A-Z, 0-9,
 * `-` and `_`, compared regardless of case (kept upper-case).
 */
export const DISCOUNT_KINDS = ['percentage', 'fixed', 'free_shipping'] as const;
export const DiscountKindSchema = z.enum(DISCOUNT_KINDS, {
  message: 'Kind must be percentage, fixed or free_shipping',
});
/** A scheduled sale (`sale`) has no code: its percent comes off the catalogue's prices while it runs. */
export const PROMOTION_KINDS = [...DISCOUNT_KINDS, 'sale'] as const;
export const PromotionKindSchema = z.enum(PROMOTION_KINDS, {
  message: 'Kind must be percentage, fixed, free_shipping or sale',
});
export type PromotionKind = z.infer<typeof PromotionKindSchema>;

/** A fixed discount or a minimum subtotal is at most this many dollars. */
export const MAX_PROMOTION_DOLLARS = 100_000;
/** A code names at most this many products. */
export const MAX_PROMOTION_PRODUCTS = 200;

const positiveCount = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int({ message: `${label} must be a whole number` })
    .min(1, { message: `${label} must be at least 1` })
    .max(1_000_000, { message: `${label} is at most 1,000,000` });

const moment = (label: string) =>
  z.iso.datetime({ offset: true, message: `${label} must be a date and time (ISO 8601)` });

const dollarsUpTo = (label: string) =>
  Dollars.refine((v) => v >= 0 && v <= MAX_PROMOTION_DOLLARS, {
    message: `${label} must be between 0 and ${MAX_PROMOTION_DOLLARS}`,
  });

/** The fields of a code as the admin writes them; `null` clears an optional one on update. */
const promotionFields = {
  code: DiscountCode,
  kind: PromotionKindSchema,
  /** Percent (1-100) for `percentage`, dollars (> 0) for `fixed`; ignored for `free_shipping`. */
  value: z.number({ message: 'Value must be a number' }).finite(),
  minSubtotal: dollarsUpTo('Minimum subtotal').nullable(),
  startsAt: moment('Starts at').nullable(),
  endsAt: moment('Ends at').nullable(),
  usageLimit: positiveCount('Usage limit').nullable(),
  perCustomerLimit: positiveCount('Per-customer limit').nullable(),
  categories: z
    .array(z.enum(CATEGORIES, { message: `Categories are ${CATEGORIES.join(', ')}` }))
    .max(CATEGORIES.length),
  products: z
    .array(Id)
    .max(MAX_PROMOTION_PRODUCTS, { message: `At most ${MAX_PROMOTION_PRODUCTS} products` }),
  active: z.boolean({ message: 'active must be true or false' }),
};

/** What is wrong with a code's value for its kind, or undefined. */
export function promotionValueProblem(kind: PromotionKind, value: number) {
  if (kind === 'percentage' && !(Number.isInteger(value) && value >= 1 && value <= 100)) {
    return 'A percentage is a whole number from 1 to 100';
  }
  if (kind === 'sale' && !(Number.isInteger(value) && value >= 1 && value <= 99)) {
    return 'A sale takes a whole number percent from 1 to 99 off';
  }
  if (kind === 'fixed') {
    const dollars = dollarsUpTo('A fixed discount').safeParse(value);
    if (!dollars.success || value <= 0)
      return `A fixed discount is more than $0 and at most $${MAX_PROMOTION_DOLLARS}`;
  }
  return undefined;
}

function checkWindow(body: { startsAt?: string | null; endsAt?: string | null }, ctx: z.RefinementCtx): void {
  if (body.startsAt && body.endsAt && Date.parse(body.endsAt) <= Date.parse(body.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  }
}

/**
 * What is wrong with a promotion's shape for its kind, or undefined: a code has a code; a sale has
 * none, runs from a start to an end, and has no minimum or limits (it is a price, not a code).
 */
export function promotionShapeProblem(p: {
  kind: PromotionKind;
  code?: string | null;
  startsAt?: string | Date | null;
  endsAt?: string | Date | null;
  minSubtotal?: unknown;
  usageLimit?: unknown;
  perCustomerLimit?: unknown;
}): { path: string; message: string } | undefined {
  if (p.kind !== 'sale') {
    return p.code ? undefined : { path: 'code', message: 'A discount code is required' };
  }
  if (p.code) return { path: 'code', message: 'A sale has no code: it applies to everyone' };
  if (!p.startsAt || !p.endsAt) return { path: 'endsAt', message: 'A sale needs a start and an end' };
  if (p.minSubtotal != null || p.usageLimit != null || p.perCustomerLimit != null) {
    return { path: 'usageLimit', message: 'A sale has no minimum subtotal or usage limits' };
  }
  return undefined;
}

/** POST /api/promotions/admin */
export const CreatePromotionBody = z
  .object({
    /** Required, except for a sale (which has none). */
    code: promotionFields.code.optional(),
    kind: promotionFields.kind,
    value: promotionFields.value.default(0),
    minSubtotal: promotionFields.minSubtotal.optional(),
    startsAt: promotionFields.startsAt.optional(),
    endsAt: promotionFields.endsAt.optional(),
    usageLimit: promotionFields.usageLimit.optional(),
    perCustomerLimit: promotionFields.perCustomerLimit.optional(),
    categories: promotionFields.categories.default([]),
    products: promotionFields.products.default([]),
    active: promotionFields.active.default(true),
  })
  .superRefine((body, ctx) => {
    const problem = promotionValueProblem(body.kind, body.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    const shape = promotionShapeProblem(body);
    if (shape) ctx.addIssue({ code: 'custom', path: [shape.path], message: shape.message });
    checkWindow(body, ctx);
  });
export type CreatePromotionBody = z.infer<typeof CreatePromotionBody>;

/** PUT /api/promotions/admin/:id: any of the fields; the value is checked against the kind it ends with. */
export const UpdatePromotionBody = z
  .object({
    code: promotionFields.code.optional(),
    kind: promotionFields.kind.optional(),
    value: promotionFields.value.optional(),
    minSubtotal: promotionFields.minSubtotal.optional(),
    startsAt: promotionFields.startsAt.optional(),
    endsAt: promotionFields.endsAt.optional(),
    usageLimit: promotionFields.usageLimit.optional(),
    perCustomerLimit: promotionFields.perCustomerLimit.optional(),
    categories: promotionFields.categories.optional(),
    products: promotionFields.products.optional(),
    active: promotionFields.active.optional(),
  })
  .superRefine(checkWindow);
export type UpdatePromotionBody = z.infer<typeof UpdatePromotionBody>;

/** Where a code is in its life, for the admin's list. */
export const PROMOTION_STATES = ['active', 'scheduled', 'ended', 'used_up', 'inactive'] as const;
export const PromotionState = z.enum(PROMOTION_STATES);
export type PromotionState = z.infer<typeof PromotionState>;

/** A promotion as the admin reads it; `used`: orders holding a use (placed, not expired or cancelled). */
export const Promotion = z.object({
  _id: z.string(),
  /** null for a sale. */
  code: z.string().nullable(),
  kind: PromotionKindSchema,
  value: z.number(),
  minSubtotal: z.number().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  categories: z.array(z.string()),
  products: z.array(z.string()),
  active: z.boolean(),
  used: z.number().int(),
  state: PromotionState,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Promotion = z.infer<typeof Promotion>;

/** POST /api/promotions/check: the verdict and the discount for a cart, without placing an order. */
export const CheckDiscountBody = z.object({
  code: DiscountCode,
  orderItems: z
    .array(OrderItemInput, { message: 'Order items are required' })
    .min(1, { message: 'Your cart is empty' })
    .max(50, { message: 'At most 50 different products per order' }),
});
export type CheckDiscountBody = z.infer<typeof CheckDiscountBody>;

/** The cart priced with the code, as the order would be (dollars). */
export const CheckDiscountResponse = z.object({
  code: z.string(),
  kind: DiscountKindSchema,
  /** What the code does, for a person: "10% off puzzles", "Free shipping". */
  description: z.string(),
  price: z.number(),
  discountPrice: z.number(),
  shippingPrice: z.number(),
  taxPrice: z.number(),
  totalPrice: z.number(),
});
export type CheckDiscountResponse = z.infer<typeof CheckDiscountResponse>;

/** "puzzles", "retro games and consoles", or "" for a code on everything: how a message names the scope. */
export function promotionScopeWords(scope: { categories: readonly string[]; products: readonly string[] }) {
  const names = scope.categories.map((slug) => categoryTitle(slug).toLowerCase());
  if (scope.products.length > 0) names.push('selected products');
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "10% off puzzles", "$5.00 off", "Free shipping": what a code does, in a shopper's words. */
export function describeDiscount(promotion: {
  kind: PromotionKind;
  /** As the API speaks it: a percent, or dollars for `fixed`. */
  value: number;
  categories: readonly string[];
  products: readonly string[];
}): string {
  const scope = promotionScopeWords(promotion);
  const on = scope ? ` ${scope}` : '';
  switch (promotion.kind) {
    case 'percentage':
    case 'sale':
      return `${promotion.value}% off${on}`;
    case 'fixed':
      return `${formatCents(toCents(promotion.value))} off${on}`;
    case 'free_shipping':
      return scope ? `Free shipping with ${scope}` : 'Free shipping';
  }
}

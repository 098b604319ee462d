import {
  type Discount,
  type DiscountableLine,
  type Promotion,
  type PromotionState,
  formatCents,
  formatOrderDate,
  promotionScopeWords,
  toDollars,
} from '@pixel-vault/shared';
import type { PromotionRow } from '../../db/schema/index.js';
import type { CodeRow } from './promotions.repo.js';
import { AppError } from '../../lib/errors.js';

/**
 * What a discount code is worth to a cart (issue 32), without the database: which lines it applies to,
 * and why it does not apply. The placement (orders.place.ts) and the Apply button's check both ask
 * here, so they cannot disagree.
 */

/** The line facts a code needs: its product, its category and what it costs. */
export interface CodeLine {
  productId: string;
  category: string;
  priceCents: number;
  quantity: number;
}

export const codeUnknown = () =>
  new AppError(400, 'This code is not valid. Please check it and try again.', 'DISCOUNT_CODE_UNKNOWN');

const refuse = (status: 400 | 409, message: string, code: string) => new AppError(status, message, code);

/** Whether the code discounts this line: its category or product is the code's, or the code names none. */
export function appliesTo(promotion: Pick<PromotionRow, 'categories' | 'products'>, line: CodeLine): boolean {
  if (promotion.categories.length === 0 && promotion.products.length === 0) return true;
  return promotion.categories.includes(line.category) || promotion.products.includes(line.productId);
}

export function discountOf(promotion: Pick<CodeRow, 'kind' | 'value'>): Discount {
  return { kind: promotion.kind, value: promotion.value };
}

/** Where a promotion's window and switch put it at `now`, before its uses count. */
function windowOf(promotion: PromotionRow, now: Date): 'inactive' | 'ended' | 'scheduled' | 'live' {
  if (!promotion.active) return 'inactive';
  if (promotion.endsAt && promotion.endsAt.getTime() <= now.getTime()) return 'ended';
  if (promotion.startsAt && promotion.startsAt.getTime() > now.getTime()) return 'scheduled';
  return 'live';
}

/** The refusals that depend on the code and the clock only (not on a cart or its limits). */
export function checkLive(promotion: PromotionRow, now: Date): void {
  switch (windowOf(promotion, now)) {
    case 'inactive':
      throw refuse(400, 'This code is no longer valid', 'DISCOUNT_CODE_INACTIVE');
    case 'scheduled':
      throw refuse(
        400,
        `This code can be used from ${formatOrderDate(promotion.startsAt!)}`,
        'DISCOUNT_CODE_NOT_STARTED',
      );
    case 'ended':
      throw refuse(400, 'This code has expired', 'DISCOUNT_CODE_EXPIRED');
    case 'live':
      return;
  }
}

/**
 * The cart's lines marked with whether the code discounts them; throws the shopper's refusal when the
 * code is not live, applies to nothing in the cart, or the lines it applies to are below its minimum.
 */
export function linesFor(promotion: PromotionRow, lines: readonly CodeLine[], now: Date): DiscountableLine[] {
  checkLive(promotion, now);
  const marked = lines.map((line) => ({
    priceCents: line.priceCents,
    qty: line.quantity,
    eligible: appliesTo(promotion, line),
  }));
  const scope = promotionScopeWords(promotion);
  if (!marked.some((line) => line.eligible)) {
    throw refuse(
      400,
      scope ? `This code is for ${scope} only` : 'This code does not apply to your cart',
      'DISCOUNT_CODE_NOT_APPLICABLE',
    );
  }
  const eligibleCents = marked.reduce((sum, l) => sum + (l.eligible ? l.priceCents * l.qty : 0), 0);
  if (promotion.minSubtotalCents !== null && eligibleCents < promotion.minSubtotalCents) {
    throw refuse(
      400,
      `Spend ${formatCents(promotion.minSubtotalCents)}${scope ? ` on ${scope}` : ''} to use this code`,
      'DISCOUNT_CODE_MIN_SUBTOTAL',
    );
  }
  return marked;
}

/** The limits' refusals: every use taken, or this customer's. `mine`: the customer's uses held now. */
export function checkLimits(promotion: PromotionRow, mine: number): void {
  if (promotion.usageLimit !== null && promotion.used >= promotion.usageLimit) {
    throw refuse(409, 'This code has been used up', 'DISCOUNT_CODE_USED_UP');
  }
  if (promotion.perCustomerLimit !== null && mine >= promotion.perCustomerLimit) {
    throw refuse(
      409,
      promotion.perCustomerLimit === 1
        ? 'You have already used this code'
        : `You have already used this code ${promotion.perCustomerLimit} times`,
      'DISCOUNT_CODE_CUSTOMER_LIMIT',
    );
  }
}

export function stateOf(promotion: PromotionRow, now: Date): PromotionState {
  const window = windowOf(promotion, now);
  if (window !== 'live') return window;
  if (promotion.usageLimit !== null && promotion.used >= promotion.usageLimit) return 'used_up';
  return 'active';
}

/**
 * The one place a promotion row becomes the API's Promotion (dollars, `_id`). `used`: the uses held
 * now, counted (promotions.repo liveUses); the row's own count is kept only under a usage limit.
 */
export function toPromotionDto(row: PromotionRow, now: Date, used = row.used): Promotion {
  return {
    _id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.kind === 'fixed' ? toDollars(row.value) : row.value,
    minSubtotal: row.minSubtotalCents === null ? null : toDollars(row.minSubtotalCents),
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    categories: row.categories,
    products: row.products,
    active: row.active,
    used,
    state: stateOf(row, now),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

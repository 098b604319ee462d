import {
  type DISCOUNT_KINDS,
  promotionScopeWords,
  promotionShapeProblem,
  promotionValueProblem,
  type Promotion,
  type PromotionKind,
  type PromotionState,
  type UpdatePromotionBody,
} from '@pixel-vault/shared';

export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** A discount code (not a scheduled sale): what the test factories make by default. */
export type CodePromotion = Promotion & { code: string; kind: DiscountKind };

/** What the admin reads for a kind in the form's select. */
export const KIND_LABELS: Record<PromotionKind, string> = {
  percentage: 'Percentage',
  fixed: 'Fixed amount',
  free_shipping: 'Free shipping',
  sale: 'Scheduled sale (no code)',
};

/** "puzzles and 2 products", "everything": what a sale is on, in the admin's words. */
function saleScope({ categories, products }: Pick<Promotion, 'categories' | 'products'>): string {
  const parts = categories.length > 0 ? [promotionScopeWords({ categories, products: [] })] : [];
  if (products.length > 0) parts.push(products.length === 1 ? '1 product' : `${products.length} products`);
  return parts.length > 0 ? parts.join(' and ') : 'everything';
}

/**
 * How the admin section names a promotion (its heading, its buttons, its messages): a code by itself
 * (`RETRO10`); a sale, which has none, by what it does (`Sale: 20% off puzzles`, `Sale: 10% off
 * everything`).
 */
export function promotionName(
  promotion: Pick<Promotion, 'code' | 'kind' | 'value' | 'categories' | 'products'>,
): string {
  if (promotion.code !== null) return promotion.code;
  return `Sale: ${promotion.value}% off ${saleScope(promotion)}`;
}

/** A promotion's state as text (the list does not speak by colour alone). */
export const STATE_LABELS: Record<PromotionState, string> = {
  active: 'Active',
  scheduled: 'Scheduled',
  ended: 'Ended',
  used_up: 'Used up',
  inactive: 'Inactive',
};

/**
 * The promotion form as typed: text as the inputs hold it (`datetime-local` values in the browser's
 * time zone), turned into the API's body by `createInput` / `updateInput` and checked there by the
 * shared schemas.
 */
export interface PromotionFormValues {
  code: string;
  kind: PromotionKind;
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  categories: string[];
  products: string[];
  active: boolean;
}

export const EMPTY_PROMOTION_FORM: PromotionFormValues = {
  code: '',
  kind: 'percentage',
  value: '',
  minSubtotal: '',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  perCustomerLimit: '',
  categories: [],
  products: [],
  active: true,
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO moment as a `datetime-local` input shows it, in the browser's time zone ('' for none). */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const minutes = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
  // Seconds only when there are some, so an untouched field reads back as the same moment.
  return date.getSeconds() === 0 ? minutes : `${minutes}:${pad(date.getSeconds())}`;
}

/**
 * A `datetime-local` value (no offset: the browser's time zone) as an ISO moment. Anything that is not
 * a date goes as typed, for the shared schema to refuse with its message.
 */
export function localInputToIso(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/** Text of a number input: a number, or NaN for the schema to refuse ('' is handled by the caller). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function formFromPromotion(promotion: Promotion): PromotionFormValues {
  const count = (n: number | null) => (n === null ? '' : String(n));
  return {
    code: promotion.code ?? '',
    kind: promotion.kind,
    value: promotion.kind === 'free_shipping' ? '' : String(promotion.value),
    minSubtotal: count(promotion.minSubtotal),
    startsAt: isoToLocalInput(promotion.startsAt),
    endsAt: isoToLocalInput(promotion.endsAt),
    usageLimit: count(promotion.usageLimit),
    perCustomerLimit: count(promotion.perCustomerLimit),
    categories: [...promotion.categories],
    products: [...promotion.products],
    active: promotion.active,
  };
}

/**
 * POST /api/promotions/admin's input, before CreatePromotionBody checks it: empty optional fields left
 * out; a sale without the code, minimum subtotal and limits it cannot have (hidden in its form).
 */
export function createInput(values: PromotionFormValues): Record<string, unknown> {
  const optional = (key: string, text: string, convert: (text: string) => unknown) =>
    text.trim() === '' ? {} : { [key]: convert(text) };
  const sale = values.kind === 'sale';
  return {
    ...(sale ? {} : { code: values.code }),
    kind: values.kind,
    // A free-shipping code has no value (the server takes 0).
    ...(values.kind === 'free_shipping' ? {} : { value: numberOf(values.value) }),
    ...(sale ? {} : optional('minSubtotal', values.minSubtotal, numberOf)),
    ...optional('startsAt', values.startsAt, localInputToIso),
    ...optional('endsAt', values.endsAt, localInputToIso),
    ...(sale ? {} : optional('usageLimit', values.usageLimit, numberOf)),
    ...(sale ? {} : optional('perCustomerLimit', values.perCustomerLimit, numberOf)),
    categories: values.categories,
    products: values.products,
    active: values.active,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

function sameMoment(a: string | null, b: string | null) {
  if (a === null || b === null) return a === b;
  return Date.parse(a) === Date.parse(b);
}

/**
 * PUT /api/promotions/admin/:id's input: only the fields that differ from the promotion as it was read
 * (an emptied optional field is `null`, which clears it). `{}` when nothing changed. A sale has no code,
 * minimum or limits to change (its form hides them).
 */
export function updateInput(values: PromotionFormValues, original: Promotion): UpdateInput {
  const input: UpdateInput = {};
  const sale = values.kind === 'sale';
  const code = values.code.trim().toUpperCase();
  if (!sale && code !== original.code) input.code = values.code;
  if (values.kind !== original.kind) input.kind = values.kind;
  // The value counts for the kind the code ends with; a kind changed to a priced one needs it again.
  if (values.kind !== 'free_shipping') {
    const value = numberOf(values.value);
    if (value !== original.value || values.kind !== original.kind) input.value = value;
  }
  const optionalNumber = (text: string) => (text.trim() === '' ? null : numberOf(text));
  const optionalMoment = (text: string) => (text.trim() === '' ? null : localInputToIso(text));
  if (!sale) {
    const minSubtotal = optionalNumber(values.minSubtotal);
    if (minSubtotal !== original.minSubtotal) input.minSubtotal = minSubtotal;
  }
  const startsAt = optionalMoment(values.startsAt);
  if (!sameMoment(startsAt, original.startsAt)) input.startsAt = startsAt;
  const endsAt = optionalMoment(values.endsAt);
  if (!sameMoment(endsAt, original.endsAt)) input.endsAt = endsAt;
  if (!sale) {
    const usageLimit = optionalNumber(values.usageLimit);
    if (usageLimit !== original.usageLimit) input.usageLimit = usageLimit;
    const perCustomerLimit = optionalNumber(values.perCustomerLimit);
    if (perCustomerLimit !== original.perCustomerLimit) input.perCustomerLimit = perCustomerLimit;
  }
  if (!sameSet(values.categories, original.categories)) input.categories = values.categories;
  if (!sameSet(values.products, original.products)) input.products = values.products;
  if (values.active !== original.active) input.active = values.active;
  return input;
}

/** UpdatePromotionBody as the form writes it, before the schema checks it (NaN for a number not typed). */
export type UpdateInput = Omit<UpdatePromotionBody, 'categories'> & { categories?: string[] };

/**
 * The value checked against the kind the promotion will have: UpdatePromotionBody cannot (either may be
 * left out), so the form asks the shared rule itself rather than wait for the server's refusal.
 */
export function valueProblem(values: PromotionFormValues): string | undefined {
  if (values.kind === 'free_shipping') return undefined;
  return promotionValueProblem(values.kind, numberOf(values.value));
}

/**
 * What is wrong with the edited promotion's shape for its kind (a code needs one; a sale runs from a
 * start to an end), or undefined: for an edit, which UpdatePromotionBody cannot check either.
 */
export function shapeProblem(values: PromotionFormValues): string | undefined {
  const sale = values.kind === 'sale';
  return promotionShapeProblem({
    kind: values.kind,
    code: sale ? null : values.code.trim(),
    startsAt: values.startsAt.trim() || null,
    endsAt: values.endsAt.trim() || null,
  })?.message;
}

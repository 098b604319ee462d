import {
  DISCOUNT_KINDS,
  promotionValueProblem,
  type Promotion,
  type PromotionState,
  type UpdatePromotionBody,
} from '@pixel-vault/shared';

export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/**
 * A discount code: what this section lists and edits. The promotions list may also hold scheduled
 * sales (docs/decisions/009: the next increment, no code, `kind: "sale"`), which are not codes.
 */
export type CodePromotion = Promotion & { code: string; kind: DiscountKind };

export function isDiscountCode(promotion: Promotion): promotion is CodePromotion {
  return typeof promotion.code === 'string' && (DISCOUNT_KINDS as readonly string[]).includes(promotion.kind);
}

/** What the admin reads for a kind in the form's select. */
export const KIND_LABELS: Record<DiscountKind, string> = {
  percentage: 'Percentage',
  fixed: 'Fixed amount',
  free_shipping: 'Free shipping',
};

/** A code's state as text (the list does not speak by colour alone). */
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
  kind: DiscountKind;
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

export function formFromPromotion(promotion: CodePromotion): PromotionFormValues {
  const count = (n: number | null) => (n === null ? '' : String(n));
  return {
    code: promotion.code,
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

/** POST /api/promotions/admin's input, before CreatePromotionBody checks it: empty optional fields left out. */
export function createInput(values: PromotionFormValues): Record<string, unknown> {
  const optional = (key: string, text: string, convert: (text: string) => unknown) =>
    text.trim() === '' ? {} : { [key]: convert(text) };
  return {
    code: values.code,
    kind: values.kind,
    // A free-shipping code has no value (the server takes 0).
    ...(values.kind === 'free_shipping' ? {} : { value: numberOf(values.value) }),
    ...optional('minSubtotal', values.minSubtotal, numberOf),
    ...optional('startsAt', values.startsAt, localInputToIso),
    ...optional('endsAt', values.endsAt, localInputToIso),
    ...optional('usageLimit', values.usageLimit, numberOf),
    ...optional('perCustomerLimit', values.perCustomerLimit, numberOf),
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
 * (an emptied optional field is `null`, which clears it). `{}` when nothing changed.
 */
export function updateInput(values: PromotionFormValues, original: CodePromotion): UpdateInput {
  const input: UpdateInput = {};
  const code = values.code.trim().toUpperCase();
  if (code !== original.code) input.code = values.code;
  if (values.kind !== original.kind) input.kind = values.kind;
  // The value counts for the kind the code ends with; a kind changed to a priced one needs it again.
  if (values.kind !== 'free_shipping') {
    const value = numberOf(values.value);
    if (value !== original.value || values.kind !== original.kind) input.value = value;
  }
  const optionalNumber = (text: string) => (text.trim() === '' ? null : numberOf(text));
  const optionalMoment = (text: string) => (text.trim() === '' ? null : localInputToIso(text));
  const minSubtotal = optionalNumber(values.minSubtotal);
  if (minSubtotal !== original.minSubtotal) input.minSubtotal = minSubtotal;
  const startsAt = optionalMoment(values.startsAt);
  if (!sameMoment(startsAt, original.startsAt)) input.startsAt = startsAt;
  const endsAt = optionalMoment(values.endsAt);
  if (!sameMoment(endsAt, original.endsAt)) input.endsAt = endsAt;
  const usageLimit = optionalNumber(values.usageLimit);
  if (usageLimit !== original.usageLimit) input.usageLimit = usageLimit;
  const perCustomerLimit = optionalNumber(values.perCustomerLimit);
  if (perCustomerLimit !== original.perCustomerLimit) input.perCustomerLimit = perCustomerLimit;
  if (!sameSet(values.categories, original.categories)) input.categories = values.categories;
  if (!sameSet(values.products, original.products)) input.products = values.products;
  if (values.active !== original.active) input.active = values.active;
  return input;
}

/** UpdatePromotionBody as the form writes it, before the schema checks it (NaN for a number not typed). */
export type UpdateInput = Omit<UpdatePromotionBody, 'categories'> & { categories?: string[] };

/**
 * The value checked against the kind the code will have: UpdatePromotionBody cannot (either may be
 * left out), so the form asks the shared rule itself rather than wait for the server's refusal.
 */
export function valueProblem(values: PromotionFormValues): string | undefined {
  if (values.kind === 'free_shipping') return undefined;
  return promotionValueProblem(values.kind, numberOf(values.value));
}

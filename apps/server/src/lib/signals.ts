/**
 * What the shop's services tell the outside about what just happened (issue 37: the metrics module
 * counts them for Prometheus). Services take it as an optional dependency and call it only after the
 * change committed, never inside a transaction that may still roll back; the default does nothing, so
 * a shop without METRICS_TOKEN pays one empty call per event.
 */
export interface Signals {
  /** An order was written (POST /api/orders committed). */
  orderPlaced(): void;
  /** An order moved unpaid -> paid (any path: gift cards, the demo provider, PayPal, the reconciler). */
  orderPaid(): void;
  /** An order was cancelled (the customer's cancel; a paid one is refunded in full on the way). */
  orderCancelled(): void;
  /** An admin's refund was completed (partial or full). */
  orderRefunded(): void;
  /** A provider's answer to taking money, as the shop judged it. */
  paymentOutcome(provider: string, outcome: PaymentOutcome): void;
  /** A gift-card code was refused: unknown, or the caller's wrong-code budget is used up. */
  giftCardCodeRefused(reason: CodeRefusal): void;
  /** A discount code was refused: unknown, or the caller's wrong-code budget is used up. */
  discountCodeRefused(reason: CodeRefusal): void;
  /** A catalogue answer was served from memory. Hot path: must cost next to nothing. */
  catalogueCacheHit(): void;
  /** A catalogue answer was loaded from the database (not kept, or past its lifetime). */
  catalogueCacheMiss(): void;
}

/**
 * `captured`: the money was taken and recorded. `declined`: the provider refused (no money moved).
 * `failed`: no usable money (an amount or currency that does not match, or never completed).
 * `error`: the provider could not be asked (timeout, 5xx); the payment may still complete later.
 */
export type PaymentOutcome = 'captured' | 'declined' | 'failed' | 'error';

export type CodeRefusal = 'unknown' | 'rate_limited';

const noop = () => {};

/** The default: nothing listens. */
export const NO_SIGNALS: Signals = {
  orderPlaced: noop,
  orderPaid: noop,
  orderCancelled: noop,
  orderRefunded: noop,
  paymentOutcome: noop,
  giftCardCodeRefused: noop,
  discountCodeRefused: noop,
  catalogueCacheHit: noop,
  catalogueCacheMiss: noop,
};

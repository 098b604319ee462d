import { AppError } from '../../lib/errors.js';

export interface ProviderOrder {
  id: string;
  status: string;
}

/** A provider order as the provider reports it (amount of the capture once captured). */
export interface ProviderPayment {
  /** The provider order's status: CREATED, APPROVED, COMPLETED, ... */
  status: string;
  captureId: string | null;
  /** The capture's own status (COMPLETED, PENDING, DECLINED, ...); null before any capture. */
  captureStatus: string | null;
  /** The purchase unit's reference_id (ours: the shop's order id; PayPal's default: `default`). */
  referenceId: string | null;
  amountCents: number;
  currency: string;
  payerEmail: string | null;
}

/** A refund the provider accepted (issue 9: a capture for an order that expired). */
export interface ProviderRefund {
  id: string;
  /** COMPLETED, or PENDING while the provider clears it. */
  status: string;
}

/** What the shop needs from a payment provider: PayPal, or the built-in demo. */
export interface PaymentProvider {
  mode: 'paypal' | 'demo';
  /** For the browser's PayPal script ('demo' in demo mode). */
  clientId: string;
  createOrder(input: {
    amountCents: number;
    currency: 'USD';
    referenceId: string;
    requestId: string;
  }): Promise<ProviderOrder>;
  /** `requestId` must be the same on every retry of one capture (idempotency). */
  captureOrder(input: { providerOrderId: string; requestId: string }): Promise<ProviderPayment>;
  getOrder(providerOrderId: string): Promise<ProviderPayment>;
  /**
   * Gives `amountCents` of a completed capture back to the buyer. `requestId` must be the same on
   * every retry of one refund, so a retry after a lost answer cannot refund twice.
   */
  refundCapture(input: {
    captureId: string;
    amountCents: number;
    currency: string;
    requestId: string;
  }): Promise<ProviderRefund>;
  verifyWebhook(input: {
    headers: Record<string, string | string[] | undefined>;
    rawBody: string;
  }): Promise<boolean>;
}

export const providerUnreachable = () =>
  new AppError(502, 'PayPal is not reachable right now. Please try again.', 'PAYPAL_UNREACHABLE');
export const paymentDeclined = () => new AppError(402, 'PayPal declined the payment', 'PAYMENT_DECLINED');
export const captureNotFound = () =>
  new AppError(404, 'PayPal has no capture with this id', 'PAYPAL_CAPTURE_NOT_FOUND');
/** The capture was refunded in full already (by another request id, or by hand in PayPal). */
export const captureAlreadyRefunded = () =>
  new AppError(409, 'This PayPal payment was already refunded', 'PAYPAL_ALREADY_REFUNDED');

/** "12.34" -> 1234; anything that is not a plain two-decimal amount -> NaN (never matches an order). */
export function parseAmountCents(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(value)) return Number.NaN;
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1234 -> "12.34", as PayPal's amount.value wants it. */
export function formatAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

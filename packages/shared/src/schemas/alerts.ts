import { z } from 'zod';
import { Id } from './common.js';
import { Email } from './users.js';

/**
 * Issue 34: back-in-stock alerts ("Notify me when it is back") for one variant of a product
 * (docs/back-in-stock.md).
 */

/** A logged-in shopper waits for at most this many variants at once. */
export const MAX_WAITING_ALERTS = 100;
/** Hours a visitor's confirmation link works. */
export const ALERT_CONFIRM_HOURS = 24;
/** At most one confirmation mail per address and variant in this many minutes. */
export const ALERT_CONFIRM_RESEND_MINUTES = 60;

/**
 * POST /api/alerts. No variant (or null): the product's only variant, as in the cart; a product sold in
 * several versions needs one named. `email` is a visitor's (a logged-in shopper's alert goes to the
 * account's address, and an e-mail sent beside a token is ignored).
 */
export const AlertSubscribeBody = z.object({
  product: Id,
  variant: Id.nullish(),
  email: Email.optional(),
});
export type AlertSubscribeBody = z.infer<typeof AlertSubscribeBody>;

/**
 * What a visitor's subscribe always answers (202), whatever the address: a new alert, one waiting for
 * its confirmation (a mail at most once an hour), or one confirmed already.
 */
export const ALERT_CONFIRM_SENT_MESSAGE =
  'Almost done: open the link in the e-mail we sent you to confirm the alert. If you confirmed it before, there is nothing more to do: we will write once when it is back in stock.';

/** What an unsubscribe answers (200), the first time and every time after. */
export const ALERT_UNSUBSCRIBED_MESSAGE =
  'Done: this address gets no more back-in-stock alerts from Pixel Vault. Mails about your orders are not affected.';

/** What a used, expired, unknown or malformed confirmation or unsubscribe link answers (400). */
export const ALERT_TOKEN_INVALID_MESSAGE =
  'This link is invalid or has expired. Please ask for the alert again on the product page.';

/** A confirmation token as mailed: 32 random bytes in base64url (43 characters). */
export const AlertConfirmToken = z
  .string({ message: ALERT_TOKEN_INVALID_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{43}$/, { message: ALERT_TOKEN_INVALID_MESSAGE });

/** An unsubscribe token as an alert mail carries it: 64 hexadecimal digits. */
export const AlertUnsubscribeToken = z
  .string({ message: ALERT_TOKEN_INVALID_MESSAGE })
  .regex(/^[0-9a-fA-F]{64}$/, { message: ALERT_TOKEN_INVALID_MESSAGE })
  .transform((token) => token.toLowerCase());

/** POST /api/alerts/confirm (the page `/alerts/confirm/:token` sends it). */
export const AlertConfirmBody = z.object({ token: AlertConfirmToken });
export type AlertConfirmBody = z.infer<typeof AlertConfirmBody>;

/** POST /api/alerts/unsubscribe (the page `/alerts/unsubscribe/:token` sends it). */
export const AlertUnsubscribeBody = z.object({ token: AlertUnsubscribeToken });
export type AlertUnsubscribeBody = z.infer<typeof AlertUnsubscribeBody>;

/** POST /api/alerts/unsubscribe/:token, the List-Unsubscribe one-click address (RFC 8058). */
export const AlertUnsubscribeParams = z.object({ token: AlertUnsubscribeToken });
export type AlertUnsubscribeParams = z.infer<typeof AlertUnsubscribeParams>;

/**
 * waiting: confirmed, mailed at the next restock; notified: its one mail went out; cancelled:
 * unsubscribed; discontinued: waiting, but the variant or its product is no longer sold.
 */
export const STOCK_ALERT_STATES = ['waiting', 'notified', 'cancelled', 'discontinued'] as const;
export const StockAlertState = z.enum(STOCK_ALERT_STATES);
export type StockAlertState = z.infer<typeof StockAlertState>;

/** One of a logged-in shopper's alerts, as the catalogue shows its product now. */
export const StockAlert = z.object({
  _id: z.string(),
  product: z.string(),
  variant: z.string(),
  /** The variant's option values (`Complete in box / PAL`); absent for a product without options. */
  variantTitle: z.string().optional(),
  name: z.string(),
  image: z.string(),
  category: z.string(),
  status: StockAlertState,
  countInStock: z.number().int(),
  createdAt: z.string(),
  notifiedAt: z.string().nullable(),
});
export type StockAlert = z.infer<typeof StockAlert>;

/** GET /api/alerts and DELETE /api/alerts/:id: the caller's alerts, newest first. */
export const StockAlerts = z.object({ items: z.array(StockAlert) });
export type StockAlerts = z.infer<typeof StockAlerts>;

/** POST /api/alerts/confirm: the alert confirmed (or confirmed before), and its variant now. */
export const AlertConfirmed = z.object({
  message: z.string(),
  product: z.string(),
  variant: z.string(),
  variantTitle: z.string().optional(),
  name: z.string(),
  category: z.string(),
  status: StockAlertState,
  inStock: z.boolean(),
});
export type AlertConfirmed = z.infer<typeof AlertConfirmed>;

/** One sold-out variant on GET /api/alerts/admin/most-wanted. */
export const MostWantedItem = z.object({
  product: z.string(),
  variant: z.string(),
  variantTitle: z.string().optional(),
  name: z.string(),
  sku: z.string(),
  image: z.string(),
  category: z.string(),
  /** Confirmed alerts not yet mailed. */
  waiting: z.number().int(),
  /** When the longest-waiting of them was confirmed. */
  waitingSince: z.string(),
});
export type MostWantedItem = z.infer<typeof MostWantedItem>;

/** The top 50 sold-out variants by waiting alerts, most first. */
export const MostWanted = z.object({ items: z.array(MostWantedItem) });
export type MostWanted = z.infer<typeof MostWanted>;

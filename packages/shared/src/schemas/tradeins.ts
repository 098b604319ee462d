import { z } from 'zod';
import { Id, pagingQuery } from './common.js';
import { money } from './fields.js';

/**
 * Issue 35: trade-ins. A shopper sells the shop their old games for store credit: quote -> ship ->
 * receive -> inspect -> accept (credited as a store-credit gift card) or return (docs/trade-ins.md).
 * Money is dollars in JSON, as everywhere in the API, and integer cents underneath.
 */

export const TRADE_IN_STATUSES = [
  'quoted',
  'shipped',
  'cancelled',
  'received',
  'inspected',
  'accepted',
  'returned',
  'expired',
] as const;
export const TradeInStatus = z.enum(TRADE_IN_STATUSES);
export type TradeInStatus = z.infer<typeof TradeInStatus>;

/** Statuses in which a trade-in is still open: it counts against MAX_OPEN_TRADE_INS. */
export const OPEN_TRADE_IN_STATUSES: readonly TradeInStatus[] = [
  'quoted',
  'shipped',
  'received',
  'inspected',
];

/** At most this many open trade-ins per customer. */
export const MAX_OPEN_TRADE_INS = 3;
/** At most this many items (the sum of the quantities) in one trade-in. */
export const MAX_TRADE_IN_ITEMS = 50;
/** A quote holds this many days unless TRADEIN_QUOTE_DAYS says otherwise. */
export const DEFAULT_TRADE_IN_QUOTE_DAYS = 7;
export const MAX_TRACKING_NUMBER_LENGTH = 64;
export const MAX_INSPECTION_REASON_LENGTH = 300;

/** Per-unit credit the shop offers for a variant: dollars, or null (not bought). */
export const TradeInCreditInput = z.preprocess(
  (v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : v),
  money('Trade-in credit').nullable(),
);

// ---------------------------------------------------------------------------------------------------
// Buy list (public)

/** GET /api/tradeins/buylist?q=&page=&limit= : what the shop buys, one row per variant. */
export const BuylistQuery = z.object({
  q: z.string().trim().max(100, { message: 'q is at most 100 characters' }).optional(),
  ...pagingQuery(24, 100),
});
export type BuylistQuery = z.infer<typeof BuylistQuery>;

export const BuylistEntry = z.object({
  product: Id,
  productName: z.string(),
  productCategory: z.string(),
  platform: z.string().nullable(),
  image: z.string(),
  variant: Id,
  sku: z.string(),
  /** The variant's option values (`{ "Condition": "Loose" }`); `{}` for a product without options. */
  options: z.record(z.string(), z.string()),
  /** Store credit offered per unit, in dollars. */
  credit: z.number(),
});
export type BuylistEntry = z.infer<typeof BuylistEntry>;

export const BuylistResponse = z.object({
  items: z.array(BuylistEntry),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
  /** How many days a quote holds (TRADEIN_QUOTE_DAYS), for the page that explains it. */
  quoteDays: z.number(),
});
export type BuylistResponse = z.infer<typeof BuylistResponse>;

// ---------------------------------------------------------------------------------------------------
// The customer's calls

export const TradeInItemInput = z.object({
  product: Id,
  /** Left out (or null): the product's only variant; a product sold in several versions needs one. */
  variant: Id.nullish(),
  qty: z
    .number({ message: 'Quantity must be a number' })
    .int({ message: 'Quantity must be a whole number' })
    .min(1, { message: 'Quantity must be at least 1' })
    .max(MAX_TRADE_IN_ITEMS, { message: `Quantity is at most ${MAX_TRADE_IN_ITEMS}` }),
});
export type TradeInItemInput = z.infer<typeof TradeInItemInput>;

/** POST /api/tradeins -> 201 TradeIn (status quoted), priced by the server from the buy list. */
export const CreateTradeInBody = z.object({
  items: z
    .array(TradeInItemInput, { message: 'Items must be a list' })
    .min(1, { message: 'Add at least one item to get a quote' })
    .max(MAX_TRADE_IN_ITEMS, { message: `A trade-in holds at most ${MAX_TRADE_IN_ITEMS} items` }),
});
export type CreateTradeInBody = z.infer<typeof CreateTradeInBody>;

/** POST /api/tradeins/{id}/ship: the customer sent the box (quoted -> shipped). */
export const ShipTradeInBody = z.object({
  trackingNumber: z
    .string({ message: 'Tracking number must be text' })
    .trim()
    .max(MAX_TRACKING_NUMBER_LENGTH, {
      message: `A tracking number is at most ${MAX_TRACKING_NUMBER_LENGTH} characters`,
    })
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type ShipTradeInBody = z.infer<typeof ShipTradeInBody>;

// ---------------------------------------------------------------------------------------------------
// The admin's calls

export const INSPECTION_OUTCOMES = ['accepted', 'lowered', 'rejected'] as const;
export const InspectionOutcome = z.enum(INSPECTION_OUTCOMES);
export type InspectionOutcome = z.infer<typeof InspectionOutcome>;

const Reason = z
  .string({ message: 'Reason must be text' })
  .trim()
  .max(MAX_INSPECTION_REASON_LENGTH, {
    message: `A reason is at most ${MAX_INSPECTION_REASON_LENGTH} characters`,
  });

/**
 * One line's inspection: `accepted` at the quote; `lowered` to `credit` (per unit, dollars, below the
 * quote) with a reason; `rejected` with a reason (nothing credited, sent back).
 */
export const InspectItemInput = z
  .object({
    _id: Id,
    outcome: InspectionOutcome,
    credit: money('Credit').optional(),
    reason: Reason.optional(),
  })
  .superRefine((item, ctx) => {
    if (item.outcome !== 'accepted' && !item.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why, for a lowered or rejected item' });
    }
    if (item.outcome === 'lowered' && item.credit === undefined) {
      ctx.addIssue({ code: 'custom', path: ['credit'], message: 'Give the lowered credit' });
    }
  });
export type InspectItemInput = z.infer<typeof InspectItemInput>;

/** POST /api/tradeins/admin/{id}/inspect (received -> inspected): every line of the trade-in, once. */
export const InspectTradeInBody = z.object({
  items: z
    .array(InspectItemInput, { message: 'Items must be a list' })
    .min(1, { message: 'Inspect every item' })
    .max(MAX_TRADE_IN_ITEMS),
});
export type InspectTradeInBody = z.infer<typeof InspectTradeInBody>;

/**
 * GET /api/tradeins/admin?status=&q=&page=&limit= : the queue, oldest first within a status. `q` finds a
 * box on the packing table: the reference printed on its slip (the first characters of the id, at least
 * 4), or part of the customer's name or e-mail.
 */
export const AdminTradeInsQuery = z.object({
  status: TradeInStatus.optional(),
  q: z
    .string({ message: 'q must be text' })
    .trim()
    .max(100, { message: 'q is at most 100 characters' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  ...pagingQuery(25, 100),
});
export type AdminTradeInsQuery = z.infer<typeof AdminTradeInsQuery>;

// ---------------------------------------------------------------------------------------------------
// Answers

export const TradeInItem = z.object({
  _id: Id,
  product: Id,
  variant: Id,
  productName: z.string(),
  /** The variant's option values when quoted, e.g. `{ "Condition": "Loose", "Region": "NTSC-U" }`. */
  options: z.record(z.string(), z.string()),
  sku: z.string(),
  image: z.string(),
  qty: z.number(),
  /** Per unit, dollars, from the buy list when quoted. */
  offeredCredit: z.number(),
  /** Null until inspected. */
  outcome: InspectionOutcome.nullable(),
  /** Per unit after inspection (the quote when accepted, lower when lowered, 0 when rejected). */
  inspectedCredit: z.number().nullable(),
  reason: z.string().nullable(),
});
export type TradeInItem = z.infer<typeof TradeInItem>;

export const TRADE_IN_EVENT_KINDS = [
  'quoted',
  'shipped',
  'cancelled',
  'received',
  'inspected',
  'accepted',
  'credited',
  'returned',
  'expired',
] as const;
export type TradeInEventKind = (typeof TRADE_IN_EVENT_KINDS)[number];

export const TradeInEvent = z.object({
  kind: z.enum(TRADE_IN_EVENT_KINDS),
  actor: z.enum(['customer', 'admin', 'system']),
  at: z.string(),
  /** Dollars, where the step moved money (credited) or set a total (quoted, inspected). */
  amount: z.number().nullable(),
  note: z.string().nullable(),
});
export type TradeInEvent = z.infer<typeof TradeInEvent>;

export const TradeIn = z.object({
  _id: Id,
  status: TradeInStatus,
  items: z.array(TradeInItem),
  /** The quote's total, dollars. */
  totalCredit: z.number(),
  /** The inspected total, dollars; null until inspected. */
  inspectedCredit: z.number().nullable(),
  /** What was credited (accepted), dollars; 0 otherwise. */
  creditedAmount: z.number(),
  /** The store-credit gift card's code, once credited; shown to the customer, spent at checkout. */
  giftCardCode: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  timeline: z.array(TradeInEvent),
  /** The customer (admin answers only); `_id` null once the account is deleted (name and e-mail as quoted). */
  user: z.object({ _id: Id.nullable(), name: z.string(), email: z.string() }).optional(),
});
export type TradeIn = z.infer<typeof TradeIn>;

export const TradeInsPage = z.object({
  tradeIns: z.array(TradeIn),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type TradeInsPage = z.infer<typeof TradeInsPage>;

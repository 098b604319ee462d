import { z } from 'zod';
import { Id } from './common.js';

/**
 * The admin's day-to-day tools (issue 15): the overview's numbers and the CSV exports' date ranges.
 * Money is in dollars with two decimals, as every other answer of the API.
 */

export const STATS_DEFAULT_DAYS = 30;
export const STATS_MAX_DAYS = 366;

/** GET /api/admin/stats?days=30: the range ends today (in the shop's time zone). */
export const AdminStatsQuery = z.object({
  days: z.coerce
    .number({ message: 'days must be a number' })
    .int({ message: 'days must be a whole number' })
    .min(1, { message: 'days must be at least 1' })
    .max(STATS_MAX_DAYS, { message: `days must be at most ${STATS_MAX_DAYS}` })
    .default(STATS_DEFAULT_DAYS),
});
export type AdminStatsQuery = z.infer<typeof AdminStatsQuery>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not); `label` names it in the message. */
export const calendarDate = (label: string) =>
  z.string({ message: `${label} must be a date written YYYY-MM-DD` }).refine(
    (value) => {
      const match = ISO_DATE.exec(value);
      if (!match) return false;
      const [, y, m, d] = match.map(Number) as [number, number, number, number];
      const date = new Date(Date.UTC(y, m - 1, d));
      return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    },
    { message: `${label} must be a date written YYYY-MM-DD` },
  );

export const StatsDay = z.object({ date: z.string(), orders: z.number(), revenue: z.number() });
export type StatsDay = z.infer<typeof StatsDay>;

export const AdminStats = z.object({
  days: z.array(StatsDay),
  totals: z.object({ orders: z.number(), revenue: z.number(), averageOrder: z.number() }),
  topProducts: z.array(
    z.object({ _id: Id, productName: z.string(), units: z.number(), revenue: z.number() }),
  ),
  /**
   * One row per live variant at or below the threshold (issue 31): `_id` is its product's; `variant`,
   * `variantTitle` (empty without options) and `sku` say which of the product's variants it is.
   */
  lowStock: z.array(
    z.object({
      _id: Id,
      productName: z.string(),
      stockQuantity: z.number(),
      variant: Id,
      variantTitle: z.string(),
      sku: z.string(),
    }),
  ),
  openOrders: z.object({ unpaid: z.number(), toDeliver: z.number() }),
  /**
   * Issue 35, over the range: the store credit trade-ins were paid (dollars), and the items bought
   * (accepted at their quote or lower) by the trade-ins accepted in it.
   */
  tradeIns: z.object({ creditIssued: z.number(), itemsBought: z.number() }),
});
export type AdminStats = z.infer<typeof AdminStats>;

/**
 * GET /api/admin/export/orders.csv?from=&to=: the days the orders were placed, both included, in the
 * shop's time zone. Either end may be left out (from the first order, up to the last).
 */
export const OrdersExportQuery = z
  .object({
    from: calendarDate('from').optional(),
    to: calendarDate('to').optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type OrdersExportQuery = z.infer<typeof OrdersExportQuery>;

export const ORDER_CSV_COLUMNS = [
  '_id',
  'orderNumber',
  'createdAt',
  'email',
  'itemsPrice',
  'shippingPrice',
  'taxPrice',
  'totalPrice',
  'isPaid',
  'paidAt',
  'isDelivered',
  'deliveredAt',
  'items',
] as const;

/**
 * GET /api/admin/export/tradeins.csv?from=&to= (issue 35): the trade-ins created on those days, both
 * included, in the shop's time zone; either end may be left out, as the orders export's.
 */
export const TradeInsExportQuery = OrdersExportQuery;
export type TradeInsExportQuery = z.infer<typeof TradeInsExportQuery>;

/** The trade-ins export's header: one row per line of a trade-in, the trade-in's columns repeated. */
export const TRADEIN_CSV_COLUMNS = [
  'tradeInId',
  'createdAt',
  'status',
  'email',
  'product',
  'sku',
  'options',
  'qty',
  'offeredCredit',
  'outcome',
  'inspectedCredit',
  'reason',
  'creditedAmount',
  'trackingNumber',
] as const;

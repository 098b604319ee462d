import { type SQL, and, asc, inArray, sql } from 'drizzle-orm';
import {
  type AdminStats,
  type AdminStatsQuery,
  ORDER_CSV_COLUMNS,
  type OrdersExportQuery,
  nameWithVariant,
  PRODUCTS_EXPORT_COLUMNS,
  type ProductOption,
  TRADEIN_CSV_COLUMNS,
  type TradeInsExportQuery,
  toDollars,
  variantTitle,
} from '@pixel-vault/shared';
import { type Database, queryRows } from '../../db/client.js';
import { orderItems, orders, productVariants, products } from '../../db/schema/index.js';
import {
  type CsvDownload,
  EXPORT_BATCH,
  addDays,
  csvStream,
  dayIn,
  dayStart,
  money,
} from './admin.export.js';
import { productExportRows } from './admin.products-export.js';
import { tradeInExportRows, tradeInStats } from './admin.tradeins.js';

export { type CsvDownload, EXPORT_BATCH, addDays, dayIn, neutralise } from './admin.export.js';

export interface AdminService {
  stats(query: AdminStatsQuery): Promise<AdminStats>;
  ordersCsv(query: OrdersExportQuery): CsvDownload;
  productsCsv(): CsvDownload;
  /** Issue 35: GET /api/admin/export/tradeins.csv, the orders export's sibling. */
  tradeInsCsv(query: TradeInsExportQuery): CsvDownload;
}

export interface AdminServiceOptions {
  db: Database;
  /** The shop's IANA zone: its days are the overview's days and the export's dates. */
  timeZone: string;
  lowStockThreshold: number;
  clock?: () => Date;
  /** Told when an export stops half-way (the client has its 200 and a cut file by then). */
  onStreamError?: (error: Error) => void;
}

/**
 * Whether the database knows `timeZone` (the overview counts days in SQL with it). Node's and the
 * database's time-zone lists are two copies of the tz database that can differ; main.ts refuses to
 * start with SHOP_TIMEZONE that only Node knows, rather than fail every overview later.
 */
export async function databaseKnowsTimeZone(db: Database, timeZone: string): Promise<boolean> {
  // Asked the way the overview's queries use it: the database either takes the name or refuses it.
  return queryRows(db, sql`select now() at time zone ${timeZone} as now`).then(
    () => true,
    () => false,
  );
}

/**
 * The orders export's header: the columns of before, then the discount code (issue 32) and what it took
 * off the items at the end, so a reader that takes the columns by position reads what it did.
 */
export const ORDER_EXPORT_COLUMNS = [...ORDER_CSV_COLUMNS, 'discountCode', 'discountPrice'] as const;

export function createAdminService({
  db,
  timeZone,
  lowStockThreshold,
  clock = () => new Date(),
  onStreamError = () => {},
}: AdminServiceOptions): AdminService {
  async function stats({ days }: AdminStatsQuery): Promise<AdminStats> {
    const now = clock();
    const today = dayIn(now, timeZone);
    const first = addDays(today, -(days - 1));
    // Paid orders placed in the range (the partial index orders_paid_created_idx); delivered ones are
    // paid too. A partial refund leaves the order paid, less what was given back; a full refund or a
    // cancellation takes it out of the paid orders altogether.
    const inRange = sql`o.status = 'paid' and o.created_at >= ${dayStart(first, timeZone)}
      and o.created_at < ${dayStart(addDays(today, 1), timeZone)}`;

    const [perDay, top, low, open, tradeIns] = await Promise.all([
      queryRows<{ day: string; orders: number; revenue: string | number }>(
        db,
        // Grouped by date, formatted after: to_char on each of 100,000 rows costs more than the sums.
        sql`select to_char(d, 'YYYY-MM-DD') as day, orders, revenue from (
              select (o.created_at at time zone ${timeZone})::date as d,
                count(*)::int as orders, sum(o.total_cents - o.refunded_cents) as revenue
              from ${orders} o where ${inRange}
              group by 1) per_day`,
      ),
      queryRows<{ id: string; name: string; units: string | number; revenue: string | number }>(
        db,
        // Summed per product first, the five best named after: the product's name is looked up 5
        // times, not once per order line (5,000 paid orders over a year: 20-35 % less time). What a
        // line earned is after its share of a discount code (issue 32), as the orders' revenue is.
        sql`select t.id, coalesce(p.name, t.item_name) as name, t.units, t.revenue from (
              select i.product_id as id, max(i.name) as item_name,
                sum(i.quantity) as units, sum(i.quantity * i.unit_price_cents - i.discount_cents) as revenue
              from ${orders} o
              join ${orderItems} i on i.order_id = o.id
              where ${inRange} and i.product_id is not null
              group by i.product_id
              order by revenue desc, units desc, i.product_id
              limit 5) t
            left join ${products} p on p.id = t.id
            order by t.revenue desc, t.units desc, t.id`,
      ),
      queryRows<{
        id: string;
        name: string;
        product_options: ProductOption[];
        variant_id: string;
        options: Record<string, string>;
        sku: string;
        stock: number;
      }>(
        db,
        // Per live variant (issue 31): each is its own item on the shelf.
        sql`select p.id, p.name, p.options as product_options,
              v.id as variant_id, v.options, v.sku, v.stock
            from ${productVariants} v
            join ${products} p on p.id = v.product_id
            where p.deleted_at is null and v.archived_at is null and v.stock <= ${lowStockThreshold}
            order by v.stock, p.name, p.id, v.position`,
      ),
      queryRows<{ unpaid: number; to_deliver: number }>(
        db,
        sql`select
              (select count(*) from ${orders} where status = 'unpaid' and expires_at > ${now.toISOString()}::timestamptz)::int as unpaid,
              (select count(*) from ${orders} where status = 'paid' and not is_delivered)::int as to_deliver`,
      ),
      tradeInStats(db, dayStart(first, timeZone), dayStart(addDays(today, 1), timeZone)),
    ]);

    const byDay = new Map(perDay.map((row) => [row.day, row]));
    const dayList: AdminStats['days'] = [];
    let totalOrders = 0;
    let totalCents = 0;
    for (let i = 0; i < days; i += 1) {
      const date = addDays(first, i);
      const row = byDay.get(date);
      const count = row ? Number(row.orders) : 0;
      const cents = row ? Number(row.revenue) : 0;
      totalOrders += count;
      totalCents += cents;
      dayList.push({ date, orders: count, revenue: toDollars(cents) });
    }
    return {
      days: dayList,
      totals: {
        orders: totalOrders,
        revenue: toDollars(totalCents),
        averageOrder: totalOrders > 0 ? toDollars(Math.round(totalCents / totalOrders)) : 0,
      },
      topProducts: top.map((row) => ({
        _id: row.id,
        productName: row.name,
        units: Number(row.units),
        revenue: toDollars(Number(row.revenue)),
      })),
      lowStock: low.map((row) => ({
        _id: row.id,
        productName: row.name,
        stockQuantity: Number(row.stock),
        variant: row.variant_id,
        variantTitle: variantTitle(row.product_options, row.options),
        sku: row.sku,
      })),
      openOrders: { unpaid: Number(open[0]?.unpaid ?? 0), toDeliver: Number(open[0]?.to_deliver ?? 0) },
      tradeIns,
    };
  }

  /**
   * Orders placed from `from` to `to` (shop days, both included), oldest first, by keyset on
   * (created_at, id) (orders_created_id_idx). Each batch is its own statement, outside any
   * transaction: a download as slow as its client must not hold a connection (PGlite has one) or a
   * snapshot open. An order placed during the download may or may not be in it; none is repeated.
   */
  async function* orderRows({ from, to }: OrdersExportQuery) {
    const range: SQL[] = [];
    if (from) range.push(sql`${orders.createdAt} >= ${dayStart(from, timeZone)}`);
    if (to) range.push(sql`${orders.createdAt} < ${dayStart(addDays(to, 1), timeZone)}`);
    // created_at as text: microseconds and all, so the cursor is exact (a JS Date keeps milliseconds).
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const page = await db
        .select({
          id: orders.id,
          number: orders.number,
          cursor: sql<string>`${orders.createdAt}::text`,
          createdAt: orders.createdAt,
          email: orders.customerEmail,
          itemsCents: orders.itemsCents,
          discountCode: orders.discountCode,
          discountCents: orders.discountCents,
          shippingCents: orders.shippingCents,
          taxCents: orders.taxCents,
          totalCents: orders.totalCents,
          paidAt: orders.paidAt,
          isDelivered: orders.isDelivered,
          deliveredAt: orders.deliveredAt,
        })
        .from(orders)
        .where(
          and(
            ...range,
            after
              ? sql`(${orders.createdAt}, ${orders.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(EXPORT_BATCH);
      if (page.length === 0) return;
      const lines = await db
        .select({
          orderId: orderItems.orderId,
          name: orderItems.name,
          variantTitle: orderItems.variantTitle,
          quantity: orderItems.quantity,
          unitPriceCents: orderItems.unitPriceCents,
        })
        .from(orderItems)
        .where(
          inArray(
            orderItems.orderId,
            page.map((o) => o.id),
          ),
        )
        .orderBy(asc(orderItems.orderId), asc(orderItems.name), asc(orderItems.id));
      const itemsOf = new Map<string, string[]>();
      for (const line of lines) {
        const text = `${line.quantity} x ${nameWithVariant(line.name, line.variantTitle)} @ ${money(line.unitPriceCents)}`;
        itemsOf.set(line.orderId, [...(itemsOf.get(line.orderId) ?? []), text]);
      }
      for (const o of page) {
        yield {
          _id: o.id,
          orderNumber: o.number,
          createdAt: o.createdAt.toISOString(),
          email: o.email,
          itemsPrice: money(o.itemsCents),
          shippingPrice: money(o.shippingCents),
          taxPrice: money(o.taxCents),
          totalPrice: money(o.totalCents),
          isPaid: o.paidAt !== null,
          paidAt: o.paidAt?.toISOString() ?? '',
          isDelivered: o.isDelivered,
          deliveredAt: o.deliveredAt?.toISOString() ?? '',
          items: (itemsOf.get(o.id) ?? []).join('; '),
          discountCode: o.discountCode ?? '',
          discountPrice: money(o.discountCents),
        };
      }
      if (page.length < EXPORT_BATCH) return;
      const last = page[page.length - 1];
      if (!last) return;
      after = { at: last.cursor, id: last.id };
    }
  }

  const rangeName = (what: string, { from, to }: OrdersExportQuery) =>
    `${what}${from ? `-from-${from}` : ''}${to ? `-to-${to}` : ''}.csv`;

  return {
    stats,
    ordersCsv(query) {
      const name = rangeName('orders', query);
      return { filename: name, stream: csvStream(ORDER_EXPORT_COLUMNS, orderRows(query), onStreamError) };
    },
    tradeInsCsv(query) {
      const rows = tradeInExportRows(db, query, timeZone, EXPORT_BATCH);
      return {
        filename: rangeName('tradeins', query),
        stream: csvStream(TRADEIN_CSV_COLUMNS, rows, onStreamError),
      };
    },
    productsCsv() {
      return {
        filename: `products-${dayIn(clock(), timeZone)}.csv`,
        stream: csvStream(PRODUCTS_EXPORT_COLUMNS, productExportRows(db, EXPORT_BATCH), onStreamError),
      };
    },
  };
}

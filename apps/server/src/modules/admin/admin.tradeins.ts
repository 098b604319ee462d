import { type SQL, and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  type AdminStats,
  type ProductOption,
  type TRADEIN_CSV_COLUMNS,
  type TradeInsExportQuery,
  toDollars,
} from '@pixel-vault/shared';
import { type Database, queryRows } from '../../db/client.js';
import {
  giftCardLedger,
  products,
  tradeInEvents,
  tradeInItems,
  tradeIns,
  users,
} from '../../db/schema/index.js';
import { addDays, dayStart, money } from './admin.export.js';

/**
 * The shop owner's view of trade-ins (issue 35): the overview's two figures and the trade-ins export,
 * read from the tables the tradeins module writes (trade_ins, trade_in_items, trade_in_events and the
 * gift-card ledger's 'tradein_credit' rows). Nothing here writes.
 */

/**
 * Over [start, end): the store credit issued (the ledger's trade-in credits written in it) and the
 * items bought (accepted at their quote or lower) by the trade-ins whose 'accepted' step is in it.
 */
export async function tradeInStats(db: Database, start: SQL, end: SQL): Promise<AdminStats['tradeIns']> {
  const [row] = await queryRows<{ credit: string | number; items: string | number }>(
    db,
    sql`select
          (select coalesce(sum(l.amount_cents), 0) from ${giftCardLedger} l
            where l.kind = 'tradein_credit' and l.created_at >= ${start} and l.created_at < ${end}) as credit,
          (select coalesce(sum(i.qty), 0) from ${tradeInItems} i
            where i.outcome in ('accepted', 'lowered')
              and i.trade_in_id in (
                select e.trade_in_id from ${tradeInEvents} e
                where e.kind = 'accepted' and e.at >= ${start} and e.at < ${end})) as items`,
  );
  return { creditIssued: toDollars(Number(row?.credit ?? 0)), itemsBought: Number(row?.items ?? 0) };
}

export type TradeInExportRow = Record<(typeof TRADEIN_CSV_COLUMNS)[number], string | number>;

/**
 * A line's option values as a reader of the file wants them, `Condition: Loose; Region: NTSC-U`: in
 * the order of the product's options, then any the product no longer has, by name.
 */
export function optionsText(values: Record<string, string>, productOptions: readonly ProductOption[]) {
  const order = productOptions.map((o) => o.name);
  const names = Object.keys(values).sort((a, b) => {
    const [ia, ib] = [order.indexOf(a), order.indexOf(b)];
    if (ia !== ib) return (ia === -1 ? order.length : ia) - (ib === -1 ? order.length : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return names.map((name) => `${name}: ${values[name]}`).join('; ');
}

/**
 * Trade-ins created from `from` to `to` (shop days, both included), oldest first, by keyset on
 * (created_at, id), `batch` trade-ins a query and each query its own statement outside any
 * transaction, as the orders export: one row per line, in the order the customer listed them.
 */
export async function* tradeInExportRows(
  db: Database,
  { from, to }: TradeInsExportQuery,
  timeZone: string,
  batch: number,
): AsyncGenerator<TradeInExportRow> {
  const range: SQL[] = [];
  if (from) range.push(sql`${tradeIns.createdAt} >= ${dayStart(from, timeZone)}`);
  if (to) range.push(sql`${tradeIns.createdAt} < ${dayStart(addDays(to, 1), timeZone)}`);
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const page = await db
      .select({
        id: tradeIns.id,
        cursor: sql<string>`${tradeIns.createdAt}::text`,
        createdAt: tradeIns.createdAt,
        status: tradeIns.status,
        // The account's address as it is now; as quoted once the account is deleted.
        email: sql<string>`coalesce(${users.email}, ${tradeIns.customerEmail})`,
        creditedCents: tradeIns.creditedCents,
        trackingNumber: tradeIns.trackingNumber,
      })
      .from(tradeIns)
      .leftJoin(users, eq(users.id, tradeIns.userId))
      .where(
        and(
          ...range,
          after
            ? sql`(${tradeIns.createdAt}, ${tradeIns.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(tradeIns.createdAt), asc(tradeIns.id))
      .limit(batch);
    if (page.length === 0) return;
    const lines = await db
      .select({
        tradeInId: tradeInItems.tradeInId,
        productName: tradeInItems.productName,
        sku: tradeInItems.sku,
        options: tradeInItems.options,
        productOptions: products.options,
        qty: tradeInItems.qty,
        offeredCents: tradeInItems.offeredCents,
        outcome: tradeInItems.outcome,
        inspectedCents: tradeInItems.inspectedCents,
        reason: tradeInItems.reason,
      })
      .from(tradeInItems)
      .innerJoin(products, eq(products.id, tradeInItems.productId))
      .where(
        inArray(
          tradeInItems.tradeInId,
          page.map((t) => t.id),
        ),
      )
      .orderBy(asc(tradeInItems.tradeInId), asc(tradeInItems.position));
    const linesOf = new Map<string, typeof lines>();
    for (const line of lines) linesOf.set(line.tradeInId, [...(linesOf.get(line.tradeInId) ?? []), line]);
    for (const t of page) {
      const tradeIn = {
        tradeInId: t.id,
        createdAt: t.createdAt.toISOString(),
        status: t.status,
        email: t.email,
      };
      const tail = { creditedAmount: money(t.creditedCents), trackingNumber: t.trackingNumber ?? '' };
      for (const line of linesOf.get(t.id) ?? []) {
        yield {
          ...tradeIn,
          product: line.productName,
          sku: line.sku,
          options: optionsText(line.options, line.productOptions),
          qty: line.qty,
          offeredCredit: money(line.offeredCents),
          outcome: line.outcome ?? '',
          inspectedCredit: line.inspectedCents === null ? '' : money(line.inspectedCents),
          reason: line.reason ?? '',
          ...tail,
        };
      }
    }
    if (page.length < batch) return;
    const last = page[page.length - 1];
    if (!last) return;
    after = { at: last.cursor, id: last.id };
  }
}

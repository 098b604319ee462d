import { type SQL, and, asc, desc, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import type { ProductOption } from '@pixel-vault/shared';
import { type Executor, type Transaction, queryRows } from '../../db/client.js';
import {
  type TradeInEventRow,
  type TradeInItemRow,
  type TradeInRow,
  type TradeInRowStatus,
  giftCardLedger,
  giftCards,
  productImages,
  productVariants,
  products,
  tradeInEvents,
  tradeInItems,
  tradeIns,
  users,
} from '../../db/schema/index.js';
import { windowTotal } from '../../lib/paging.js';

// The trade-ins module's reads and writes of its own tables and of the buy list (issue 35). The
// credit's card and ledger rows are tradeins.credit.ts's.

/** `%`, `_` and `\` are LIKE syntax; a shopper searching for "100%" means the character. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A column of the row being read, qualified, for a correlated subquery (drizzle leaves it bare). */
const outer = (table: typeof products | typeof tradeInItems, column: string) =>
  sql`${table}.${sql.identifier(column)}`;

/** The first image of a product, inside a correlated subquery on `productId`. */
const firstImageOf = (productId: SQL) => sql<string>`coalesce((
    select i.url from ${productImages} i where i.product_id = ${productId} order by i.position limit 1
  ), '')`;

export interface BuylistRow {
  productId: string;
  name: string;
  category: string;
  platform: string | null;
  image: string;
  variantId: string;
  sku: string;
  options: Record<string, string>;
  creditCents: number;
  total: number;
}

/**
 * What the shop buys: live variants of live products with a trade-in credit, by product name, then
 * product, then variant position. `q`: every word must be in the product's name or platform, folded
 * as search folds them (pv_fold: lower case, accents off; migration 0021) on both engines.
 */
export async function buylistPage(
  ex: Executor,
  query: { q?: string | undefined; page: number; limit: number },
): Promise<BuylistRow[]> {
  const words = (query.q ?? '').split(/\s+/).filter((w) => w.length > 0);
  const matches = words.map((w) => sql`${products.searchText} like '%' || pv_fold(${escapeLike(w)}) || '%'`);
  return ex
    .select({
      productId: products.id,
      name: products.name,
      category: products.category,
      platform: products.platform,
      image: firstImageOf(outer(products, 'id')),
      variantId: productVariants.id,
      sku: productVariants.sku,
      options: productVariants.options,
      creditCents: sql<number>`${productVariants.tradeInCreditCents}`.mapWith(Number),
      total: windowTotal(),
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        sql`${productVariants.archivedAt} is null and ${products.deletedAt} is null`,
        sql`${productVariants.tradeInCreditCents} is not null`,
        ...matches,
      ),
    )
    .orderBy(asc(products.name), asc(products.id), asc(productVariants.position))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
}

/** A product a quote names, with its live variants and their credit now (null: not bought). */
export interface OfferProduct {
  id: string;
  name: string;
  options: ProductOption[];
  deleted: boolean;
  variants: { id: string; sku: string; options: Record<string, string>; creditCents: number | null }[];
}

/** The products a quote names, by id (lower case), with their live variants by position. */
export async function offersFor(
  ex: Executor,
  productIds: readonly string[],
): Promise<Map<string, OfferProduct>> {
  const ids = [...new Set(productIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({
      id: products.id,
      name: products.name,
      options: products.options,
      deleted: sql<boolean>`${products.deletedAt} is not null`,
      variants: sql<OfferProduct['variants']>`coalesce((
          select json_agg(json_build_object('id', v.id, 'sku', v.sku, 'options', v.options,
            'creditCents', v.trade_in_credit_cents) order by v.position)
          from ${productVariants} v where v.product_id = ${outer(products, 'id')} and v.archived_at is null
        ), '[]'::json)`,
    })
    .from(products)
    .where(inArray(products.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The customer's open trade-ins; a quote whose time is up is not open any more (it expires). */
export async function countOpen(tx: Transaction, userId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    tx,
    sql`select count(*) as n from ${tradeIns}
        where user_id = ${userId}
          and (status in ('shipped', 'received', 'inspected')
            or (status = 'quoted' and expires_at > ${now.toISOString()}::timestamptz))`,
  );
  return Number(row?.n ?? 0);
}

export type NewTradeInLine = Omit<typeof tradeInItems.$inferInsert, 'tradeInId' | 'id' | 'options'> & {
  options: Record<string, string>;
};

export async function insertTradeIn(
  tx: Transaction,
  values: Omit<typeof tradeIns.$inferInsert, 'id'>,
  lines: NewTradeInLine[],
): Promise<TradeInRow> {
  const [row] = await tx.insert(tradeIns).values(values).returning();
  if (!row) throw new Error('Trade-in insert returned no row');
  await tx.insert(tradeInItems).values(lines.map((line) => ({ ...line, tradeInId: row.id })));
  return row;
}

/**
 * A trade-in with its customer's name and address as they are now (for its mails), or as they were
 * when quoted once the account is deleted.
 */
export type LockedTradeIn = TradeInRow;

const withCustomer = (r: {
  tradeIn: TradeInRow;
  name: string | null;
  email: string | null;
}): LockedTradeIn => ({
  ...r.tradeIn,
  customerName: r.name ?? r.tradeIn.customerName,
  customerEmail: r.email ?? r.tradeIn.customerEmail,
});

/**
 * The trade-in, locked (FOR UPDATE) for the rest of the transaction; only the owner's when `ownerId`
 * is given (anyone else's is "not found"). Undefined when there is none.
 */
export async function lockTradeIn(
  tx: Transaction,
  id: string,
  ownerId?: string,
): Promise<LockedTradeIn | undefined> {
  const [row] = await tx
    .select({ tradeIn: tradeIns, name: users.name, email: users.email })
    .from(tradeIns)
    .leftJoin(users, eq(users.id, tradeIns.userId))
    .where(and(eq(tradeIns.id, id.toLowerCase()), ownerId ? eq(tradeIns.userId, ownerId) : undefined))
    .for('update', { of: tradeIns });
  return row ? withCustomer(row) : undefined;
}

/**
 * Quotes whose time is up, locked, at most `limit`, oldest first. SKIP LOCKED: several instances may
 * sweep side by side, and a quote a customer is acting on right now is theirs to expire.
 */
export async function lockDueQuotes(tx: Transaction, now: Date, limit: number): Promise<LockedTradeIn[]> {
  const rows = await tx
    .select({ tradeIn: tradeIns, name: users.name, email: users.email })
    .from(tradeIns)
    .leftJoin(users, eq(users.id, tradeIns.userId))
    .where(and(eq(tradeIns.status, 'quoted'), lte(tradeIns.expiresAt, now)))
    .orderBy(asc(tradeIns.expiresAt), asc(tradeIns.id))
    .limit(limit)
    .for('update', { of: tradeIns, skipLocked: true });
  return rows.map(withCustomer);
}

export async function updateTradeIn(
  tx: Transaction,
  id: string,
  patch: Partial<Pick<TradeInRow, 'status' | 'trackingNumber' | 'inspectedCents' | 'creditedCents'>> & {
    updatedAt: Date;
  },
): Promise<void> {
  await tx.update(tradeIns).set(patch).where(eq(tradeIns.id, id));
}

export async function setInspection(
  tx: Transaction,
  itemId: string,
  inspection: Pick<TradeInItemRow, 'outcome' | 'inspectedCents' | 'reason'>,
): Promise<void> {
  await tx.update(tradeInItems).set(inspection).where(eq(tradeInItems.id, itemId));
}

export type ItemView = TradeInItemRow & { image: string };

/** The lines of the trade-ins, each with its product's first image now, in position order. */
export async function itemsOf(ex: Executor, ids: readonly string[]): Promise<ItemView[]> {
  if (ids.length === 0) return [];
  return ex
    .select({ ...getTableColumns(tradeInItems), image: firstImageOf(outer(tradeInItems, 'product_id')) })
    .from(tradeInItems)
    .where(inArray(tradeInItems.tradeInId, [...ids]))
    .orderBy(asc(tradeInItems.tradeInId), asc(tradeInItems.position));
}

export async function eventsOf(ex: Executor, ids: readonly string[]): Promise<TradeInEventRow[]> {
  if (ids.length === 0) return [];
  return ex
    .select()
    .from(tradeInEvents)
    .where(inArray(tradeInEvents.tradeInId, [...ids]))
    .orderBy(asc(tradeInEvents.at));
}

/** The code of the card each credited trade-in went to, by trade-in id. */
export async function creditCodesOf(ex: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({ tradeInId: giftCardLedger.tradeInId, code: giftCards.code })
    .from(giftCardLedger)
    .innerJoin(giftCards, eq(giftCards.id, giftCardLedger.giftCardId))
    .where(and(eq(giftCardLedger.kind, 'tradein_credit'), inArray(giftCardLedger.tradeInId, [...ids])));
  return new Map(rows.flatMap((r) => (r.tradeInId ? [[r.tradeInId, r.code] as const] : [])));
}

export interface Customer {
  /** Null once the account is deleted. */
  id: string | null;
  name: string;
  email: string;
}

export async function customersOf(
  ex: Executor,
  userIds: readonly (string | null)[],
): Promise<Map<string, Customer>> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function tradeInById(ex: Executor, id: string): Promise<TradeInRow | undefined> {
  const [row] = await ex.select().from(tradeIns).where(eq(tradeIns.id, id.toLowerCase()));
  return row;
}

/** The customer's trade-ins, newest first (at most `limit`). */
export async function tradeInsOf(ex: Executor, userId: string, limit: number): Promise<TradeInRow[]> {
  return ex
    .select()
    .from(tradeIns)
    .where(eq(tradeIns.userId, userId))
    .orderBy(desc(tradeIns.createdAt), desc(tradeIns.id))
    .limit(limit);
}

/**
 * The admin's queue: of one status, oldest first (the order to work through them); of every status,
 * newest first. With the total in every row (windowTotal).
 */
export interface QueueQuery {
  status?: TradeInRowStatus | undefined;
  q?: string | undefined;
}

/** A packing slip's reference: the id's first hexadecimal digits (dashes as printed in the full one). */
const REFERENCE = /^[0-9a-f][0-9a-f-]{3,35}$/i;

/**
 * The queue's filter: a status, and `q` as a slip's reference (the id's beginning) or part of the
 * customer's name or e-mail, as quoted or as the account says now.
 */
function queueFilter({ status, q }: QueueQuery): SQL | undefined {
  const found = (() => {
    if (!q) return undefined;
    const part = `%${escapeLike(q.toLowerCase())}%`;
    const byCustomer = sql`(lower(${tradeIns.customerName}) like ${part} or lower(${tradeIns.customerEmail}) like ${part}
      or exists (select 1 from ${users} u where u.id = ${tradeIns.userId}
        and (lower(u.name) like ${part} or lower(u.email) like ${part})))`;
    if (!REFERENCE.test(q)) return byCustomer;
    return sql`(cast(${tradeIns.id} as text) like ${`${escapeLike(q.toLowerCase())}%`} or ${byCustomer})`;
  })();
  return and(status ? eq(tradeIns.status, status) : undefined, found);
}

export async function queuePage(
  ex: Executor,
  query: QueueQuery & { page: number; limit: number },
): Promise<(TradeInRow & { total: number })[]> {
  const rows = await ex
    .select({ tradeIn: tradeIns, total: windowTotal() })
    .from(tradeIns)
    .where(queueFilter(query))
    .orderBy(
      ...(query.status
        ? [asc(tradeIns.createdAt), asc(tradeIns.id)]
        : [desc(tradeIns.createdAt), desc(tradeIns.id)]),
    )
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return rows.map((r) => ({ ...r.tradeIn, total: r.total }));
}

export async function countTradeIns(ex: Executor, query: QueueQuery): Promise<number> {
  const [row] = await ex
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(tradeIns)
    .where(queueFilter(query));
  return row?.n ?? 0;
}

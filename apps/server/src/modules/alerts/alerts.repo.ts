import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { ProductOption } from '@pixel-vault/shared';
import { type Executor, type Transaction, queryRows } from '../../db/client.js';
import {
  type StockAlertStatus,
  productImages,
  productVariants,
  products,
  stockAlerts,
  users,
} from '../../db/schema/index.js';

// The only file of the alerts module that speaks Drizzle (issue 34).

/** The product of the row being read, inside a correlated subquery. */
const outerProduct = sql`${products}.${sql.identifier(products.id.name)}`;
const firstImage = sql<string>`coalesce((
    select i.url from ${productImages} i where i.product_id = ${outerProduct} order by i.position limit 1
  ), '')`;

export interface VariantState {
  stock: number;
  /** Archived, or its product removed: no longer sold. */
  gone: boolean;
}

/**
 * The variant's stock, with a share lock on its row until the transaction ends: a restock of it
 * (which takes the row's update lock, and mails the waiting alerts when it commits) either committed
 * before this read, so the stock read is above 0, or waits for this transaction, and then finds the
 * alert this one writes. Either way no alert waits through a restock.
 */
export async function lockVariant(tx: Transaction, variantId: string): Promise<VariantState | undefined> {
  const [row] = await queryRows<{ stock: number; gone: boolean }>(
    tx,
    sql`select v.stock, (v.archived_at is not null or p.deleted_at is not null) as gone
        from ${productVariants} v join ${products} p on p.id = v.product_id
        where v.id = ${variantId}
        for share of v`,
  );
  return row ? { stock: Number(row.stock), gone: row.gone } : undefined;
}

/** The user's open alert for the variant, if any, and how many alerts they wait on. */
export async function userAlertState(
  tx: Transaction,
  userId: string,
  variantId: string,
): Promise<{ openId: string | undefined; waiting: number }> {
  const [row] = await queryRows<{ open_id: string | null; waiting: number | string }>(
    tx,
    sql`select
          (select a.id from ${stockAlerts} a
            where a.user_id = ${userId} and a.variant_id = ${variantId} and a.status = 'waiting') as open_id,
          (select count(*) from ${stockAlerts} a where a.user_id = ${userId} and a.status = 'waiting') as waiting`,
  );
  return { openId: row?.open_id ?? undefined, waiting: Number(row?.waiting ?? 0) };
}

/** An account's alert: waiting from the start (the account is who asked). */
export async function insertUserAlert(
  tx: Transaction,
  alert: { userId: string; variantId: string; linkBase: string; now: Date },
): Promise<string> {
  const [row] = await tx
    .insert(stockAlerts)
    .values({
      userId: alert.userId,
      variantId: alert.variantId,
      status: 'waiting',
      linkBase: alert.linkBase,
      confirmedAt: alert.now,
      createdAt: alert.now,
    })
    .returning({ id: stockAlerts.id });
  if (!row) throw new Error('Alert insert returned no row');
  return row.id;
}

/**
 * A visitor's alert for the address and variant, in one statement: a new one (pending, with this
 * token), or the open one given this token when it is still unconfirmed and its last confirmation
 * mail is older than `resendAfterMs`. Answers the row's id when a confirmation mail is due (the token
 * is the row's), else undefined: confirmed already, or mailed within the hour. Two at once for the
 * same address and variant meet on the unique index: one writes, the other finds it.
 */
export async function upsertVisitorAlert(
  tx: Transaction,
  alert: {
    variantId: string;
    email: string;
    linkBase: string;
    tokenHash: string;
    now: Date;
    resendAfterMs: number;
  },
): Promise<string | undefined> {
  const now = alert.now.toISOString();
  const resendBefore = new Date(alert.now.getTime() - alert.resendAfterMs).toISOString();
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into ${stockAlerts} (variant_id, email, status, link_base, confirm_token_hash, confirm_sent_at, created_at)
        values (${alert.variantId}, ${alert.email}, 'pending', ${alert.linkBase}, ${alert.tokenHash},
          ${now}::timestamptz, ${now}::timestamptz)
        on conflict (variant_id, email) where email is not null and status in ('pending', 'waiting')
        do update set confirm_token_hash = excluded.confirm_token_hash,
          confirm_sent_at = excluded.confirm_sent_at, link_base = excluded.link_base
        where ${stockAlerts}.status = 'pending' and ${stockAlerts}.confirm_sent_at <= ${resendBefore}::timestamptz
        returning id`,
  );
  return row?.id;
}

/** The alert a confirmation token names (any status), without locks. */
export async function alertByConfirmHash(
  ex: Executor,
  tokenHash: string,
): Promise<{ id: string; variantId: string; status: StockAlertStatus; sentAt: Date | null } | undefined> {
  const [row] = await ex
    .select({
      id: stockAlerts.id,
      variantId: stockAlerts.variantId,
      status: stockAlerts.status,
      sentAt: stockAlerts.confirmSentAt,
    })
    .from(stockAlerts)
    .where(eq(stockAlerts.confirmTokenHash, tokenHash));
  return row;
}

/** pending -> waiting, for the row of this token only while it is pending. Answers whether it moved. */
export async function confirmAlert(tx: Transaction, tokenHash: string, now: Date): Promise<boolean> {
  const moved = await tx
    .update(stockAlerts)
    .set({ status: 'waiting', confirmedAt: now })
    .where(and(eq(stockAlerts.confirmTokenHash, tokenHash), eq(stockAlerts.status, 'pending')))
    .returning({ id: stockAlerts.id });
  return moved.length > 0;
}

/**
 * One-click unsubscribe: the address the token's mail went to (the account's address now, for an
 * account's alert) stops getting alerts: every open alert of it, an account's or a visitor's, is
 * cancelled. Rows are locked in variant order, as a restock that touches several variants reaches
 * them (in variant-id order), so the two cannot deadlock. Answers false for an unknown token.
 */
export async function unsubscribeByHash(tx: Transaction, tokenHash: string): Promise<boolean> {
  const [found] = await queryRows<{ address: string }>(
    tx,
    sql`select coalesce(u.email, a.email) as address
        from ${stockAlerts} a left join ${users} u on u.id = a.user_id
        where a.unsubscribe_token_hash = ${tokenHash}`,
  );
  if (!found) return false;
  await tx.execute(sql`
    update ${stockAlerts} set status = 'cancelled'
    where id in (
      select a.id from ${stockAlerts} a
      where a.status in ('pending', 'waiting')
        and (a.email = ${found.address}
          or a.user_id in (select u.id from ${users} u where u.email = ${found.address}))
      order by a.variant_id, a.id
      for update)`);
  return true;
}

/** One alert with its product and variant as the catalogue holds them now. */
export interface AlertView {
  id: string;
  status: StockAlertStatus;
  createdAt: Date;
  notifiedAt: Date | null;
  productId: string;
  variantId: string;
  name: string;
  category: string;
  productOptions: ProductOption[];
  variantOptions: Record<string, string>;
  image: string;
  stock: number;
  gone: boolean;
}

const viewColumns = {
  id: stockAlerts.id,
  status: stockAlerts.status,
  createdAt: stockAlerts.createdAt,
  notifiedAt: stockAlerts.notifiedAt,
  productId: products.id,
  variantId: productVariants.id,
  name: products.name,
  category: products.category,
  productOptions: products.options,
  variantOptions: productVariants.options,
  image: firstImage,
  stock: productVariants.stock,
  gone: sql<boolean>`(${productVariants.archivedAt} is not null or ${products.deletedAt} is not null)`,
};

/** The shopper's alerts (never a visitor's pending ones), newest first, at most `limit`. */
export async function alertsOf(ex: Executor, userId: string, limit: number): Promise<AlertView[]> {
  return ex
    .select(viewColumns)
    .from(stockAlerts)
    .innerJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(stockAlerts.userId, userId), ne(stockAlerts.status, 'pending')))
    .orderBy(desc(stockAlerts.createdAt), desc(stockAlerts.id))
    .limit(limit);
}

/** One alert by id (any owner: the caller has checked who may see it). */
export async function alertView(ex: Executor, id: string): Promise<AlertView | undefined> {
  const [row] = await ex
    .select(viewColumns)
    .from(stockAlerts)
    .innerJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(stockAlerts.id, id));
  return row;
}

/** Deletes the user's alert; false when they have none of that id (another's is not theirs). */
export async function deleteUserAlert(ex: Executor, userId: string, id: string): Promise<boolean> {
  const deleted = await ex
    .delete(stockAlerts)
    .where(and(eq(stockAlerts.id, id), eq(stockAlerts.userId, userId)))
    .returning({ id: stockAlerts.id });
  return deleted.length > 0;
}

export interface MostWantedRow {
  productId: string;
  variantId: string;
  name: string;
  sku: string;
  category: string;
  productOptions: ProductOption[];
  variantOptions: Record<string, string>;
  image: string;
  waiting: number;
  since: Date;
}

/** Sold-out variants still sold, by their waiting (confirmed, unused) alerts, most first. */
export async function mostWanted(ex: Executor, limit: number): Promise<MostWantedRow[]> {
  const waiting = sql<number>`count(*)::int`;
  const since = sql<Date>`min(coalesce(${stockAlerts.confirmedAt}, ${stockAlerts.createdAt}))`;
  const rows = await ex
    .select({
      productId: products.id,
      variantId: productVariants.id,
      name: products.name,
      sku: productVariants.sku,
      category: products.category,
      productOptions: products.options,
      variantOptions: productVariants.options,
      image: firstImage,
      waiting,
      since,
    })
    .from(stockAlerts)
    .innerJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      sql`${stockAlerts.status} = 'waiting' and ${productVariants.stock} = 0
        and ${productVariants.archivedAt} is null and ${products.deletedAt} is null`,
    )
    .groupBy(products.id, productVariants.id)
    .orderBy(desc(waiting), asc(since), asc(productVariants.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, waiting: Number(row.waiting), since: new Date(row.since) }));
}

import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { DiscountKind } from '@pixel-vault/shared';
import { type Executor, queryRows } from '../../db/client.js';
import { type PromotionRow, orders, promotionUses, promotions } from '../../db/schema/index.js';
import { checkLimits } from './promotions.codes.js';

/** A discount code's row: it has a code, and is not a sale (a sale has none, by a CHECK). */
export type CodeRow = PromotionRow & { code: string; kind: DiscountKind };

export const isCodeRow = (row: PromotionRow): row is CodeRow => row.code !== null && row.kind !== 'sale';

/** A code as the shopper typed it (the schema made it upper-case), or undefined. */
export async function findByCode(db: Executor, code: string): Promise<CodeRow | undefined> {
  const [row] = await db.select().from(promotions).where(eq(promotions.code, code.toUpperCase()));
  return row && isCodeRow(row) ? row : undefined;
}

/** How many uses of the code the customer holds now (orders placed, not expired or cancelled). */
export async function usesOf(db: Executor, promotionId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(promotionUses)
    .where(
      and(
        eq(promotionUses.promotionId, promotionId),
        eq(promotionUses.userId, userId),
        isNull(promotionUses.releasedAt),
      ),
    );
  return row?.n ?? 0;
}

/** A code changed (an admin's edit) between pricing the order and reserving its use: price it again. */
export class CodeMoved extends Error {}

/**
 * Reserves the order's use of `seen`, in the order's transaction, by one statement: only while the
 * code is still the version the order was priced with, live at `now`, under its usage limit and the
 * customer's. The customer's own uses are counted as their placements run one at a time (the order
 * transaction locks the customer first). What it writes depends on the code's limits:
 *
 * - **A usage limit**: `used` is the count, raised by an `update … where used < usage_limit`, with the
 *   use row. PostgreSQL takes the promotion's row lock as it updates and checks the conditions again
 *   on the newest row once a competing placement commits, so a rush of any size takes at most
 *   `usage_limit` uses. Every order with the code waits for that lock from here to its commit.
 * - **A per-customer limit only**: the use row, inserted from the promotion row as read; the
 *   customer's uses are what is counted.
 * - **No limit**: nothing to count; the code is only read, `for key share`, so an admin's change
 *   (which locks it for update) waits for the placements using it, and they for it. The admin's
 *   `used` counts orders (liveUses) for every code alike.
 *
 * Throws the shopper's 409 for a used-up limit, or CodeMoved.
 */
export async function reserveUse(
  tx: Executor,
  seen: PromotionRow,
  orderId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const live = sql`id = ${seen.id}::uuid and version = ${seen.version}::integer and active
    and (starts_at is null or starts_at <= ${at}::timestamptz)
    and (ends_at is null or ends_at > ${at}::timestamptz)`;
  if (seen.usageLimit === null && seen.perCustomerLimit === null) {
    const [found] = await queryRows<{ id: string }>(
      tx,
      sql`select id from ${promotions}
          where ${live} and usage_limit is null and per_customer_limit is null for key share`,
    );
    if (found) return;
    return whyNotReserved(tx, seen, 0);
  }
  const mine = sql`mine as (
    select count(*)::int as n from ${promotionUses}
    where promotion_id = ${seen.id}::uuid and user_id = ${userId}::uuid and released_at is null)`;
  const underMine = sql`(per_customer_limit is null or (select n from mine) < per_customer_limit)`;
  const took =
    seen.usageLimit === null
      ? sql`took as (select id from ${promotions} where ${live} and ${underMine} and usage_limit is null)`
      : sql`took as (
          update ${promotions} set used = used + 1
          where ${live} and ${underMine} and used < usage_limit
          returning id)`;
  const [row] = await queryRows<{ reserved: number | string; mine: number | string }>(
    tx,
    sql`with ${mine}, ${took},
        use as (
          insert into ${promotionUses} (promotion_id, order_id, user_id, created_at)
          select id, ${orderId}::uuid, ${userId}::uuid, ${at}::timestamptz from took
          returning id)
        select (select count(*) from use) as reserved, (select n from mine) as mine`,
  );
  if (Number(row?.reserved ?? 0) === 1) return;
  return whyNotReserved(tx, seen, Number(row?.mine ?? 0));
}

/** Why a use was not reserved, from the code as it is now (read after any competitor committed). */
async function whyNotReserved(tx: Executor, seen: PromotionRow, mine: number): Promise<never> {
  const [current] = await tx.select().from(promotions).where(eq(promotions.id, seen.id));
  if (!current || current.version !== seen.version) throw new CodeMoved();
  checkLimits(current, mine);
  // Under its limits now: it ended or started meanwhile, or a competitor's use was given back since.
  throw new CodeMoved();
}

/**
 * The orders holding a use of each promotion now (placed, not expired or cancelled): what the admin
 * reads as `used`, for codes with a limit (where it equals the row's count) and without alike.
 */
export async function liveUses(db: Executor, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: orders.promotionId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(and(inArray(orders.promotionId, [...ids]), notInArray(orders.status, ['expired', 'cancelled'])))
    .groupBy(orders.promotionId);
  return new Map(rows.flatMap((r) => (r.id === null ? [] : [[r.id, r.n] as const])));
}

/**
 * `used` counted again from the uses held, for a code that is getting a usage limit (the caller holds
 * its row FOR UPDATE: no placement is reserving a use of it meanwhile).
 */
export async function recountUses(tx: Executor, promotionId: string): Promise<number> {
  return (await liveUses(tx, [promotionId])).get(promotionId) ?? 0;
}

/**
 * Gives the order's use of its code back (the order expired or was cancelled), in the caller's
 * transaction, under the order's lock: once, whatever the retries (only a use not yet released is).
 */
export async function releaseUse(tx: Executor, orderId: string, now: Date): Promise<void> {
  await tx.execute(
    sql`with freed as (
          update ${promotionUses} set released_at = ${now.toISOString()}::timestamptz
          where order_id = ${orderId}::uuid and released_at is null
          returning promotion_id)
        update ${promotions} set used = used - 1
        where id in (select promotion_id from freed) and usage_limit is not null and used > 0`,
  );
}

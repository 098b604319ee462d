import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DiscountKind } from '@pixel-vault/shared';
import { type Executor, queryRows } from '../../db/client.js';
import { type PromotionRow, promotionUses, promotions } from '../../db/schema/index.js';
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
 * Reserves one use of `seen` for the order, in the order's transaction, by one statement: the count
 * goes up only while the code is still the version the order was priced with, live at `now`, under
 * its usage limit and the customer's, and the use row is written with it. PostgreSQL takes the
 * promotion's row lock as it updates and checks the conditions again on the newest row once a
 * competing placement commits, so a rush of any size takes at most `usage_limit` uses. The customer's
 * own uses are counted as their placements run one at a time (the order transaction locks the
 * customer first). Throws the shopper's 409 for a used-up limit, or CodeMoved.
 */
export async function reserveUse(
  tx: Executor,
  seen: PromotionRow,
  orderId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const [row] = await queryRows<{ reserved: number | string; mine: number | string }>(
    tx,
    sql`with mine as (
          select count(*)::int as n from ${promotionUses}
          where promotion_id = ${seen.id}::uuid and user_id = ${userId}::uuid and released_at is null),
        took as (
          update ${promotions} set used = used + 1
          where id = ${seen.id}::uuid and version = ${seen.version}::integer and active
            and (starts_at is null or starts_at <= ${at}::timestamptz)
            and (ends_at is null or ends_at > ${at}::timestamptz)
            and (usage_limit is null or used < usage_limit)
            and (per_customer_limit is null or (select n from mine) < per_customer_limit)
          returning id),
        use as (
          insert into ${promotionUses} (promotion_id, order_id, user_id, created_at)
          select id, ${orderId}::uuid, ${userId}::uuid, ${at}::timestamptz from took
          returning id)
        select (select count(*) from use) as reserved, (select n from mine) as mine`,
  );
  if (Number(row?.reserved ?? 0) === 1) return;
  // Not reserved: the code as it is now says why (read after any competitor committed).
  const [current] = await tx.select().from(promotions).where(eq(promotions.id, seen.id));
  if (!current || current.version !== seen.version) throw new CodeMoved();
  checkLimits(current, Number(row?.mine ?? 0));
  // Under its limits now: it ended or started meanwhile, or a competitor's use was given back since.
  throw new CodeMoved();
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
        where id in (select promotion_id from freed)`,
  );
}

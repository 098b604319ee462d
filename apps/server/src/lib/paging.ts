import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';

/**
 * Paged lists in one query: `count(*) over ()` rides along with every row of the page. Add it to a
 * select as `total: windowTotal()`, then ask `pageTotals` for the numbers the API answers.
 */
export function windowTotal() {
  return sql<number>`count(*) over ()`.mapWith(Number);
}

export interface PageTotals {
  total: number;
  totalPage: number;
}

/**
 * The total behind a page: the window count when the page has rows; a page past the end has none to
 * carry it, so only then is the table counted. totalPage is at least 1, as the spec's lists expect.
 */
export async function pageTotals(
  db: Executor,
  rows: readonly { total: number }[],
  count: { from: PgTable; where?: SQL | undefined },
  limit: number,
): Promise<PageTotals> {
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(count.from)
      .where(count.where);
    total = counted?.n ?? 0;
  }
  return { total, totalPage: Math.max(1, Math.ceil(total / limit)) };
}

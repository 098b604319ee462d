import { type SQL, and, desc, eq, or, sql } from 'drizzle-orm';
import {
  ADMIN_ORDERS_DEFAULT_LIMIT,
  type AdminOrdersQuery,
  type Order,
  type OrderStatus,
  requestedPage,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type OrderRow, orders } from '../../db/schema/index.js';
import { pageTotals, windowTotal } from '../../lib/paging.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { toOrderDtos } from './orders.repo.js';

export interface AdminOrdersPage {
  orders: Order[];
  page: number;
  totalPage: number;
  total: number;
}

/** The rows whose API status (orders.lifecycle.ts statusOf) is `status`. */
function statusFilter(status: OrderStatus): SQL {
  switch (status) {
    case 'awaiting_payment':
      return sql`${orders.status} = 'unpaid'`;
    case 'paid':
      return sql`${orders.status} = 'paid' and not ${orders.isDelivered}`;
    case 'delivered':
      return sql`${orders.status} = 'paid' and ${orders.isDelivered}`;
    default:
      return sql`${orders.status} = ${status}`;
  }
}

/** An order id or its beginning: anything else cannot match, so it is not even asked. */
const ID_PREFIX = /^[0-9a-f-]*$/;
/** An order number as people write it (issue 30): `1042` or `#1042`. */
const ORDER_NUMBER = /^#?(\d{1,9})$/;

/**
 * The admin's search (spec: by order id; issue 30: or by number): `#1042` is that number, `1042` that
 * number or an id starting so, any other text an id prefix. Undefined: no search; false: nothing can
 * match.
 */
function adminSearch(q: string | undefined): SQL | undefined | false {
  const text = (q ?? '').toLowerCase();
  if (!text) return undefined;
  const byPrefix = ID_PREFIX.test(text) ? sql`${orders.id}::text like ${`${text}%`}` : undefined;
  const number = ORDER_NUMBER.exec(text)?.[1];
  const byNumber = number ? eq(orders.number, Number(number)) : undefined;
  if (byNumber && byPrefix) return or(byNumber, byPrefix);
  return byNumber ?? byPrefix ?? false;
}

/**
 * Manage Orders' list (spec section 2): every order, newest first, searchable by id (issue 30: or by
 * number), paged; issue 12 filters it by status. Without paging, the spec's plain array.
 */
export async function adminList(
  db: Database,
  { q, status, ...query }: AdminOrdersQuery,
  publicUrl: PublicUrlOf,
): Promise<Order[] | AdminOrdersPage> {
  const search = adminSearch(q);
  const paging = requestedPage(query, ADMIN_ORDERS_DEFAULT_LIMIT);
  if (search === false) return paging ? { orders: [], page: paging.page, totalPage: 1, total: 0 } : [];
  const filters = [search, status ? statusFilter(status) : undefined].filter((f) => f !== undefined);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const newestFirst = [desc(orders.createdAt), desc(orders.id)];
  // The admin list names the customer by id (spec section 3), and by name and e-mail beside it
  // (issue 30: the order's own snapshot, kept when the account is deleted).
  const toAdminDtos = async (rows: OrderRow[]) =>
    (await toOrderDtos(db, rows, publicUrl)).map((dto, i) => ({
      ...dto,
      user: rows[i]?.userId ?? null,
      customer: { name: rows[i]?.customerName ?? '', email: rows[i]?.customerEmail ?? '' },
    }));

  if (!paging) {
    return toAdminDtos(
      await db
        .select()
        .from(orders)
        .where(where)
        .orderBy(...newestFirst),
    );
  }
  const { page, limit } = paging;
  const rows = await db
    .select({ order: orders, total: windowTotal() })
    .from(orders)
    .where(where)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset((page - 1) * limit);
  const { total, totalPage } = await pageTotals(db, rows, { from: orders, where }, limit);
  return { orders: await toAdminDtos(rows.map((r) => r.order)), page, totalPage, total };
}

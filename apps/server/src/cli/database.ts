import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';

/** Every table, the migrations' bookkeeping included: a PostgreSQL database as a new one is. */
export async function dropEverything(db: Database): Promise<void> {
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`drop schema if exists public cascade`);
  await db.execute(sql`create schema public`);
}

/** Whether a PostgreSQL database already holds this shop's tables (a restore would overwrite them). */
export async function holdsShopTables(db: Database): Promise<boolean> {
  const rows = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from information_schema.tables
        where (table_schema = 'public' and table_name in ('products', 'orders', 'users'))
           or (table_schema = 'drizzle' and table_name = '__drizzle_migrations')`,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, MIGRATIONS_DIR, migrate, openDatabase, queryRows } from '../../db/client.js';
import { scratchDatabase } from '../../test/global-setup.js';

/** The migrations before the one tagged `tag` (or through it, `inclusive`), as a folder of their own. */
function migrationsUpTo(tag: string, inclusive = false): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.startsWith(tag));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, inclusive ? at + 1 : at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** An empty database: PGlite in memory, or a new PostgreSQL database under `npm run test:pg`. */
async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { handle: await openDatabase({ dataDir: tmpdir(), inMemory: true }), drop: async () => {} };
  }
  const { url, drop } = await scratchDatabase(adminUrl, 'pv_mig');
  const handle = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), poolMax: 2 });
  return { handle, drop };
}

/**
 * Migration 0009 (issue 14) on a shop that already has data: the anonymous reviews seeded before
 * cannot be verified, so they go, and every product's numbers are recomputed (to 0 / 0).
 */
describe('migration 0009: reviews from verified buyers', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let before: string;
  let through: string;

  beforeAll(async () => {
    ({ handle, drop } = await emptyDatabase());
    before = migrationsUpTo('0009');
    through = migrationsUpTo('0009', true);
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    for (const dir of [before, through]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the anonymous reviews, zeroes the typed-in numbers and enforces the new rules', async () => {
    const { db } = handle;
    expect(await migrate(db, before)).toBe(9);
    const [product] = await queryRows<{ id: string }>(
      db,
      sql`insert into products (name, description, category, price_cents, stock, rating_tenths, review_count)
          values ('Old Puzzle', 'Seeded before issue 14', 'puzzles', 1999, 3, 46, 96) returning id`,
    );
    await db.execute(sql`insert into product_reviews (product_id, author_name, rating_tenths, comment)
      values (${product!.id}, 'Ilse', 50, 'Looks amazing framed on our wall.')`);
    const [user] = await queryRows<{ id: string }>(
      db,
      sql`insert into users (name, email, password_hash) values ('Una User', 'una@example.com', 'x') returning id`,
    );

    expect(await migrate(db, through)).toBe(1);
    expect(await queryRows(db, sql`select * from product_reviews`)).toEqual([]);
    const [after] = await queryRows<{ rating_tenths: number; review_count: number }>(
      db,
      sql`select rating_tenths, review_count from products where id = ${product!.id}`,
    );
    expect(after).toEqual({ rating_tenths: 0, review_count: 0 });

    const review = (rating: number, title = 'Fine') =>
      db.execute(sql`insert into product_reviews (product_id, user_id, rating, title, comment)
        values (${product!.id}, ${user!.id}, ${rating}, ${title}, 'Good.')`);
    await expect(review(6)).rejects.toThrow();
    await expect(review(0)).rejects.toThrow();
    await expect(review(4, '')).rejects.toThrow();
    await expect(review(4, 'x'.repeat(121))).rejects.toThrow();
    await review(4);
    // One review per customer and product.
    await expect(review(5)).rejects.toThrow();
    // A deleted customer's review stays, without its author; a deleted product's reviews go.
    await db.execute(sql`delete from users where id = ${user!.id}`);
    expect(await queryRows(db, sql`select user_id from product_reviews`)).toEqual([{ user_id: null }]);
    await db.execute(sql`delete from products where id = ${product!.id}`);
    expect(await queryRows(db, sql`select * from product_reviews`)).toEqual([]);
    // The later migrations apply on top.
    await migrate(db);
  });
});

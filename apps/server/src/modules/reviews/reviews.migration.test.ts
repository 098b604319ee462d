import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate, queryRows } from '../../db/client.js';
import { migrationScene } from '../../test/migrations.js';

/**
 * Migration 0009 (issue 14) on a shop that already has data: the anonymous reviews seeded before
 * cannot be verified, so they go, and every product's numbers are recomputed (to 0 / 0).
 */
describe('migration 0009: reviews from verified buyers', () => {
  const scene = migrationScene('0009');

  it('deletes the anonymous reviews, zeroes the typed-in numbers and enforces the new rules', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(9);
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

    expect(await migrate(db, scene.through)).toBe(1);
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

/**
 * Migration 0012 (issue 28) on a shop with reviews: every review is kept; one whose author has no
 * paid order of the product left (cancelled, refunded in full) is no longer a verified buyer's, so it
 * is hidden and its product's numbers are recomputed; the admin's hiding is kept apart.
 */
describe("migration 0012: a review counts while its author's order does", () => {
  const scene = migrationScene('0012');

  it('keeps every review, hides those without a paid order behind them, keeps the admin hiding, recounts', async () => {
    const { db } = scene.handle;
    expect(await migrate(db, scene.before)).toBe(12);
    const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0]!;
    const product = (name: string, ratingTenths: number, count: number) =>
      one<{
        id: string;
      }>(sql`insert into products (name, description, category, price_cents, stock, rating_tenths, review_count)
        values (${name}, 'Before issue 28', 'puzzles', 2000, 3, ${ratingTenths}, ${count}) returning id`);
    const customer = (name: string) =>
      one<{ id: string }>(sql`insert into users (name, email, password_hash)
        values (${name}, ${`${name.toLowerCase()}@example.com`}, 'x') returning id`);
    const order = async (userId: string, productId: string, status: string) => {
      const paid = status === 'cancelled' || status === 'expired' ? null : new Date().toISOString();
      const { id } = await one<{ id: string }>(sql`insert into orders (user_id, customer_name, customer_email,
          ship_address, ship_city, ship_postal_code, ship_country, items_cents, tax_cents, shipping_cents,
          total_cents, payment_method, status, paid_at, refunded_cents, expires_at)
        values (${userId}, 'C', 'c@example.com', '1 St', 'Town', '1', 'Land', 2000, 300, 799, 3099, 'paypal',
          ${status}, ${paid}::timestamptz, ${status === 'refunded' ? 3099 : 0}, now()) returning id`);
      await db.execute(sql`insert into order_items (order_id, product_id, name, image, unit_price_cents, quantity)
        values (${id}, ${productId}, 'Item', '/x.svg', 2000, 1)`);
    };
    const review = (productId: string, userId: string | null, rating: number, hidden = false) =>
      one<{
        id: string;
      }>(sql`insert into product_reviews (product_id, user_id, rating, title, comment, hidden)
        values (${productId}, ${userId}, ${rating}, 'Title', 'Comment', ${hidden}) returning id`);

    // Puzzle: five reviews, four shown (5 + 1 + 4 + 2 = 12 / 4 = 3.0); Kite: one (4.0).
    const puzzle = await product('Puzzle', 30, 4);
    const kite = await product('Kite', 40, 1);
    const [ann, ben, cat, dan, eve] = await Promise.all(['Ann', 'Ben', 'Cat', 'Dan', 'Eve'].map(customer));
    await order(ann!.id, puzzle.id, 'paid');
    await order(ben!.id, puzzle.id, 'cancelled');
    await order(cat!.id, puzzle.id, 'refunded');
    await order(cat!.id, puzzle.id, 'paid');
    await order(dan!.id, puzzle.id, 'paid');
    await order(eve!.id, kite.id, 'refunded');
    const paidReview = await review(puzzle.id, ann!.id, 5);
    const cancelledReview = await review(puzzle.id, ben!.id, 1);
    const stillPaidReview = await review(puzzle.id, cat!.id, 4);
    const adminHidden = await review(puzzle.id, dan!.id, 3, true);
    const formerCustomer = await review(puzzle.id, null, 2);
    const refundedReview = await review(kite.id, eve!.id, 4);
    const rowsBefore = await queryRows<Record<string, unknown>>(
      db,
      sql`select id, product_id, user_id, rating, title, comment, created_at, updated_at from product_reviews order by id`,
    );

    expect(await migrate(db, scene.through)).toBe(1);
    const rowsAfter = await queryRows<Record<string, unknown>>(
      db,
      sql`select id, product_id, user_id, rating, title, comment, created_at, updated_at from product_reviews order by id`,
    );
    expect(rowsAfter).toEqual(rowsBefore);
    const state = await queryRows<{
      id: string;
      hidden_by_admin: boolean;
      verified_buyer: boolean;
      hidden: boolean;
    }>(db, sql`select id, hidden_by_admin, verified_buyer, hidden from product_reviews`);
    const stateOf = (id: string) => {
      const row = state.find((r) => r.id === id);
      return row && [row.hidden_by_admin, row.verified_buyer, row.hidden];
    };
    // [hidden by the admin, verified buyer, hidden from the public]
    expect(stateOf(paidReview.id)).toEqual([false, true, false]);
    expect(stateOf(cancelledReview.id)).toEqual([false, false, true]);
    expect(stateOf(stillPaidReview.id)).toEqual([false, true, false]);
    expect(stateOf(adminHidden.id)).toEqual([true, true, true]);
    expect(stateOf(formerCustomer.id)).toEqual([false, true, false]);
    expect(stateOf(refundedReview.id)).toEqual([false, false, true]);

    const numbers = await queryRows<{ name: string; rating_tenths: number; review_count: number }>(
      db,
      sql`select name, rating_tenths, review_count from products order by name`,
    );
    // Puzzle: 5 + 4 + 2 = 11 / 3 = 3.67 -> 3.7; Kite: none left.
    expect(numbers).toEqual([
      { name: 'Kite', rating_tenths: 0, review_count: 0 },
      { name: 'Puzzle', rating_tenths: 37, review_count: 3 },
    ]);

    // `hidden` is the database's own: it follows both, and cannot be written.
    await db.execute(sql`update product_reviews set verified_buyer = true where id = ${cancelledReview.id}`);
    await db.execute(sql`update product_reviews set hidden_by_admin = false where id = ${adminHidden.id}`);
    const shown = await queryRows<{ id: string }>(db, sql`select id from product_reviews where not hidden`);
    expect(shown.map((r) => r.id)).toEqual(expect.arrayContaining([cancelledReview.id, adminHidden.id]));
    expect(shown).toHaveLength(5);
    await expect(
      db.execute(sql`update product_reviews set hidden = false where id = ${refundedReview.id}`),
    ).rejects.toThrow();
    // The later migrations apply on top.
    await migrate(db);
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@pixel-vault/shared';
import { orderItems, orders, products } from '../../db/schema/index.js';
import { queryRows } from '../../db/client.js';
import { type TestContext, createTestContext } from '../../test/context.js';
import {
  insertProduct,
  insertUser,
  setPrice,
  TEST_ADDRESS,
  stockOf,
  productRows,
} from '../../test/factories.js';

/**
 * Issue 13: a placement reads its products' prices without locking them and takes the stock rows'
 * locks last, just before the commit. These tests pin what that must not change: the order is priced
 * as the products are when the stock is taken, and never oversells.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const place = (auth: { authorization: string }, lines: { product: string; itemQuantity: number }[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems: lines, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal' },
  });

/** Runs `work` with database objects made by `setup` (triggers: faults injected), dropped after. */
async function withSql(setup: string[], teardown: string[], work: () => Promise<void>): Promise<void> {
  for (const statement of setup) await ctx.db.execute(sql.raw(statement));
  try {
    await work();
  } finally {
    for (const statement of teardown) await ctx.db.execute(sql.raw(statement));
  }
}

/** A PL/pgSQL `body` run before every stock update of one product (a fault injected), as withSql's lists. */
function stockTrigger(productId: string, name: string, body: string) {
  return {
    setup: [
      `create function ${name}() returns trigger language plpgsql as $$ ${body} $$`,
      // Price and stock are the product's variant's (issue 31).
      `create trigger ${name} before update of stock on product_variants
         for each row when (new.product_id = '${productId}') execute function ${name}()`,
    ],
    teardown: [`drop trigger ${name} on product_variants`, `drop function ${name}()`],
  };
}

describe('placing an order', () => {
  it('answers 409 and changes nothing when the price keeps moving under the placement', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 1000, stock: 5 });
    const { auth } = await insertUser(ctx.db);
    // Every reservation of this product sees another price than the placement read: as if an admin
    // edit landed between the read and the reservation on every attempt.
    const fault = stockTrigger(
      product.id,
      'move_price',
      'begin new.price_cents := old.price_cents + 500; return new; end',
    );
    await withSql(fault.setup, fault.teardown, async () => {
      const res = await place(auth, [{ product: product.id, itemQuantity: 2 }]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'PRICE_CHANGED' });
      const [row] = await productRows(ctx.db, eq(products.id, product.id));
      expect(row).toMatchObject({ priceCents: 1000, stock: 5 });
      expect(await ctx.db.select().from(orderItems).where(eq(orderItems.productId, product.id))).toEqual([]);
    });
  });

  it('places the order again when PostgreSQL aborted the first attempt as a deadlock victim', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 1000, stock: 5 });
    const { auth } = await insertUser(ctx.db);
    // The first reservation of this product fails as a deadlock's victim would (SQLSTATE 40P01). A
    // sequence counts the attempts: unlike a table, it is not rolled back with the transaction.
    const fault = stockTrigger(
      product.id,
      'deadlock_once',
      `begin
         if nextval('reservation_attempts') = 1 then
           raise exception 'deadlock detected' using errcode = '40P01';
         end if;
         return new;
       end`,
    );
    await withSql(
      ['create sequence reservation_attempts', ...fault.setup],
      [...fault.teardown, 'drop sequence reservation_attempts'],
      async () => {
        const res = await place(auth, [{ product: product.id, itemQuantity: 2 }]);
        expect(res.statusCode).toBe(201);
        expect(await stockOf(ctx.db, product.id)).toBe(3);
        // One order: the aborted attempt left nothing behind.
        const lines = await ctx.db.select().from(orderItems).where(eq(orderItems.productId, product.id));
        expect(lines).toHaveLength(1);
        const [attempts] = await queryRows<{ n: string }>(
          ctx.db,
          sql`select last_value::text as n from reservation_attempts`,
        );
        expect(attempts?.n).toBe('2');
      },
    );
  });

  it('answers 503 with Retry-After, not a 500, when every attempt is a deadlock victim, and keeps nothing', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 1000, stock: 5 });
    const { auth } = await insertUser(ctx.db);
    const fault = stockTrigger(
      product.id,
      'deadlock_always',
      `begin raise exception 'deadlock detected' using errcode = '40P01'; end`,
    );
    await withSql(fault.setup, fault.teardown, async () => {
      const res = await place(auth, [{ product: product.id, itemQuantity: 2 }]);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({
        message: 'The shop is busy and nothing was changed. Please try again.',
        code: 'BUSY',
      });
      expect(await stockOf(ctx.db, product.id)).toBe(5);
      expect(await ctx.db.select().from(orderItems).where(eq(orderItems.productId, product.id))).toEqual([]);
    });
    // Once the database lets it through, the same placement passes.
    const res = await place(auth, [{ product: product.id, itemQuantity: 2 }]);
    expect(res.statusCode).toBe(201);
  });

  // Two connections at once: PostgreSQL only (npm run test:pg); PGlite has one connection.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'prices the order again when an admin changes the price between the read and the reservation',
    async () => {
      const product = await insertProduct(ctx.db, { priceCents: 1000, stock: 5 });
      const { auth, user } = await insertUser(ctx.db);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // The admin's edit: holds the row, then commits a new price once the placement waits for it.
      const edit = ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${products} where id = ${product.id} for update`);
        locked();
        await released;
        await setPrice(tx, product.id, 1500);
      });
      await isLocked;
      const placing = place(auth, [{ product: product.id, itemQuantity: 2 }]);
      // The placement read $10.00 and now waits on the row lock for its reservation.
      for (let waited = 0; ; waited += 20) {
        const [row] = await queryRows<{ waiting: number }>(
          ctx.db,
          sql`select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if ((row?.waiting ?? 0) > 0) break;
        if (waited > 5000) throw new Error('the placement never waited for the row lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      await edit;
      const res = await placing;
      expect(res.statusCode).toBe(201);
      const order = res.json<Order>();
      expect(order.price).toBe(30);
      expect(order.orderItems).toEqual([expect.objectContaining({ itemPrice: 15, itemQuantity: 2 })]);
      const [row] = await productRows(ctx.db, eq(products.id, product.id));
      expect(row).toMatchObject({ priceCents: 1500, stock: 3 });
      const placed = await ctx.db.select().from(orders).where(eq(orders.userId, user.id));
      expect(placed).toHaveLength(1);
    },
  );

  it('refuses a cart whose product ran short, naming what is left, and keeps the stock', async () => {
    const product = await insertProduct(ctx.db, { name: 'Last Few Cartridge', stock: 2 });
    const other = await insertProduct(ctx.db, { stock: 9 });
    const { auth } = await insertUser(ctx.db);
    const res = await place(auth, [
      { product: other.id, itemQuantity: 1 },
      { product: product.id, itemQuantity: 3 },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'Only 2 left of Last Few Cartridge' });
    const stock = await Promise.all(
      [product.id, other.id].map(async (id) => [id, await stockOf(ctx.db, id)]),
    );
    expect(Object.fromEntries(stock)).toEqual({
      [product.id]: 2,
      [other.id]: 9,
    });
  });

  it('sells the last units to exactly as many buyers as there are units', async () => {
    const product = await insertProduct(ctx.db, { stock: 3 });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => insertUser(ctx.db)));
    const answers = await Promise.all(
      buyers.map(({ auth }) => place(auth, [{ product: product.id, itemQuantity: 1 }])),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
    expect(await stockOf(ctx.db, product.id)).toBe(0);
  });
});

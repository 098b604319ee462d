import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../test/context.js';
import { insertProduct, setStock } from '../test/factories.js';
import { type Transaction, queryRows } from './client.js';
import { productVariants } from './schema/index.js';
import { CUSTOM_PLAN, createStatementNamer } from './statement-cache.js';

describe('statement namer', () => {
  it('names a text the second time it is sent, and keeps that name', () => {
    const { nameOf } = createStatementNamer();
    expect(nameOf('select 1')).toBeUndefined();
    const name = nameOf('select 1');
    expect(name).toMatch(/^pv_\d+$/);
    expect(nameOf('select 1')).toBe(name);
    expect(nameOf('select 2')).toBeUndefined();
    const other = nameOf('select 2');
    expect(other).toBeDefined();
    expect(other).not.toBe(name);
  });

  it('never names a text longer than maxLength', () => {
    const { nameOf } = createStatementNamer({ maxLength: 10 });
    const long = 'select 1234567';
    expect([nameOf(long), nameOf(long), nameOf(long)]).toEqual([undefined, undefined, undefined]);
    nameOf('select 1');
    expect(nameOf('select 1')).toBeDefined();
  });

  it('never names a text marked for a custom plan, wherever the mark is', () => {
    const { nameOf } = createStatementNamer();
    const marked = `select 1 where ${CUSTOM_PLAN} true`;
    expect([nameOf(marked), nameOf(marked), nameOf(marked)]).toEqual([undefined, undefined, undefined]);
  });

  it('names at most maxNamed texts and remembers at most maxTracked', () => {
    const named = createStatementNamer({ maxNamed: 1 }).nameOf;
    named('a');
    expect(named('a')).toBeDefined();
    named('b');
    expect(named('b')).toBeUndefined();
    expect(named('a')).toBeDefined();

    const tracked = createStatementNamer({ maxTracked: 1 }).nameOf;
    tracked('a');
    tracked('b');
    expect(tracked('b')).toBeUndefined();
    expect(tracked('a')).toBeDefined();
  });

  it('never names a forgotten text again', () => {
    const namer = createStatementNamer();
    namer.nameOf('select 1');
    expect(namer.nameOf('select 1')).toBeDefined();
    namer.forget('select 1');
    expect([namer.nameOf('select 1'), namer.nameOf('select 1')]).toEqual([undefined, undefined]);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('prepared statements on PostgreSQL', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  /** This connection's prepared statements (the transaction holds one connection). */
  const preparedOf = async (tx: Transaction) =>
    (await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`)).map(
      (r) => r.statement,
    );

  it('a statement sent twice is prepared on the connection and answers as before', async () => {
    const product = await insertProduct(ctx.db, { priceCents: 4321, stock: 7 });
    await ctx.db.transaction(async (tx) => {
      const stockOf = () =>
        tx
          .select({ stock: productVariants.stock })
          .from(productVariants)
          .where(eq(productVariants.id, product.variantId));
      expect(await stockOf()).toEqual([{ stock: 7 }]);
      const onceOnly = await tx
        .select({ price: productVariants.priceCents, probe: sql<number>`4242`.as('probe') })
        .from(productVariants)
        .where(eq(productVariants.id, product.variantId));
      expect(onceOnly).toEqual([{ price: 4321, probe: 4242 }]);
      await setStock(tx, product.id, 6);
      expect(await stockOf()).toEqual([{ stock: 6 }]);
      expect(await stockOf()).toEqual([{ stock: 6 }]);

      const prepared = await preparedOf(tx);
      expect(prepared.filter((s) => s.startsWith('select "stock" from "product_variants"'))).toHaveLength(1);
      expect(prepared.some((s) => s.includes('4242'))).toBe(false);
    });
  });

  it('a prepared statement that fails once still runs afterwards on the same connection', async () => {
    const product = await insertProduct(ctx.db, { stock: 3 });
    await ctx.db.transaction(async (tx) => {
      // A check constraint keeps stock at 0 or more: taking 2 works once, then fails, then 1 works.
      const take = (qty: number) =>
        tx.transaction((inner) =>
          inner
            .update(productVariants)
            .set({ stock: sql`${productVariants.stock} - ${qty}` })
            .where(eq(productVariants.id, product.variantId))
            .returning({ stock: productVariants.stock }),
        );
      expect(await take(1)).toEqual([{ stock: 2 }]);
      expect(await take(2)).toEqual([{ stock: 0 }]);
      await expect(take(2)).rejects.toThrow();
      const [row] = await tx
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, product.variantId));
      expect(row?.stock).toBe(0);
      await setStock(tx, product.id, 5);
      expect(await take(1)).toEqual([{ stock: 4 }]);
      expect(
        (await preparedOf(tx)).some((s) =>
          s.startsWith('update "product_variants" set "stock" = "product_variants"."stock" - $1'),
        ),
      ).toBe(true);
    });
  });

  it('a search, sent many times, is never prepared: it is planned for its words each time', async () => {
    await insertProduct(ctx.db, { name: 'Prepared Plan Probe' });
    await ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 7; i += 1) {
        const rows = await queryRows<{ id: string }>(
          tx,
          sql`select id from products where ${sql.raw(CUSTOM_PLAN)} pv_fold(${'plan probe'}) <% search_text`,
        );
        expect(rows).toHaveLength(1);
      }
      expect((await preparedOf(tx)).some((s) => s.includes(CUSTOM_PLAN))).toBe(false);
    });
  });

  it("every connection searches with the shop's session settings", async () => {
    await ctx.db.transaction(async (tx) => {
      const [row] = await queryRows<Record<string, string>>(
        tx,
        sql`select current_setting('pg_trgm.word_similarity_threshold') as similarity,
          current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`,
      );
      expect(row).toEqual({ similarity: '0.4', jit: 'off', workers: '0' });
    });
  });

  it('a statement whose result type changed under it (a migration) fails once, then runs unnamed', async () => {
    await ctx.db.execute(sql`create table stale_plan_probe (id integer primary key, v integer)`);
    await ctx.db.execute(sql`insert into stale_plan_probe values (1, 41)`);
    await ctx.db.transaction(async (tx) => {
      const read = () =>
        tx.transaction((inner) =>
          queryRows<{ v: string | number }>(inner, sql`select v from stale_plan_probe where id = 1`),
        );
      expect(await read()).toEqual([{ v: 41 }]);
      expect(await read()).toEqual([{ v: 41 }]);
      await tx.execute(sql`alter table stale_plan_probe alter column v type bigint`);
      await expect(read()).rejects.toThrow();
      // node-postgres gives a bigint as a string.
      expect(await read()).toEqual([{ v: '41' }]);
      expect(await read()).toEqual([{ v: '41' }]);
    });
  });
});

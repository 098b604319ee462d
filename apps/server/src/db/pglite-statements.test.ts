import { PGlite, type Results, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isUniqueViolation } from '../lib/errors.js';
import { prepareRepeatedStatements } from './pglite-statements.js';
import { CUSTOM_PLAN } from './statement-cache.js';

/**
 * Issue 28: PGlite's own path sends a statement in six calls and plans it every time. A repeated
 * statement now runs prepared, in one call; these tests hold it to PGlite's own answers.
 */
describe.runIf(!process.env.TEST_DATABASE_URL)('PGlite prepares the statements it runs again', () => {
  let client: PGlite;

  const SETUP = `
    create table things (
      id serial primary key, name text not null unique, price numeric(10,2), big int8, ok boolean,
      at timestamptz, tags text[], facts jsonb, maybe text
    );
    insert into things (name, price, big, ok, at, tags, facts, maybe) values
      ('Cartridge', 12.50, 9007199254740993, true, '2026-11-27T10:00:00Z', '{a,"b c"}', '{"n":1,"s":"x"}', null),
      ('Console', 99.00, 2, false, '2026-01-01T00:00:00Z', '{}', '[1,2]', 'here');`;

  beforeEach(async () => {
    client = await PGlite.create();
    await client.exec(SETUP);
    prepareRepeatedStatements(client);
  });
  afterEach(() => client.close());

  const prepared = async (db: PGlite) =>
    (await db.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
      (row) => row.statement,
    );

  it('answers what PGlite answers, for every type, in both row modes, run after run', async () => {
    const text =
      'select id, name, price, big, ok, at, tags, facts, maybe, $1::int + 1 as param, $2::text as nothing from things where price > $3 order by id';
    const params = [41, null, 1];
    const plain = await PGlite.create();
    await plain.exec(SETUP);
    const expected = await plain.query(text, params);
    const expectedArrays = await plain.query(text, params, { rowMode: 'array' });
    const expectedAsText = await plain.query(text, params, {
      parsers: { [types.TIMESTAMPTZ]: (value: string) => value },
    });
    expect(expectedAsText.rows[0]).toMatchObject({ at: '2026-11-27 10:00:00+00' });
    await plain.close();
    for (let run = 0; run < 4; run += 1) {
      expect(await client.query(text, params)).toEqual(expected);
      expect(await client.query(text, params, { rowMode: 'array' })).toEqual(expectedArrays);
      // Drizzle's own parsers for the timestamp types come with every query.
      const asText = { parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
      expect(await client.query(text, params, asText)).toEqual(expectedAsText);
    }
    expect(await prepared(client)).toEqual([text]);
    expect(expected.rows).toHaveLength(2);
  });

  it('runs a repeated statement in one call to the database, and counts what it changed', async () => {
    const update = 'update things set price = price + $1 where name = $2';
    await client.query(update, [1, 'Console']);
    await client.query(update, [1, 'Console']);
    const calls = vi.spyOn(client, 'execProtocolStream');
    const answer: Results = await client.query(update, [1, 'Console']);
    expect(calls).toHaveBeenCalledTimes(1);
    // What PGlite's own path answers for an UPDATE without RETURNING.
    expect(answer).toEqual({ rows: [], fields: [], command: 'UPDATE', affectedRows: 1, rowCount: 1 });
    const [row] = (await client.query<{ price: string }>("select price from things where name = 'Console'"))
      .rows;
    expect(Number(row!.price)).toBe(102);
  });

  it('leaves statements marked for a custom plan, or with their own parameter types, unnamed', async () => {
    const text = `select count(*)::int as n from things ${CUSTOM_PLAN}`;
    for (let run = 0; run < 3; run += 1) expect((await client.query(text)).rows).toEqual([{ n: 2 }]);
    // Parameter types given by the caller are PGlite's own business too.
    const typed = 'select $1 as x';
    for (let run = 0; run < 3; run += 1) {
      expect((await client.query(typed, ['5'], { paramTypes: [types.INT4] })).rows).toEqual([{ x: 5 }]);
    }
    expect(await prepared(client)).toEqual([]);
  });

  it('through Drizzle: a prepared statement failing in a transaction rolls it back, and the next one works', async () => {
    const db = drizzle(client);
    const insert = (name: string) => sql`insert into things (name) values (${name})`;
    await db.execute(insert('First'));
    await db.execute(insert('Second'));
    let failure: unknown;
    try {
      await db.transaction(async (tx) => {
        await tx.execute(insert('Third'));
        await tx.execute(insert('First'));
      });
    } catch (error) {
      failure = error;
    }
    expect(isUniqueViolation(failure)).toBe(true);
    const names = await db.execute<{ name: string }>(sql`select name from things order by id`);
    expect(names.rows.map((row) => row.name)).toEqual(['Cartridge', 'Console', 'First', 'Second']);
    await db.execute(insert('Fourth'));
    expect((await prepared(client)).some((text) => text.startsWith('insert into things'))).toBe(true);
  });

  it('a statement whose result columns changed is sent unnamed from then on', async () => {
    const text = 'select big from things where id = $1';
    await client.query(text, [1]);
    await client.query(text, [1]);
    await client.exec('alter table things alter column big type text');
    await expect(client.query(text, [1])).rejects.toThrow(/cached plan must not change result type/);
    expect((await client.query(text, [1])).rows).toEqual([{ big: '9007199254740993' }]);
    expect((await client.query(text, [1])).rows).toEqual([{ big: '9007199254740993' }]);
  });

  it('a statement that does not parse fails each time and leaves the client working', async () => {
    for (let run = 0; run < 3; run += 1)
      await expect(client.query('selec 1')).rejects.toThrow(/syntax error/);
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('delivers the notifications a prepared statement sends', async () => {
    const heard: string[] = [];
    await client.listen('things_changed', (payload) => heard.push(payload));
    for (let run = 0; run < 3; run += 1)
      await client.query('select pg_notify($1, $2)', ['things_changed', `n${run}`]);
    await vi.waitFor(() => expect(heard).toEqual(['n0', 'n1', 'n2']));
  });

  it('a closed transaction refuses statements, prepared or not', async () => {
    let kept: { query(text: string): Promise<unknown> } | undefined;
    await client.transaction(async (tx) => {
      await tx.query('select 1');
      await tx.query('select 1');
      kept = tx;
    });
    await expect(kept!.query('select 1')).rejects.toThrow(/closed/);
  });
});

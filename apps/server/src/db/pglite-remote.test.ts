import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasPostgresCode, isUniqueViolation } from '../lib/errors.js';
import { PGLITE_OPTIONS, SEARCH_SESSION_SQL } from './pglite-options.js';
import { PGliteRemote } from './pglite-remote.js';

/**
 * Issue 28: PGlite runs on a thread of its own. The app sees the same answers, errors, transactions
 * and notifications as from PGlite in its own thread, and its event loop keeps turning while the
 * database works.
 */
describe.runIf(!process.env.TEST_DATABASE_URL)('PGlite on its own thread', () => {
  let remote: PGliteRemote;
  let exits: Error[];

  const SETUP = `
    create table things (
      id serial primary key, name text not null unique, price numeric(10,2), big int8, ok boolean,
      at timestamptz, tags text[], facts jsonb, raw bytea, maybe text
    );
    insert into things (name, price, big, ok, at, tags, facts, raw, maybe) values
      ('Cartridge', 12.50, 9007199254740993, true, '2026-11-27T10:00:00Z', '{a,"b c"}', '{"n":1}', '\\x0102', null),
      ('Console', 99.00, 2, false, '2026-01-01T00:00:00Z', '{}', '[1,2]', null, 'here');
    create table counter (id int primary key, n int not null);
    insert into counter values (1, 0);`;

  // One thread for the file (opening PGlite is most of a test's time); the tables are made again for
  // each test.
  beforeAll(async () => {
    exits = [];
    remote = await PGliteRemote.open({ onExit: (error) => exits.push(error) });
  });
  afterAll(() => remote.close());
  beforeEach(async () => {
    await remote.exec(`drop table if exists things, counter, once; ${SETUP}`);
  });

  it('answers what PGlite in this thread answers, in both row modes and with text kept as text', async () => {
    const local = await PGlite.create(PGLITE_OPTIONS);
    await local.exec(SEARCH_SESSION_SQL);
    await local.exec(SETUP);
    const text =
      'select *, $1::int + 1 as param, $2::text as nothing from things where price > $3 order by id';
    const params = [41, null, 1];
    const asText = { parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
    for (let run = 0; run < 3; run += 1) {
      expect(await remote.query(text, params)).toEqual(await local.query(text, params));
      expect(await remote.query(text, params, { rowMode: 'array' })).toEqual(
        await local.query(text, params, { rowMode: 'array' }),
      );
      expect(await remote.query(text, params, asText)).toEqual(await local.query(text, params, asText));
    }
    const [first] = (await remote.query<Record<string, unknown>>(text, params, asText)).rows;
    expect(first).toMatchObject({ big: 9007199254740993n, at: '2026-11-27 10:00:00+00', facts: { n: 1 } });
    expect(first!.raw).toEqual(new Uint8Array([1, 2]));
    // The session is set as the app's (the search's word similarity).
    const threshold = await remote.query<{ t: string }>(
      `select current_setting('pg_trgm.word_similarity_threshold') as t`,
    );
    expect(threshold.rows[0]!.t).toBe('0.4');
    expect((await remote.query(`update things set ok = not ok`)).affectedRows).toBe(2);
    await local.close();
  });

  it("keeps PostgreSQL's error fields, and works on after an error", async () => {
    const db = drizzle(remote as unknown as PGlite);
    const error = await db.execute(sql`insert into things (name) values ('Console')`).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error)).toBe(true);
    const cause = (error as { cause: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'things_name_key', table: 'things' });
    expect(String(cause.message)).toContain('duplicate key');
    expect((await remote.query('select count(*)::int as n from things')).rows).toEqual([{ n: 2 }]);
    // A parameter that cannot cross to the thread fails its call alone.
    await expect(remote.query('select $1::text', [() => 'no'])).rejects.toThrow(/could not be cloned/);
    expect((await remote.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('commits, rolls back (throwing the same error), and refuses statements after its end', async () => {
    const db = drizzle(remote as unknown as PGlite);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into things (name) values ('Kept')`);
    });
    const failure = new Error('the work failed');
    let kept: { query(text: string): Promise<unknown> } | undefined;
    await expect(
      remote.transaction(async (tx) => {
        kept = tx;
        await tx.query(`insert into things (name) values ('Undone')`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(kept!.query('select 1')).rejects.toThrow('Transaction is closed');
    // A savepoint's rollback (drizzle's nested transaction) keeps the rest.
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into things (name) values ('Outer')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into things (name) values ('Inner')`);
          inner.rollback();
        })
        .catch(() => {});
    });
    const names = await remote.query<{ name: string }>('select name from things order by id');
    expect(names.rows.map((row) => row.name)).toEqual(['Cartridge', 'Console', 'Kept', 'Outer']);
  });

  it('fails the transaction when its commit fails (a deferred constraint)', async () => {
    await remote.exec(
      `create table once (id int, constraint once_id unique (id) deferrable initially deferred)`,
    );
    const commit = remote.transaction(async (tx) => {
      await tx.query('insert into once values (1)');
      await tx.query('insert into once values (1)');
      return 'done';
    });
    const error = await commit.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(hasPostgresCode(error, '23505')).toBe(true);
    expect((await remote.query('select count(*)::int as n from once')).rows).toEqual([{ n: 0 }]);
  });

  it('runs one transaction at a time: twenty read-then-write increments at once lose none', async () => {
    await Promise.all(
      Array.from({ length: 20 }, () =>
        remote.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>('select n from counter where id = 1');
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.query('update counter set n = $1 where id = 1', [rows[0]!.n + 1]);
        }),
      ),
    );
    expect((await remote.query('select n from counter')).rows).toEqual([{ n: 20 }]);
  });

  it("turns this thread's event loop while a statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    try {
      // PGlite in this thread would hold it for the whole 300 ms: no tick at all.
      await remote.query('select pg_sleep(0.3)');
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('hands over answers that have arrived when asked, without waiting for the event loop', async () => {
    /** Turns microtasks only: the event loop itself does not turn while this runs. */
    const microtasks = async () => {
      for (let i = 0; i < 20; i += 1) await null;
    };
    const answered: number[] = [];
    const first = remote.query<{ n: number }>('select 1 as n').then(({ rows }) => answered.push(rows[0]!.n));
    // The thread answers within this time, but the answer waits in the queue for the event loop.
    const spinUntil = Date.now() + 300;
    while (Date.now() < spinUntil) await microtasks();
    expect(answered).toEqual([]);

    // Asked, it is taken at once: still without a turn of the event loop.
    const deadline = Date.now() + 10_000;
    while (answered.length === 0 && Date.now() < deadline) {
      remote.takeReplies();
      await microtasks();
    }
    expect(answered).toEqual([1]);
    await first;
    // Nothing waiting: taking is a no-op, and later answers arrive as usual.
    remote.takeReplies();
    expect((await remote.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it('delivers notifications to listeners until they stop', async () => {
    const heard: string[] = [];
    const stop = await remote.listen('catalogue', (payload) => heard.push(payload));
    await remote.query(`select pg_notify('catalogue', 'v2')`);
    await remote.query(`select pg_notify('other', 'x')`);
    await expect.poll(() => heard).toEqual(['v2']);
    await stop();
    await remote.query(`select pg_notify('catalogue', 'v3')`);
    await remote.query('select 1');
    expect(heard).toEqual(['v2']);
  });

  it('dumps its data directory, which another opens with the data in it', async () => {
    const dump = await remote.dumpDataDir('none');
    expect(dump.size).toBeGreaterThan(1000);
    const copy = await PGliteRemote.open({ loadDataDir: dump });
    try {
      expect((await copy.query('select count(*)::int as n from things')).rows).toEqual([{ n: 2 }]);
    } finally {
      await copy.close();
    }
  });

  it('says when its thread dies, and every call fails from then on', async () => {
    const died: Error[] = [];
    const doomed = await PGliteRemote.open({ onExit: (error) => died.push(error) });
    try {
      const pending = doomed.query('select pg_sleep(5)');
      await doomed.terminate();
      await expect(pending).rejects.toThrow('The database thread stopped');
      await expect(doomed.query('select 1')).rejects.toThrow('The database thread stopped');
      expect(died).toHaveLength(1);
    } finally {
      await doomed.close();
    }
    // Closing says nothing: the shared thread was closed by no one and is still alive.
    expect(exits).toEqual([]);
  });
});

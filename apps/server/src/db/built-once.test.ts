import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../test/context.js';
import { insertUser } from '../test/factories.js';
import { builtOnce } from './built-once.js';
import { users } from './schema/index.js';

/**
 * A statement built once runs on whichever executor it is given (issue 28): the database, or an open
 * transaction's connection, on both engines (npm run test:pg runs it on PostgreSQL).
 */
describe('builtOnce', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  let builds = 0;
  const userById = builtOnce<{ id: string }, { id: string; name: string; createdAt: Date }[]>((executor) => {
    builds += 1;
    return executor
      .select({ id: users.id, name: users.name, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')));
  });
  const rename = builtOnce<{ id: string; name: string }, { name: string }[]>((executor) =>
    executor
      .update(users)
      .set({ name: sql`${sql.placeholder('name')}` })
      .where(eq(users.id, sql.placeholder('id')))
      .returning({ name: users.name }),
  );

  it('answers what drizzle answers, mapped the same, for each value, and is built once', async () => {
    const { user: first } = await insertUser(ctx.db, { name: 'First Built' });
    const { user: second } = await insertUser(ctx.db, { name: 'Second Built' });
    for (const user of [first, second, first]) {
      const expected = await ctx.db
        .select({ id: users.id, name: users.name, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.id, user.id));
      const rows = await userById(ctx.db, { id: user.id });
      expect(rows).toEqual(expected);
      expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    }
    expect(builds).toBe(1);
  });

  it("runs on a transaction's own connection: it sees the transaction's writes, which a rollback undoes", async () => {
    const { user } = await insertUser(ctx.db, { name: 'Before' });
    const undo = new Error('undo');
    await expect(
      ctx.db.transaction(async (tx) => {
        expect(await rename(tx, { id: user.id, name: 'Inside' })).toEqual([{ name: 'Inside' }]);
        // Read in the transaction: its own write. Read outside it (the pool's other connection or,
        // on PGlite, after it): not yet.
        expect((await userById(tx, { id: user.id }))[0]!.name).toBe('Inside');
        throw undo;
      }),
    ).rejects.toBe(undo);
    expect((await userById(ctx.db, { id: user.id }))[0]!.name).toBe('Before');

    await ctx.db.transaction(async (tx) => {
      await rename(tx, { id: user.id, name: 'Kept' });
    });
    expect((await userById(ctx.db, { id: user.id }))[0]!.name).toBe('Kept');
    expect(builds).toBe(1);
  });
});

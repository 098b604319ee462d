import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../test/context.js';
import { clearProducts, insertProduct } from '../../test/factories.js';
import { createSearchIndexes } from './products.search-index.js';

/**
 * Issue 33: when the in-memory search index is read again. A catalogue change (its version) is never
 * answered from the index read before it; an index only aged answers while its successor is read; a
 * build that takes longer than a request waits leaves the request to the database; a failed build is
 * told and tried again.
 */
let ctx: TestContext;
let version = 1;
let now = 1_000_000;

beforeAll(async () => {
  ctx = await createTestContext();
  await clearProducts(ctx.db);
  await insertProduct(ctx.db, { name: 'Index Alpha' });
});
afterAll(() => ctx.close());

function indexes(options: { waitMs?: number; restFactor?: number; errors?: unknown[] } = {}) {
  return createSearchIndexes({
    db: ctx.db,
    version: () => version,
    maxAgeMs: 10_000,
    now: () => now,
    waitMs: options.waitMs ?? 60_000,
    restFactor: options.restFactor ?? 0,
    onError: (error) => options.errors?.push(error),
  });
}

const namesOf = (index: { foldedName: string[] } | undefined) => index?.foldedName;

describe('the search index (issue 33)', () => {
  it('is kept while the catalogue is unchanged, and read again after a change', async () => {
    const search = indexes();
    const first = await search.current();
    expect(namesOf(first)).toEqual(['index alpha']);
    await insertProduct(ctx.db, { name: 'Index Bravo' });
    // Unchanged as far as the shop knows: the same index, without a read.
    expect(await search.current()).toBe(first);
    version += 1;
    const second = await search.current();
    expect(second).not.toBe(first);
    expect(namesOf(second)).toEqual(['index alpha', 'index bravo']);
    expect(second!.version).toBe(version);
  });

  it('answers from an index only aged while its successor is read, then from the new one', async () => {
    const search = indexes();
    const first = await search.current();
    await insertProduct(ctx.db, { name: 'Index Charlie' });
    now += 10_000;
    // Aged: answered at once from what it has, and read again behind it.
    expect(await search.current()).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await search.current();
    expect(next).not.toBe(first);
    expect(namesOf(next)).toContain('index charlie');
  });

  it('leaves a request to the database when the index is not read in time, and never answers an older catalogue', async () => {
    const search = indexes({ waitMs: 0 });
    // The first build cannot be done in no time: the database answers this one.
    expect(await search.current()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const built = await search.current();
    expect(built).toBeDefined();
    version += 1;
    // Read before the change: not used for it.
    expect(await search.current()).toBeUndefined();
  });

  it('rests after a build, leaving searches to the database meanwhile, so a busy sale does not read it back to back', async () => {
    const search = indexes({ restFactor: 1_000_000 });
    const first = await search.current();
    expect(first).toBeDefined();
    version += 1;
    // A change, but the last build was moments ago: the database answers.
    expect(await search.current()).toBeUndefined();
    now += 10_000;
    expect(await search.current()).toBeUndefined();
  });

  it('tells a failed read and tries again at the next request', async () => {
    const errors: unknown[] = [];
    const search = indexes({ errors });
    await ctx.db.execute(sql`alter table products rename column search_text to search_text_gone`);
    try {
      expect(await search.current()).toBeUndefined();
      expect(errors).toHaveLength(1);
    } finally {
      await ctx.db.execute(sql`alter table products rename column search_text_gone to search_text`);
    }
    version += 1;
    expect(namesOf(await search.current())).toContain('index alpha');
    expect(errors).toHaveLength(1);
  });
});

// Search benchmark (issue 33): 100,000 generated products with platforms and conditions
// (`npm run db:seed -- --products 100000`), the built shop started as `npm start` starts it (default
// settings, logging on), on PostgreSQL and PGlite. 8 concurrent clients, each request a different
// search with filters and a sort (typo'd words, platforms, conditions, in stock, price bounds), never a
// URL sent before (the warm-up's included), so the catalogue cache answers none of them: the query
// path alone. GET /api/products (a page of 24)
// and GET /api/products/facets are measured apart. The slowest request of each is then explained
// (EXPLAIN (ANALYZE, BUFFERS) of the SQL the database runs for it while the shop's in-memory index is
// read; the shop answers from the index otherwise, products.search-memory.ts), and the index's build
// time and heap are measured in this process.
//
// BENCH_BUILDS="before=/path/to/other/checkout,after=." measures several builds on the same catalogue
// with the same searches, one after the other (BENCH_ENGINE=postgres or pglite for one engine).
import { mkdtempSync, rmSync } from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { ProductFacetsQuery, ProductListQuery } from '@pixel-vault/shared';
import { openDatabase } from '../apps/server/src/db/client.js';
import {
  GENERATED_ADJECTIVES,
  GENERATED_NOUNS,
  GENERATED_PLATFORMS,
} from '../apps/server/src/db/seed/generated.js';
import {
  facetsSql,
  orderOf,
  productId,
  whereOf,
} from '../apps/server/src/modules/products/products.search.js';
import { products } from '../apps/server/src/db/schema/index.js';
import { buildSearchIndex } from '../apps/server/src/modules/products/products.search-index.js';
import { trigramRulesOf } from '../apps/server/src/modules/products/products.trigram.js';
import { parseQuery } from '../apps/server/src/lib/querystring.js';
import { builds, freshPostgresDatabase, percentile } from './lib.js';
import { random, seedProducts, withShop } from './generated.js';
import { writeSection } from './results.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = 8;
const port = 3323;
const base = `http://127.0.0.1:${port}`;
const pgUrl =
  process.env.BENCH_SEARCH_DATABASE_URL ??
  'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_search';
const TARGETS = {
  PostgreSQL: { list: 30, facets: 60 },
  PGlite: { list: 150, facets: 300 },
} as const;
type Engine = keyof typeof TARGETS;

const SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating', 'name'];
const CONDITIONS = ['Loose', 'Complete in box', 'New'];

/** A word with one letter changed, dropped or swapped with the next: what a shopper mistypes. */
function typo(word: string, rand: () => number): string {
  const at = Math.floor(rand() * (word.length - 1));
  const r = rand();
  if (r < 1 / 3) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  if (r < 2 / 3) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + 'aeiou'[Math.floor(rand() * 5)] + word.slice(at + 1);
}

/** A search a shopper might make: a text (often mistyped), some filters, a sort. */
function searchParams(rand: () => number, withSort: boolean): URLSearchParams {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const params = new URLSearchParams();
  const r = rand();
  if (r < 0.8) {
    const noun = pick(GENERATED_NOUNS);
    const adjective = pick(GENERATED_ADJECTIVES);
    const text = rand() < 0.5 ? `${adjective} ${noun}` : rand() < 0.5 ? noun : pick(GENERATED_PLATFORMS);
    params.set(
      'q',
      rand() < 0.6
        ? text
            .split(' ')
            .map((w) => (w.length > 4 ? typo(w, rand) : w))
            .join(' ')
        : text,
    );
  }
  if (rand() < 0.5) params.set('category', pick(['retro-games', 'consoles', 'board-games', 'puzzles']));
  if (rand() < 0.3) params.set('platform', pick(GENERATED_PLATFORMS));
  if (rand() < 0.3) params.set('condition', pick(CONDITIONS));
  if (rand() < 0.3) params.set('inStock', 'true');
  if (rand() < 0.3) {
    const min = Math.floor(rand() * 100);
    params.set('minPrice', String(min));
    params.set('maxPrice', String(min + 5 + Math.floor(rand() * 200)));
  }
  if (withSort) {
    params.set('sort', pick(SORTS));
    params.set('page', String(1 + Math.floor(rand() * 3)));
    params.set('limit', '24');
  }
  return params;
}

interface Row {
  engine: Engine;
  /** BENCH_BUILDS' label ("this build" without it). */
  build: string;
  route: 'list' | 'facets';
  requests: number;
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  distinct: number;
  slowest: { ms: number; path: string };
}

async function measure(
  engine: Engine,
  route: 'list' | 'facets',
  secs: number,
  seed: number,
  /** The URLs this shop was sent already (the warm-up's too): none is sent twice, so none is cached. */
  sent: Set<string>,
): Promise<Omit<Row, 'build'>> {
  const rand = random(seed);
  const agent = new Agent({ connections, pipelining: 1 });
  const latencies: number[] = [];
  const seen = new Set<string>();
  let failures = 0;
  let slowest = { ms: 0, path: '' };
  const until = performance.now() + secs * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          let path = '';
          for (let tries = 0; tries < 50 && (path === '' || sent.has(path)); tries += 1) {
            const params = searchParams(rand, route === 'list');
            path = `/api/products${route === 'facets' ? '/facets' : ''}?${params}`;
          }
          sent.add(path);
          seen.add(path);
          const t0 = performance.now();
          try {
            const res = await request(base + path, { dispatcher: agent });
            await res.body.arrayBuffer();
            const ms = performance.now() - t0;
            if (res.statusCode !== 200) failures += 1;
            else latencies.push(ms);
            if (ms > slowest.ms) slowest = { ms, path };
          } catch {
            failures += 1;
          }
        }
      }),
    );
  } finally {
    await agent.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    engine,
    route,
    requests: latencies.length,
    reqPerSec: latencies.length / secs,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures,
    distinct: seen.size,
    slowest,
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL the database runs for `path` (no sale running): the shop's
 * answer while its in-memory index is read, as before the index.
 */
async function explain(env: { DATABASE_URL?: string; DATA_DIR: string }, path: string): Promise<string> {
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const query = parseQuery(path.slice(path.indexOf('?') + 1));
    let statement: SQL;
    if (path.startsWith('/api/products/facets')) {
      const names = await handle.db.execute(
        sql`select distinct k from ${products}, jsonb_object_keys(${products.searchFacts}) k where k <> '' order by k`,
      );
      const conditionNames = (names as unknown as { rows: { k: string }[] }).rows.map((r) => r.k);
      statement = facetsSql(ProductFacetsQuery.parse(query), [], conditionNames);
    } else {
      const list = ProductListQuery.parse(query);
      statement = sql`select coalesce(string_agg(${productId}::text, '' order by ${orderOf(list, [])}), '')
        from ${products} where ${whereOf(list, [])}`;
    }
    const result = await handle.db.execute(sql`explain (analyze, buffers) ${statement}`);
    const rows = (result as unknown as { rows: Record<string, string>[] }).rows;
    return rows.map((r) => Object.values(r)[0]).join('\n');
  } finally {
    await handle.close();
  }
}

async function runEngine(engine: Engine, env: { DATABASE_URL?: string; DATA_DIR: string }) {
  await seedProducts(env, PRODUCTS);
  const shopEnv = env as unknown as Record<string, string>;
  let sent = new Set<string>();
  const warmUp = async () => {
    sent = new Set<string>();
    await measure('PGlite', 'list', 3, 999, sent);
    await measure('PGlite', 'facets', 3, 998, sent);
  };
  // Every build on the same catalogue, each with the same searches (the same seeds).
  const rows: Row[] = [];
  for (const build of builds()) {
    const measured = await withShop(
      shopEnv,
      port,
      warmUp,
      async () => [
        await measure(engine, 'list', seconds, 1, sent),
        await measure(engine, 'facets', seconds, 2, sent),
      ],
      build.main,
    );
    rows.push(...measured.map((row) => ({ ...row, build: build.label })));
  }
  const plans: string[] = [];
  for (const row of rows) {
    plans.push(
      `#### ${engine}, slowest ${row.route} request (${row.slowest.ms.toFixed(0)} ms under load): \`${row.slowest.path}\``,
      '',
      'Answered from the in-memory index; the plan of the same search in the database (its answer while the index is read):',
      '',
      '```',
      await explain(env, row.slowest.path),
      '```',
      '',
    );
  }
  return { rows, plans: [await indexCost(engine, env), '', ...plans] };
}

/**
 * What the in-memory search index of this catalogue costs: the time to read and build it, and the
 * heap it keeps (after a collection, before and after), measured in this process.
 */
async function indexCost(engine: Engine, env: { DATABASE_URL?: string; DATA_DIR: string }): Promise<string> {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const rules = await trigramRulesOf(handle.db);
    gc();
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const index = await buildSearchIndex(handle.db, rules, 1, Date.now());
    const ms = performance.now() - t0;
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    return `${engine}: the search index of ${index.size.toLocaleString('en-US')} products is read and built in ${(ms / 1000).toFixed(1)} s (once after a catalogue change; the database answers meanwhile) and keeps ${(kept / 1024 / 1024).toFixed(0)} MB of heap.`;
  } finally {
    await handle.close();
  }
}

async function main() {
  const rows: Row[] = [];
  const plans: string[] = [];
  const only = process.env.BENCH_ENGINE;
  if (only !== 'postgres') {
    const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-search-'));
    try {
      const result = await runEngine('PGlite', { DATA_DIR: dataDir });
      rows.push(...result.rows);
      plans.push(...result.plans);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (only !== 'pglite') {
    if (await freshPostgresDatabase(pgUrl)) {
      const pgDataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-search-pg-'));
      try {
        const result = await runEngine('PostgreSQL', { DATABASE_URL: pgUrl, DATA_DIR: pgDataDir });
        rows.push(...result.rows);
        plans.push(...result.plans);
      } finally {
        rmSync(pgDataDir, { recursive: true, force: true });
      }
    } else {
      console.error(`PostgreSQL is not reachable at ${pgUrl}: only PGlite was measured.`);
    }
  }

  const verdicts = rows.map((r) => {
    const target = TARGETS[r.engine][r.route];
    return `- ${r.engine}${r.build === 'this build' ? '' : ` (${r.build})`} ${r.route === 'list' ? 'GET /api/products' : 'GET /api/products/facets'}: p95 ${r.p95.toFixed(1)} ms (target at most ${target} ms): ${r.p95 <= target ? 'met' : 'missed'}`;
  });
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}: ${PRODUCTS.toLocaleString('en-US')} generated products (retro games and consoles with platforms and 2-3 conditions), ${connections} clients for ${seconds} s per row (closed loop), each request a search with filters and a sort never sent before (so none is answered from the cache), against the built server started as \`npm start\` starts it (default settings, logging on).`,
    '',
    '| engine | build | route | requests | distinct | req/s | p50 ms | p95 ms | p99 ms | failures |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.build} | ${r.route} | ${r.requests} | ${r.distinct} | ${r.reqPerSec.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.failures} |`,
    ),
    '',
    ...verdicts,
    '',
    ...plans,
  ].join('\n');
  console.log('\n' + report + '\n');
  writeSection('search', 'Search, filters and facets at 100,000 products (issue 33)', report);
  const missed = verdicts.some((v) => v.endsWith('missed')) || rows.some((r) => r.failures > 0);
  process.exitCode = missed ? 1 : 0;
}

await main();

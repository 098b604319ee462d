// Large-catalogue benchmark (issue 13): 100,000 generated products (`npm run db:seed -- --products N`),
// the built shop started as `npm start` starts it (default settings, logging on), category pages and
// name searches at 50 connections on PostgreSQL and PGlite. Two kinds of traffic for each:
// - as shoppers ask: most requests for the first pages and the common searches (Zipf), so the
//   catalogue cache answers many of them, as it would in a shop;
// - every request different: pages and search terms drawn so nearly every request misses the cache
//   and goes to the database (the query path alone).
// On PGlite the searches are measured once more without issue 13's indexes (dropped), which is the
// catalogue search before the issue: the ratio is the issue's "10x" target.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { GENERATED_ADJECTIVES, GENERATED_NOUNS } from '../apps/server/src/db/seed/generated.js';
import { closedLoop, freshPostgresDatabase, percentile } from './lib.js';
import { random, seedProducts, withShop } from './generated.js';
import { writeSection } from './results.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const port = 3321;
const base = `http://127.0.0.1:${port}`;
const pgUrl =
  process.env.BENCH_LARGE_DATABASE_URL ??
  'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_large';
const CATEGORIES = ['retro-games', 'board-games', 'puzzles', 'consoles'];
const LIMIT = 24;
const ADJECTIVES = GENERATED_ADJECTIVES.slice(0, 10);
const NOUNS = GENERATED_NOUNS.slice(0, 10);
const TARGET_P95_MS = 20;

/** Rank 1..n, rank k about 1/k^1.1 as likely: a few pages and terms take most of the traffic. */
function zipf(n: number, rand: () => number): () => number {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1) ** 1.1);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w / total));
  return () => {
    const r = rand();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

const pagesPerCategory = Math.ceil(PRODUCTS / CATEGORIES.length / LIMIT);
const q = (term: string) => encodeURIComponent(term);
/** Every search term a shopper might type, commonest first: single words, then pairs. */
const TERMS = [
  ...NOUNS,
  ...ADJECTIVES,
  ...ADJECTIVES.flatMap((a) => NOUNS.map((n) => `${a} ${n}`)),
  'Deluxe',
  'Collector',
];

type PathOf = () => string;
interface Workload {
  name: string;
  kind: 'category' | 'search';
  traffic: 'as shoppers ask' | 'every request different';
  path: PathOf;
}

function workloads(): Workload[] {
  const rand = random(13);
  const page = zipf(pagesPerCategory, rand);
  const term = zipf(TERMS.length, rand);
  const category = () => CATEGORIES[Math.floor(rand() * CATEGORIES.length)]!;
  return [
    {
      name: 'category page',
      kind: 'category',
      traffic: 'as shoppers ask',
      path: () => `/api/products?category=${category()}&page=${page()}&limit=${LIMIT}`,
    },
    {
      name: 'category page',
      kind: 'category',
      traffic: 'every request different',
      path: () =>
        `/api/products?category=${category()}&page=${1 + Math.floor(rand() * pagesPerCategory)}&limit=${LIMIT}`,
    },
    {
      name: 'name search',
      kind: 'search',
      traffic: 'as shoppers ask',
      path: () => `/api/products?q=${q(TERMS[term() - 1]!)}&page=1&limit=${LIMIT}`,
    },
    {
      name: 'name search',
      kind: 'search',
      traffic: 'every request different',
      // A third each: one product by its number, a word pair on a random page, a word on a random page.
      path: () => {
        const r = rand();
        if (r < 1 / 3)
          return `/api/products?q=${q(`#${1 + Math.floor(rand() * PRODUCTS)}`)}&page=1&limit=${LIMIT}`;
        const pair = `${ADJECTIVES[Math.floor(rand() * ADJECTIVES.length)]} ${NOUNS[Math.floor(rand() * NOUNS.length)]}`;
        if (r < 2 / 3) return `/api/products?q=${q(pair)}&page=${1 + Math.floor(rand() * 10)}&limit=${LIMIT}`;
        const word = NOUNS[Math.floor(rand() * NOUNS.length)]!;
        return `/api/products?q=${q(word)}&page=${1 + Math.floor(rand() * 200)}&limit=${LIMIT}`;
      },
    },
  ];
}

interface Row {
  engine: string;
  workload: Workload;
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  matchesPerPage: number;
}

async function measure(engine: string, workload: Workload, secs = seconds): Promise<Row> {
  const { latencies, non2xx, errors, read } = await closedLoop({
    connections,
    seconds: secs,
    url: () => base + workload.path(),
    read: (body) => (body as { products?: unknown[] }).products?.length ?? 0,
  });
  return {
    engine,
    workload,
    reqPerSec: latencies.length / secs,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures: non2xx + errors,
    matchesPerPage: latencies.length ? read / latencies.length : 0,
  };
}

/** Issue 13's indexes (migration 0008) dropped: the catalogue search as it was before the issue. */
async function dropSearchIndexes(env: { DATABASE_URL?: string; DATA_DIR: string }): Promise<void> {
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await handle.db.execute(sql`drop index if exists products_name_trgm_idx`);
    await handle.db.execute(sql`drop index if exists products_live_category_name_idx`);
    await handle.db.execute(sql`analyze products`);
  } finally {
    await handle.close();
  }
}

/** Warm-up: the first queries of a fresh process compile and plan. */
async function warmUp() {
  for (const w of workloads()) await measure('warm-up', w, 1);
}

async function runEngine(engine: string, env: { DATABASE_URL?: string; DATA_DIR: string }, before: boolean) {
  await seedProducts(env, PRODUCTS);
  const shopEnv = { ...env, ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}) } as Record<
    string,
    string
  >;
  const rows = await withShop(shopEnv, port, warmUp, async () => {
    const out: Row[] = [];
    for (const w of workloads()) out.push(await measure(engine, w));
    return out;
  });
  if (before) {
    await dropSearchIndexes(env);
    const old = await withShop(shopEnv, port, warmUp, async () => {
      const out: Row[] = [];
      for (const w of workloads().filter((x) => x.kind === 'search')) {
        out.push(await measure(`${engine}, before issue 13 (its indexes dropped)`, w));
      }
      return out;
    });
    rows.push(...old);
  }
  return rows;
}

async function main() {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-large-'));
  try {
    rows.push(...(await runEngine('PGlite', { DATA_DIR: dataDir }, true)));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (await freshPostgresDatabase(pgUrl)) {
    const pgDataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-large-pg-'));
    try {
      rows.push(...(await runEngine('PostgreSQL', { DATABASE_URL: pgUrl, DATA_DIR: pgDataDir }, false)));
    } finally {
      rmSync(pgDataDir, { recursive: true, force: true });
    }
  } else {
    console.error(`PostgreSQL is not reachable at ${pgUrl}: only PGlite was measured.`);
  }

  const pgRows = rows.filter((r) => r.engine === 'PostgreSQL');
  const verdicts = (['category', 'search'] as const).flatMap((kind) =>
    (['as shoppers ask', 'every request different'] as const).map((traffic) => {
      const r = pgRows.find((x) => x.workload.kind === kind && x.workload.traffic === traffic);
      return r
        ? `- PostgreSQL ${r.workload.name}, ${traffic}: p95 ${r.p95.toFixed(1)} ms (target at most ${TARGET_P95_MS} ms): ${r.p95 <= TARGET_P95_MS ? 'met' : 'missed'}`
        : `- PostgreSQL ${kind}, ${traffic}: not measured`;
    }),
  );
  const ratios = (['as shoppers ask', 'every request different'] as const).map((traffic) => {
    const now = rows.find(
      (r) => r.engine === 'PGlite' && r.workload.kind === 'search' && r.workload.traffic === traffic,
    );
    const old = rows.find((r) => r.engine.startsWith('PGlite, before') && r.workload.traffic === traffic);
    return now && old
      ? `- PGlite name search, ${traffic}: ${(now.reqPerSec / old.reqPerSec).toFixed(1)}x the rate before issue 13 (${now.reqPerSec.toFixed(0)} vs ${old.reqPerSec.toFixed(0)} req/s; target at least 10x)`
      : `- PGlite name search, ${traffic}: not measured`;
  });

  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}: ${PRODUCTS.toLocaleString('en-US')} generated products, ${connections} connections for ${seconds} s per row (closed loop, undici), against the built server started as \`npm start\` starts it (default settings, logging on). Pages of ${LIMIT}.`,
    '',
    '| engine | workload | traffic | req/s | p50 ms | p95 ms | p99 ms | products per answer | failures |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.workload.name} | ${r.workload.traffic} | ${r.reqPerSec.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.matchesPerPage.toFixed(1)} | ${r.failures} |`,
    ),
    '',
    ...verdicts,
    ...ratios,
  ].join('\n');
  console.log('\n' + report + '\n');
  writeSection('large-catalogue', 'Large catalogue (issue 13)', report);
  const missed = verdicts.some((v) => v.endsWith('missed')) || rows.some((r) => r.failures > 0);
  process.exitCode = missed ? 1 : 0;
}

await main();

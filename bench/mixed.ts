// A sale (issue 28): shoppers browse while customers check out. The built shop, started as `npm start`
// starts it (default settings, the demo catalogue), on PGlite and on PostgreSQL. Runs per shop:
// 40 browsing connections alone, 10 customers checking out alone, both at once for 60 s, then (once
// the shop is idle) each side alone again; a share is against the mean of its side's two runs alone.
// Browsing is what a shopper's browser asks for: a category's page of products (the web app's call),
// a search in a category, the whole list (the spec's call), a product's answer, and pages rendered on
// the server (a category, a product). The customers buy the very products being browsed, so every
// order changes the stock of something on screen. Targets: browsing keeps at least 50% of its rate
// alone and a p99 of at most 100 ms; checkout keeps at least 50% of its paid orders/s alone.
//
// BENCH_BUILDS="before=/path/to/other/checkout,after=." measures several builds side by side in
// one run (each a built checkout of the shop: apps/server/dist/main.js under it), alternating per engine.
//
// Browsing's client is wrk where it is installed (`apt install wrk`; bench/wrk.ts says why), else
// undici; BENCH_MIXED_CLIENT=undici chooses undici. The report names the client: the shares depend on
// what the client itself takes of the machine's two cores.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import {
  type Build,
  apiClient,
  builds,
  buyWithGiftCard,
  cpuSince,
  cpuTimes,
  freshPostgresDatabase,
  percentile,
  processesNamed,
  stopChild,
  waitFor,
} from './lib.js';
import { writeSection } from './results.js';
import { hasWrk, wrkLoop } from './wrk.js';

const BROWSERS = 40;
const CUSTOMERS = 10;
const ALONE_SECONDS = Number(process.env.BENCH_MIXED_ALONE_SECONDS ?? 20);
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
const WARM_SECONDS = 3;
const port = 3321;
const base = `http://127.0.0.1:${port}`;
const call = apiClient(base);
const ADMIN = { email: 'mixed-admin@pixelvault.local', password: 'mixed-admin-password' };
const PASSWORD = 'mixed-customer-password';
const pgUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_mixed';
/**
 * Browsing's clients, each measured in turn: BENCH_MIXED_CLIENT (`wrk`, `undici` or both, comma
 * separated), else wrk where it is installed (bench/wrk.ts), else undici.
 */
type Client = 'wrk' | 'undici';
const WRK_INSTALLED = hasWrk();
const CLIENTS = (process.env.BENCH_MIXED_CLIENT?.split(',') ?? [WRK_INSTALLED ? 'wrk' : 'undici']).map(
  (c) => {
    if (c !== 'wrk' && c !== 'undici') throw new Error(`BENCH_MIXED_CLIENT: unknown client ${c}`);
    if (c === 'wrk' && !WRK_INSTALLED) throw new Error('BENCH_MIXED_CLIENT: wrk is not installed');
    return c as Client;
  },
);
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: '*/*' };
/** Every product's stock during the run: enough that nothing sells out. */
const SALE_STOCK = 1_000_000;

/** What the targets are measured against. */
const TARGETS = { browsingShare: 0.5, checkoutShare: 0.5, browsingP99Ms: 100 };

interface Catalogue {
  categories: string[];
  items: { id: string; category: string; word: string }[];
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function startShop(build: Build, env: Record<string, string>) {
  const shop = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), build.main],
    {
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
      // Default logging writes a line per request: to a pipe that is drained, as a process manager would.
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  shop.stdout?.resume();
  // A diagnosis, not the measure (the shop as `npm start` starts it shares the machine's cores):
  // BENCH_MIXED_SHOP_CPUS=0 keeps every thread of the shop on CPU 0 (taskset).
  if (process.env.BENCH_MIXED_SHOP_CPUS && shop.pid !== undefined) {
    spawnSync('taskset', ['-a', '-p', '-c', process.env.BENCH_MIXED_SHOP_CPUS, String(shop.pid)], {
      stdio: 'ignore',
    });
  }
  return shop;
}

/**
 * The demo catalogue as the shop seeds it on its first start, then customers and a stock that lasts
 * the run, through the shop's API only: any build can be measured beside another (BENCH_BUILDS),
 * whatever its schema.
 */
async function prepare(build: Build, env: Record<string, string>): Promise<void> {
  const shop = startShop(build, env);
  try {
    await waitFor(`${base}/api/health`);
    const admin = await call<{ token: string }>('POST', '/api/users/login', null, ADMIN);
    const all = await call<{ _id: string }[]>('GET', '/api/products', null);
    for (const product of all) {
      await call('PUT', `/api/products/update/${product._id}`, admin.token, { stockQuantity: SALE_STOCK });
    }
    for (let i = 0; i < CUSTOMERS; i += 1) {
      await call('POST', '/api/users', null, {
        name: `Sale Customer ${i}`,
        email: `sale-${i}@pixelvault.local`,
        password: PASSWORD,
      });
    }
  } finally {
    await stopChild(shop);
  }
}

interface Stats {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  firstFailure?: string;
}

function stats(latencies: number[], seconds: number, failures: number, firstFailure?: string): Stats {
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
    ...(firstFailure ? { firstFailure } : {}),
  };
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The six things a shopper's browser asks for, about `item` (and `category`, a category's page). */
function browseUrls(item: Catalogue['items'][number], category: string): string[] {
  return [
    `/api/products?category=${item.category}&page=1&limit=12`,
    `/api/products?category=${item.category}&q=${encodeURIComponent(item.word)}&page=1&limit=12`,
    '/api/products',
    `/api/products/${item.id}`,
    `/shop/${category}`,
    `/shop/${item.category}/product/${item.id}`,
  ];
}

/**
 * What shoppers' browsers ask for, each request one of these drawn at random: every item's six
 * requests, a category's page drawn in turn. Made once per shop, for every phase and either client:
 * drawing a path then costs the client nothing it would not spend anyway.
 */
function browsePaths({ categories, items }: Catalogue): string[] {
  return items.flatMap((item, i) => browseUrls(item, categories[i % categories.length]!));
}

/** CPU seconds wrk's runs have used (it runs as a process of its own: withCores counts it as the client's). */
let wrkCpuSeconds = 0;

/**
 * Browsing for `seconds`: with wrk where it is installed (bench/wrk.ts: the client's own CPU is a third
 * of undici's, and on two cores the client's CPU is the shop's), else with undici.
 */
async function browse(paths: string[], seconds: number, client: Client): Promise<Stats> {
  if (client === 'undici') return browseWithUndici(paths, seconds);
  const r = await wrkLoop({
    origin: base,
    paths,
    headers: BROWSER_HEADERS,
    connections: BROWSERS,
    seconds,
  });
  wrkCpuSeconds += r.cpuSeconds;
  const failures = r.badStatus + r.socketErrors;
  return {
    count: r.requests - r.badStatus,
    perSecond: (r.requests - r.badStatus) / r.seconds,
    p50: r.p50,
    p99: r.p99,
    failures,
    ...(failures > 0
      ? { firstFailure: `${r.badStatus} answers not 2xx or 3xx, ${r.socketErrors} socket errors or timeouts` }
      : {}),
  };
}

async function browseWithUndici(paths: string[], seconds: number): Promise<Stats> {
  const agent = new Agent({ connections: BROWSERS, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: BROWSERS }, async () => {
        while (performance.now() < until) {
          const url = pick(paths);
          const t0 = performance.now();
          try {
            const res = await request(base + url, { headers: BROWSER_HEADERS, dispatcher: agent });
            await res.body.arrayBuffer();
            if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
            latencies.push(performance.now() - t0);
          } catch (error) {
            failures += 1;
            firstFailure ??= (error as Error).message;
          }
        }
      }),
    );
  } finally {
    await agent.close();
  }
  return stats(latencies, (performance.now() - started) / 1000, failures, firstFailure);
}

interface Customer {
  token: string;
  code: string;
}

async function checkOut(catalogue: Catalogue, customers: Customer[], seconds: number): Promise<Stats> {
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    customers.map(async ({ token, code }) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          await buyWithGiftCard(call, token, code, pick(catalogue.items).id);
          latencies.push(performance.now() - t0);
        } catch (error) {
          failures += 1;
          firstFailure ??= (error as Error).message;
        }
      }
    }),
  );
  return stats(latencies, (performance.now() - started) / 1000, failures, firstFailure);
}

interface Measured {
  engine: string;
  build: string;
  client: Client;
  browseAlone: Stats;
  checkoutAlone: Stats;
  /** Each side alone again after the sale: the shares are against the mean of both (aloneRate). */
  browseAloneAfter: Stats;
  checkoutAloneAfter: Stats;
  /** How long the shop took to be idle after the sale, before those (settle). */
  settledSeconds: number;
  mixedBrowse: Stats;
  mixedCheckout: Stats;
  rss: { start: number; afterAlone: number; afterMixed: number };
  /** CPU over each run, in cores (1.0 = one core busy the whole time). */
  cores: { browse: Cores; checkout: Cores; mixed: Cores };
}

/** The shop's process, PostgreSQL's processes (none for PGlite) and this client. */
interface Cores {
  shop: number;
  database: number;
  client: number;
  /** Of the shop's process, its JavaScript thread: the one thread both sides' requests share. */
  thread: number;
}

/** Runs `phase` and answers its result with the cores each side kept busy meanwhile. */
async function withCores<T>(pid: number, engine: string, phase: () => Promise<T>): Promise<[T, Cores]> {
  const databasePids = () => (engine === 'PostgreSQL' ? processesNamed('postgres') : []);
  const shop = cpuTimes([pid]);
  const thread = cpuTimes([pid], { mainThread: true });
  const database = cpuTimes(databasePids());
  const client = process.cpuUsage();
  const wrkBefore = wrkCpuSeconds;
  const started = performance.now();
  const result = await phase();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(client);
  return [
    result,
    {
      shop: cpuSince(shop, [pid]) / seconds,
      database: cpuSince(database, databasePids()) / seconds,
      client: ((used.user + used.system) / 1e6 + wrkCpuSeconds - wrkBefore) / seconds,
      thread: cpuSince(thread, [pid], { mainThread: true }) / seconds,
    },
  ];
}

/**
 * Waits until the shop and its database are idle (under 5% of a core over a second; at most 60 s) and
 * answers the seconds it took: after a sale the shop still writes its confirmation mails and vacuums
 * the sale's dead rows, work that a side measured "alone" would otherwise pay for.
 */
async function settle(pid: number, engine: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 60; i += 1) {
    const [, cores] = await withCores(pid, engine, () => delay(1000));
    if (cores.shop + cores.database < 0.05) break;
  }
  return (performance.now() - started) / 1000;
}

const coresText = (c: Cores) =>
  `${c.shop.toFixed(2)}${c.database > 0 ? ` + ${c.database.toFixed(2)}` : ''} + ${c.client.toFixed(2)}`;

async function measure(
  engine: string,
  build: Build,
  client: Client,
  env: Record<string, string>,
): Promise<Measured> {
  await prepare(build, env);
  const shop = startShop(build, env);
  try {
    await waitFor(`${base}/api/health`);
    const all = (await (await fetch(`${base}/api/products`)).json()) as {
      _id: string;
      productCategory: string;
      productName: string;
    }[];
    const catalogue: Catalogue = {
      categories: [...new Set(all.map((p) => p.productCategory))],
      items: all.map((p) => ({
        id: p._id,
        category: p.productCategory,
        // A word of the name, as a shopper searches for it.
        word: pick(p.productName.split(/\W+/).filter((w) => w.length >= 3)) ?? p.productName,
      })),
    };
    const admin = await call<{ token: string }>('POST', '/api/users/login', null, ADMIN);
    const tokens = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const { token } = await call<{ token: string }>('POST', '/api/users/login', null, {
          email: `sale-${i}@pixelvault.local`,
          password: PASSWORD,
        });
        return token;
      }),
    );
    /**
     * Each customer with a new gift card for one run, of the largest balance topped up once by as much
     * ($200,000, once: a build before issue 28 refused a second top-up): none runs dry in it.
     */
    let cards = 0;
    const funded = () =>
      Promise.all(
        tokens.map(async (token, i) => {
          const code = `SALE-${i}-${(cards += 1)}-${Date.now()}`;
          const card = await call<{ _id: string }>('POST', '/api/giftcards/admin/create', admin.token, {
            code,
            balance: 100_000,
          });
          await call('PUT', `/api/giftcards/admin/${card._id}/add-balance`, admin.token, { amount: 100_000 });
          return { token, code };
        }),
      );
    const pid = shop.pid!;
    const start = rssMb(pid);
    const paths = browsePaths(catalogue);
    await browse(paths, WARM_SECONDS, client);
    const [browseAlone, browseCores] = await withCores(pid, engine, () =>
      browse(paths, ALONE_SECONDS, client),
    );
    await checkOut(catalogue, await funded(), WARM_SECONDS);
    const alone = await funded();
    const [checkoutAlone, checkoutCores] = await withCores(pid, engine, () =>
      checkOut(catalogue, alone, ALONE_SECONDS),
    );
    const afterAlone = rssMb(pid);
    const together = await funded();
    const [[mixedBrowse, mixedCheckout], mixedCores] = await withCores(pid, engine, () =>
      Promise.all([browse(paths, MIXED_SECONDS, client), checkOut(catalogue, together, MIXED_SECONDS)]),
    );
    const afterMixed = rssMb(pid);
    // Alone again, in the same order, each on a shop at rest (the sale's mails written, its rows
    // vacuumed; browsing measured right after a checkout run would pay for that run's mails): a drift
    // of the machine's speed during the run then weighs on both terms of each share alike.
    const settledSeconds = await settle(pid, engine);
    const browseAloneAfter = await browse(paths, ALONE_SECONDS, client);
    const checkoutAloneAfter = await checkOut(catalogue, await funded(), ALONE_SECONDS);
    return {
      engine,
      build: build.label,
      client,
      browseAlone,
      checkoutAlone,
      browseAloneAfter,
      checkoutAloneAfter,
      settledSeconds,
      mixedBrowse,
      mixedCheckout,
      rss: { start, afterAlone, afterMixed },
      cores: { browse: browseCores, checkout: checkoutCores, mixed: mixedCores },
    };
  } finally {
    await stopChild(shop);
  }
}

/** A side's rate alone: the mean of its runs before and after the sale. */
const aloneRate = (before: Stats, after: Stats) => (before.perSecond + after.perSecond) / 2;
const share = (part: Stats, before: Stats, after: Stats) => {
  const whole = aloneRate(before, after);
  return whole > 0 ? part.perSecond / whole : 0;
};
const browseShare = (m: Measured) => share(m.mixedBrowse, m.browseAlone, m.browseAloneAfter);
const checkoutShare = (m: Measured) => share(m.mixedCheckout, m.checkoutAlone, m.checkoutAloneAfter);
const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number) => x.toFixed(0);

const total = (c: Cores) => c.shop + c.database + c.client;

/**
 * The machine's budget (issue 28): the cores the two targets need at each side's cost alone (half of
 * each side's cores alone); the cores the sale's shares would take at those costs, and what they took.
 * Their ratio is what mixing the two adds to each unit of work (wake-ups, context switches, answers
 * patched with new stock), beside what two cores can give.
 */
function budget(m: Measured): string {
  const browse = total(m.cores.browse);
  const checkout = total(m.cores.checkout);
  const needed = (browse + checkout) / 2;
  // Each side's cost per unit is its cores over its rate in the run before the sale, where its cores
  // were measured (the shares' mean of two runs alone is no cost of either).
  const atCost = (part: Stats, alone: Stats, cores: number) =>
    alone.perSecond > 0 ? (part.perSecond / alone.perSecond) * cores : 0;
  const atAloneCosts =
    atCost(m.mixedBrowse, m.browseAlone, browse) + atCost(m.mixedCheckout, m.checkoutAlone, checkout);
  const used = total(m.cores.mixed);
  const ratio = atAloneCosts > 0 ? `×${(used / atAloneCosts).toFixed(2)}` : 'n/a';
  return `${needed.toFixed(2)} / ${atAloneCosts.toFixed(2)} → ${used.toFixed(2)} (${ratio})`;
}

/**
 * The shop's JavaScript thread (issue 28): busy browsing alone / checking out alone / in the sale, and
 * what half of each side alone takes of it at its cost alone. Both sides' requests run on this one
 * thread, so where that half reaches a whole thread, the two targets leave nothing for what mixing
 * them adds.
 */
function threadText(m: Measured): string {
  const { browse, checkout, mixed } = m.cores;
  const half = (browse.thread + checkout.thread) / 2;
  return `${browse.thread.toFixed(2)} / ${checkout.thread.toFixed(2)} / ${mixed.thread.toFixed(2)} → ${half.toFixed(2)}`;
}

/** Every run of a measure: each side alone (before and after) and together. */
const sides = (m: Measured): Stats[] => [
  m.browseAlone,
  m.checkoutAlone,
  m.mixedBrowse,
  m.mixedCheckout,
  m.browseAloneAfter,
  m.checkoutAloneAfter,
];

function meets(m: Measured): boolean {
  return (
    browseShare(m) >= TARGETS.browsingShare &&
    checkoutShare(m) >= TARGETS.checkoutShare &&
    m.mixedBrowse.p99 <= TARGETS.browsingP99Ms
  );
}

async function main() {
  const list = builds();
  const results: Measured[] = [];
  const engines: {
    name: string;
    env: (dir: string) => Record<string, string>;
    fresh: () => Promise<boolean>;
  }[] = [
    { name: 'PGlite', env: (dir) => ({ DATA_DIR: dir }), fresh: async () => true },
    {
      name: 'PostgreSQL',
      env: (dir) => ({ DATA_DIR: dir, DATABASE_URL: pgUrl }),
      fresh: () => freshPostgresDatabase(pgUrl),
    },
  ];
  const only = process.env.BENCH_MIXED_ENGINES?.split(',');
  for (const engine of engines.filter((e) => !only || only.includes(e.name))) {
    for (const [build, client] of list.flatMap((b) => CLIENTS.map((c) => [b, c] as const))) {
      if (!(await engine.fresh())) {
        console.error(`PostgreSQL is not reachable at ${pgUrl}: the sale was measured on PGlite only.`);
        break;
      }
      const dir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-mixed-'));
      try {
        results.push(await measure(engine.name, build, client, engine.env(dir)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  const row = (m: Measured) =>
    `| ${m.engine} | ${m.build} | ${m.client} | ${Math.round(m.browseAlone.perSecond)} / ${Math.round(m.browseAloneAfter.perSecond)} (p99 ${ms(m.browseAlone.p99)} / ${ms(m.browseAloneAfter.p99)}) | ${m.checkoutAlone.perSecond.toFixed(1)} / ${m.checkoutAloneAfter.perSecond.toFixed(1)} (p50 ${ms(m.checkoutAlone.p50)} / ${ms(m.checkoutAloneAfter.p50)}) | ${m.settledSeconds.toFixed(0)} | ${Math.round(m.mixedBrowse.perSecond)} = ${pct(browseShare(m))} | ${ms(m.mixedBrowse.p50)} / ${ms(m.mixedBrowse.p99)} | ${m.mixedCheckout.perSecond.toFixed(1)} = ${pct(checkoutShare(m))} | ${ms(m.mixedCheckout.p50)} / ${ms(m.mixedCheckout.p99)} | ${sides(m).reduce((n, s) => n + s.failures, 0)} | ${m.rss.start} → ${m.rss.afterAlone} → ${m.rss.afterMixed} | ${coresText(m.cores.browse)} / ${coresText(m.cores.checkout)} / ${coresText(m.cores.mixed)} | ${budget(m)} | ${threadText(m)} | ${meets(m) ? 'met' : 'missed'} |`;
  const failures = results.flatMap((m) =>
    sides(m)
      .filter((s) => s.firstFailure)
      .map((s) => `- ${m.engine}, ${m.build}, ${m.client}: ${s.failures} failed, first: ${s.firstFailure}`),
  );
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}. The built shop as \`npm start\` starts it (default settings, logging on, the demo catalogue of ${results.length ? 'the seed' : '-'}), every product's stock raised so nothing sells out. Browsing: ${BROWSERS} connections (the client named in the table: wrk on one thread, or undici in this process; closed loop, \`Accept-Encoding: gzip, deflate, br\`), each request one of six at random: a category's page of 12 (the web app's call), a search in a category, the whole list, a product's answer, a category page and a product page rendered on the server. Checkout: ${CUSTOMERS} customers, each placing a 1-item order of a random product and paying it with a gift card (2 requests). Alone: ${ALONE_SECONDS} s each after ${WARM_SECONDS} s of warm-up, and again after the sale, once the shop is idle (under 5% of a core over a second): each share is against the mean of its side's two runs alone, so that a drift of the machine's speed weighs on both of its terms; together: ${MIXED_SECONDS} s. Targets: browsing keeps ≥ ${pct(TARGETS.browsingShare)} of its rate alone with p99 ≤ ${TARGETS.browsingP99Ms} ms; checkout keeps ≥ ${pct(TARGETS.checkoutShare)} of its paid orders/s alone.`,
    '',
    "| engine | build | browsing client | browsing alone req/s: before / after the sale | checkout alone orders/s: before / after | s the shop took to be idle after the sale | browsing during checkout req/s | its p50 / p99 ms | checkout during browsing orders/s | its p50 / p99 ms | failures | shop RSS MB: start → after alone → after together | cores busy, shop + database + client: browsing / checkout / together | cores: the targets need at the costs alone / the shares in the sale at those costs → taken (what mixing adds) | the shop's JavaScript thread, cores busy: browsing / checkout / together → half of each alone | targets |",
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map(row),
    ...(failures.length ? ['', 'Failures:', ...failures] : []),
  ].join('\n');
  console.log('\n' + report + '\n');
  writeSection('mixed', 'A sale: browsing while customers check out (issue 28)', report);
  // Judged: the last build, with the last client named (the one the report's targets are about).
  const current = results.filter((m) => m.build === list.at(-1)!.label && m.client === CLIENTS.at(-1));
  if (results.some((m) => sides(m).some((s) => s.failures > 0)) || current.some((m) => !meets(m))) {
    console.error('A target was missed or a request failed (see above).');
    process.exitCode = 1;
  }
}

await main();

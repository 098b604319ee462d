// Checkout benchmark (issue 3): orders placed and paid with gift cards per second at 20 concurrent
// customers, against the built server (apps/server/dist/main.js) at default settings with LOG_LEVEL=warn beside,
// on PGlite and on PostgreSQL.
// Each customer loops: POST /api/orders (1 item) -> POST /api/giftcards/use for the whole total, which
// settles the order as paid (stock reserved, ledger row, confirmation mail queued) in one transaction.
// The shop starts on an empty database as `npm start` does (it seeds the demo catalogue) and is prepared
// through its API only, so BENCH_BUILDS="before=/path/to/other/checkout,after=." measures builds of any
// schema side by side in one run (each on a database of its own).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
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

const CUSTOMERS = 20;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const port = 3311;
const base = `http://127.0.0.1:${port}`;
const call = apiClient(base);
const ADMIN = { email: 'bench-admin@pixelvault.local', password: 'bench-admin-password' };
const PASSWORD = 'bench-customer-password';
const pgUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench';

interface EngineResult {
  engine: string;
  orders: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  firstFailure?: string;
  /** CPU seconds used during the run; database: PostgreSQL's processes (PGlite runs in the server). */
  cpu?: { server: number; database?: number; client: number };
}

/**
 * Prepares a shop that has just started on an empty database (it seeded the demo catalogue), through
 * its API only, so any build can be measured beside another (BENCH_BUILDS) whatever its schema: 20
 * customers registered, and the first Retro Games product by name given stock that cannot run out
 * during the run. Answers that product's id.
 */
async function prepareShop(adminToken: string): Promise<string> {
  for (let i = 0; i < CUSTOMERS; i += 1) {
    await call('POST', '/api/users', null, {
      name: `Bench Customer ${i}`,
      email: `bench-${i}@pixelvault.local`,
      password: PASSWORD,
    });
  }
  const all = await call<{ _id: string; productName: string; productCategory: string }[]>(
    'GET',
    '/api/products',
    null,
  );
  const product = all
    .filter((p) => p.productCategory === 'retro-games')
    .sort((a, b) => a.productName.localeCompare(b.productName))[0];
  if (!product) throw new Error('The seeded catalogue has no Retro Games product');
  await call('PUT', `/api/products/update/${product._id}`, adminToken, { stockQuantity: 1_000_000 });
  return product._id;
}

/**
 * The shop as `npm start` starts it (default logging), or with LOG_LEVEL=warn reported beside it; or
 * (BENCH_DISCOUNT=1, issue 32) with a 10% discount code on every order, beside the same without.
 */
type Setting = 'default settings' | 'LOG_LEVEL=warn' | 'default settings, a code on every order';
const WITH_CODE: Setting = 'default settings, a code on every order';
/** The code every order carries in the WITH_CODE setting: 10% off everything, no limits. */
const BENCH_CODE = 'BENCH10';

/**
 * One measured run of `build` on the database in `env`. The first run on a database prepares it
 * (`shop.productId` is then set for the next run on the same data).
 */
async function runEngine(
  engineName: string,
  env: Record<string, string>,
  shop: { build: Build; label: string; productId?: string },
  setting: Setting,
): Promise<EngineResult> {
  const engine = `${engineName}, ${shop.label}${setting}`;
  const server = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), shop.build.main],
    {
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...(setting === 'LOG_LEVEL=warn' ? { LOG_LEVEL: 'warn' } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    await waitFor(`${base}/api/health`);
    // Shoppers see pages before they pay: the server has rendered one, as in a shop that is open.
    await (await fetch(`${base}/`)).text();
    const admin = await call<{ token: string }>('POST', '/api/users/login', null, ADMIN);
    shop.productId ??= await prepareShop(admin.token);
    const productId = shop.productId;
    const discountCode = setting === WITH_CODE ? BENCH_CODE : undefined;
    if (discountCode) {
      // Created once per database; a second WITH_CODE run on it finds it there (409).
      await call('POST', '/api/promotions/admin', admin.token, {
        code: discountCode,
        kind: 'percentage',
        value: 10,
      }).catch((error: Error) => {
        if (!/409/.test(error.message)) throw error;
      });
    }
    const customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const { token } = await call<{ token: string }>('POST', '/api/users/login', null, {
          email: `bench-${i}@pixelvault.local`,
          password: PASSWORD,
        });
        const code = `BENCH-${engineName}-${i}-${Date.now()}`;
        await call('POST', '/api/giftcards/admin/create', admin.token, { code, balance: 100_000 });
        return { token, code };
      }),
    );

    const latencies: number[] = [];
    let failures = 0;
    let firstFailure: string | undefined;
    let lastOrder: { token: string; id: string } | undefined;
    // Where the CPU goes (Linux /proc): the shop's process, PostgreSQL's processes (every `postgres`
    // on the machine: run on a quiet one), and this client, which shares the machine with both.
    const databasePids = () => (env.DATABASE_URL ? processesNamed('postgres') : []);
    const serverCpu = cpuTimes([server.pid!]);
    const databaseCpu = cpuTimes(databasePids());
    const clientCpu = process.cpuUsage();
    const until = Date.now() + seconds * 1000;
    const started = Date.now();
    await Promise.all(
      customers.map(async ({ token, code }) => {
        while (Date.now() < until) {
          const t0 = performance.now();
          try {
            const id = await buyWithGiftCard(call, token, code, productId, discountCode);
            latencies.push(performance.now() - t0);
            lastOrder = { token, id };
          } catch (error) {
            failures++;
            firstFailure ??= (error as Error).message;
          }
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const clientUsed = process.cpuUsage(clientCpu);
    const cpu =
      serverCpu.size > 0
        ? {
            server: cpuSince(serverCpu, [server.pid!]),
            ...(env.DATABASE_URL ? { database: cpuSince(databaseCpu, databasePids()) } : {}),
            client: (clientUsed.user + clientUsed.system) / 1e6,
          }
        : undefined;
    if (lastOrder) {
      const check = await call<{ isPaid: boolean }>('GET', `/api/orders/${lastOrder.id}`, lastOrder.token);
      if (!check.isPaid) throw new Error('The last benchmark order is not paid');
    }
    latencies.sort((a, b) => a - b);
    return {
      engine,
      orders: latencies.length,
      perSecond: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      failures,
      ...(firstFailure ? { firstFailure } : {}),
      ...(cpu ? { cpu } : {}),
    };
  } finally {
    await stopChild(server);
  }
}

const ms = (cpuSeconds: number, orders: number) => ((1000 * cpuSeconds) / orders).toFixed(1);

function cpuPerOrder({ cpu, orders }: EngineResult): string {
  if (!cpu || orders === 0) return 'n/a';
  return `${ms(cpu.server, orders)} / ${cpu.database === undefined ? 'in server' : ms(cpu.database, orders)} / ${ms(cpu.client, orders)}`;
}

function coresBusy({ cpu, orders, perSecond }: EngineResult): string {
  if (!cpu || orders === 0) return 'n/a';
  const elapsed = orders / perSecond;
  return ((cpu.server + (cpu.database ?? 0) + cpu.client) / elapsed).toFixed(2);
}

/**
 * Default first; the quieter setting runs second on the same data (a few hundred more orders in it).
 * BENCH_DISCOUNT=1: without and with a code, in the order A B B A, so the data growing over the runs
 * weighs on both alike.
 */
const SETTINGS: Setting[] =
  process.env.BENCH_DISCOUNT === '1'
    ? ['default settings', WITH_CODE, WITH_CODE, 'default settings']
    : ['default settings', 'LOG_LEVEL=warn'];

/** Per engine (and build): paid orders/s with a code on every order against without, both runs each. */
function codeCost(results: EngineResult[]): string {
  const groups = new Map<string, { without: number[]; with: number[] }>();
  for (const r of results) {
    const withCode = r.engine.endsWith(WITH_CODE);
    const key = r.engine.slice(0, r.engine.length - (withCode ? WITH_CODE : 'default settings').length);
    const group = groups.get(key) ?? { without: [], with: [] };
    (withCode ? group.with : group.without).push(r.perSecond);
    groups.set(key, group);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return [...groups]
    .map(([key, g]) => {
      const change = (mean(g.with) / mean(g.without) - 1) * 100;
      return `- ${key.replace(/, $/, '')}: ${mean(g.with).toFixed(1)} paid orders/s with a code against ${mean(g.without).toFixed(1)} without (${change >= 0 ? '+' : ''}${change.toFixed(1)}%; target: at most 10% fewer).`;
    })
    .join('\n');
}

async function main() {
  const results: EngineResult[] = [];
  const list = builds();
  const labelOf = (build: Build) => (list.length > 1 ? `${build.label}, ` : '');
  const pgReachable = await freshPostgresDatabase(pgUrl);
  if (!pgReachable) console.error(`PostgreSQL is not reachable at ${pgUrl}: only PGlite was measured.`);
  const engines = [
    { name: 'PGlite', env: (dir: string) => ({ DATA_DIR: dir }) },
    ...(pgReachable
      ? [{ name: 'PostgreSQL', env: (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: pgUrl }) }]
      : []),
  ];
  for (const engine of engines) {
    // Each build on a database of its own, one after the other (BENCH_BUILDS: side by side in one run).
    for (const build of list) {
      if (engine.name === 'PostgreSQL' && !(await freshPostgresDatabase(pgUrl))) break;
      const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-checkout-'));
      const shop = { build, label: labelOf(build) };
      try {
        for (const setting of SETTINGS) {
          results.push(await runEngine(engine.name, engine.env(dataDir), shop, setting));
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }

  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}; ${CUSTOMERS} concurrent customers for ${seconds} s, each placing a 1-item order and paying it in full with its own gift card (2 requests per order) against the built server on loopback, started as \`npm start\` starts it (default settings, logging on); ${process.env.BENCH_DISCOUNT === '1' ? 'the same with a 10% discount code on every order (BENCH_DISCOUNT=1), in the order A B B A on one database' : 'LOG_LEVEL=warn is reported beside it'}.`,
    '',
    '| engine, setting | paid orders | orders/s | p50 ms (order + pay) | p99 ms | failures | CPU ms per paid order: server / database / client | cores busy |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.orders} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.failures} | ${cpuPerOrder(r)} | ${coresBusy(r)} |`,
    ),
    '',
    `CPU per paid order is the CPU time each side used during the run (Linux /proc: the shop's process, every \`postgres\` process, this client), divided by the paid orders; PGlite runs inside the shop's process. "Cores busy" is their sum over the run's length, out of ${cpus().length}: near that, the machine, not the shop, sets the rate.`,
    ...results.filter((r) => r.firstFailure).map((r) => `\nFirst failure on ${r.engine}: ${r.firstFailure}`),
  ].join('\n');
  const discount = process.env.BENCH_DISCOUNT === '1';
  const full = discount ? `${report}\n\n${codeCost(results)}` : report;
  console.log('\n' + full + '\n');
  if (discount) {
    writeSection('checkout-discount', 'Checkout with a discount code on every order (issue 32)', full);
  } else {
    writeSection('checkout', 'Checkout: orders placed and paid with gift cards (npm run bench)', full);
  }
  if (results.some((r) => r.failures > 0 || r.orders === 0)) process.exitCode = 1;
}

await main();

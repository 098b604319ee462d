// Login flood benchmark (issue 9): how much slower a customer's own order list gets while an attacker
// sends 60 wrong logins a second. The shop runs as `npm start` runs it (built server, default settings,
// logging included) on PGlite and on PostgreSQL. Two attackers:
//  - one address, a new e-mail each time (password spraying): the per-address budget answers 429
//    before any hash is computed once it is spent;
//  - many addresses (a botnet, simulated behind TRUST_PROXY=1 with a new X-Forwarded-For client each
//    time), so no budget ever runs out and every login costs a password hash: the hash pool's bound
//    has to keep a core for everyone else.
// Target: the customer's p50 under the flood stays within 2x of idle. Writes bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, freshPostgresDatabase, percentile, stopChild, waitFor } from './lib.js';
import { writeSection } from './results.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = 3321;
const base = `http://127.0.0.1:${port}`;
const call = apiClient(base);
const FLOOD_PER_SECOND = 60;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET_RATIO = 2;
const pgUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_login';

type Attacker = 'one address' | 'many addresses';

interface Row {
  engine: string;
  attacker: Attacker;
  idleP50: number;
  floodP50: number;
  floodP99: number;
  ratio: number;
  logins: Record<number, number>;
  customerErrors: number;
}

/** The customer's loop: one request at a time, as a person clicking through their orders. */
async function customerLatencies(token: string, forSeconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + forSeconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/orders`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.ok) latencies.push(performance.now() - t0);
    else errors += 1;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { latencies: latencies.sort((a, b) => a - b), errors };
}

/** Fires wrong logins at a fixed rate (open loop: a slow answer does not slow the attacker down). */
function flood(attacker: Attacker) {
  const statuses: Record<number, number> = {};
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const timer = setInterval(() => {
    n += 1;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (attacker === 'many addresses') headers['x-forwarded-for'] = `198.18.${(n >> 8) & 255}.${n & 255}`;
    const p = fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: `victim-${n}@example.com`, password: 'Winter2026!' }),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      })
      .catch(() => {
        statuses[0] = (statuses[0] ?? 0) + 1;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / FLOOD_PER_SECOND);
  return {
    statuses,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

async function runScenario(engine: string, env: Record<string, string>, attacker: Attacker): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-login-'));
  if (env.DATABASE_URL && !(await freshPostgresDatabase(env.DATABASE_URL))) {
    throw new Error(`PostgreSQL is not reachable at ${env.DATABASE_URL}`);
  }
  const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      ...env,
      ...(attacker === 'many addresses' ? { TRUST_PROXY: '1' } : {}),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'bench-admin-password',
    },
    // Default logging, written as the shop writes it; nobody reads it here.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${base}/api/health`);
    const email = `customer-${Date.now()}@example.com`;
    const { token } = await call<{ token: string }>('POST', '/api/users', null, {
      name: 'Bench Customer',
      email,
      password: 'bench-customer-password',
    });
    // A customer with a few orders to list.
    const products = await call<{ _id: string; countInStock: number }[]>('GET', '/api/products', null);
    for (const product of products.filter((p) => p.countInStock > 0).slice(0, 2)) {
      await call('POST', '/api/orders', token, {
        orderItems: [{ product: product._id, itemQuantity: 1 }],
        shippingAddress: {
          address: '1 Bench Street',
          city: 'Sacramento',
          postalCode: '95814',
          country: 'USA',
        },
        paymentMethod: 'PayPal',
      });
    }
    await customerLatencies(token, 2); // warm-up
    const idle = await customerLatencies(token, seconds);
    const attack = flood(attacker);
    await new Promise((r) => setTimeout(r, 2000)); // let the flood reach its steady state
    const busy = await customerLatencies(token, seconds);
    await attack.stop();
    const idleP50 = percentile(idle.latencies, 50);
    const floodP50 = percentile(busy.latencies, 50);
    return {
      engine,
      attacker,
      idleP50,
      floodP50,
      floodP99: percentile(busy.latencies, 99),
      ratio: floodP50 / idleP50,
      logins: attack.statuses,
      customerErrors: idle.errors + busy.errors,
    };
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const rows: Row[] = [];
  const engines: [string, Record<string, string>][] = [['PGlite', {}]];
  if (await freshPostgresDatabase(pgUrl)) engines.push(['PostgreSQL', { DATABASE_URL: pgUrl }]);
  else console.error(`PostgreSQL is not reachable at ${pgUrl}: only PGlite was measured.`);
  for (const [engine, env] of engines) {
    for (const attacker of ['one address', 'many addresses'] as const) {
      const row = await runScenario(engine, env, attacker);
      console.log(row);
      rows.push(row);
    }
  }
  const fmt = (ms: number) => ms.toFixed(1);
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}. The built shop at default settings (logging on); one customer lists their orders (GET /api/orders, one request at a time) for ${seconds} s idle, then for ${seconds} s while ${FLOOD_PER_SECOND} wrong logins a second arrive, each naming a new e-mail. "many addresses" runs the shop with TRUST_PROXY=1 and gives every login its own X-Forwarded-For client, so no address or account budget ever runs out. Target: p50 under the flood within ${TARGET_RATIO}x of idle.`,
    '',
    '| engine | attacker | idle p50 ms | flood p50 ms | flood p99 ms | p50 ratio | login answers |',
    '|---|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.attacker} | ${fmt(r.idleP50)} | ${fmt(r.floodP50)} | ${fmt(r.floodP99)} | ${r.ratio.toFixed(2)} | ${Object.entries(
          r.logins,
        )
          .map(([status, count]) => `${count} × ${status === '0' ? 'error' : status}`)
          .join(', ')} |`,
    ),
  ].join('\n');
  console.log(`\n${report}\n`);
  writeSection(
    'login-flood',
    'Login flood: a customer beside 60 wrong logins a second (npm run bench)',
    report,
  );
  if (rows.some((r) => r.ratio > TARGET_RATIO || r.customerErrors > 0)) process.exitCode = 1;
}

await main();

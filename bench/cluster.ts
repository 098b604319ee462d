// Cluster benchmark (issue 13): the catalogue through Debian's nginx in front of one instance, then in
// front of three, on one PostgreSQL, each instance started as `npm start` starts it (default settings,
// logging on). The nginx configuration is the one `npm run test:cluster` proves (cluster/harness.ts,
// docs/deploy.md), with one worker per core. On a 2-core machine the client, nginx, three Node
// processes and PostgreSQL share two cores: the figure says what this machine allows, not what three
// machines would.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nginxConfig } from '../cluster/nginx-config.js';
import { closedLoop, freshPostgresDatabase, percentile, stopChild, waitFor } from './lib.js';
import { writeSection } from './results.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const nginxBinary = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const pgUrl =
  process.env.BENCH_CLUSTER_DATABASE_URL ??
  'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_cluster';
const PORTS = [3331, 3332, 3333];
const NGINX_PORT = 3330;
const TARGET = 2;
/** What a browser sends. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

interface Row {
  setup: string;
  route: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  failures: number;
}

async function measure(setup: string, route: string, url: string, headers: Record<string, string> = {}) {
  const loop = (secs: number) => closedLoop({ connections, seconds: secs, url: () => url, headers });
  await loop(2);
  const { latencies, non2xx, errors } = await loop(seconds);
  const row: Row = {
    setup,
    route,
    reqPerSec: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: non2xx + errors,
  };
  console.log(`${setup} ${route}: ${row.reqPerSec.toFixed(0)} req/s`);
  return row;
}

function startInstance(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function startNginx(dir: string, upstreams: string[]): Promise<ChildProcess> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const config = nginxConfig({ dir, listen: NGINX_PORT, upstreams }).replace(
    'worker_processes 1;',
    'worker_processes auto;',
  );
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child = spawn(nginxBinary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${NGINX_PORT}/api/health`, 15_000);
  return child;
}

async function stopNginx(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGQUIT');
  await exited;
}

async function main() {
  if (!existsSync(nginxBinary) || spawnSync(nginxBinary, ['-v']).status !== 0) {
    console.error(
      `nginx is not installed at ${nginxBinary} (apt-get install nginx): cluster benchmark skipped.`,
    );
    process.exitCode = 1;
    return;
  }
  if (!(await freshPostgresDatabase(pgUrl))) {
    console.error(`PostgreSQL is not reachable at ${pgUrl}: cluster benchmark skipped.`);
    process.exitCode = 1;
    return;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-cluster-'));
  // nginx's workers run as nobody when started by root: they must reach their temp directories.
  spawnSync('chmod', ['755', runDir]);
  const env = {
    DATABASE_URL: pgUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: '1',
    ADMIN_PASSWORD: 'bench-cluster-admin-password',
  };
  const instances: ChildProcess[] = [];
  const rows: Row[] = [];
  let nginx: ChildProcess | undefined;
  try {
    // The first one migrates and seeds; the others start on the ready database.
    for (const [i, port] of PORTS.entries()) {
      instances.push(startInstance(port, { ...env, DATA_DIR: join(runDir, `instance-${i + 1}`) }));
      await waitFor(`http://127.0.0.1:${port}/api/health`);
    }
    const list = (await (await fetch(`http://127.0.0.1:${PORTS[0]}/api/products`)).json()) as {
      _id: string;
    }[];
    const detail = `/api/products/${list[0]!._id}`;
    const routes: [string, string, Record<string, string>][] = [
      ['GET /api/products (every product; browser encodings)', '/api/products', BROWSER],
      ['GET /api/products/:id', detail, {}],
    ];

    for (const [route, path, headers] of routes) {
      rows.push(
        await measure('one instance, no nginx', route, `http://127.0.0.1:${PORTS[0]}${path}`, headers),
      );
    }
    for (const count of [1, 3]) {
      nginx = await startNginx(
        join(runDir, `nginx-${count}`),
        PORTS.slice(0, count).map((p) => `127.0.0.1:${p}`),
      );
      for (const [route, path, headers] of routes) {
        const setup = `nginx in front of ${count} instance${count > 1 ? 's' : ''}`;
        rows.push(await measure(setup, route, `http://127.0.0.1:${NGINX_PORT}${path}`, headers));
      }
      await stopNginx(nginx);
      nginx = undefined;
    }
  } finally {
    if (nginx) await stopNginx(nginx);
    await Promise.all(instances.map((child) => stopChild(child)));
    rmSync(runDir, { recursive: true, force: true });
  }

  const ratios = [...new Set(rows.map((r) => r.route))].map((route) => {
    const one = rows.find((r) => r.route === route && r.setup === 'nginx in front of 1 instance');
    const three = rows.find((r) => r.route === route && r.setup === 'nginx in front of 3 instances');
    const ratio = one && three ? three.reqPerSec / one.reqPerSec : 0;
    return { route, ratio };
  });
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}: ${connections} connections for ${seconds} s per row (closed loop, undici, after 2 s of warm-up), PostgreSQL, instances started as \`npm start\` starts them (default settings, logging on), nginx as \`npm run test:cluster\` runs it with \`worker_processes auto\`.`,
    '',
    '| setup | route | req/s | p50 ms | p99 ms | failures |',
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.setup} | ${r.route} | ${r.reqPerSec.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.failures} |`,
    ),
    '',
    ...ratios.map(
      ({ route, ratio }) =>
        `- ${route}: 3 instances behind nginx at ${ratio.toFixed(2)}x the rate of 1 (target at least ${TARGET}x): ${ratio >= TARGET ? 'met' : 'missed'}`,
    ),
  ].join('\n');
  console.log('\n' + report + '\n');
  writeSection('cluster', 'Three instances behind nginx (issue 13)', report);
  process.exitCode = ratios.every((r) => r.ratio >= TARGET) && rows.every((r) => r.failures === 0) ? 0 : 1;
}

await main();

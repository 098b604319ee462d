#!/usr/bin/env node
// `npm run test:cluster` (issue 13): the load-balancer proof. Three instances of the built server on a
// fresh PostgreSQL database, images in s3rver, PayPal on the loopback fake, Debian's nginx in front;
// the tests (cluster/, Vitest) start all of it, race customers across the instances and kill one.
// This script checks what is needed, builds what is missing, makes and drops the database, and
// stops whatever is left running, also after a failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkPostgres, redact } from './postgres.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_URL = 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_test';
const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_URL;
const started = Date.now();

function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// --- What the run needs --------------------------------------------------------------------------

function findNginx() {
  const candidates = process.env.NGINX_PATH
    ? [process.env.NGINX_PATH]
    : ['/usr/sbin/nginx', '/usr/bin/nginx'];
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const nginx = findNginx();
if (!nginx) {
  console.error(
    `The cluster test needs nginx (the load balancer), which is missing${process.env.NGINX_PATH ? ` at ${process.env.NGINX_PATH}` : ''}.\n` +
      'On Debian or Ubuntu install it with:  sudo apt-get install -y nginx\n' +
      "(the test runs it with a configuration of its own on a loopback port; the package's own site and\n" +
      'service are not used), or point NGINX_PATH at an nginx binary.',
  );
  process.exit(1);
}

const check = await checkPostgres(adminUrl);
if (!check.ok) {
  console.error(`Cannot connect to PostgreSQL at ${redact(adminUrl)}:
  ${check.error?.message ?? check.error}

The cluster test runs its instances on a database of its own, made on this server for the run.
On Debian/Ubuntu:

  apt-get install -y postgresql
  pg_ctlcluster 15 main start        # or: pg_ctlcluster $(ls /etc/postgresql) main start
  su postgres -c "psql -c \\"CREATE ROLE pixelvault LOGIN SUPERUSER PASSWORD 'pixelvault'\\""
  su postgres -c "createdb -O pixelvault pixelvault_test"

Or point TEST_DATABASE_URL at another server (the role needs CREATEDB):

  TEST_DATABASE_URL=postgres://user:password@host:5432/db npm run test:cluster
`);
  process.exit(1);
}
if (!check.canCreate) {
  console.error(
    `The role in ${redact(adminUrl)} may not create databases; the cluster test needs one of its own.\n` +
      '  Grant it with: ALTER ROLE <role> CREATEDB;',
  );
  process.exit(1);
}

// --- Build --------------------------------------------------------------------------------------

const run = (cmd, args) =>
  spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: process.env }).status ?? 1;

if (process.env.CLUSTER_SKIP_BUILD !== '1') {
  const serverBuilt = existsSync(path.join(root, 'apps/server/dist/main.js'));
  const webBuilt = existsSync(path.join(root, 'apps/web/dist/index.html'));
  // Nothing built yet: the whole shop, as npm start does. Otherwise the server only, incrementally
  // (under a second when it is up to date), so the instances never run stale code.
  const status =
    serverBuilt && webBuilt
      ? run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/server'])
      : run('npm', ['run', 'build']);
  if (status !== 0) process.exit(status);
}

// --- The run ------------------------------------------------------------------------------------

const database = `pixelvault_cluster_${randomBytes(4).toString('hex')}`;
const runDir = mkdtempSync(path.join(tmpdir(), 'pv-cluster-'));
const childTmp = path.join(runDir, 'tmp');
mkdirSync(childTmp);

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A process the tests started and did not stop (they crashed, or were interrupted). */
function stillOurs(pid, what) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(what);
  } catch {
    return false;
  }
}

let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  let leftovers = [];
  try {
    leftovers = readFileSync(path.join(runDir, 'pids'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map(([pid, what]) => ({ pid: Number(pid), what }))
      .filter(({ pid, what }) => stillOurs(pid, what));
  } catch {
    // No process was started.
  }
  const signal = (pid, name) => {
    try {
      process.kill(pid, name);
    } catch {
      // Gone meanwhile.
    }
  };
  for (const { pid } of leftovers) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (leftovers.some(({ pid, what }) => stillOurs(pid, what)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const { pid, what } of leftovers) if (stillOurs(pid, what)) signal(pid, 'SIGKILL');
  await adminQuery(`drop database if exists ${database} with (force)`).catch((error) =>
    console.error(`Could not drop the test database ${database}: ${error.message}`),
  );
  rmSync(runDir, { recursive: true, force: true });
}

await adminQuery(`create database ${database}`);
console.log(
  `PostgreSQL ${check.version} at ${redact(adminUrl)}: database ${database} for this run; nginx ${nginx}`,
);

const vitest = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'cluster/vitest.config.ts',
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      CLUSTER_DATABASE_URL: withDatabase(adminUrl, database),
      CLUSTER_RUN_DIR: runDir,
      NGINX_PATH: nginx,
      // s3rver's objects and every other temporary file of the run go where cleanUp finds them.
      TMPDIR: childTmp,
    },
  },
);

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    vitest.kill(signal);
    // Vitest stops its workers; whatever they started is stopped by cleanUp when it exits.
    setTimeout(() => vitest.kill('SIGKILL'), 10_000).unref();
  });
}

const code = await new Promise((resolve) => vitest.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
let figures;
try {
  figures = JSON.parse(readFileSync(path.join(runDir, 'figures.json'), 'utf8'));
} catch {
  figures = undefined;
}
await cleanUp();

const seconds = Math.round((Date.now() - started) / 1000);
if (figures) console.log(`\nWhat the cluster test observed:\n${JSON.stringify(figures, null, 2)}`);
console.log(
  `\ntest:cluster ${interrupted ? 'interrupted' : code === 0 ? 'passed' : 'FAILED'} in ${seconds} s (3 instances, nginx, PostgreSQL ${check.version})`,
);
process.exit(interrupted ? 130 : code);

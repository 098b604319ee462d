import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type FakePayPal, fakePayPalEnv, startFakePayPal } from '../apps/server/src/test/fake-paypal.js';
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from '../apps/server/src/test/s3rver.js';
import { type ServerProcess, freePort, startServer } from '../apps/server/src/test/server-process.js';
import { nginxConfig } from './nginx-config.js';

/**
 * Issue 13's load-balancer proof: three instances of the built server (`apps/server/dist/main.js`)
 * on one PostgreSQL database, one JWT secret, images in s3rver, PayPal on the fake, and Debian's nginx
 * in front of them on loopback. `scripts/test-cluster.mjs` makes the database and runs this.
 */

export const INSTANCES = 3;
export const ADMIN_EMAIL = 'admin@cluster.test';
export const ADMIN_PASSWORD = 'cluster-admin-password';
export const CUSTOMER_PASSWORD = 'cluster customer password';
/** The reconciler runs this often on every instance (RECONCILE_INTERVAL_SECONDS), so a kill settles fast. */
export const RECONCILE_SECONDS = 2;

export interface Instance {
  /** 1, 2, 3 */
  number: number;
  url: string;
  /** `127.0.0.1:<port>`, as nginx names it in X-Upstream. */
  address: string;
  dataDir: string;
  server: ServerProcess;
  alive: boolean;
}

export interface Cluster {
  instances: Instance[];
  /** nginx, the load balancer. */
  url: string;
  paypal: FakePayPal;
  s3: LocalS3;
  /** The run's database, for checks straight at the rows. */
  db: pg.Pool;
  runDir: string;
  /** SIGKILL, as a power cut: no shutdown handler runs. */
  kill(instance: Instance): Promise<void>;
  nginxErrors(): string;
  stop(options?: { printLogs?: boolean }): Promise<void>;
}

/** nginx as a child process; resolves once it answers through to an instance. */
async function startNginx(binary: string, dir: string, port: number, upstreams: string[]) {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig({ dir, listen: port, upstreams }));
  const child: ChildProcess = spawn(
    binary,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (gone) throw new Error(`nginx exited at start:\n${stderr}${readTail(path.join(dir, 'error.log'))}`);
    const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer within 15 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid ?? -1,
    async stop() {
      // SIGQUIT: graceful (workers finish, then exit); SIGKILL if that takes too long.
      if (!gone) child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function readTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function startCluster(): Promise<Cluster> {
  const databaseUrl = process.env.CLUSTER_DATABASE_URL;
  if (!databaseUrl) {
    throw new Error('CLUSTER_DATABASE_URL is not set: run the cluster tests with `npm run test:cluster`');
  }
  const nginxBinary = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
  const runDir = process.env.CLUSTER_RUN_DIR ?? mkdtempSync(path.join(tmpdir(), 'pv-cluster-'));
  // nginx's workers run as nobody when started by root: they must reach their temp directories.
  chmodSync(runDir, 0o755);
  /** The script stops whatever is listed here if the tests could not (a crash, Ctrl-C). */
  const remember = (pid: number, what: string) =>
    appendFileSync(path.join(runDir, 'pids'), `${pid}\t${what}\n`);

  const s3 = await startS3rver('pixel-vault-cluster');
  const paypal = await startFakePayPal();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const started: ServerProcess[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;

  const stopAll = async () => {
    await nginx?.stop();
    await Promise.all(started.map((server) => server.stop(10_000)));
    await db.end().catch(() => {});
    await paypal.close();
    await s3.close();
  };

  try {
    const env = {
      DATABASE_URL: databaseUrl,
      // One secret for all: a token from any instance is good on every other.
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      STORAGE_URL: s3.storageUrl('shop'),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      // One nginx in front: the address it wrote in X-Forwarded-For is the client's.
      TRUST_PROXY: '1',
      ...fakePayPalEnv(paypal),
      RECONCILE_INTERVAL_SECONDS: String(RECONCILE_SECONDS),
      LOG_LEVEL: 'warn',
    };
    // All three at once on the empty database: migrations and the seed run under advisory locks.
    const instances = await Promise.all(
      Array.from({ length: INSTANCES }, async (_, i): Promise<Instance> => {
        const dataDir = path.join(runDir, `instance-${i + 1}`);
        const server = await startServer({ env: { ...env, DATA_DIR: dataDir }, healthTimeoutMs: 120_000 });
        started.push(server);
        remember(server.pid, 'main.js');
        return {
          number: i + 1,
          url: server.url,
          address: server.url.replace('http://', ''),
          dataDir,
          server,
          alive: true,
        };
      }),
    );
    const nginxDir = path.join(runDir, 'nginx');
    nginx = await startNginx(
      nginxBinary,
      nginxDir,
      await freePort(),
      instances.map((i) => i.address),
    );
    remember(nginx.pid, 'nginx');

    return {
      instances,
      url: nginx.url,
      paypal,
      s3,
      db,
      runDir,
      async kill(instance) {
        instance.alive = false;
        await instance.server.crash();
      },
      nginxErrors: () => readTail(path.join(nginxDir, 'error.log')),
      async stop({ printLogs = false } = {}) {
        if (printLogs) {
          for (const instance of instances) {
            const lines = instance.server.logs.slice(-40).join('\n');
            console.error(`--- instance ${instance.number} (${instance.url}), last log lines ---\n${lines}`);
          }
          console.error(`--- nginx error.log ---\n${readTail(path.join(nginxDir, 'error.log'))}`);
        }
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll().catch(() => {});
    throw error;
  }
}

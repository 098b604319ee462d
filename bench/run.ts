// npm run bench: loads the built shop's catalogue API with autocannon on loopback beside a bare node:http
// server answering the same bytes, in the same run; prints req/s, p50/p99 and the ratio, and the initial JS
// of `/` in gzipped bytes. Writes the figures to bench/RESULTS.md.
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeSection } from './results.js';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const shopPort = 3301;
const barePort = 3302;

interface Result {
  name: string;
  path: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Timed out waiting for ${url}`);
}

async function load(name: string, url: string, path: string): Promise<Result> {
  // Warm up (JIT, caches) before the measured run.
  await autocannon({ url: url + path, connections, duration: 2 });
  const r = await autocannon({ url: url + path, connections, duration });
  return {
    name,
    path,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function initialJsGzipBytes(base: string): Promise<{ files: string[]; gzipBytes: number }> {
  const html = await (await fetch(base + '/')).text();
  const files = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!);
  let gzipBytes = 0;
  for (const file of new Set(files)) {
    const body = Buffer.from(await (await fetch(base + file)).arrayBuffer());
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return { files: [...new Set(files)], gzipBytes };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-'));
  const shop = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: String(shopPort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let bare: ChildProcess | undefined;
  try {
    const shopUrl = `http://127.0.0.1:${shopPort}`;
    await waitFor(`${shopUrl}/api/health`);

    const listPath = '/api/products';
    const list = await (await fetch(shopUrl + listPath)).text();
    const firstId = (JSON.parse(list) as { products: { _id: string }[] }).products[0]?._id;
    if (!firstId) throw new Error('The seeded catalogue is empty');
    const detailPath = `/api/products/${firstId}`;
    const detail = await (await fetch(shopUrl + detailPath)).text();

    const routesFile = join(dataDir, 'bare-routes.json');
    writeFileSync(routesFile, JSON.stringify({ [listPath]: list, [detailPath]: detail }));
    bare = fork(join(root, 'bench/bare-server.ts'), [routesFile, String(barePort)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve) => bare!.once('message', () => resolve()));
    const bareUrl = `http://127.0.0.1:${barePort}`;

    const results: Result[] = [];
    for (const path of [listPath, detailPath]) {
      results.push(await load('bare node:http', bareUrl, path));
      results.push(await load('Pixel Vault', shopUrl, path));
    }
    const js = await initialJsGzipBytes(shopUrl);

    const rows = results.map(
      (r) =>
        `| ${r.path === listPath ? 'GET /api/products' : 'GET /api/products/:id'} | ${r.name} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`,
    );
    const ratio = (path: string) => {
      const shopR = results.find((r) => r.path === path && r.name === 'Pixel Vault')!;
      const bareR = results.find((r) => r.path === path && r.name !== 'Pixel Vault')!;
      return shopR.reqPerSec / bareR.reqPerSec;
    };
    const listRatio = ratio(listPath);
    const detailRatio = ratio(detailPath);
    const report = [
      `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; autocannon ${connections} connections, ${duration} s per run after a 2 s warm-up; both servers in their own process on loopback, PGlite database.`,
      '',
      '| route | server | req/s | p50 ms | p99 ms | errors |',
      '|---|---|---:|---:|---:|---:|',
      ...rows,
      '',
      `Catalogue list: ${(listRatio * 100).toFixed(0)}% of the bare server's req/s (target at least 50%). Detail: ${(detailRatio * 100).toFixed(0)}%.`,
      `Response sizes: list ${Buffer.byteLength(list)} bytes, detail ${Buffer.byteLength(detail)} bytes.`,
      `Initial JS of / : ${js.gzipBytes} bytes gzipped (${(js.gzipBytes / 1024).toFixed(1)} kB; target at most 110 kB) in ${js.files.length} files: ${js.files.join(', ')}`,
    ].join('\n');
    console.log('\n' + report + '\n');

    writeSection('catalogue', 'Catalogue API and initial JS (npm run bench)', report);

    const failed =
      results.some((r) => r.errors + r.non2xx > 0) || listRatio < 0.5 || js.gzipBytes > 110 * 1024;
    if (failed) {
      console.error('A target was missed (see above).');
      process.exitCode = 1;
    }
  } finally {
    if (bare) await stop(bare);
    await stop(shop);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

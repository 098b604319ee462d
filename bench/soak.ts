// Memory over pages rendered from scratch (issue 28): the built shop, started as `npm start` starts it
// (the demo catalogue, default settings) on PGlite and on PostgreSQL, is asked for 5,000 pages of
// distinct URLs a visitor can make up (searches, pages of a category, unknown products), 8 at a time.
// Every 1,000 renders the shop's heap after two full collections and its RSS are read: the shop runs
// with --expose-gc and bench/heap-probe.mjs, which answers SIGUSR2 with them on stderr and does
// nothing else. Target: the heap grows by less than 5 MB from the 1,000th render to the 5,000th.
//
// BENCH_BUILDS="before=/path/to/other/checkout,after=." measures several builds side by side.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Build, builds, freshPostgresDatabase, stopChild, waitFor } from './lib.js';
import { writeSection } from './results.js';

const here = dirname(fileURLToPath(import.meta.url));
const RENDERS = Number(process.env.BENCH_SOAK_RENDERS ?? 5000);
const EVERY = 1000;
const CONCURRENCY = 8;
const port = 3331;
const base = `http://127.0.0.1:${port}`;
const pgUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_soak';
const MB = 1024 * 1024;
const TARGET_GROWTH = 5 * MB;

interface Reading {
  renders: number;
  heapUsed: number;
  rss: number;
}

function url(i: number): string {
  if (i % 3 === 0) return `/shop/consoles?q=soak-${i}`;
  if (i % 3 === 1) return `/shop/retro-games?page=${i}`;
  return `/shop/puzzles/product/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

async function soak(build: Build, env: Record<string, string>): Promise<Reading[]> {
  const shop = spawn(
    process.execPath,
    ['--expose-gc', '--import', pathToFileURL(join(here, 'heap-probe.mjs')).href, build.main],
    {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  shop.stdout?.resume();
  const probes: Omit<Reading, 'renders'>[] = [];
  let stderr = '';
  shop.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.startsWith('pv-heap ')) probes.push(JSON.parse(line.slice(8)) as Omit<Reading, 'renders'>);
      else if (line.trim()) stderr += `${line}\n`;
    }
  });
  async function read(renders: number): Promise<Reading> {
    const before = probes.length;
    shop.kill('SIGUSR2');
    const until = Date.now() + 30_000;
    while (probes.length === before) {
      if (Date.now() > until) throw new Error(`the shop did not answer the heap probe: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return { renders, ...probes.at(-1)! };
  }
  try {
    await waitFor(`${base}/api/health`);
    const readings = [await read(0)];
    let next = 1;
    for (let mark = EVERY; mark <= RENDERS; mark += EVERY) {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next <= mark) {
            const i = next++;
            const res = await fetch(base + url(i));
            const html = await res.text();
            if (!html.includes('id="pv-state"')) throw new Error(`${url(i)}: not rendered (${res.status})`);
          }
        }),
      );
      readings.push(await read(mark));
    }
    return readings;
  } finally {
    await stopChild(shop);
  }
}

async function main() {
  const rows: { engine: string; build: string; readings: Reading[] }[] = [];
  for (const engine of ['PGlite', 'PostgreSQL'] as const) {
    for (const build of builds()) {
      if (engine === 'PostgreSQL' && !(await freshPostgresDatabase(pgUrl))) {
        console.error(`PostgreSQL is not reachable at ${pgUrl}: the soak ran on PGlite only.`);
        break;
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-soak-'));
      try {
        const env: Record<string, string> =
          engine === 'PGlite' ? { DATA_DIR: dataDir } : { DATA_DIR: dataDir, DATABASE_URL: pgUrl };
        rows.push({ engine, build: build.label, readings: await soak(build, env) });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  const growth = (readings: Reading[]) =>
    readings.at(-1)!.heapUsed - (readings.find((r) => r.renders === EVERY) ?? readings[0]!).heapUsed;
  const mb = (bytes: number) => (bytes / MB).toFixed(1);
  const marks = rows[0]?.readings.map((r) => r.renders) ?? [];
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}. The built shop as \`npm start\` starts it (the demo catalogue, default settings), plus --expose-gc and bench/heap-probe.mjs; ${RENDERS} pages of distinct URLs (a search, a page of a category, an unknown product, in turn), ${CONCURRENCY} at a time. Heap after two full collections, and RSS, in MB at each mark. Target: the heap grows by less than ${mb(TARGET_GROWTH)} MB from the ${EVERY}th render to the ${RENDERS}th.`,
    '',
    `| engine | build | ${marks.map((m) => `heap / RSS at ${m}`).join(' | ')} | heap growth ${EVERY} → ${RENDERS} | target |`,
    `|---|---|${marks.map(() => '---:').join('|')}|---:|---|`,
    ...rows.map(
      ({ engine, build, readings }) =>
        `| ${engine} | ${build} | ${readings.map((r) => `${mb(r.heapUsed)} / ${mb(r.rss)}`).join(' | ')} | ${mb(growth(readings))} MB | ${growth(readings) < TARGET_GROWTH ? 'met' : 'missed'} |`,
    ),
  ].join('\n');
  console.log('\n' + report + '\n');
  writeSection('soak', 'Memory over 5,000 pages rendered from scratch (issue 28)', report);
  const current = rows.filter((r) => r.build === builds().at(-1)!.label);
  if (current.some((r) => growth(r.readings) >= TARGET_GROWTH)) {
    console.error('A target was missed (see above).');
    process.exitCode = 1;
  }
}

await main();

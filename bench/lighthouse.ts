// npm run bench: Lighthouse (mobile preset: the default config, formFactor mobile, simulated throttling) on
// the built shop's home, a category and a product page; each page 3 times, the median run (by performance
// score) reported. On PGlite and, when it can be reached, on PostgreSQL. Prints a table, the failing audits
// of every page under target (with the elements they name) and writes both to bench/RESULTS.md.
// Targets: performance >= 98, accessibility = best practices = SEO = 100, CLS <= 0.02, LCP <= 1.5 s.
import lighthouse, { type Result } from 'lighthouse';
import { Launcher } from 'chrome-launcher';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgresDatabase, stopChild, waitFor } from './lib.js';
import { writeSection } from './results.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shopPort = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 3311);
const shopUrl = `http://127.0.0.1:${shopPort}`;
const pgUrl =
  process.env.BENCH_DATABASE_URL ??
  'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_lighthouse';
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** A run that fails (Lighthouse runtime error) is repeated, up to this many extra runs a page. */
const RETRIES = 2;
/** When set, the median run of each page is saved there as Lighthouse JSON (for the full details). */
const jsonDir = process.env.BENCH_LIGHTHOUSE_JSON_DIR;
const CATEGORY = 'retro-games';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS = {
  performance: 98,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  cls: 0.02,
  lcpS: 1.5,
};
/** Audits whose elements are listed for every page under target, whatever their score. */
const ELEMENT_AUDITS = ['largest-contentful-paint-element', 'layout-shifts'];

type CategoryId = (typeof CATEGORIES)[number];
type Engine = 'PGlite' | 'PostgreSQL';

interface PageResult {
  engine: Engine;
  page: string;
  path: string;
  /** Every run's performance score (0-100), in run order. */
  perfRuns: (number | null)[];
  /** Runs that failed with a Lighthouse runtime error (repeated, not counted). */
  failedRuns: string[];
  /** The median run by performance score. */
  lhr: Result;
}

// --- Processes: whatever is running is stopped on every path, signals included. ---------------------------

let shop: ChildProcess | undefined;
let chrome: Launcher | undefined;
let dataDir: string | undefined;

function removeDataDir(): void {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

async function stopChrome(): Promise<void> {
  const running = chrome;
  chrome = undefined;
  if (!running) return;
  const proc = running.chromeProcess;
  if (proc && proc.exitCode === null && proc.signalCode === null) {
    const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
    // chrome-launcher kills the whole process group (renderers included).
    running.kill();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
  }
  running.destroyTmp(); // its profile directory, also when the launch failed
}

async function stopShop(): Promise<void> {
  const running = shop;
  shop = undefined;
  if (running) await stopChild(running);
}

let exiting = false;
/** Stops everything, then exits: on a signal, or an error thrown outside the awaited path. */
function cleanupAndExit(code: number): void {
  if (exiting) return;
  exiting = true;
  void Promise.allSettled([stopChrome(), stopShop()]).then(() => {
    removeDataDir();
    process.exit(code);
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping chrome and the shop`);
    cleanupAndExit(130);
  });
}
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err) => {
    console.error(err);
    cleanupAndExit(1);
  });
}
// Last resort, should the process exit another way: signals only, nothing asynchronous runs here.
process.on('exit', () => {
  shop?.kill('SIGKILL');
  chrome?.kill();
});

// --- Measuring ---------------------------------------------------------------------------------------------

function startShop(dataDir: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: String(shopPort), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    // Default logging writes a line per request: to a pipe that is drained, as a process manager would.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.resume();
  return child;
}

async function productPath(): Promise<string> {
  const res = await fetch(`${shopUrl}/api/products?category=${CATEGORY}&page=1`);
  if (!res.ok) throw new Error(`GET /api/products?category=${CATEGORY}&page=1: ${res.status}`);
  const body = (await res.json()) as { products?: { _id: string }[] };
  const id = body.products?.[0]?._id;
  if (!id) throw new Error(`No product in category ${CATEGORY}`);
  return `/shop/${CATEGORY}/product/${id}`;
}

const score = (lhr: Result, id: CategoryId): number | null => {
  const s = lhr.categories[id]?.score;
  return s == null ? null : Math.round(s * 100);
};

async function runLighthouse(url: string): Promise<Result> {
  if (!chrome) throw new Error('Chrome is not running');
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr;
}

async function measureEngine(engine: Engine, env: Record<string, string>): Promise<PageResult[]> {
  dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-lighthouse-'));
  try {
    shop = startShop(dataDir, env);
    await waitFor(`${shopUrl}/api/health`);
    const pages = [
      { page: 'home', path: '/' },
      { page: `category (${CATEGORY})`, path: `/shop/${CATEGORY}` },
      { page: 'product', path: await productPath() },
    ];
    // One unmeasured request of each page's HTML: the shop has just started (JIT, caches).
    // A page the shop cannot serve fails here, before Lighthouse spends a minute on it.
    for (const { path } of pages) {
      const res = await fetch(shopUrl + path);
      const body = await res.text();
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${trim(body, 300)}`);
    }

    chrome = new Launcher({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'error' });
    await chrome.launch();
    const results: PageResult[] = [];
    for (const { page, path } of pages) {
      const runs: Result[] = [];
      const failed: string[] = [];
      while (runs.length < RUNS && failed.length <= RETRIES) {
        const t0 = performance.now();
        const lhr = await runLighthouse(shopUrl + path);
        const perf = score(lhr, 'performance');
        const error = lhr.runtimeError?.code;
        console.error(
          `${engine} ${page} run ${runs.length + failed.length + 1}: performance ${perf ?? 'n/a'}` +
            `${error ? ` (${error}: ${trim(lhr.runtimeError?.message ?? '', 200)})` : ''}, ` +
            `${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        if (error) failed.push(error);
        else runs.push(lhr);
      }
      if (runs.length === 0) throw new Error(`Every Lighthouse run of ${path} failed: ${failed.join(', ')}`);
      // Median by performance score.
      const sorted = [...runs].sort(
        (a, b) => (score(a, 'performance') ?? -1) - (score(b, 'performance') ?? -1),
      );
      const median = sorted[Math.floor(sorted.length / 2)]!;
      if (jsonDir) {
        mkdirSync(jsonDir, { recursive: true });
        const file = join(jsonDir, `${engine}-${page.replace(/\W+/g, '-')}.json`.toLowerCase());
        writeFileSync(file, JSON.stringify(median, null, 1));
      }
      results.push({
        engine,
        page,
        path,
        perfRuns: runs.map((r) => score(r, 'performance')),
        failedRuns: failed,
        lhr: median,
      });
    }
    return results;
  } finally {
    await stopChrome();
    await stopShop();
    removeDataDir();
  }
}

// --- Reporting ---------------------------------------------------------------------------------------------

const numeric = (lhr: Result, id: string): number | undefined => lhr.audits[id]?.numericValue;
const fmt = (v: number | undefined, digits: number, scale = 1) =>
  v === undefined ? 'n/a' : (v / scale).toFixed(digits);
const trim = (s: string, n = 160) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

function missedTargets(r: PageResult): string[] {
  const missed: string[] = [];
  if (r.lhr.runtimeError) missed.push(`runtime error ${r.lhr.runtimeError.code}`);
  if (r.perfRuns.length < RUNS) missed.push(`only ${r.perfRuns.length} of ${RUNS} runs succeeded`);
  for (const id of CATEGORIES) {
    const s = score(r.lhr, id);
    if (s === null || s < TARGETS[id]) missed.push(`${id} ${s ?? 'n/a'} < ${TARGETS[id]}`);
  }
  const cls = numeric(r.lhr, 'cumulative-layout-shift');
  if (cls === undefined || cls > TARGETS.cls) missed.push(`CLS ${fmt(cls, 3)} > ${TARGETS.cls}`);
  const lcp = numeric(r.lhr, 'largest-contentful-paint');
  if (lcp === undefined || lcp / 1000 > TARGETS.lcpS)
    missed.push(`LCP ${fmt(lcp, 2, 1000)} s > ${TARGETS.lcpS} s`);
  return missed;
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null;

/** One value of a details table, as short text (nodes as selector + snippet). */
function describeValue(v: unknown, valueType?: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') {
    if (valueType === 'ms' || valueType === 'timespanMs') return `${Math.round(v)} ms`;
    if (valueType === 'bytes') return `${(v / 1024).toFixed(1)} kB`;
    return Number.isInteger(v) ? String(v) : v.toFixed(3);
  }
  if (typeof v === 'string' || typeof v === 'boolean') return trim(String(v));
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'node': {
      const parts = [
        v.selector && `\`${trim(String(v.selector), 80)}\``,
        v.snippet && `\`${trim(String(v.snippet))}\``,
      ];
      if (v.nodeLabel && v.nodeLabel !== v.snippet) parts.push(`"${trim(String(v.nodeLabel), 60)}"`);
      return parts.filter(Boolean).join(' ') || undefined;
    }
    case 'url':
    case 'code':
    case 'text':
      return trim(String(v.value));
    case 'source-location':
      return `${trim(String(v.url))}:${String(v.line)}:${String(v.column)}`;
    case 'numeric':
      return describeValue(v.value, 'numeric');
    default:
      return undefined;
  }
}

/** The longest request chain of a `criticalrequestchain` or `network-tree` detail, as paths. */
function longestChain(chains: unknown): string[] {
  const path: string[] = [];
  let level = chains;
  while (isObj(level) && Object.keys(level).length > 0) {
    const nodes = Object.values(level).filter(isObj);
    const time = (n: Loose) =>
      Number(n.navStartToEndTime ?? (isObj(n.request) ? Number(n.request.endTime) * 1000 : 0));
    const next = nodes.find((n) => n.isLongest) ?? nodes.sort((a, b) => time(b) - time(a))[0];
    if (!next) break;
    const url = String(next.url ?? (isObj(next.request) ? next.request.url : ''));
    path.push(url.replace(/^https?:\/\/[^/]+/, ''));
    level = next.children;
  }
  return path;
}

/** The items of an audit's details (tables and lists of tables), at most `limit` rows per table. */
function describeDetails(details: unknown, limit = 6): string[] {
  if (!isObj(details)) return [];
  if (details.type === 'list' && Array.isArray(details.items)) {
    return details.items.flatMap((d) => describeDetails(d, limit));
  }
  if (details.type === 'list-section') {
    const inner = describeDetails(details.value, limit);
    return details.title ? [`${trim(String(details.title), 80)}:`, ...inner.map((l) => `  ${l}`)] : inner;
  }
  if (details.type === 'checklist' && isObj(details.items)) {
    return Object.values(details.items)
      .filter(isObj)
      .map((c) => `${c.value ? 'passed' : 'FAILED'}: ${trim(String(c.label), 120)}`);
  }
  if (details.type === 'criticalrequestchain' || details.type === 'network-tree') {
    const longest = isObj(details.longestChain) ? details.longestChain : {};
    const chain = longestChain(details.chains);
    return [`longest chain ${describeValue(longest.duration, 'ms') ?? 'n/a'}: ${chain.join(' → ')}`];
  }
  if (details.type === 'node' || details.type === 'text' || details.type === 'code') {
    const text = describeValue(details);
    return text ? [text] : [];
  }
  if ((details.type !== 'table' && details.type !== 'opportunity') || !Array.isArray(details.items))
    return [];
  const headings = (Array.isArray(details.headings) ? details.headings : []).filter(isObj);
  const lines: string[] = [];
  for (const item of details.items.slice(0, limit).filter(isObj)) {
    const values = headings
      .map((h) => {
        const key = typeof h.key === 'string' ? h.key : undefined;
        const text = key ? describeValue(item[key], String(h.valueType ?? '')) : undefined;
        return text && (typeof h.label === 'string' && h.label ? `${h.label}: ${text}` : text);
      })
      .filter(Boolean);
    // Sub-items (e.g. a layout shift's root causes: unsized image, web font, injected iframe).
    if (isObj(item.subItems) && Array.isArray(item.subItems.items)) {
      const subs = item.subItems.items
        .slice(0, 4)
        .filter(isObj)
        .map((sub) =>
          headings
            .map((h) => {
              const sh = isObj(h.subItemsHeading) ? h.subItemsHeading : undefined;
              return sh && typeof sh.key === 'string'
                ? describeValue(sub[sh.key], String(sh.valueType ?? h.valueType ?? ''))
                : undefined;
            })
            .filter(Boolean)
            .join(' '),
        )
        .filter(Boolean);
      if (subs.length > 0) values.push(`causes: ${subs.join('; ')}`);
    }
    if (values.length > 0) lines.push(values.join(', '));
  }
  if (details.items.length > limit) lines.push(`… ${details.items.length - limit} more`);
  return lines;
}

/** The failing audits of every category under target, and the LCP element and layout shifts. */
function failingAudits(r: PageResult): string[] {
  const { lhr } = r;
  const out: string[] = [];
  const seen = new Set<string>();
  const auditLine = (id: string, category: string) => {
    const a = lhr.audits[id];
    if (!a) return;
    seen.add(id);
    const scoreText = a.score === null ? a.scoreDisplayMode : a.score.toFixed(2);
    out.push(
      `  - [${category}] \`${id}\` ${a.title} (score ${scoreText}${a.displayValue ? `; ${trim(a.displayValue)}` : ''})` +
        (a.explanation ? ` ${trim(a.explanation, 200)}` : '') +
        (a.errorMessage ? ` error: ${trim(a.errorMessage, 200)}` : ''),
    );
    for (const line of describeDetails(a.details)) out.push(`    - ${line}`);
  };
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    const s = score(lhr, id);
    if (!category || s === 100) continue;
    for (const ref of category.auditRefs) {
      const a = lhr.audits[ref.id];
      if (!a || seen.has(ref.id)) continue;
      const failing =
        a.scoreDisplayMode === 'error' ||
        (a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'notApplicable' &&
          a.scoreDisplayMode !== 'manual');
      if (failing) auditLine(ref.id, id);
    }
  }
  for (const id of ELEMENT_AUDITS) if (!seen.has(id)) auditLine(id, 'elements');
  return out;
}

/** What identifies the build under test: the web entry page and the server's entry, as text. */
function buildFingerprint(): string {
  const read = (file: string) => {
    try {
      return readFileSync(join(root, file), 'utf8');
    } catch {
      return 'missing';
    }
  };
  return (
    read('apps/web/dist/index.html') + read('apps/server/dist/main.js') + read('apps/server/dist/app.js')
  );
}

function chromiumVersion(): string {
  try {
    return execFileSync(chromePath, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

async function main() {
  const started = performance.now();
  try {
    accessSync(chromePath, constants.X_OK);
  } catch {
    throw new Error(`No Chromium at ${chromePath} (set CHROME_PATH)`);
  }
  const buildAtStart = buildFingerprint();
  const engines: { engine: Engine; env: Record<string, string> }[] = [{ engine: 'PGlite', env: {} }];
  let skipped = '';
  if (await freshPostgresDatabase(pgUrl)) {
    engines.push({ engine: 'PostgreSQL', env: { DATABASE_URL: pgUrl } });
  } else {
    skipped = `PostgreSQL is not reachable at ${pgUrl}: skipped, measured on PGlite only.`;
    console.error(skipped);
  }

  const results: PageResult[] = [];
  for (const { engine, env } of engines) results.push(...(await measureEngine(engine, env)));

  const buildChanged = buildFingerprint() !== buildAtStart;
  if (buildChanged) console.error('The build (apps/web/dist or apps/server/dist) changed during the run.');
  const lhVersion = (
    JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const first = results[0]!.lhr;
  const settings = first.configSettings;
  const benchmarkIndexes = results.map((r) => Math.round(r.lhr.environment.benchmarkIndex));
  const minutes = (performance.now() - started) / 60_000;

  const rows = results.map((r) => {
    const s = (id: CategoryId) => String(score(r.lhr, id) ?? 'n/a');
    return `| ${r.engine} | ${r.page} | ${s('performance')} | ${s('accessibility')} | ${s('best-practices')} | ${s('seo')} | ${fmt(numeric(r.lhr, 'largest-contentful-paint'), 2, 1000)} | ${fmt(numeric(r.lhr, 'cumulative-layout-shift'), 3)} | ${fmt(numeric(r.lhr, 'total-blocking-time'), 0)} | ${fmt(numeric(r.lhr, 'first-contentful-paint'), 2, 1000)} | ${[...r.perfRuns.map((p) => p ?? 'n/a'), ...r.failedRuns.map((e) => `failed (${e})`)].join(', ')} |`;
  });

  const failures: string[] = [];
  const warnings = new Set<string>();
  for (const r of results) {
    for (const w of r.lhr.runWarnings) warnings.add(trim(w, 300));
    const missed = missedTargets(r);
    const below100 = CATEGORIES.filter((id) => score(r.lhr, id) !== 100);
    if (missed.length === 0 && below100.length === 0) continue;
    const summary = missed.length > 0 ? missed.join('; ') : `targets met; under 100: ${below100.join(', ')}`;
    failures.push(`- **${r.engine}, ${r.page}** (\`${r.path}\`): ${summary}`);
    failures.push(...failingAudits(r));
  }

  const report = [
    `Run ${new Date().toISOString()}: Lighthouse ${lhVersion}, ${chromiumVersion()} (${CHROME_FLAGS.join(' ')}), ` +
      `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}). ` +
      `Preset: Lighthouse's default config, formFactor ${settings.formFactor}, throttling ${settings.throttlingMethod} ` +
      `(RTT ${settings.throttling.rttMs} ms, ${settings.throttling.throughputKbps} kbit/s, CPU ${settings.throttling.cpuSlowdownMultiplier}x), ` +
      `screen ${settings.screenEmulation.width}x${settings.screenEmulation.height}. Each page ${RUNS} times; the median run by performance ` +
      `score is shown (every run's performance in the last column; a run that fails with a Lighthouse error is repeated, up to ${RETRIES} times a page). Lighthouse's benchmark index of this machine: ` +
      `${Math.min(...benchmarkIndexes)}–${Math.max(...benchmarkIndexes)}. The shop is started as \`npm start\` serves it ` +
      `(default settings, a fresh data directory). Full run: ${minutes.toFixed(1)} min.`,
    '',
    '| engine | page | performance | accessibility | best practices | SEO | LCP s | CLS | TBT ms | FCP s | performance of the runs |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    `Targets on every page and engine: performance ≥ ${TARGETS.performance}, accessibility = best practices = SEO = 100, ` +
      `CLS ≤ ${TARGETS.cls}, LCP ≤ ${TARGETS.lcpS} s.`,
    ...(skipped ? ['', skipped] : []),
    ...(buildChanged
      ? [
          '',
          '**The build (apps/web/dist or apps/server/dist) was rebuilt during this run: figures mix two builds.**',
        ]
      : []),
    '',
    failures.length > 0
      ? 'Pages under target or under 100, with the failing audits of the median run (score < 1) of each category under 100, the LCP element and the layout shifts:'
      : 'Every page meets every target.',
    ...failures,
    ...(warnings.size > 0 ? ['', 'Lighthouse warnings:', ...[...warnings].map((w) => `- ${w}`)] : []),
  ].join('\n');
  console.log('\n' + report + '\n');

  writeSection('lighthouse', 'Lighthouse, mobile preset (npm run bench)', report);

  if (results.some((r) => missedTargets(r).length > 0)) {
    console.error('A Lighthouse target was missed (see above).');
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  await stopChrome();
  await stopShop();
}

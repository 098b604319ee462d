// npm run bench: Lighthouse (mobile preset: the default config, formFactor mobile, simulated throttling) on
// six pages of the built shop: home, a category, a search in it (a word of a product's name, from the API),
// a product page, the about page and the 404 page of an unknown product. Each page RUNS times (3 unless
// BENCH_LIGHTHOUSE_RUNS says), the median run (by performance score) reported. On PGlite and, when it can
// be reached, on PostgreSQL. Also the initial JS of `/` in gzipped bytes: the module files it loads at
// start and, apart, its inline scripts (the loader). Prints a table, the failing audits of every page
// under target (with the elements they name) and writes both to bench/RESULTS.md.
// Every build of BENCH_BUILDS="before=/path/to/other/checkout,after=." (bench/lib.ts builds()) is measured
// in the same run, side by side: for each engine, each build's server in turn on the same pages, with a
// "before → after" line per page. One build alone (BENCH_BUILDS unset) is this checkout's.
// Targets (issue 29), on the last build (the earlier ones are the reference): performance >= 95 on every
// page (the target before it, 98, is still shown), accessibility = best practices = SEO = 100, CLS <= 0.02,
// LCP <= 1.5 s; and with two builds or more, the initial JS of `/` grows by at most 2,048 gzipped bytes
// from the first build to the last. The audits a page fails by design (the search's noindex; the 404
// page's status, noindex and Chrome's console error for it) are left out of the scores the targets count.
// Run time on this 2-core machine: a two-build run (6 pages x 3 runs x 2 engines x 2 builds, 72 Lighthouse
// runs of about 7 s, plus the retries of runs Lighthouse fails) took 9.7 min; with BENCH_LIGHTHOUSE_RUNS=1,
// 3.5 to 4.5 min; one build alone about half as long.
import lighthouse, { type Result } from 'lighthouse';
import { Launcher } from 'chrome-launcher';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  builds,
  freshPostgresDatabase,
  initialJsGzipBytes,
  stopChild,
  waitFor,
  type Build,
  type InitialJs,
} from './lib.js';
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
/** An unknown product id under a category: the server answers 404 with a rendered "Product not found". */
const NOT_FOUND_PATH = '/shop/consoles/product/000000000000000000000000';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS = {
  // Issue 29 allows 95 while the early-tap loader is made correct; PREVIOUS_PERFORMANCE is still shown.
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  cls: 0.02,
  lcpS: 1.5,
  /** Growth of the initial JS of `/` (files and inline scripts, gzipped) from the first build to the last. */
  jsGrowthBytes: 2048,
};
/** The performance target before issue 29. */
const PREVIOUS_PERFORMANCE = 98;
/** Audits whose elements are listed for every page under target, whatever their score. */
const ELEMENT_AUDITS = ['largest-contentful-paint-element', 'layout-shifts'];

type CategoryId = (typeof CATEGORIES)[number];
type Engine = 'PGlite' | 'PostgreSQL';

interface PageSpec {
  page: string;
  path: string;
  /** The status the shop answers the page with (the 404 page: 404, measured all the same). */
  status: number;
  /** Audits the page fails by design (a search's noindex, the 404 page's status): no target counts them. */
  byDesign: ByDesign[];
}

interface ByDesign {
  audit: string;
  why: string;
  /** When given, the audit's failure is by design only when this holds of it (else it counts). */
  only?: (audit: Result['audits'][string] | undefined, url: string) => boolean;
}

interface PageResult extends PageSpec {
  engine: Engine;
  build: string;
  /** The audits of `byDesign` this run failed by design, left out of the scores the targets count. */
  excused: string[];
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

/** The checkout a build's server sits in (`main` is apps/server/dist/main.js under it). */
const checkoutOf = (build: Build) => resolve(dirname(build.main), '../../..');

function startShop(build: Build, dataDir: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [build.main], {
    cwd: checkoutOf(build),
    env: { ...process.env, PORT: String(shopPort), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    // Default logging writes a line per request: to a pipe that is drained, as a process manager would.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.resume();
  return child;
}

type Listed = { _id: string; productName: string };

async function firstProducts(query = ''): Promise<Listed[]> {
  const path = `/api/products?category=${CATEGORY}${query}&page=1`;
  const res = await fetch(shopUrl + path);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return ((await res.json()) as { products?: Listed[] }).products ?? [];
}

/**
 * A word a shopper would search the category for: the first word of 4 letters or more in the name of
 * its first product, as the API lists them (the same word for every build: the seed is the same). The
 * search is checked to find something, on every build.
 */
async function searchWord(chosen?: string): Promise<string> {
  let word = chosen;
  if (!word) {
    const name = (await firstProducts())[0]?.productName ?? '';
    word = name
      .split(/[^\p{L}\p{N}]+/u)
      .find((w) => w.length >= 4)
      ?.toLowerCase();
    if (!word) throw new Error(`No word to search for in "${name}" (first product of ${CATEGORY})`);
  }
  const found = await firstProducts(`&q=${encodeURIComponent(word)}`);
  if (found.length === 0) throw new Error(`Searching ${CATEGORY} for "${word}" finds nothing`);
  return word;
}

async function productPath(): Promise<string> {
  const id = (await firstProducts())[0]?._id;
  if (!id) throw new Error(`No product in category ${CATEGORY}`);
  return `/shop/${CATEGORY}/product/${id}`;
}

/** A search result is a page of its category filtered: the shop asks search engines not to index it. */
const NOINDEX: ByDesign = { audit: 'is-crawlable', why: 'noindex, asked for on purpose' };

async function pagesOf(word: string): Promise<PageSpec[]> {
  const page = (name: string, path: string, byDesign: ByDesign[] = []): PageSpec => ({
    page: name,
    path,
    status: 200,
    byDesign,
  });
  return [
    page('home', '/'),
    page(`category (${CATEGORY})`, `/shop/${CATEGORY}`),
    page(`search (${CATEGORY}, "${word}")`, `/shop/${CATEGORY}?q=${encodeURIComponent(word)}`, [NOINDEX]),
    page('product', await productPath()),
    page('about', '/about'),
    {
      page: '404 (unknown product)',
      path: NOT_FOUND_PATH,
      status: 404,
      byDesign: [
        { audit: 'http-status-code', why: 'the 404 status' },
        NOINDEX,
        {
          audit: 'errors-in-console',
          why: "Chrome's console error for the page's own 404 (any other error counts)",
          // Every error logged is the document's own status: "Failed to load resource: ... 404".
          only: (audit, url) => {
            const items = audit?.details?.type === 'table' ? audit.details.items : [];
            return (
              items.length > 0 &&
              items.every((item) => {
                const source = item.sourceLocation as { url?: string } | undefined;
                return source?.url === url && String(item.description).includes('status of 404');
              })
            );
          },
        },
      ],
    },
  ];
}

/** The audits of the page's `byDesign` that this run fails by design. */
function excusedAudits(spec: PageSpec, lhr: Result): string[] {
  return spec.byDesign
    .filter(({ audit, only }) => !only || only(lhr.audits[audit], lhr.finalDisplayedUrl))
    .map(({ audit }) => audit);
}

const score = (lhr: Result, id: CategoryId): number | null => {
  const s = lhr.categories[id]?.score;
  return s == null ? null : Math.round(s * 100);
};

async function runLighthouse(url: string, ignoreStatusCode: boolean): Promise<Result> {
  if (!chrome) throw new Error('Chrome is not running');
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // The 404 page is measured as it is drawn: Lighthouse otherwise refuses a page answered 404.
    ignoreStatusCode,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr;
}

interface Measured {
  results: PageResult[];
  /** The initial JS of `/` (measured on the first engine only: it does not depend on the database). */
  js?: InitialJs;
  word: string;
}

async function measureShop(
  engine: Engine,
  build: Build,
  env: Record<string, string>,
  options: { word?: string; js: boolean },
): Promise<Measured> {
  dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-lighthouse-'));
  try {
    shop = startShop(build, dataDir, env);
    await waitFor(`${shopUrl}/api/health`);
    const word = await searchWord(options.word);
    const pages = await pagesOf(word);
    // One unmeasured request of each page's HTML: the shop has just started (JIT, caches).
    // A page the shop cannot serve fails here, before Lighthouse spends a minute on it.
    for (const { path, status, page } of pages) {
      const res = await fetch(shopUrl + path);
      const body = await res.text();
      if (res.status !== status)
        throw new Error(
          `${build.label}: GET ${path} (${page}) answered ${res.status}, not ${status}: ${trim(body, 300)}`,
        );
      if (status === 404 && !body.includes('Product not found'))
        throw new Error(
          `${build.label}: GET ${path} answered 404 without the rendered "Product not found" page`,
        );
    }
    const js = options.js ? await initialJsGzipBytes(shopUrl, '/') : undefined;

    chrome = new Launcher({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'error' });
    await chrome.launch();
    const results: PageResult[] = [];
    for (const spec of pages) {
      const runs: Result[] = [];
      const failed: string[] = [];
      while (runs.length < RUNS && failed.length <= RETRIES) {
        const t0 = performance.now();
        const lhr = await runLighthouse(shopUrl + spec.path, spec.status >= 400);
        const perf = score(lhr, 'performance');
        const error = lhr.runtimeError?.code;
        console.error(
          `${engine} ${build.label} ${spec.page} run ${runs.length + failed.length + 1}: performance ${perf ?? 'n/a'}` +
            `${error ? ` (${error}: ${trim(lhr.runtimeError?.message ?? '', 200)})` : ''}, ` +
            `${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        if (error) failed.push(error);
        else runs.push(lhr);
      }
      if (runs.length === 0)
        throw new Error(`${build.label}: every Lighthouse run of ${spec.path} failed: ${failed.join(', ')}`);
      // Median by performance score.
      const sorted = [...runs].sort(
        (a, b) => (score(a, 'performance') ?? -1) - (score(b, 'performance') ?? -1),
      );
      const median = sorted[Math.floor(sorted.length / 2)]!;
      if (jsonDir) {
        mkdirSync(jsonDir, { recursive: true });
        const file = join(
          jsonDir,
          `${engine}-${build.label}-${spec.page}`.replace(/\W+/g, '-').toLowerCase() + '.json',
        );
        writeFileSync(file, JSON.stringify(median, null, 1));
      }
      results.push({
        ...spec,
        engine,
        build: build.label,
        excused: excusedAudits(spec, median),
        perfRuns: runs.map((r) => score(r, 'performance')),
        failedRuns: failed,
        lhr: median,
      });
    }
    return { results, js, word };
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

/**
 * The category's score as the targets count it: on a page with audits it fails by design (a search's
 * noindex, the 404 page's status), Lighthouse's weighted mean without them; elsewhere Lighthouse's score.
 */
function targetScore(r: PageResult, id: CategoryId): number | null {
  const category = r.lhr.categories[id];
  const refs = (category?.auditRefs ?? []).filter((ref) => ref.weight > 0);
  if (!refs.some((ref) => r.excused.includes(ref.id))) return score(r.lhr, id);
  const kept = refs.filter((ref) => !r.excused.includes(ref.id));
  const scores = kept.map((ref) => r.lhr.audits[ref.id]?.score ?? null);
  if (kept.length === 0 || scores.some((s) => s === null)) return null;
  const weight = kept.reduce((sum, ref) => sum + ref.weight, 0);
  const sum = kept.reduce((total, ref, i) => total + ref.weight * scores[i]!, 0);
  return Math.round((Math.round((sum / weight) * 100) / 100) * 100);
}

/** A score for the table: Lighthouse's, and the one the target counts when they differ (marked †). */
function scoreText(r: PageResult, id: CategoryId): string {
  const s = score(r.lhr, id);
  const t = targetScore(r, id);
  return s === t ? String(s ?? 'n/a') : `${s ?? 'n/a'} (${t ?? 'n/a'}†)`;
}

function missedTargets(r: PageResult): string[] {
  const missed: string[] = [];
  if (r.lhr.runtimeError) missed.push(`runtime error ${r.lhr.runtimeError.code}`);
  if (r.perfRuns.length < RUNS) missed.push(`only ${r.perfRuns.length} of ${RUNS} runs succeeded`);
  for (const id of CATEGORIES) {
    const s = targetScore(r, id);
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

/** What identifies a build: its web entry page and its server's entry, as text. */
function buildFingerprint(build: Build): string {
  const read = (file: string) => {
    try {
      return readFileSync(join(checkoutOf(build), file), 'utf8');
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

const bytes = (n: number) => n.toLocaleString('en-US');
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${bytes(Math.abs(n))}`;

/** The initial JS of `/` of each build, and its growth from the first build to the last. */
function jsReport(js: { build: string; js: InitialJs }[]): { lines: string[]; growth?: number } {
  const rows = js.map(
    ({ build, js: j }) =>
      `| ${build} | ${bytes(j.gzipBytes)} (${j.files.length}) | ${bytes(j.inlineGzipBytes)} (${j.inline.length}) | ${bytes(j.totalGzipBytes)} (${(j.totalGzipBytes / 1024).toFixed(1)} kB) | ${j.files.join(', ')} |`,
  );
  const inline = js.flatMap(({ build, js: j }) => [
    `- ${build}: ${
      j.inline
        .map((s) => `\`<script ${trim(s.label, 80)}>\` ${bytes(s.gzipBytes)} gzipped (${bytes(s.bytes)} raw)`)
        .join('; ') || 'no inline script'
    }${j.data.length > 0 ? `; not counted (data, not JS): ${j.data.map((s) => `\`<script ${trim(s.label, 80)}>\` ${bytes(s.gzipBytes)} gzipped`).join('; ')}` : ''}`,
  ]);
  const first = js[0];
  const last = js.at(-1);
  const growth =
    js.length > 1 && first && last ? last.js.totalGzipBytes - first.js.totalGzipBytes : undefined;
  const compare =
    growth === undefined || !first || !last
      ? []
      : [
          '',
          `Initial JS of \`/\`, ${js.map((j) => j.build).join(' → ')}: ${js.map((j) => bytes(j.js.totalGzipBytes)).join(' → ')} bytes gzipped, ` +
            `${signed(growth)} bytes (files ${signed(last.js.gzipBytes - first.js.gzipBytes)}, inline scripts ${signed(last.js.inlineGzipBytes - first.js.inlineGzipBytes)}); ` +
            `target: at most +${bytes(TARGETS.jsGrowthBytes)}: ${growth <= TARGETS.jsGrowthBytes ? 'met' : '**missed**'}.`,
        ];
  return {
    growth,
    lines: [
      'Initial JS of `/` (gzipped, level 9, each file and each inline script apart; fetched from the running shop): ' +
        'the module scripts, the entry the loader asks for (`data-entry`) and the modulepreloads, plus the inline scripts that run (no `src`).',
      '',
      '| build | files, bytes (count) | inline scripts, bytes (count) | total bytes | files |',
      '|---|---:|---:|---:|---|',
      ...rows,
      '',
      'Inline scripts of `/`:',
      ...inline,
      ...compare,
    ],
  };
}

/** Which audits each page may fail by design, and why. */
function byDesignNote(results: PageResult[]): string {
  const pages = new Map(results.filter((r) => r.byDesign.length > 0).map((r) => [r.page, r.byDesign]));
  return [...pages]
    .map(([page, list]) => `${page}: ${list.map((b) => `\`${b.audit}\` (${b.why})`).join(', ')}`)
    .join('; ');
}

/** One page across the builds: performance, LCP, TBT and CLS, before → after. */
function comparison(results: PageResult[], labels: string[]): string[] {
  const lines: string[] = [];
  const keys = [...new Set(results.map((r) => `${r.engine}\u0000${r.page}`))];
  for (const key of keys) {
    const [engine, page] = key.split('\u0000') as [Engine, string];
    const row = labels.map((label) =>
      results.find((r) => r.engine === engine && r.page === page && r.build === label),
    );
    const join = (f: (r: PageResult) => string) => row.map((r) => (r ? f(r) : 'n/a')).join(' → ');
    const perf = (r: PageResult) => String(score(r.lhr, 'performance') ?? 'n/a');
    lines.push(
      `- ${engine}, ${page}: performance ${join(perf)}, ` +
        `LCP ${join((r) => fmt(numeric(r.lhr, 'largest-contentful-paint'), 2, 1000))} s, ` +
        `TBT ${join((r) => fmt(numeric(r.lhr, 'total-blocking-time'), 0))} ms, ` +
        `CLS ${join((r) => fmt(numeric(r.lhr, 'cumulative-layout-shift'), 3))}`,
    );
  }
  return lines;
}

async function main() {
  const started = performance.now();
  // Other work on this small machine (builds, tests) moves the figures: the load is reported with them.
  const loadAtStart = loadavg()[0]!;
  try {
    accessSync(chromePath, constants.X_OK);
  } catch {
    throw new Error(`No Chromium at ${chromePath} (set CHROME_PATH)`);
  }
  const list = builds();
  const labels = list.map((b) => b.label);
  if (new Set(labels).size !== labels.length)
    throw new Error(`BENCH_BUILDS: labels repeat (${labels.join(', ')})`);
  for (const build of list) {
    try {
      accessSync(build.main, constants.R_OK);
    } catch {
      throw new Error(`${build.label}: no built server at ${build.main} (build that checkout first)`);
    }
  }
  const fingerprints = list.map(buildFingerprint);
  const engines: { engine: Engine; env: Record<string, string>; fresh: () => Promise<boolean> }[] = [
    { engine: 'PGlite', env: {}, fresh: async () => true },
    { engine: 'PostgreSQL', env: { DATABASE_URL: pgUrl }, fresh: () => freshPostgresDatabase(pgUrl) },
  ];

  const results: PageResult[] = [];
  const js: { build: string; js: InitialJs }[] = [];
  let word: string | undefined;
  let skipped = '';
  engines: for (const { engine, env, fresh } of engines) {
    for (const build of list) {
      // Each build on a database of its own (a fresh one: the shop seeds it on its first start).
      if (!(await fresh())) {
        skipped = `PostgreSQL is not reachable at ${pgUrl}: skipped, measured on PGlite only.`;
        console.error(skipped);
        break engines;
      }
      const measured = await measureShop(engine, build, env, { word, js: js.length < list.length });
      word = measured.word;
      results.push(...measured.results);
      if (measured.js) js.push({ build: build.label, js: measured.js });
    }
  }

  const changed = list.filter((b, i) => buildFingerprint(b) !== fingerprints[i]).map((b) => b.label);
  if (changed.length > 0) console.error(`Rebuilt during the run: ${changed.join(', ')}.`);
  const lhVersion = (
    JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const first = results[0]!.lhr;
  const settings = first.configSettings;
  const benchmarkIndexes = results.map((r) => Math.round(r.lhr.environment.benchmarkIndex));
  const minutes = (performance.now() - started) / 60_000;
  const last = labels.at(-1)!;
  const current = results.filter((r) => r.build === last);

  const rows = results.map((r) => {
    const s = (id: CategoryId) => scoreText(r, id);
    return `| ${r.engine} | ${r.build} | ${r.page} | ${s('performance')} | ${s('accessibility')} | ${s('best-practices')} | ${s('seo')} | ${fmt(numeric(r.lhr, 'largest-contentful-paint'), 2, 1000)} | ${fmt(numeric(r.lhr, 'cumulative-layout-shift'), 3)} | ${fmt(numeric(r.lhr, 'total-blocking-time'), 0)} | ${fmt(numeric(r.lhr, 'first-contentful-paint'), 2, 1000)} | ${[...r.perfRuns.map((p) => p ?? 'n/a'), ...r.failedRuns.map((e) => `failed (${e})`)].join(', ')} |`;
  });

  const failures: string[] = [];
  const warnings = new Set<string>();
  for (const r of results) {
    for (const w of r.lhr.runWarnings) warnings.add(trim(w, 300));
    const missed = missedTargets(r);
    const below100 = CATEGORIES.filter((id) => score(r.lhr, id) !== 100);
    if (missed.length === 0 && below100.length === 0) continue;
    const summary = missed.length > 0 ? missed.join('; ') : `targets met; under 100: ${below100.join(', ')}`;
    failures.push(`- **${r.engine}, ${r.build}, ${r.page}** (\`${r.path}\`): ${summary}`);
    failures.push(...failingAudits(r));
  }
  const underPrevious = current.filter((r) => (score(r.lhr, 'performance') ?? 0) < PREVIOUS_PERFORMANCE);
  const jsPart = jsReport(js);
  const jsMissed = jsPart.growth !== undefined && jsPart.growth > TARGETS.jsGrowthBytes;
  const pageMissed = current.some((r) => missedTargets(r).length > 0);

  const report = [
    `Run ${new Date().toISOString()}: Lighthouse ${lhVersion}, ${chromiumVersion()} (${CHROME_FLAGS.join(' ')}), ` +
      `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}). ` +
      `Preset: Lighthouse's default config, formFactor ${settings.formFactor}, throttling ${settings.throttlingMethod} ` +
      `(RTT ${settings.throttling.rttMs} ms, ${settings.throttling.throughputKbps} kbit/s, CPU ${settings.throttling.cpuSlowdownMultiplier}x), ` +
      `screen ${settings.screenEmulation.width}x${settings.screenEmulation.height}. Each page ${RUNS} times; the median run by performance ` +
      `score is shown (every run's performance in the last column; a run that fails with a Lighthouse error is repeated, up to ${RETRIES} times a page). Lighthouse's benchmark index of this machine: ` +
      `${Math.min(...benchmarkIndexes)}–${Math.max(...benchmarkIndexes)}; load average (1 min) at the start and the end ` +
      `${loadAtStart.toFixed(1)} / ${loadavg()[0]!.toFixed(1)}. The shop is started as \`npm start\` serves it ` +
      `(default settings, a fresh data directory and database for each build). ` +
      (list.length > 1
        ? `Builds side by side in this run (BENCH_BUILDS): ${list.map((b) => `${b.label} = \`${checkoutOf(b)}\``).join(', ')}; for each engine, each build's shop in turn on the same pages. `
        : '') +
      `The search is for "${word ?? 'n/a'}", a word of the first ${CATEGORY} product's name as the API lists it; the 404 page is \`${NOT_FOUND_PATH}\` (measured with Lighthouse's ignoreStatusCode). ` +
      `Full run: ${minutes.toFixed(1)} min.`,
    '',
    '| engine | build | page | performance | accessibility | best practices | SEO | LCP s | CLS | TBT ms | FCP s | performance of the runs |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    ...(list.length > 1
      ? [`Each page, ${labels.join(' → ')} (median runs):`, ...comparison(results, labels), '']
      : []),
    ...jsPart.lines,
    '',
    `Targets (issue 29), on ${list.length > 1 ? `the last build (${last})` : 'the build'}, every page and engine: performance ≥ ${TARGETS.performance}, ` +
      `accessibility = best practices = SEO = 100, CLS ≤ ${TARGETS.cls}, LCP ≤ ${TARGETS.lcpS} s` +
      (list.length > 1
        ? `; the initial JS of \`/\` grows by at most ${bytes(TARGETS.jsGrowthBytes)} bytes gzipped from ${labels[0]} to ${last}.`
        : '.') +
      ` † The score as the target counts it, without the audits the page fails by design: ${byDesignNote(results)}.`,
    `Previous performance target (before issue 29, which allows ${TARGETS.performance} while the loader is made correct): ≥ ${PREVIOUS_PERFORMANCE}; ` +
      (underPrevious.length === 0
        ? `every page of ${last} still meets it.`
        : `under it on ${last}: ${underPrevious.map((r) => `${r.engine} ${r.page} (${score(r.lhr, 'performance') ?? 'n/a'})`).join(', ')}.`),
    ...(skipped ? ['', skipped] : []),
    ...(changed.length > 0
      ? [
          '',
          `**Rebuilt during this run (its apps/web/dist or apps/server/dist changed): ${changed.join(', ')}; its figures mix two builds.**`,
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

  if (pageMissed || jsMissed) {
    console.error(
      `A target was missed (see above)${pageMissed ? `: a page of ${last}` : ''}${jsMissed ? `${pageMissed ? ',' : ':'} the initial JS grew by ${bytes(jsPart.growth!)} bytes` : ''}.`,
    );
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  await stopChrome();
  await stopShop();
}

// npm run bench: loads the built shop's catalogue API with autocannon on loopback beside a bare node:http
// server answering the same bytes, measured right after the shop on each route it is compared on; prints
// req/s, p50/p99 and the ratio, and the initial JS of `/` in gzipped bytes. Writes the figures to
// bench/RESULTS.md.
// The shop runs as `npm start` runs it (default settings, logging included) on PGlite and, when it can be
// reached, on PostgreSQL; a run with LOG_LEVEL=warn is reported beside the default one, never instead.
import autocannon from 'autocannon';
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { BareRoute } from './bare-server.js';
import { writeSection } from './results.js';
import { cpus, tmpdir } from 'node:os';
import {
  closedLoop,
  freshPostgresDatabase,
  initialJsGzipBytes,
  percentile,
  stopChild,
  waitFor,
} from './lib.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const shopPort = 3301;
const barePort = 3302;
const shopUrl = `http://127.0.0.1:${shopPort}`;
const pgUrl =
  process.env.BENCH_DATABASE_URL ??
  'postgres://pixelvault:pixelvault@127.0.0.1:5432/pixelvault_bench_catalogue';
/** What a browser sends: the list then comes from the cache's precompressed forms. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br' };

interface Result {
  server: string;
  route: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * The compressed list is measured with undici (bench/lib.ts closedLoop): autocannon's client spends
 * most of its time on binary (brotli, gzip) bodies, so its req/s there measured the client, not the
 * shop (~2,900 req/s even from a raw socket replaying the shop's bytes).
 */
async function loadUndici(server: string, route: string, url: string, headers: Record<string, string> = {}) {
  const loop = (seconds: number) => closedLoop({ connections, seconds, url: () => url, headers });
  await loop(2);
  const { latencies, errors, non2xx } = await loop(duration);
  return {
    server,
    route,
    reqPerSec: latencies.length / duration,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors,
    non2xx,
  };
}

async function load(
  server: string,
  route: string,
  url: string,
  headers: Record<string, string> = {},
  expectStatus = 200,
): Promise<Result> {
  // Warm up (JIT, caches) before the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const r = await autocannon({ url, headers, connections, duration });
  const statusCount = (r as unknown as Record<string, number>)[`${Math.floor(expectStatus / 100)}xx`] ?? 0;
  return {
    server,
    route,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    // autocannon counts anything but 2xx as non2xx; a 304 run expects 3xx instead.
    non2xx: expectStatus === 200 ? r.non2xx : r.requests.total - statusCount,
  };
}

interface ShopRun {
  label: string;
  env: Record<string, string>;
}

/**
 * The first download of `/`: 100 kB (issue 10), and the 2 kB issue 29 allows on top for recording and
 * replaying taps made before the app starts (its chunk of replay code loads beside the page's code; what
 * stays in the entry, taking the recording and loading every page's code before it is drawn, is ~300
 * bytes). bench/lighthouse.ts measures the growth against the commit before, inline loader included.
 */
const ISSUE_29_ALLOWANCE = 2048;
const INITIAL_JS_TARGET = 100 * 1024 + ISSUE_29_ALLOWANCE;

const LIST = '/api/products';
/** Issue 33: what the category page asks for (CategoryPage's call), and a filtered, sorted search. */
const CATEGORY_PAGE = '/api/products?category=retro-games&page=1&limit=24';
const FILTERED_SEARCH =
  '/api/products?category=retro-games&q=neon&condition=Loose&inStock=true&sort=price_asc&page=1&limit=24';
const IDENTITY = { 'accept-encoding': 'identity' };
const ROUTES = {
  list: 'GET /api/products (every product, plain)',
  listAgain: 'GET /api/products (every product, plain), second alternation',
  listThird: 'GET /api/products (every product, plain), third alternation',
  listAfterPages: 'GET /api/products (every product, plain), right after the pages',
  listUndici: 'GET /api/products (plain; undici client)',
  listBrowser: 'GET /api/products (gzip, deflate, br; undici client)',
  list304: 'GET /api/products (If-None-Match: 304)',
  detail: 'GET /api/products/:id',
  categoryPage: `GET ${CATEGORY_PAGE} (the category page's call)`,
  filteredSearch: `GET ${FILTERED_SEARCH}`,
  page: 'GET /shop/retro-games (page rendered on the server)',
  productPage: 'GET /shop/:category/product/:id (page rendered on the server)',
};

/**
 * The yardstick, in its own process, answering `routes` (path -> body, and the shop's own headers when
 * given). Hop-by-hop and per-response headers are left to node, as the shop leaves them.
 */
async function startBare(routes: Record<string, BareRoute>, dir: string) {
  const routesFile = join(dir, 'bare-routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const bare = fork(join(root, 'bench/bare-server.ts'), [routesFile, String(barePort)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => bare.once('message', () => resolve()));
  return { url: `http://127.0.0.1:${barePort}`, stop: () => stopChild(bare) };
}

const bareBeside = (label: string) => `bare node:http, right after: ${label}`;
const bareSameBytes = (label: string) => `bare node:http, same headers too, right after: ${label}`;
/** The shop's answer under this prefix on the bare server carries the shop's headers as well. */
const SAME = '/same-bytes';
const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A response's headers as the shop sent them, minus what node writes itself. */
function shopHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!NODE_OWN_HEADERS.has(name)) headers[name] = value;
  });
  return headers;
}

/**
 * One shop process, started as `npm start` starts it plus `env`; the catalogue calls measured. The
 * bare server answering this shop's very bytes is measured right after the shop on the list and on
 * the detail: on a shared machine (other builds and tests come and go) the load then weighs on both
 * sides of a ratio alike, instead of on whichever side ran in the busier minute.
 */
async function measureShop(run: ShopRun, dataDir: string) {
  const shop = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: String(shopPort), HOST: '127.0.0.1', DATA_DIR: dataDir, ...run.env },
    // Default logging writes a line per request: to a pipe that is drained, as a process manager would.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  shop.stdout?.resume();
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    await waitFor(`${shopUrl}/api/health`);
    // As autocannon asks: no Accept-Encoding (fetch would ask for gzip and get it, decoded).
    const listRes = await fetch(shopUrl + LIST, { headers: IDENTITY });
    const list = await listRes.text();
    const etag = listRes.headers.get('etag') ?? '';
    // No page asked for: the spec's array of every product (docs/decisions/003).
    const products = JSON.parse(list) as { _id: string; productCategory: string }[];
    const firstId = products[0]?._id;
    const firstCategory = products[0]?.productCategory;
    if (!firstId) throw new Error('The seeded catalogue is empty');
    const detailPath = `/api/products/${firstId}`;
    const detailRes = await fetch(shopUrl + detailPath, { headers: IDENTITY });
    const detail = await detailRes.text();
    const br = await fetch(shopUrl + LIST, { headers: BROWSER_ENCODINGS });
    const lists: Record<string, BareRoute> = {};
    for (const path of [CATEGORY_PAGE, FILTERED_SEARCH]) {
      const res = await fetch(shopUrl + path, { headers: IDENTITY });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      lists[SAME + path] = { body: await res.text(), headers: shopHeaders(res) };
    }
    bare = await startBare(
      {
        [LIST]: { body: list },
        [detailPath]: { body: detail },
        [SAME + LIST]: { body: list, headers: shopHeaders(listRes) },
        [SAME + detailPath]: { body: detail, headers: shopHeaders(detailRes) },
        ...lists,
      },
      dataDir,
    );
    // A shop that has just started (migrations, seed, box art, JIT) answers the first seconds slowly:
    // one longer warm-up before the first measured route (a first run once measured 25% instead of 54%).
    await autocannon({ url: shopUrl + LIST, connections, duration: 5 });
    const results = [
      await load(run.label, ROUTES.list, shopUrl + LIST),
      await load(bareBeside(run.label), ROUTES.list, bare.url + LIST),
      await load(bareSameBytes(run.label), ROUTES.list, bare.url + SAME + LIST),
    ];
    // The list's share of the bare server (the target) from two more alternations of the pair: on a
    // shared machine one pair's ratio swings by about ten points between runs; the median of the three
    // is the figure, all three are reported.
    for (const again of [ROUTES.listAgain, ROUTES.listThird]) {
      results.push(
        await load(run.label, again, shopUrl + LIST),
        await load(bareSameBytes(run.label), again, bare.url + SAME + LIST),
      );
    }
    results.push(
      await loadUndici(run.label, ROUTES.listUndici, shopUrl + LIST),
      await loadUndici(run.label, ROUTES.listBrowser, shopUrl + LIST, BROWSER_ENCODINGS),
      await load(run.label, ROUTES.list304, shopUrl + LIST, { 'if-none-match': etag }, 304),
      await load(run.label, ROUTES.detail, shopUrl + detailPath),
      await load(bareBeside(run.label), ROUTES.detail, bare.url + detailPath),
      await load(bareSameBytes(run.label), ROUTES.detail, bare.url + SAME + detailPath),
      // Issue 33: every catalogue GET, not the one URL above: the lists clients really ask for.
      await load(run.label, ROUTES.categoryPage, shopUrl + CATEGORY_PAGE),
      await load(bareSameBytes(run.label), ROUTES.categoryPage, bare.url + SAME + CATEGORY_PAGE),
      await load(run.label, ROUTES.filteredSearch, shopUrl + FILTERED_SEARCH),
      await load(bareSameBytes(run.label), ROUTES.filteredSearch, bare.url + SAME + FILTERED_SEARCH),
      // No yardstick for these: what a first visit costs the server (issue 10), reported, no target.
      await load(run.label, ROUTES.page, shopUrl + '/shop/retro-games'),
      await load(run.label, ROUTES.productPage, `${shopUrl}/shop/${firstCategory}/product/${firstId}`),
    );
    // The list once more after the pages: a shop that has just rendered pages answers it more slowly.
    results.push(
      await load(run.label, ROUTES.listAfterPages, shopUrl + LIST),
      await load(bareSameBytes(run.label), ROUTES.listAfterPages, bare.url + SAME + LIST),
    );
    const sizes = {
      products: products.length,
      list: Buffer.byteLength(list),
      // fetch decodes the body; the encoded size is what went over the wire.
      listEncoded: Number(br.headers.get('content-length') ?? 0),
      listEncoding: br.headers.get('content-encoding') ?? 'none',
      detail: Buffer.byteLength(detail),
    };
    const js = await initialJsGzipBytes(shopUrl);
    return { results, sizes, js };
  } finally {
    if (bare) await bare.stop();
    await stopChild(shop);
  }
}

async function main() {
  const runs: (ShopRun & { engine: 'PGlite' | 'PostgreSQL' })[] = [
    { label: 'Pixel Vault, PGlite, default settings', engine: 'PGlite', env: {} },
    { label: 'Pixel Vault, PGlite, LOG_LEVEL=warn', engine: 'PGlite', env: { LOG_LEVEL: 'warn' } },
  ];
  if (await freshPostgresDatabase(pgUrl)) {
    runs.push({
      label: 'Pixel Vault, PostgreSQL, default settings',
      engine: 'PostgreSQL',
      env: { DATABASE_URL: pgUrl },
    });
  } else {
    console.error(`PostgreSQL is not reachable at ${pgUrl}: the catalogue was measured on PGlite only.`);
  }

  const results: Result[] = [];
  let first: Awaited<ReturnType<typeof measureShop>> | undefined;
  for (const run of runs) {
    const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-'));
    try {
      const measured = await measureShop(run, dataDir);
      first ??= measured;
      results.push(...measured.results);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!first) throw new Error('No shop was measured');

  const find = (server: string, route: string) =>
    results.find((r) => r.server === server && r.route === route);
  const ratio = (server: string, route: string, yardstick: (label: string) => string) =>
    (find(server, route)?.reqPerSec ?? 0) / (find(yardstick(server), route)?.reqPerSec ?? Number.NaN);
  const asPercent = (share: number) => `${(share * 100).toFixed(0)}%`;
  const percent = (server: string, route: string, yardstick: (label: string) => string) =>
    asPercent(ratio(server, route, yardstick));
  const listShares = (label: string) =>
    [ROUTES.list, ROUTES.listAgain, ROUTES.listThird].map((route) => ratio(label, route, bareSameBytes));
  const listShare = (label: string) =>
    percentile(
      [...listShares(label)].sort((a, b) => a - b),
      50,
    );
  const ratios = runs.map(
    (run) =>
      `- ${run.label}: list ${asPercent(listShare(run.label))} of the bare server sending the same response (headers too; median of three alternations: ${listShares(run.label).map(asPercent).join(', ')}; ${percent(run.label, ROUTES.listAfterPages, bareSameBytes)} right after the pages), ${percent(run.label, ROUTES.list, bareBeside)} of one sending the body alone (first pair); detail ${percent(run.label, ROUTES.detail, bareSameBytes)} / ${percent(run.label, ROUTES.detail, bareBeside)}; the category page's call ${percent(run.label, ROUTES.categoryPage, bareSameBytes)}, a filtered, sorted search ${percent(run.label, ROUTES.filteredSearch, bareSameBytes)} (issue 33: each at least 80% at default settings).`,
  );
  // Issue 33: the three lists side by side, at default settings on both engines.
  const defaultRuns = runs.filter((run) => run.label.endsWith('default settings'));
  const listsMissed = defaultRuns.some(
    (run) =>
      listShare(run.label) < 0.8 ||
      ratio(run.label, ROUTES.categoryPage, bareSameBytes) < 0.8 ||
      ratio(run.label, ROUTES.filteredSearch, bareSameBytes) < 0.8,
  );
  const { sizes, js } = first;
  const headline = runs[0]!.label;
  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; autocannon ${connections} connections, ${duration} s per run after a 2 s warm-up; each server in its own process on loopback, the bare server measured right after the shop on the same bytes (list, detail), the list's pair twice more, and once after the pages. The shop is started as \`npm start\` starts it (default settings, one log line per request to a drained pipe); the LOG_LEVEL=warn run is shown beside it.`,
    '',
    '| route | server | req/s | p50 ms | p99 ms | errors |',
    '|---|---|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.route} | ${r.server} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`,
    ),
    '',
    "Share of the bare server's req/s, each measured right after the shop (target for the list: at least 80% of the same bytes, headers included, at default settings with logging; the body-only figure is the yardstick before issue 10's second session, shown beside it):",
    ...ratios,
    `Response sizes: list of all ${sizes.products} products ${sizes.list} bytes (${sizes.listEncoded} bytes as ${sizes.listEncoding}), detail ${sizes.detail} bytes.`,
    `Initial JS of / : ${js.gzipBytes} bytes gzipped (${(js.gzipBytes / 1024).toFixed(1)} kB; target at most 100 kB, ${INITIAL_JS_TARGET} bytes with the ${ISSUE_29_ALLOWANCE} that issue 29 allows for the replay of early taps: ${js.gzipBytes > 100 * 1024 ? `${js.gzipBytes - 100 * 1024} bytes over 100 kB` : 'under 100 kB'}) in ${js.files.length} files: ${js.files.join(', ')}`,
  ].join('\n');
  console.log('\n' + report + '\n');

  writeSection('catalogue', 'Catalogue API and initial JS (npm run bench)', report);

  const failed =
    results.some((r) => r.errors + r.non2xx > 0) ||
    listShare(headline) < 0.8 ||
    listsMissed ||
    js.gzipBytes > INITIAL_JS_TARGET;
  if (failed) {
    console.error('A target was missed (see above).');
    process.exitCode = 1;
  }
}

await main();

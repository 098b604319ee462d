// Helpers the benchmarks share.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent, type Dispatcher, request } from 'undici';
import { gzipSync } from 'node:zlib';

/**
 * Drops and creates the database named in `url`, through the server's `postgres` database. Answers
 * false when PostgreSQL cannot be reached, so a benchmark can measure PGlite alone and say so.
 */
export async function freshPostgresDatabase(url: string): Promise<boolean> {
  const adminUrl = new URL(url);
  const dbName = adminUrl.pathname.slice(1);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${dbName}"`);
    return true;
  } finally {
    await client.end();
  }
}

/** The p-th percentile of ascending samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Polls `url` until it answers 2xx (the shop started), or throws after `timeoutMs`. */
export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
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

/** SIGTERM, then waits for the exit (the shop shuts down cleanly). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * A JSON call to the shop at `base`; a non-2xx answer throws with its message. On undici's
 * `request()` (kept-alive connections of its global pool), not `fetch`: on this machine the client
 * shares the shop's two cores, and fetch cost it 0.9-1.0 ms of CPU per paid order (two calls) on
 * PostgreSQL, a third of what the shop spent. With request() it is 0.3 ms, and PostgreSQL's checkout
 * alone went from 257-269 to 300-330 paid orders/s (issue 28, bench/RESULTS.md).
 */
export function apiClient(base: string) {
  return async function call<T>(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<T> {
    const res = await request(base + path, {
      method: method as Dispatcher.HttpMethod,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const data = (await res.body.json()) as T & { message?: string };
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new Error(`${method} ${path}: ${res.statusCode} ${data.message ?? ''}`);
    return data;
  };
}

export interface LoopResult {
  /** Ascending, in ms, of the answers with the expected status. */
  latencies: number[];
  /** Answers with another status. */
  non2xx: number;
  /** Requests that failed (refused, reset). */
  errors: number;
  /** What `read` returned, summed over the expected answers. */
  read: number;
}

/**
 * The same closed loop as autocannon (one request in flight per connection), driven by undici, with
 * exact percentiles and a URL chosen per request. Bodies are read as bytes (as a proxy or CDN would
 * pass them on) unless `read` parses them: autocannon's own client spends most of its time on binary
 * (brotli, gzip) bodies, so its req/s there measured the client, not the shop.
 */
export async function closedLoop({
  connections,
  seconds,
  url,
  headers = {},
  status = 200,
  read,
}: {
  connections: number;
  seconds: number;
  url: () => string;
  headers?: Record<string, string>;
  status?: number;
  read?: (body: unknown) => number;
}): Promise<LoopResult> {
  const agent = new Agent({ connections, pipelining: 1 });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let total = 0;
  const until = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          try {
            const res = await request(url(), { headers, dispatcher: agent });
            const body: unknown = read ? await res.body.json() : await res.body.arrayBuffer();
            if (res.statusCode !== status) {
              non2xx += 1;
              continue;
            }
            latencies.push(performance.now() - t0);
            if (read) total += read(body);
          } catch {
            errors += 1;
          }
        }
      }),
    );
  } finally {
    await agent.close();
  }
  return { latencies: latencies.sort((a, b) => a - b), non2xx, errors, read: total };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux's supported architectures). */
export const USER_HZ = 100;

/**
 * CPU seconds (user + system) each of these processes has used so far, read from /proc; a process that
 * has gone is left out. Empty where there is no /proc (Linux only). `mainThread`: its main thread's
 * alone (Node's JavaScript thread, without V8's helpers, libuv's pool or PGlite's worker).
 */
export function cpuTimes(pids: Iterable<number>, { mainThread = false } = {}): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    let stat: string;
    try {
      // A process's main thread has the process's id (for Node: the JavaScript thread).
      stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name (2nd field) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    times.set(pid, (Number(fields[11]) + Number(fields[12])) / USER_HZ); // utime, stime (14th, 15th)
  }
  return times;
}

/** CPU seconds these processes used since `before` was taken (a process started since counts whole). */
export function cpuSince(
  before: Map<number, number>,
  pids: Iterable<number>,
  options: { mainThread?: boolean } = {},
): number {
  let seconds = 0;
  for (const [pid, now] of cpuTimes(pids, options)) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}

/** The ids of the running processes whose command name is `name` (e.g. every PostgreSQL backend). */
export function processesNamed(name: string): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** An inline script of a page (no src): its text, as the browser gets it. */
export interface InlineScript {
  /** What tells it apart: its attributes (`data-entry="…"` for the loader), or its place in the page. */
  label: string;
  bytes: number;
  gzipBytes: number;
}

export interface InitialJs {
  /** The module files the page loads at start: module scripts, the loader's entry, modulepreloads. */
  files: string[];
  /** Those files gzipped (level 9, each apart), summed. */
  gzipBytes: number;
  /** The inline scripts that run (no src; no type, or a JavaScript one): the loader and the like. */
  inline: InlineScript[];
  /** The inline scripts' text gzipped (level 9, each apart), summed. */
  inlineGzipBytes: number;
  /** Inline scripts of data (`type="application/json"`, the page's state): listed, not counted as JS. */
  data: InlineScript[];
  /** Files and inline scripts together. */
  totalGzipBytes: number;
}

const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);
const gzipSize = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;

/**
 * The JavaScript the page at `path` makes the browser load at start, in gzipped bytes: the module
 * scripts, the entry a rendered page's loader asks for once the page has loaded (lib/entry-loader.ts)
 * and the modulepreloads, each file fetched from the shop; and, apart, the inline scripts' text.
 */
export async function initialJsGzipBytes(base: string, path = '/'): Promise<InitialJs> {
  const html = await (await fetch(base + path)).text();
  const files = [
    ...new Set(
      [
        ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
        // A rendered page's entry, asked for by its loader once the page has loaded (lib/entry-loader.ts).
        ...html.matchAll(/<script[^>]+data-entry="([^"]+)"/g),
        ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
      ].map((m) => m[1]!),
    ),
  ];
  // Nothing found means the page changed how it loads the app, not that it loads nothing.
  if (files.length === 0) throw new Error(`No entry module found in the HTML of ${path}`);
  let gzipBytes = 0;
  for (const file of files) {
    const res = await fetch(base + file);
    if (!res.ok) throw new Error(`GET ${file} (initial JS of ${path}) answered ${res.status}`);
    gzipBytes += gzipSize(Buffer.from(await res.arrayBuffer()));
  }
  const inline: InlineScript[] = [];
  const data: InlineScript[] = [];
  let place = 0;
  for (const [, attrs = '', text = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(attrs)) continue;
    place += 1;
    const type = (/\stype\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? '').trim().toLowerCase();
    const script = {
      label: attrs.trim().replace(/\s+/g, ' ') || `inline script ${place}`,
      bytes: Buffer.byteLength(text),
      gzipBytes: gzipSize(text),
    };
    (JS_TYPES.has(type) ? inline : data).push(script);
  }
  const inlineGzipBytes = inline.reduce((sum, s) => sum + s.gzipBytes, 0);
  return { files, gzipBytes, inline, inlineGzipBytes, data, totalGzipBytes: gzipBytes + inlineGzipBytes };
}

/** A built checkout of the shop to measure: its server is `main` (apps/server/dist/main.js under it). */
export interface Build {
  label: string;
  main: string;
}

/**
 * This checkout's build, or those of BENCH_BUILDS="before=/path/to/other/checkout,after=.": a change
 * measured against the commit before it, side by side in one run (each a built checkout).
 */
export function builds(): Build[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const spec = process.env.BENCH_BUILDS;
  if (!spec) return [{ label: 'this build', main: join(root, 'apps/server/dist/main.js') }];
  return spec.split(',').map((entry) => {
    const [label, dir] = entry.split('=');
    if (!label || !dir) throw new Error(`BENCH_BUILDS: "${entry}" is not label=path`);
    return { label, main: join(resolve(root, dir), 'apps/server/dist/main.js') };
  });
}

/**
 * One checkout as the shop's checkout page makes it: a 1-item order, then the gift card `code` for the
 * whole total, which pays it (2 requests). Answers the order's id; throws when anything is left due.
 */
export async function buyWithGiftCard(
  call: ReturnType<typeof apiClient>,
  token: string,
  code: string,
  productId: string,
  /** Issue 32: a discount code on the order (the checkout bench's "with a code" setting). */
  discountCode?: string,
): Promise<string> {
  const order = await call<{ _id: string; totalPrice: number }>('POST', '/api/orders', token, {
    orderItems: [{ product: productId, itemQuantity: 1 }],
    shippingAddress: { address: '1 Bench Street', city: 'Sacramento', postalCode: '95814', country: 'USA' },
    paymentMethod: 'gift',
    ...(discountCode ? { discountCode } : {}),
  });
  const used = await call<{ amountDue: number }>('POST', '/api/giftcards/use', token, {
    code,
    amount: order.totalPrice,
    orderId: order._id,
  });
  if (used.amountDue !== 0) throw new Error(`order ${order._id} still has ${used.amountDue} due`);
  return order._id;
}

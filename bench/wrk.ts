// wrk (Debian's and most systems' package `wrk`) as a benchmark's HTTP client, where it is installed.
//
// A client on the shop's own machine takes its CPU from the shop. In the sale (bench/mixed.ts), on two
// cores, undici's request() cost the client 34 us of CPU per browsing request, more than the shop's
// 24 us: the rate "alone" was the client's ceiling (shop 0.70 cores busy, client 0.98), not the
// shop's. wrk costs 11-13 us per request, with a Lua function choosing each request's path, and the
// shop's own thread is then what bounds the rate.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { USER_HZ } from './lib.js';

/** Whether `wrk` is on the PATH. */
export function hasWrk(): boolean {
  return !spawnSync('wrk', ['--version']).error;
}

export interface WrkResult {
  /** Answers received (any status). */
  requests: number;
  seconds: number;
  /** Answers whose status was not 2xx or 3xx. */
  badStatus: number;
  /** Connections refused or reset, reads or writes that failed, requests past the timeout. */
  socketErrors: number;
  /** Latency percentiles, in ms. */
  p50: number;
  p99: number;
  /** CPU seconds (user + system) wrk used, all its threads. */
  cpuSeconds: number;
}

/** A Lua string literal of ASCII text (the paths and headers here are URL-encoded already). */
const lua = (text: string) => JSON.stringify(text);

/**
 * Runs wrk against `origin` for `seconds`: `connections` connections on one thread, each sending its
 * next request when the answer to the last is in (a closed loop, as a browser's), the path of each
 * drawn at random from `paths` (repeat a path to weigh it).
 */
export async function wrkLoop({
  origin,
  paths,
  headers,
  connections,
  seconds,
}: {
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'pixel-vault-wrk-'));
  const script = join(dir, 'paths.lua');
  writeFileSync(
    script,
    `local paths = { ${paths.map(lua).join(', ')} }
local headers = { ${Object.entries(headers)
      .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
      .join(', ')} }
math.randomseed(os.time())
request = function() return wrk.format("GET", paths[math.random(#paths)], headers) end
done = function(summary, latency, requests)
  -- The process's CPU, all threads: utime and stime, the 14th and 15th fields of /proc/self/stat.
  local stat = io.open("/proc/self/stat"):read("*a")
  local fields = {}
  for field in stat:sub(stat:find(")", 1, true) + 2):gmatch("%S+") do fields[#fields + 1] = field end
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"micros":%d,"badStatus":%d,"socketErrors":%d,"p50":%d,"p99":%d,"ticks":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), tonumber(fields[12]) + tonumber(fields[13])))
end
`,
  );
  try {
    const child = spawn(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, origin],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}): ${out.trim()}`);
    const r = JSON.parse(line) as {
      requests: number;
      micros: number;
      badStatus: number;
      socketErrors: number;
      p50: number;
      p99: number;
      ticks: number;
    };
    return {
      requests: r.requests,
      seconds: r.micros / 1e6,
      badStatus: r.badStatus,
      socketErrors: r.socketErrors,
      p50: r.p50 / 1000,
      p99: r.p99 / 1000,
      cpuSeconds: r.ticks / USER_HZ,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

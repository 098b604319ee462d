import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built server as a child process, for tests that must crash it for real (`kill -9`): no
 * shutdown handler, no `finally`, no flushed buffers, as when the machine loses power (issue 9).
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/**
 * `npm run build -w apps/server` (`tsc -b`, whose project references build packages/shared first).
 * Incremental: when dist is up to date with the sources it only compares and returns (< 1 s).
 */
export function buildServer(): void {
  const result = spawnSync(process.execPath, [TSC, '-b', 'apps/server'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `Building the server failed (tsc -b apps/server, exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/** A port nobody listens on right now (the server does not report the port PORT=0 got). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** stdout and stderr lines (pino JSON lines and the banner), oldest first. */
  logs: string[];
  /** SIGKILL, then waits for the process to be gone. */
  crash(): Promise<void>;
  /** SIGTERM (the graceful shutdown), then waits; SIGKILL if it takes longer than `graceMs`. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Log lines at pino level error (50) or above. */
  errorLines(): string[];
}

export interface StartOptions {
  /** The server's environment on top of PATH and HOME (nothing else is inherited). */
  env: Record<string, string>;
  healthTimeoutMs?: number;
}

const MAX_LOG_LINES = 20_000;

function collectLines(child: ChildProcess, logs: string[]) {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() && logs.length < MAX_LOG_LINES) logs.push(line);
    });
    stream?.on('end', () => {
      if (rest.trim()) logs.push(rest);
    });
  }
}

/** Starts `node apps/server/dist/main.js` on a free port and answers once GET /api/health is 200. */
export async function startServer({ env, healthTimeoutMs = 90_000 }: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  collectLines(child, logs);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const tail = () => logs.slice(-30).join('\n');

  const deadline = Date.now() + healthTimeoutMs;
  for (;;) {
    if (gone) throw new Error(`The server exited before it was healthy:\n${tail()}`);
    const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })
      .then((res) => res.status === 200)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`The server was not healthy within ${healthTimeoutMs} ms:\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    pid: child.pid ?? -1,
    logs,
    async crash() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 20_000) {
      if (!gone) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    errorLines() {
      return logs.filter((line) => {
        try {
          return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
        } catch {
          return false;
        }
      });
    },
  };
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** One JSON call; network failures (refused, reset by a crash) reject. */
export async function callApi(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<ApiAnswer> {
  const res = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a text/plain answer): kept as text.
  }
  return { status: res.status, body };
}

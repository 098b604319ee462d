import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from './server-process.js';

/**
 * Debian's redis-server (package redis-server), which the REDIS_URL tests need: `.ci/run` installs
 * it, and CI fails rather than skip them when it is missing.
 */
export const REDIS_SERVER = 'redis-server';

export const hasRedisServer = (): boolean =>
  spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;

/** Whether the REDIS_URL tests run: wherever redis-server is installed, and always under CI. */
export const runRedisTests = hasRedisServer() || process.env.CI === 'true';

export interface LocalRedis {
  url: string;
  /** Stops the server (as a crash would: SIGKILL) and waits for it to be gone. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Redis on a loopback port (a free one unless given: the same port again is Redis coming
 * back after a crash), in memory only (no dump, no append-only file).
 */
export async function startRedis(port?: number): Promise<LocalRedis & { port: number }> {
  port ??= await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`${REDIS_SERVER} could not be started (apt-get install redis-server): ${error.message}`),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  const stop = (signal: NodeJS.Signals) => stopProcess(child, signal);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => stop('SIGKILL'),
    close: () => stop('SIGTERM'),
  };
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

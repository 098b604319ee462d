import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../test/server-process.js';
import { batchedDestination } from './log-destination.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logFile() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'out.log');
  const fd = openSync(file, 'w');
  const read = () => readFileSync(file, 'utf8');
  const lines = () =>
    read()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; n?: number });
  return { fd, read, lines, close: () => closeSync(fd) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the batched log destination', () => {
  it('holds lines until a batch is full, then writes them all, in order', async () => {
    const out = logFile();
    const log = pino(
      { level: 'info' },
      batchedDestination({ fd: out.fd, batchChars: 2000, flushMs: 60_000 }),
    );
    log.info({ n: 0 }, 'request');
    log.info({ n: 1 }, 'request');
    await settle();
    expect(out.read()).toBe('');

    // About 100 characters a line: the 20th or so fills the batch.
    for (let n = 2; n < 40; n++) log.info({ n }, 'request');
    await vi.waitFor(() => expect(out.lines().length).toBeGreaterThanOrEqual(19));
    const written = out.lines().map((line) => line.n);
    expect(written).toEqual(written.map((_, i) => i));
    out.close();
  });

  it("writes a quiet shop's lines within flushMs, and everything on flush", async () => {
    const out = logFile();
    const log = pino(
      { level: 'info' },
      batchedDestination({ fd: out.fd, batchChars: 1 << 20, flushMs: 100 }),
    );
    log.info('database opened');
    await vi.waitFor(() => expect(out.lines().map((l) => l.msg)).toEqual(['database opened']), {
      timeout: 2000,
    });

    const slow = batchedDestination({ fd: out.fd, batchChars: 1 << 20, flushMs: 60_000 });
    const other = pino({ level: 'info' }, slow);
    other.info('shutting down');
    await settle();
    expect(out.lines()).toHaveLength(1);
    await new Promise<void>((resolve, reject) => other.flush((error) => (error ? reject(error) : resolve())));
    await vi.waitFor(() =>
      expect(out.lines().map((l) => l.msg)).toEqual(['database opened', 'shutting down']),
    );
    out.close();
  });

  it.each([
    ['exits', 'process.exit(0)'],
    ['crashes', "throw new Error('boom')"],
  ])('loses no line when the process %s right after logging', async (_, end) => {
    // A process of its own on a pipe, as the shop runs under systemd or docker: 50 lines (less than
    // one batch), then the end, with no flush called.
    const module = path.join(REPO_ROOT, 'apps/server/src/lib/log-destination.ts');
    const script = [
      `import { pino } from 'pino';`,
      `import { batchedDestination } from ${JSON.stringify(module)};`,
      `const log = pino({ level: 'info' }, batchedDestination({ fd: 1, batchChars: 1 << 20, flushMs: 60_000 }));`,
      `for (let n = 0; n < 50; n++) log.info({ n }, 'request');`,
      end,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(REPO_ROOT, 'apps/server'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, err).toBe(end.startsWith('throw') ? 1 : 0);
    const numbers = out
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, n) => n));
  });
});

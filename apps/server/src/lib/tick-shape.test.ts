import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test/server-process.js';

/**
 * The state of V8's feedback at each computed-key property of the literal that Node's nextTick
 * builds its entries with, read from `%DebugPrint(process.nextTick)` in a process of its own that
 * opens PGlite as the shop does and collects its garbage, then runs enough ticks for the feedback to be
 * in use.
 */
async function tickLiteralFeedback(keep: boolean): Promise<string[]> {
  const src = path.join(REPO_ROOT, 'apps/server/src');
  const script = [
    `import { keepTickShape } from ${JSON.stringify(path.join(src, 'lib/tick-shape.ts'))};`,
    `import { openDatabase } from ${JSON.stringify(path.join(src, 'db/client.ts'))};`,
    keep ? 'keepTickShape();' : '',
    `const handle = await openDatabase({ dataDir: '', inMemory: true });`,
    `await handle.db.execute('select 1');`,
    // PGlite opened in this thread once collected garbage here; on its own thread (issue 28) it does
    // not, but any full collection between ticks does the same.
    'for (let n = 0; n < 10; n++) await new Promise((resolve) => process.nextTick(resolve));',
    'gc(); gc();',
    'for (let n = 0; n < 3000; n++) await new Promise((resolve) => process.nextTick(resolve));',
    `new Function('f', '%DebugPrint(f)')(process.nextTick);`,
    'await handle.close();',
  ].join('\n');
  // %DebugPrint writes through C's stdio, which drops what a non-blocking pipe refuses: a file.
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-tick-'));
  const outFile = path.join(dir, 'out.txt');
  const fd = openSync(outFile, 'w');
  try {
    const child = spawn(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: path.join(REPO_ROOT, 'apps/server'), stdio: ['ignore', fd, 'pipe'] },
    );
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, err).toBe(0);
    const out = readFileSync(outFile, 'utf8');
    return [...out.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

// The literal and V8's rule for it are Node 20's (V8 11.3); another Node is measured on its own.
describe.runIf(process.versions.node.startsWith('20.'))('keepTickShape', () => {
  it('keeps nextTick compiled through the database opening and a full collection, which otherwise leave it megamorphic', async () => {
    const [kept, notKept] = await Promise.all([tickLiteralFeedback(true), tickLiteralFeedback(false)]);
    // The entry's four properties: two symbols, callback and args.
    expect(kept).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
    // The same process without it: what the shop's list answers paid for, 49.7-52.8 us instead of 40.5-46.2.
    expect(notKept).toHaveLength(4);
    expect(notKept).toContain('MEGAMORPHIC');
  }, 60_000);
});

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACES, buildWorkspaces } from './build-stamp.mjs';

// The stamp logic of `npm start` (issue 30) on a small copy of the repository's layout, with a fake
// build that writes each workspace's expected output: which workspaces a start builds, and which it skips.

let root = '';
let built = [];
let failing = new Set();
let builds = 0;

const write = (file, text) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

function fakeBuild(_root, workspace) {
  built.push(workspace.name);
  builds += 1;
  // Half the output, then the failure: as a build cut short by a type error or a Ctrl-C.
  if (failing.has(workspace.name)) {
    write(workspace.expect[0], 'half');
    return false;
  }
  for (const file of workspace.expect) write(file, `built ${builds}`);
  return true;
}

/** One `npm start`'s build step (or `npm run build`'s, with always): the workspaces it built. */
function start({ always = false, env = {} } = {}) {
  built = [];
  const ok = buildWorkspaces({ root, always, build: fakeBuild, env, log: () => {} });
  return { ok, built };
}

const ALL = ['packages/shared', 'apps/server', 'apps/web'];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'pv-stamp-'));
  failing = new Set();
  write('package.json', '{"name":"pixel-vault"}');
  write('package-lock.json', '{"lockfileVersion":3}');
  write('tsconfig.base.json', '{}');
  write('packages/shared/package.json', '{}');
  write('packages/shared/src/index.ts', 'export const a = 1;');
  write('apps/server/tsconfig.json', '{}');
  write('apps/server/src/main.ts', 'console.log(1);');
  write('apps/web/index.html', '<div id="root"></div>');
  write('apps/web/public/favicon.svg', '<svg/>');
  write('apps/web/vite.config.ts', 'export default {};');
  write('apps/web/src/main.tsx', 'render();');
  expect(start()).toEqual({ ok: true, built: ALL });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start with build stamps', () => {
  it('skips every build when nothing changed, even when a file was only touched', () => {
    expect(start().built).toEqual([]);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'apps/server/src/main.ts'), later, later);
    expect(start().built).toEqual([]);
  });

  it.each([
    ['a web source', 'apps/web/src/main.tsx', ['apps/web']],
    ['index.html', 'apps/web/index.html', ['apps/web']],
    ['a public asset', 'apps/web/public/favicon.svg', ['apps/web']],
    ['the web config', 'apps/web/vite.config.ts', ['apps/web']],
    ['a server source', 'apps/server/src/main.ts', ['apps/server']],
    ['the server config', 'apps/server/tsconfig.json', ['apps/server']],
    ['a shared source (built into both apps)', 'packages/shared/src/index.ts', ALL],
    ['the lockfile', 'package-lock.json', ALL],
    ['the root package.json', 'package.json', ALL],
    ['the compiler settings', 'tsconfig.base.json', ALL],
  ])('rebuilds after a change in %s, then skips again', (_, file, expected) => {
    write(file, `${readFileSync(path.join(root, file), 'utf8')}\n// changed`);
    expect(start().built).toEqual(expected);
    expect(start().built).toEqual([]);
  });

  it('rebuilds a workspace when one of its files is added or deleted', () => {
    write('apps/server/src/new.ts', 'export {};');
    expect(start().built).toEqual(['apps/server']);
    rmSync(path.join(root, 'apps/server/src/new.ts'));
    expect(start().built).toEqual(['apps/server']);
  });

  it('rebuilds the web app when a VITE_ variable changes', () => {
    expect(start({ env: { VITE_API_TARGET: 'http://x' } }).built).toEqual(['apps/web']);
    expect(start({ env: { VITE_API_TARGET: 'http://x', PORT: '1' } }).built).toEqual([]);
  });

  it('does not count installed packages, build output or tsc records as inputs', () => {
    write('apps/server/node_modules/x/index.js', 'x');
    write('apps/server/tsconfig.tsbuildinfo', '{}');
    write('apps/web/data/db', 'x');
    expect(start().built).toEqual([]);
  });

  it('rebuilds a deleted dist, a missing output file and an output rewritten since its build', () => {
    rmSync(path.join(root, 'apps/web/dist'), { recursive: true });
    expect(start().built).toEqual(['apps/web']);
    rmSync(path.join(root, 'apps/server/dist/main.js'));
    expect(start().built).toEqual(['apps/server']);
    write('packages/shared/dist/extra.js', 'left over');
    expect(start().built).toEqual(['packages/shared']);
    expect(start().built).toEqual([]);
  });

  it('does not count an output written again with the same content (tsc -b in npm run typecheck)', () => {
    const main = path.join(root, 'apps/server/dist/main.js');
    write('apps/server/dist/main.js', readFileSync(main, 'utf8'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(main, later, later);
    expect(start().built).toEqual([]);
  });

  it("drops tsc's incremental record when the output is not what a build left, and only then", () => {
    const buildInfo = path.join(root, 'apps/server/tsconfig.tsbuildinfo');
    write('apps/server/tsconfig.tsbuildinfo', '{}');
    // Sources changed, output as built or as another tsc run built it from them: incremental is right.
    write('apps/server/src/main.ts', 'console.log(2);');
    expect(start().built).toEqual(['apps/server']);
    write('apps/server/src/main.ts', 'console.log(3);');
    write('apps/server/dist/main.js', 'emitted by npm run typecheck');
    expect(start().built).toEqual(['apps/server']);
    expect(existsSync(buildInfo)).toBe(true);
    // Output deleted: tsc -b would find its record up to date and write nothing.
    rmSync(path.join(root, 'apps/server/dist'), { recursive: true });
    expect(start().built).toEqual(['apps/server']);
    expect(existsSync(buildInfo)).toBe(false);
    // Output changed while the sources did not: the same.
    write('apps/server/tsconfig.tsbuildinfo', '{}');
    write('apps/server/dist/main.js', 'cut sh');
    expect(start().built).toEqual(['apps/server']);
    expect(existsSync(buildInfo)).toBe(false);
  });

  it('builds again after a failed or cut-short build, and stops at the failure', () => {
    write('packages/shared/src/index.ts', 'export const a = 2;');
    failing.add('apps/server');
    expect(start()).toEqual({ ok: false, built: ['packages/shared', 'apps/server'] });
    failing.clear();
    // The shared package was stamped; the server (half written) and the web app (not reached) were not.
    expect(start()).toEqual({ ok: true, built: ['apps/server', 'apps/web'] });
    expect(start().built).toEqual([]);
  });

  it('npm run build (always) builds everything, and a start after it builds nothing', () => {
    expect(start({ always: true }).built).toEqual(ALL);
    expect(start().built).toEqual([]);
  });

  it('knows the real layout: every workspace names outputs the build must leave', () => {
    expect(WORKSPACES.map((w) => w.name)).toEqual(ALL);
    for (const workspace of WORKSPACES) expect(workspace.expect.length).toBeGreaterThan(0);
  });
});

// Build stamps (issue 30): `npm start` builds a workspace only when what its build reads changed since
// its last successful build, or when its output is not exactly what that build left. Used by
// scripts/start.mjs (build what changed, then serve) and scripts/build.mjs (always build).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What every build reads besides its own folders: the dependency versions and the compiler settings. */
export const ROOT_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json'];

/**
 * In build order. `inputs`: folders whose every file counts (the shared package's sources are compiled
 * into the server's references and bundled into the web app); `outputs`: what the build writes;
 * `expect`: files a good build must leave; `buildInfo`: tsc's incremental record, which says "up to
 * date" even when dist was deleted, so it goes when the output is not what a build left.
 */
export const WORKSPACES = [
  {
    name: 'packages/shared',
    inputs: ['packages/shared'],
    outputs: ['packages/shared/dist'],
    expect: ['packages/shared/dist/index.js'],
    buildInfo: 'packages/shared/tsconfig.tsbuildinfo',
  },
  {
    name: 'apps/server',
    inputs: ['apps/server', 'packages/shared'],
    outputs: ['apps/server/dist'],
    expect: ['apps/server/dist/main.js'],
    buildInfo: 'apps/server/tsconfig.tsbuildinfo',
  },
  {
    name: 'apps/web',
    inputs: ['apps/web', 'packages/shared'],
    outputs: ['apps/web/dist'],
    expect: ['apps/web/dist/index.html', 'apps/web/dist/.ssr/entry-server.js'],
    // Vite reads VITE_* variables into the bundle.
    env: /^VITE_/,
  },
];

/** Never inputs: installed packages, build output, test and run leftovers (at a workspace's top only). */
const SKIP_TOP = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-results', 'playwright-report']);
const SKIP_ANYWHERE = new Set(['node_modules', '.DS_Store']);
const SKIP_FILE = /\.tsbuildinfo$/;

/** Every file under `dir` (relative to root, `/`-separated, sorted), skipping what is never an input. */
function listFiles(root, dir, { skipTop = SKIP_TOP } = {}) {
  const files = [];
  const walk = (relative, top) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (SKIP_ANYWHERE.has(entry.name) || (top && skipTop.has(entry.name))) continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child, false);
      else if (!SKIP_FILE.test(entry.name)) files.push(child);
    }
  };
  walk(dir, true);
  return files.sort();
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

function contentHash(root, file) {
  const full = path.join(root, file);
  try {
    return sha256(lstatSync(full).isSymbolicLink() ? `link:${readlinkSync(full)}` : readFileSync(full));
  } catch (error) {
    // Deleted since the folder was read (an editor's swap file, another build): a change like any other.
    if (error.code === 'ENOENT') return 'gone';
    throw error;
  }
}

/** Each input file's content hash, by path (and the build's environment, as `env:NAME`). */
export function inputHashes(root, workspace, env = process.env) {
  const files = new Set(ROOT_INPUTS.filter((file) => existsSync(path.join(root, file))));
  for (const dir of workspace.inputs) for (const file of listFiles(root, dir)) files.add(file);
  const hashes = {};
  for (const file of [...files].sort()) hashes[file] = contentHash(root, file);
  if (workspace.env) {
    for (const name of Object.keys(env).sort())
      if (workspace.env.test(name)) hashes[`env:${name}`] = sha256(env[name] ?? '');
  }
  return hashes;
}

/**
 * The output as it is on disk: every file's path and content. By content, so that a tool writing the
 * same files again (`tsc -b` in `npm run typecheck` or in a test) does not count as a change.
 */
export function outputFingerprint(root, workspace) {
  const hash = createHash('sha256');
  for (const dir of workspace.outputs) {
    for (const file of listFiles(root, dir, { skipTop: new Set() }))
      hash.update(`${file}\0${contentHash(root, file)}\n`);
  }
  return hash.digest('hex');
}

const stampFile = (stampDir, workspace) =>
  path.join(stampDir, `${workspace.name.replaceAll('/', '__')}.json`);

export function defaultStampDir(root = REPO_ROOT) {
  return path.join(root, 'node_modules', '.cache', 'pixel-vault-build');
}

function readStamp(stampDir, workspace) {
  try {
    return JSON.parse(readFileSync(stampFile(stampDir, workspace), 'utf8'));
  } catch {
    return undefined;
  }
}

function removeStamp(stampDir, workspace) {
  rmSync(stampFile(stampDir, workspace), { force: true });
}

function writeStamp(stampDir, workspace, stamp) {
  mkdirSync(stampDir, { recursive: true });
  const file = stampFile(stampDir, workspace);
  // Written whole or not at all (a rename), so a stamp never describes half a build.
  writeFileSync(`${file}.tmp`, JSON.stringify(stamp));
  renameSync(`${file}.tmp`, file);
}

/**
 * Whether `workspace` must be built, and why. `inputs` are the hashes read now (passed in, so the
 * stamp written after the build names what was read before it: an edit during the build is seen next
 * time). `fromScratch`: the output is not what a build of any sources left (deleted, or changed while
 * the sources did not), so tsc's incremental record, which would call it up to date, must go.
 */
export function check(root, workspace, stampDir, inputs) {
  const missing = workspace.expect.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length > 0) return { build: true, fromScratch: true, reason: `${missing[0]} is missing` };
  const stamp = readStamp(stampDir, workspace);
  if (!stamp) return { build: true, fromScratch: false, reason: 'no finished build recorded' };
  const changed = Object.keys({ ...stamp.inputs, ...inputs }).filter(
    (key) => stamp.inputs[key] !== inputs[key],
  );
  const outputKept = stamp.output === outputFingerprint(root, workspace);
  if (changed.length > 0) {
    // A changed output here is most likely another tool's build of the new sources (npm run typecheck).
    const shown = changed.slice(0, 3).join(', ');
    return {
      build: true,
      fromScratch: false,
      reason: `${changed.length} changed: ${shown}${changed.length > 3 ? ', ...' : ''}`,
    };
  }
  if (!outputKept) {
    return {
      build: true,
      fromScratch: true,
      reason: `${workspace.outputs.join(', ')} is not as its last build left it`,
    };
  }
  return { build: false, fromScratch: false, reason: 'unchanged since its last build' };
}

/** `npm run build -w <workspace>`, output shown; answers whether it succeeded. */
export function npmBuild(root, workspace) {
  const result = spawnSync('npm', ['run', 'build', '-w', workspace.name], { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

/**
 * Builds the workspaces that need it (every one with `always`), in order, stamping each after its
 * build succeeded. Answers true when all are built or up to date; stops at the first failed build.
 */
export function buildWorkspaces({
  root = REPO_ROOT,
  workspaces = WORKSPACES,
  stampDir = defaultStampDir(root),
  always = false,
  build = npmBuild,
  env = process.env,
  log = (line) => console.log(line),
} = {}) {
  for (const workspace of workspaces) {
    const inputs = inputHashes(root, workspace, env);
    const state = check(root, workspace, stampDir, inputs);
    if (!always && !state.build) {
      log(`${workspace.name}: ${state.reason}, not rebuilt`);
      continue;
    }
    log(`${workspace.name}: building (${always ? 'npm run build' : state.reason})`);
    // No stamp while the build runs: one cut short leaves none, so the next start builds again.
    removeStamp(stampDir, workspace);
    if (state.fromScratch && workspace.buildInfo)
      rmSync(path.join(root, workspace.buildInfo), { force: true });
    if (!build(root, workspace)) {
      log(`${workspace.name}: the build failed`);
      return false;
    }
    const missing = workspace.expect.filter((file) => !existsSync(path.join(root, file)));
    if (missing.length > 0) {
      log(`${workspace.name}: the build succeeded but wrote no ${missing.join(', ')}`);
      return false;
    }
    writeStamp(stampDir, workspace, { inputs, output: outputFingerprint(root, workspace) });
  }
  return true;
}

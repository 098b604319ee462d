#!/usr/bin/env node
// npm run bench: builds, then runs every benchmark in turn (each prints its figures and updates
// bench/RESULTS.md). Exits non-zero when any benchmark failed or missed its target, after running all.
import { spawnSync } from 'node:child_process';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;

if (process.env.BENCH_SKIP_BUILD !== '1' && run('npm', ['run', 'build']) !== 0) process.exit(1);
const failed = [
  'bench/run.ts',
  // Issue 37: the catalogue with GET /metrics on against off (at most 5% fewer req/s).
  'bench/metrics.ts',
  'bench/lighthouse.ts',
  'bench/early-taps.ts',
  'bench/checkout.ts',
  'bench/mixed.ts',
  'bench/soak.ts',
  'bench/login-flood.ts',
  'bench/large-catalogue.ts',
  'bench/search.ts',
  'bench/cluster.ts',
].filter((file) => run('npx', ['tsx', file]) !== 0);
if (failed.length > 0) {
  console.error(`Missed a target or failed: ${failed.join(', ')}`);
  process.exit(1);
}

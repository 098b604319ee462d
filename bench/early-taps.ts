// Early taps (issue 29): the built shop, started as `npm start` starts it (the demo catalogue, default
// settings, a fresh embedded database), in Chromium on the Pixel 7 preset with the CPU 4x slower and a
// 4G network (DevTools' Fast 4G; e2e/early/controls.ts says why). Every control of e2e/early/controls.ts
// is used the moment it shows, 20 times, each time in a fresh browser context: a run takes effect exactly
// once, is lost (nothing happens), doubled (more than once), undone (it showed, then went away) or failed
// (another error). Reports those counts and, over the runs that took effect once, the p50 and p95 time
// from the control showing to its effect. Target: every run of every control takes effect exactly once
// (judged on the last build listed: this one, by default).
//
// BENCH_BUILDS="before=/path/to/other/checkout,after=." measures several builds side by side in one run:
// a server for each, the runs of each control alternating between them. BENCH_EARLY_RUNS sets the runs,
// BENCH_EARLY_ONLY (a regular expression) picks controls by name, BENCH_EARLY_VERBOSE=1 prints every run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, devices, type Browser } from 'playwright-core';
import {
  ADMIN,
  CPU_SLOWDOWN,
  NETWORK,
  type EarlyResult,
  type Scenario,
  controls,
  runEarly,
  shopApi,
} from '../e2e/early/controls.js';
import { type Build, builds, percentile, stopChild, waitFor } from './lib.js';
import { writeSection } from './results.js';

const RUNS = Number(process.env.BENCH_EARLY_RUNS ?? 20);
const FIRST_PORT = 3341;
const DEVICE = 'Pixel 7';
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** BENCH_EARLY_VERBOSE=1 prints every run, not only those that missed. */
const verbose = process.env.BENCH_EARLY_VERBOSE === '1';
/** BENCH_EARLY_ONLY=<regular expression> runs only the controls whose name it matches. */
const only = new RegExp(process.env.BENCH_EARLY_ONLY ?? '', 'i');

interface Shop {
  build: Build;
  base: string;
  process: ChildProcess;
  dataDir: string;
}

function startShop(build: Build, index: number): Shop {
  const port = FIRST_PORT + index;
  const dataDir = mkdtempSync(join(tmpdir(), 'pixel-vault-bench-early-'));
  const child = spawn(process.execPath, [build.main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { build, base: `http://127.0.0.1:${port}`, process: child, dataDir };
}

async function stopShop(shop: Shop): Promise<void> {
  await stopChild(shop.process);
  rmSync(shop.dataDir, { recursive: true, force: true });
}

/** One run in a fresh context (nothing stored from another run), on the phone preset. */
async function runOnce(browser: Browser, scenario: Scenario): Promise<EarlyResult> {
  const { defaultBrowserType: _, ...phone } = devices[DEVICE]!;
  const context = await browser.newContext(phone);
  try {
    return await runEarly(await context.newPage(), scenario);
  } catch (error) {
    return {
      outcome: 'failed',
      effectMs: null,
      readyMs: null,
      detail: `${scenario.name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  } finally {
    await context.close();
  }
}

interface Row {
  control: string;
  build: string;
  results: EarlyResult[];
}

async function main() {
  const list = builds();
  const shops: Shop[] = [];
  let browser: Browser | undefined;
  const rows: Row[] = [];
  const started = Date.now();
  let version = '';
  try {
    for (const [index, build] of list.entries()) shops.push(startShop(build, index));
    await Promise.all(shops.map((shop) => waitFor(`${shop.base}/api/health`)));
    browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox'] });
    version = browser.version();
    for (const control of controls.filter((c) => only.test(c.name))) {
      const byShop: Row[] = shops.map((shop) => ({
        control: control.name,
        build: shop.build.label,
        results: [],
      }));
      rows.push(...byShop);
      const scenarios: (Scenario | undefined)[] = [];
      for (const [i, shop] of shops.entries()) {
        // Product ids differ per database: each shop's scenario is made from its own API.
        try {
          scenarios[i] = await control.scenario(shopApi(shop.base));
        } catch (error) {
          // The catalogue has nothing to try this control on: a failed row, not a skipped one.
          const detail = `${control.name}: no scenario: ${error instanceof Error ? error.message : String(error)}`;
          byShop[i]!.results.push({ outcome: 'failed', effectMs: null, readyMs: null, detail });
          console.error(`  ${shop.build.label}: ${detail}`);
        }
      }
      for (let run = 0; run < RUNS; run++) {
        for (const [i, scenario] of scenarios.entries()) {
          if (!scenario) continue;
          const result = await runOnce(browser, scenario);
          byShop[i]!.results.push(result);
          if (result.outcome !== 'once' || verbose)
            console.error(
              `  ${byShop[i]!.build}, run ${run + 1}: ${result.outcome}, effect ${result.effectMs} ms, ready ${result.readyMs} ms: ${result.detail}`,
            );
        }
      }
      for (const row of byShop) console.log(line(row, ' | '));
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await Promise.all(shops.map(stopShop));
  }

  const report = [
    `Run ${new Date().toISOString()} on ${cpus().length} cores, Node ${process.version}, Chromium ${version}, in ${Math.round((Date.now() - started) / 60_000)} min. The built shop as \`npm start\` starts it (the demo catalogue, default settings, a fresh embedded database); Chromium with Playwright's ${DEVICE} preset (touch taps), the CPU ${CPU_SLOWDOWN}x slower and the network at DevTools' ${NETWORK.name} (${NETWORK.latency} ms a round trip, ${Math.round((NETWORK.downloadThroughput * 8) / 1024)} kbit/s down), both set before the page is asked for. Each control of e2e/early/controls.ts is used the moment it shows, ${RUNS} times, each in a fresh browser context; then the app must start, the effect show, and after 1 s (and no tap left waiting) still show exactly once. Lost: nothing happened within 5 s of the app starting. Undone: it showed, then went away. Times: from the control showing to its effect, over the runs that took effect once. Target: every run takes effect exactly once.`,
    '',
    '| control | build | once | lost | doubled | undone / failed | p50 ms | p95 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${line(row, ' | ')} |`),
  ].join('\n');
  console.log(`\n${report}\n`);
  writeSection('early-taps', 'Controls used the moment they show (issue 29)', report);

  const judged = rows.filter((row) => row.build === list.at(-1)!.label);
  const missed = judged.filter((row) => row.results.some((r) => r.outcome !== 'once'));
  if (missed.length > 0) {
    console.error(`Not every run took effect exactly once: ${missed.map((row) => row.control).join('; ')}`);
    process.exitCode = 1;
  }
}

function line(row: Row, separator = '  '): string {
  const count = (...outcomes: EarlyResult['outcome'][]) =>
    row.results.filter((r) => outcomes.includes(r.outcome)).length;
  const times = row.results
    .filter((r) => r.outcome === 'once' && r.effectMs !== null)
    .map((r) => r.effectMs!)
    .sort((a, b) => a - b);
  const ms = (p: number) => (times.length ? String(Math.round(percentile(times, p))) : '–');
  return [
    row.control,
    row.build,
    count('once'),
    count('lost'),
    count('doubled'),
    count('undone', 'failed'),
    ms(50),
    ms(95),
  ].join(separator);
}

await main();

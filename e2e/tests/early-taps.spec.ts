// Early taps (issue 29): on a phone (CPU 4x slower, a 4G network), every control used the moment it
// shows takes effect exactly once, on the pages the server renders (whose app starts a while later) and
// on those the browser draws. Each control is tried 3 times, each time in a fresh browser context
// (nothing stored). The scenarios and the runner live in e2e/early/controls.ts, which bench/early-taps.ts
// runs 20 times a control.
//
// Playwright's base `test`, not fixtures.ts's: its `goto` waits for the app to be ready, and these taps
// must come before that. Not tagged @phone: the 'desktop' project runs them once, on the phone set here.
import { devices, expect, test } from '@playwright/test';
import { controls, runEarly, shopApi } from '../early/controls';

const RUNS = 3;

// A trace's DOM snapshots, taken before each action, would hold the tap back by hundreds of ms on the
// slowed page (long enough for the app to start first): the trace keeps the actions and network only.
test.use({ ...devices['Pixel 7'], trace: { mode: 'retain-on-failure', snapshots: false } });

test.describe('a control used the moment it shows takes effect exactly once', { tag: '@early' }, () => {
  for (const control of controls) {
    test.describe(control.name, () => {
      for (let run = 1; run <= RUNS; run++) {
        test(`run ${run}`, async ({ page, baseURL }) => {
          test.setTimeout(120_000);
          const scenario = await control.scenario(shopApi(baseURL!));
          const result = await runEarly(page, scenario);
          test.info().annotations.push({
            type: 'early tap',
            description: `${result.outcome}: effect ${result.effectMs} ms and app ready ${result.readyMs} ms after the control showed`,
          });
          expect(result.outcome, result.detail).toBe('once');
        });
      }
    });
  }
});

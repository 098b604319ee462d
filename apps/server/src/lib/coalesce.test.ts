import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce.js';

/** A send whose runs the test finishes by hand. */
function manualSend() {
  const runs: (() => void)[] = [];
  const send = () => new Promise<void>((resolve) => runs.push(resolve));
  const settle = async () => {
    runs.shift()?.();
    // Lets the finally of the settled run start the next one.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { send, runs, settle };
}

describe('coalesce', () => {
  it('folds the calls made while a run is in flight into one more run after it', async () => {
    const { send, runs, settle } = manualSend();
    const notify = coalesce(send, () => {});
    notify();
    notify();
    notify();
    notify();
    expect(runs).toHaveLength(1);
    await settle();
    // The three calls made during the first run: one run, started after it.
    expect(runs).toHaveLength(1);
    await settle();
    expect(runs).toHaveLength(0);
    notify();
    expect(runs).toHaveLength(1);
  });

  it('keeps running after a failed send, and reports the failure', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const notify = coalesce(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('connection lost');
      },
      (error) => errors.push(error),
    );
    notify();
    await new Promise((resolve) => setTimeout(resolve, 0));
    notify();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('connection lost')]);
  });
});

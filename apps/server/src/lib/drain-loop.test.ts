import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DrainLoop, drainLoop } from './drain-loop.js';

/** A drain whose batches the test answers one at a time. */
function gatedDrain() {
  const waiting: Array<(full: boolean) => void> = [];
  const drainOnce = vi.fn(
    () =>
      new Promise<boolean>((resolve) => {
        waiting.push(resolve);
      }),
  );
  return {
    drainOnce,
    /** Finishes the oldest batch in progress, as full or not. */
    finish(full: boolean) {
      const next = waiting.shift();
      if (!next) throw new Error('no batch in progress');
      next(full);
    },
    /** Finishes every batch in progress (so a stop can end). */
    flush() {
      for (const next of waiting.splice(0)) next(false);
    },
    get inProgress() {
      return waiting.length;
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('drainLoop', () => {
  let loop: DrainLoop | undefined;
  let drain: ReturnType<typeof gatedDrain>;
  afterEach(async () => {
    vi.useRealTimers();
    const stopping = loop?.stop();
    drain?.flush();
    await stopping;
    loop = undefined;
  });

  it('drains at start, again while batches come back full, then waits for the poll', async () => {
    vi.useFakeTimers();
    drain = gatedDrain();
    const afterDrain = vi.fn(async () => {});
    loop = drainLoop({ drainOnce: drain.drainOnce, afterDrain, pollMs: 1000, onError: vi.fn() });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(drain.drainOnce).toHaveBeenCalledTimes(1);

    drain.finish(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(drain.drainOnce).toHaveBeenCalledTimes(2);
    drain.finish(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(afterDrain).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(drain.drainOnce).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(drain.drainOnce).toHaveBeenCalledTimes(3);
  });

  it('a kick during a drain drains once more right after it, never two at a time', async () => {
    drain = gatedDrain();
    loop = drainLoop({ drainOnce: drain.drainOnce, pollMs: 60_000, onError: vi.fn() });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(drain.inProgress).toBe(1);

    loop.kick();
    loop.kick();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(drain.inProgress).toBe(1);

    drain.finish(false);
    await turn();
    expect(drain.drainOnce).toHaveBeenCalledTimes(2);
    drain.finish(false);
    await turn();
    expect(drain.drainOnce).toHaveBeenCalledTimes(2);
  });

  it('reports a failed drain and polls again as planned', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const drainOnce = vi
      .fn<() => Promise<boolean>>()
      .mockRejectedValueOnce(new Error('database away'))
      .mockResolvedValue(false);
    loop = drainLoop({ drainOnce, pollMs: 500, onError });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database away' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(drainOnce).toHaveBeenCalledTimes(2);
  });

  it('stop waits for the drain in progress, and nothing runs after it', async () => {
    drain = gatedDrain();
    loop = drainLoop({ drainOnce: drain.drainOnce, pollMs: 1, onError: vi.fn() });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 5));
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await turn();
    expect(stopped).toBe(false);
    drain.finish(true);
    await stopping;
    loop.kick();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(drain.drainOnce).toHaveBeenCalledTimes(1);
  });
});

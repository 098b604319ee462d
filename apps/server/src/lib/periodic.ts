/** A background job run now and then every `intervalMs`, one run at a time, stopped cleanly. */
export interface Periodic {
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `work` at start and every `intervalMs` (the timer does not keep the process alive). A run
 * still going when the next is due is not doubled; a failed run is reported to `onError` and the
 * next one happens as planned.
 */
export function periodic(
  work: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  function tick() {
    if (running) return;
    running = work()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/** A worker that drains a queue table: now, then every `pollMs`, and at once when kicked. */
export interface DrainLoop {
  start(): void;
  /** Stops polling and waits for a drain in progress. */
  stop(): Promise<void>;
  /** Drains now (or right after the drain in progress) instead of at the next poll. */
  kick(): void;
}

export interface DrainLoopOptions {
  /** Works one batch; answers true when the batch was full, so more may be waiting. */
  drainOnce: () => Promise<boolean>;
  /** Runs after the queue is drained, before the next poll (housekeeping such as pruning). */
  afterDrain?: () => Promise<void>;
  pollMs: number;
  /** A drain that threw; the loop polls again as planned. */
  onError: (error: unknown) => void;
}

/**
 * Keeps draining while batches come back full or a kick arrived during the drain, then waits
 * `pollMs`. One drain runs at a time; the timer does not keep the process alive. `lib/periodic.ts`
 * is the fixed-interval twin for jobs that are never kicked.
 */
export function drainLoop({ drainOnce, afterDrain, pollMs, onError }: DrainLoopOptions): DrainLoop {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  function schedule(delayMs: number) {
    if (!started) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        let full = true;
        while (started && (full || again)) {
          again = false;
          full = await drainOnce();
        }
        if (started && afterDrain) await afterDrain();
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
        schedule(pollMs);
      }
    })();
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await running;
    },
    kick() {
      if (started) schedule(0);
    },
  };
}

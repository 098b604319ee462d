/**
 * Runs `send` for a burst of calls at most twice: the first call starts it, calls while it runs are
 * folded into one more run after it. Each run starts after every call made before it, so the last
 * run always follows the last call: nothing is missed, and a busy shop sends one message per round
 * trip instead of one per change (issue 13: one NOTIFY per paid order took PostgreSQL's global
 * notify lock at every commit). Failures go to `onError` and do not stop later runs.
 */
export function coalesce(send: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = () => {
    running = true;
    again = false;
    send()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) run();
      });
  };
  return () => {
    if (running) again = true;
    else run();
  };
}

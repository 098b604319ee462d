// Loaded into the shop by bench/soak.ts (node --expose-gc --import): on SIGUSR2 it collects twice and
// writes the heap in use and the RSS to stderr as one line, so the soak reads them without changing
// the shop. Nothing else.
import { writeSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  writeSync(2, `pv-heap ${JSON.stringify({ heapUsed, rss })}\n`);
});

import { executionAsyncResource } from 'node:async_hooks';

/** The tick entry held for the life of the process; see keepTickShape. */
const held: { tick?: object } = {};

/**
 * Holds one of Node's `process.nextTick` entries for the life of the process, so that V8 never
 * collects the hidden class ("map") those entries share.
 *
 * Node 20 builds every entry with one object literal whose first keys are computed (symbols), and
 * V8 remembers at that literal which map each key is added to. For such a literal, V8 does not go
 * polymorphic: the first other map it sees makes the site megamorphic, for good, and nextTick then
 * adds its properties through a slower generic path. Between ticks nothing holds the maps but weak
 * references, so a garbage collection can take them and the next tick builds new ones. Opening
 * PGlite in this thread did exactly that: after it, the sites were megamorphic in every run looked
 * at, and a cached catalogue answer cost 49.7-52.8 us of CPU instead of 40.5-46.2 (issue 10, five
 * alternating runs each). PGlite now runs on a thread of its own (issue 28), but any full collection
 * between ticks does the same.
 *
 * Call it first, before PGlite opens: the held entry keeps its map, and every map it came from,
 * alive. On a Node that builds its entries differently, it holds one small object and changes
 * nothing else. tick-shape.test.ts reads the V8 feedback itself, with and without it.
 */
export function keepTickShape(): void {
  // Inside a nextTick callback, the "current resource" is that tick's own entry.
  process.nextTick(() => {
    held.tick = executionAsyncResource();
  });
}

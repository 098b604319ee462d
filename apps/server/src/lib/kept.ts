/**
 * Values kept in memory for a while, by key: the catalogue's answers and id lists, the sitemap's files.
 *
 * - Fresh for `ttlMs`: the kept value, as it is (not in a promise: a hit costs no microtask).
 * - Past it, for one `ttlMs` more: still the kept value, while a single refresh runs
 *   (stale-while-revalidate). The askers of a busy key never queue behind its refresh, and staleness
 *   stays bounded by two TTLs.
 * - Older or missing: the load's promise, shared by everyone who asks meanwhile, so concurrent misses
 *   make one query instead of stampeding the database.
 * - `clear()` drops everything at once, and a load that started before it keeps its value out: what
 *   a write made stale is never served again.
 *
 * Bounded by a number of entries and by their total size, both required (issue 28: a cache that one
 * of them does not bound grows with every distinct key a visitor can make up); the oldest go first.
 */
export interface KeptValues<T> {
  /**
   * `load` is told the expired value it replaces, if any (to reuse what did not change). A kept value
   * that `usable` refuses (it shows something that has changed since) is not served: it is loaded
   * again, and the askers wait for that.
   */
  get(
    key: string,
    load: (previous: T | undefined) => Promise<T>,
    usable?: (value: T) => boolean,
  ): T | Promise<T>;
  clear(): void;
}

export interface KeptValuesOptions<T> {
  ttlMs: number;
  now?: () => number;
  maxEntries: number;
  /**
   * What a value counts for against `maxSize` (a string's length, a body's bytes); its key's length
   * and ENTRY_COST are added for the entry itself. A value above `maxSize` is not kept.
   */
  sizeOf: (value: T) => number;
  maxSize: number;
}

/** What an entry costs besides its value (its key, the map's slot, the timestamps), as counted. */
export const ENTRY_COST = 256;

interface Entry<T> {
  value: T;
  expiresAt: number;
  size: number;
}

export function keptValues<T>({
  ttlMs,
  now = Date.now,
  maxEntries,
  sizeOf,
  maxSize,
}: KeptValuesOptions<T>): KeptValues<T> {
  const kept = new Map<string, Entry<T>>();
  const inFlight = new Map<string, Promise<T>>();
  let size = 0;
  let generation = 0;

  function store(key: string, value: T) {
    const old = kept.get(key);
    if (old) {
      kept.delete(key);
      size -= old.size;
    }
    const valueSize = sizeOf(value) + key.length + ENTRY_COST;
    if (valueSize > maxSize || maxEntries < 1) return;
    // Map iteration is insertion order: drop the oldest until this one fits.
    for (const [oldestKey, oldest] of kept) {
      if (kept.size < maxEntries && size + valueSize <= maxSize) break;
      kept.delete(oldestKey);
      size -= oldest.size;
    }
    kept.set(key, { value, expiresAt: now() + ttlMs, size: valueSize });
    size += valueSize;
  }

  return {
    get(key, load, usable) {
      let entry = kept.get(key);
      if (entry && usable && !usable(entry.value)) {
        kept.delete(key);
        size -= entry.size;
        entry = undefined;
      }
      const at = now();
      if (entry && entry.expiresAt > at) return entry.value;
      let pending = inFlight.get(key);
      if (!pending) {
        const startedAt = generation;
        const promise = load(entry?.value)
          .then((value) => {
            if (generation === startedAt) store(key, value);
            return value;
          })
          .finally(() => {
            if (inFlight.get(key) === promise) inFlight.delete(key);
          });
        // A refresh nobody waits for must not fail unhandled; whoever waits sees its error.
        promise.catch(() => {});
        inFlight.set(key, promise);
        pending = promise;
      }
      return entry && entry.expiresAt + ttlMs > at ? entry.value : pending;
    },
    clear() {
      generation += 1;
      kept.clear();
      size = 0;
      // Askers from now on must not join a load that may have read the old rows.
      inFlight.clear();
    },
  };
}

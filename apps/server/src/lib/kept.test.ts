import { describe, expect, it } from 'vitest';
import { keptValues } from './kept.js';

/** A load the test settles by hand, counting its calls. */
function manualLoads<T>() {
  const calls: { previous: T | undefined; resolve: (value: T) => void; reject: (e: Error) => void }[] = [];
  const load = (previous: T | undefined) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ previous, resolve, reject });
    });
  return { calls, load };
}

describe('keptValues', () => {
  it('shares one load between concurrent askers, then answers the value itself (no promise)', async () => {
    const kept = keptValues<string>({ ttlMs: 1000, now: () => 0 });
    const { calls, load } = manualLoads<string>();
    const a = kept.get('k', load);
    const b = kept.get('k', load);
    expect(calls).toHaveLength(1);
    expect(a).toBe(b);
    calls[0]!.resolve('v1');
    expect(await a).toBe('v1');
    expect(kept.get('k', load)).toBe('v1');
    expect(calls).toHaveLength(1);
  });

  it('drops the oldest entries beyond maxEntries, and beyond maxSize by sizeOf', async () => {
    const byCount = keptValues<string>({ ttlMs: 1000, now: () => 0, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await byCount.get(key, async () => key.toUpperCase());
    let loads = 0;
    const counted = async () => {
      loads += 1;
      return 'again';
    };
    expect(byCount.get('b', counted)).toBe('B');
    expect(byCount.get('c', counted)).toBe('C');
    expect(await byCount.get('a', counted)).toBe('again');
    expect(loads).toBe(1);

    const bySize = keptValues<string>({ ttlMs: 1000, now: () => 0, sizeOf: (v) => v.length, maxSize: 10 });
    await bySize.get('x', async () => 'xxxx');
    await bySize.get('y', async () => 'yyyy');
    await bySize.get('z', async () => 'zzzz');
    // 12 characters do not fit in 10: x, the oldest, went.
    expect(bySize.get('y', counted)).toBe('yyyy');
    expect(bySize.get('z', counted)).toBe('zzzz');
    expect(await bySize.get('x', counted)).toBe('again');
    // A value larger than maxSize is answered but not kept.
    await bySize.get('big', async () => 'b'.repeat(11));
    expect(await bySize.get('big', counted)).toBe('again');
    expect(loads).toBe(3);
  });

  it('keeps a load that started before clear() out of the store, and starts a new one after it', async () => {
    const kept = keptValues<string>({ ttlMs: 1000, now: () => 0 });
    const { calls, load } = manualLoads<string>();
    const before = kept.get('k', load);
    kept.clear();
    const after = kept.get('k', load);
    expect(calls).toHaveLength(2);
    calls[0]!.resolve('old');
    calls[1]!.resolve('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(kept.get('k', load)).toBe('new');
  });

  it('serves a value past its TTL while one refresh runs, told the value it replaces', async () => {
    let now = 0;
    const kept = keptValues<string>({ ttlMs: 1000, now: () => now });
    const { calls, load } = manualLoads<string>();
    const first = kept.get('k', load);
    calls[0]!.resolve('v1');
    await first;
    now = 1500;
    expect(kept.get('k', load)).toBe('v1');
    expect(kept.get('k', load)).toBe('v1');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.previous).toBe('v1');
    calls[1]!.resolve('v2');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(kept.get('k', load)).toBe('v2');
    // Two TTLs old: the asker waits for the load.
    now = 1500 + 2001;
    const waited = kept.get('k', load);
    expect(waited).toBeInstanceOf(Promise);
    calls[2]!.resolve('v3');
    expect(await waited).toBe('v3');
  });
});

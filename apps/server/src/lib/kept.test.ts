import { describe, expect, it } from 'vitest';
import { ENTRY_COST, keptValues } from './kept.js';

/** Bounds that no test here reaches. */
const roomy = { maxEntries: 1000, sizeOf: (v: string) => v.length, maxSize: 1_000_000 };

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
    const kept = keptValues<string>({ ...roomy, ttlMs: 1000, now: () => 0 });
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
    const byCount = keptValues<string>({ ...roomy, ttlMs: 1000, now: () => 0, maxEntries: 2 });
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

    // An entry counts its value, its key and ENTRY_COST: two of these fit, three do not.
    const entry = 4 + 1 + ENTRY_COST;
    const bySize = keptValues<string>({ ...roomy, ttlMs: 1000, now: () => 0, maxSize: 2 * entry + 3 });
    await bySize.get('x', async () => 'xxxx');
    await bySize.get('y', async () => 'yyyy');
    await bySize.get('z', async () => 'zzzz');
    // Three entries do not fit: x, the oldest, went.
    expect(bySize.get('y', counted)).toBe('yyyy');
    expect(bySize.get('z', counted)).toBe('zzzz');
    expect(await bySize.get('x', counted)).toBe('again');
    // A value larger than maxSize is answered but not kept.
    await bySize.get('big', async () => 'b'.repeat(2 * entry));
    expect(await bySize.get('big', counted)).toBe('again');
    expect(loads).toBe(3);
  });

  it('keeps a load that started before clear() out of the store, and starts a new one after it', async () => {
    const kept = keptValues<string>({ ...roomy, ttlMs: 1000, now: () => 0 });
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
    const kept = keptValues<string>({ ...roomy, ttlMs: 1000, now: () => now });
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

  it('bounds empty values by their keys: a visitor making up keys cannot grow it (issue 28)', async () => {
    const kept = keptValues<string>({
      ...roomy,
      ttlMs: 60_000,
      now: () => 0,
      maxEntries: 1_000_000,
      maxSize: 100 * ENTRY_COST,
    });
    for (let i = 0; i < 1000; i += 1) await kept.get(`search ${i}`, async () => '');
    let loads = 0;
    const counted = async () => {
      loads += 1;
      return '';
    };
    // Only the newest hundred or so are kept: the first ones are loaded again.
    await kept.get('search 0', counted);
    expect(loads).toBe(1);
    expect(kept.get('search 999', counted)).toBe('');
    expect(loads).toBe(1);
  });

  it('loads again, and makes the askers wait, a kept value that `usable` refuses', async () => {
    const kept = keptValues<string>({ ...roomy, ttlMs: 60_000, now: () => 0 });
    const { calls, load } = manualLoads<string>();
    const first = kept.get('k', load);
    calls[0]!.resolve('in stock');
    await first;
    expect(kept.get('k', load, (v) => v === 'in stock')).toBe('in stock');
    const again = kept.get('k', load, (v) => v === 'sold out');
    expect(again).toBeInstanceOf(Promise);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve('sold out');
    expect(await again).toBe('sold out');
    expect(kept.get('k', load)).toBe('sold out');
  });
});

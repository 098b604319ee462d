import { mulberry32 } from '@pixel-vault/shared';

/**
 * `count` distinct items chosen at random (Fisher-Yates shuffle). The seed is drawn once per page
 * mount, so the choice stays put while the list refetches (spec: Home shows 6 random products).
 */
export function pickRandom<T>(items: readonly T[], count: number, seed: number): T[] {
  const random = mulberry32(seed);
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, count);
}

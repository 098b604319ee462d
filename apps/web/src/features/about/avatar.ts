import { fnv1a, mulberry32 } from '@pixel-vault/shared';
/**
 * Placeholder team photos: a deterministic 8x8 pixel-art face drawn from a hash of the name, as an
 * SVG data URI (no network, no files). The left half is chosen, the right half mirrors it.
 */

const SIZE = 8;

/** Cell kinds; 0 is the background. */
const BG = 0;
const HAIR = 1;
const SKIN = 2;
const EYE = 3;
const MOUTH = 4;
const SHIRT = 5;

const BACKGROUNDS = ['#18181b', '#1e1b4b', '#052e16', '#3b0764', '#082f49'];
const HAIRS = ['#a3e635', '#e879f9', '#22d3ee', '#facc15', '#f97316', '#f4f4f5', '#78350f', '#0a0a0a'];
const SKINS = ['#fde2c8', '#f1c27d', '#c68642', '#8d5524', '#e0ac69', '#ffdbac'];
const SHIRTS = ['#d946ef', '#84cc16', '#06b6d4', '#ef4444', '#6366f1', '#f59e0b'];

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** The 8x8 grid of cell kinds for a name (rows top to bottom); each row is a palindrome. */
export function avatarGrid(name: string): number[][] {
  const random = mulberry32(fnv1a(name.trim().toLowerCase()));
  const chance = (p: number) => random() < p;
  const longHair = chance(0.4);
  const bangs = chance(0.5);
  const tallHair = chance(0.6);
  const wideMouth = chance(0.5);
  const collar = chance(0.5);

  // Left half, columns 0..3 (column 3 touches the middle).
  const left: number[][] = [
    [BG, tallHair ? HAIR : BG, HAIR, HAIR],
    [chance(0.3) ? HAIR : BG, HAIR, HAIR, HAIR],
    [longHair ? HAIR : BG, bangs ? HAIR : SKIN, SKIN, bangs && chance(0.5) ? HAIR : SKIN],
    [longHair ? HAIR : BG, SKIN, EYE, SKIN],
    [longHair ? HAIR : BG, SKIN, SKIN, SKIN],
    [longHair && chance(0.5) ? HAIR : BG, SKIN, wideMouth ? MOUTH : SKIN, MOUTH],
    [BG, BG, SKIN, SKIN],
    [chance(0.5) ? SHIRT : BG, SHIRT, SHIRT, collar ? SKIN : SHIRT],
  ];
  return left.map((half) => [...half, ...[...half].reverse()]);
}

/** An SVG data URI of the avatar for `name`; the same name always gives the same picture. */
export function avatarDataUri(name: string): string {
  const random = mulberry32(fnv1a(`${name.trim().toLowerCase()}#palette`));
  const colors: Record<number, string> = {
    [BG]: pick(BACKGROUNDS, random),
    [HAIR]: pick(HAIRS, random),
    [SKIN]: pick(SKINS, random),
    [EYE]: '#09090b',
    [MOUTH]: '#be123c',
    [SHIRT]: pick(SHIRTS, random),
  };
  const rects = avatarGrid(name)
    .flatMap((row, y) =>
      row.map((cell, x) => `<rect x="${x}" y="${y}" width="1" height="1" fill="${colors[cell]}"/>`),
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" shape-rendering="crispEdges">${rects}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

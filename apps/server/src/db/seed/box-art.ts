import { fnv1a, mulberry32 } from '@pixel-vault/shared';
/**
 * Pixel-art box art for the demo catalogue, drawn by code so the repository ships no image files.
 * Everything comes from a PRNG seeded by the product name (the sprite) and name + variant (the
 * rest), so the same product always gets the same pictures. Variants: 0 front of the box,
 * 1 back of the box in the alternate palette, 2 close-up of the sprite, 3 "in the box" contents.
 */

const SIZE = 480;
const MONO = 'monospace';

type Category = 'retro-games' | 'board-games' | 'puzzles' | 'consoles';

interface Palette {
  /** Background bands, top to bottom. */
  bands: readonly [string, string, string, string];
  ink: string;
  paper: string;
  accent: string;
  accent2: string;
  banner: string;
  bannerInk: string;
}

const PALETTES: Record<Category, readonly [Palette, Palette]> = {
  'retro-games': [
    {
      bands: ['#14032e', '#35085e', '#74107e', '#c41b8e'],
      ink: '#0b0118',
      paper: '#fdf4ff',
      accent: '#22e4ff',
      accent2: '#ff3fb4',
      banner: '#e8208f',
      bannerInk: '#fdf4ff',
    },
    {
      bands: ['#02121f', '#043a53', '#066e88', '#13b3c8'],
      ink: '#010a12',
      paper: '#effdff',
      accent: '#ff3fb4',
      accent2: '#22e4ff',
      banner: '#0a8fb0',
      bannerInk: '#effdff',
    },
  ],
  'board-games': [
    {
      bands: ['#2b1408', '#55290f', '#874a1f', '#b9773a'],
      ink: '#1a0b04',
      paper: '#fff3da',
      accent: '#f2c14e',
      accent2: '#d7262e',
      banner: '#b81f27',
      bannerInk: '#fff3da',
    },
    {
      bands: ['#2e0609', '#5c0e13', '#8f171e', '#c6352c'],
      ink: '#1a0305',
      paper: '#fff3da',
      accent: '#f2c14e',
      accent2: '#e8b45a',
      banner: '#6b3718',
      bannerInk: '#fff3da',
    },
  ],
  puzzles: [
    {
      bands: ['#042a2a', '#075049', '#0c7c72', '#18a999'],
      ink: '#021616',
      paper: '#fffbea',
      accent: '#ffd23f',
      accent2: '#ff8a3d',
      banner: '#ffc82e',
      bannerInk: '#1f1500',
    },
    {
      bands: ['#3d2a00', '#7a5400', '#b98400', '#e8b52a'],
      ink: '#1f1500',
      paper: '#fffbea',
      accent: '#2ee6c8',
      accent2: '#0b6e66',
      banner: '#0d8a7c',
      bannerInk: '#fffbea',
    },
  ],
  consoles: [
    {
      bands: ['#0f1024', '#222551', '#363d86', '#5a62b4'],
      ink: '#07081a',
      paper: '#eef0ff',
      accent: '#c7cad6',
      accent2: '#9aa0ff',
      banner: '#4b4fc4',
      bannerInk: '#eef0ff',
    },
    {
      bands: ['#17181c', '#2f3138', '#50535c', '#80848e'],
      ink: '#0b0c0e',
      paper: '#f4f5f8',
      accent: '#8c8cff',
      accent2: '#c7cad6',
      banner: '#5a5ad0',
      bannerInk: '#f4f5f8',
    },
  ],
};

const CATEGORY_LABELS: Record<Category, string> = {
  'retro-games': 'RETRO GAME',
  'board-games': 'BOARD GAME',
  puzzles: 'PUZZLE',
  consoles: 'CONSOLE',
};

/** Hues the sprite may take, chosen to stand out against each category's background. */
const SPRITE_HUES: Record<Category, readonly number[]> = {
  'retro-games': [52, 95, 140, 178, 28],
  'board-games': [48, 140, 200, 275, 185],
  puzzles: [330, 20, 265, 50, 300],
  consoles: [45, 12, 160, 320, 190],
};

function isCategory(value: string): value is Category {
  return value in PALETTES;
}

// ---------------------------------------------------------------------------------------------
// Randomness: FNV-1a hash of the seed string feeding mulberry32.

type Rand = () => number;

function shuffle<T>(rand: Rand, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const a = out[i];
    const b = out[j];
    if (a !== undefined && b !== undefined) [out[i], out[j]] = [b, a];
  }
  return out;
}

function int(rand: Rand, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

function pick<T>(rand: Rand, items: readonly [T, ...T[]]): T;
function pick<T>(rand: Rand, items: readonly T[], fallback: T): T;
function pick<T>(rand: Rand, items: readonly T[], fallback?: T): T {
  return (items[Math.floor(rand() * items.length)] ?? fallback) as T;
}

// ---------------------------------------------------------------------------------------------
// Text

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/**
 * Splits a name on words into at most `maxLines` lines of about `width` characters. Lines may
 * stretch by a few characters before the last one is cut short with an ellipsis.
 */
export function wrapTitle(name: string, width = 16, maxLines = 3): string[] {
  const stretch = Math.ceil(width / 3);
  let lines: string[] = [];
  for (let w = width; w <= width + stretch; w++) {
    lines = greedyLines(name, w);
    if (lines.length <= maxLines) return lines.length > 0 ? lines : [''];
  }
  const kept = lines.slice(0, maxLines);
  const tail = lines.slice(maxLines - 1).join(' ');
  kept[maxLines - 1] = `${tail.slice(0, width + stretch - 1).trimEnd()}…`;
  return kept;
}

function greedyLines(name: string, width: number): string[] {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .flatMap((w) => (w.length <= width ? [w] : (w.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [w])));
  const lines: string[] = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Colour

function hsl(h: number, s: number, l: number): string {
  const sat = s / 100;
  const lig = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const channel = (n: number) => {
    const v = lig - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

// ---------------------------------------------------------------------------------------------
// The document: consecutive rectangles of the same fill are merged into one <path>.

class Art {
  private readonly parts: string[] = [];
  private readonly defs = new Map<string, { id: string; markup: string }>();
  private run: { key: string; fill: string; opacity: number; d: string[] } | null = null;

  constructor(readonly uid: string) {}

  rect(x: number, y: number, w: number, h: number, fill: string, opacity = 1): void {
    const [rx, ry, rw, rh] = [Math.round(x), Math.round(y), Math.round(w), Math.round(h)];
    if (rw <= 0 || rh <= 0) return;
    const key = `${fill}|${opacity}`;
    const seg = `M${rx} ${ry}h${rw}v${rh}h${-rw}z`;
    if (this.run?.key === key) this.run.d.push(seg);
    else {
      this.flush();
      this.run = { key, fill, opacity, d: [seg] };
    }
  }

  /** A rectangle with its corners notched by `n` pixels, the pixel-art rounded corner. */
  notched(x: number, y: number, w: number, h: number, n: number, fill: string, opacity = 1): void {
    this.rect(x + n, y, w - 2 * n, h, fill, opacity);
    this.rect(x, y + n, n, h - 2 * n, fill, opacity);
    this.rect(x + w - n, y + n, n, h - 2 * n, fill, opacity);
  }

  text(
    x: number,
    y: number,
    content: string,
    size: number,
    fill: string,
    anchor: 'start' | 'middle' | 'end' = 'middle',
  ): void {
    this.flush();
    this.parts.push(
      `<text x="${Math.round(x)}" y="${Math.round(y)}" font-size="${size}" fill="${fill}"` +
        `${anchor === 'start' ? '' : ` text-anchor="${anchor}"`}>${escapeXml(content)}</text>`,
    );
  }

  /** A checker pattern (dither) of `cell`-sized squares of `color`, usable as a fill. */
  dither(color: string, cell: number, sparse: boolean): string {
    const key = `${color}|${cell}|${sparse}`;
    let id = this.defs.get(key)?.id;
    if (id === undefined) {
      id = `d${this.defs.size}-${this.uid}`;
      const w = sparse ? cell * 4 : cell * 2;
      const second = sparse ? cell * 2 : cell;
      const d = `M0 0h${cell}v${cell}H0zM${second} ${cell}h${cell}v${cell}h${-cell}z`;
      this.defs.set(key, {
        id,
        markup:
          `<pattern id="${id}" width="${w}" height="${cell * 2}" patternUnits="userSpaceOnUse">` +
          `<path fill="${color}" d="${d}"/></pattern>`,
      });
    }
    return `url(#${id})`;
  }

  private flush(): void {
    if (this.run === null) return;
    const { fill, opacity, d } = this.run;
    this.parts.push(
      `<path fill="${fill}"${opacity === 1 ? '' : ` fill-opacity="${opacity}"`} d="${d.join('')}"/>`,
    );
    this.run = null;
  }

  toString(title: string): string {
    this.flush();
    const defs = [...this.defs.values()].map((p) => p.markup).join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}"` +
      ` shape-rendering="crispEdges" role="img">` +
      `<title>${escapeXml(title)}</title>` +
      (defs === '' ? '' : `<defs>${defs}</defs>`) +
      `<g font-family="${MONO}" font-weight="bold">${this.parts.join('')}</g></svg>`
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Pixel grids: rows of characters, each character a colour key ('.' is transparent).

type Grid = string[];

function cellAt(grid: Grid, x: number, y: number): string {
  return grid[y]?.[x] ?? '.';
}

/** Lights the top edge ('b') and darkens the bottom edge ('c') of the body colour 'a'. */
function shade(grid: Grid): Grid {
  return grid.map((row, y) =>
    [...row]
      .map((c, x) => {
        if (c !== 'a') return c;
        if (cellAt(grid, x, y - 1) === '.') return 'b';
        if (cellAt(grid, x, y + 1) === '.') return 'c';
        return c;
      })
      .join(''),
  );
}

/** Adds a one-cell border around the grid and an outline ('o') around every filled cell. */
function outline(grid: Grid): Grid {
  const width = Math.max(0, ...grid.map((r) => r.length)) + 2;
  const padded = ['.'.repeat(width), ...grid.map((r) => `.${r.padEnd(width - 2, '.')}.`), '.'.repeat(width)];
  return padded.map((row, y) =>
    [...row]
      .map((c, x) => {
        if (c !== '.') return c;
        const near = [
          [0, -1],
          [0, 1],
          [-1, 0],
          [1, 0],
        ].some(([dx = 0, dy = 0]) => cellAt(padded, x + dx, y + dy) !== '.');
        return near ? 'o' : '.';
      })
      .join(''),
  );
}

/** Draws a grid with cell size `cell` at (x0, y0), one merged path per colour. */
function drawGrid(
  art: Art,
  grid: Grid,
  colours: Record<string, string>,
  x0: number,
  y0: number,
  cell: number,
  opacity = 1,
): void {
  for (const [key, fill] of Object.entries(colours)) {
    grid.forEach((row, y) => {
      let start = -1;
      for (let x = 0; x <= row.length; x++) {
        const on = row[x] === key;
        if (on && start < 0) start = x;
        if (!on && start >= 0) {
          art.rect(x0 + start * cell, y0 + y * cell, (x - start) * cell, cell, fill, opacity);
          start = -1;
        }
      }
    });
  }
}

function gridSize(grid: Grid): { w: number; h: number } {
  return { w: Math.max(0, ...grid.map((r) => r.length)), h: grid.length };
}

// ---------------------------------------------------------------------------------------------
// The product's sprite: a 10x10 mirrored "invader" from the name.

interface Sprite {
  grid: Grid; // 12x12 with outline
  colours: Record<string, string>;
}

function makeSprite(name: string, category: Category, ink: string): Sprite {
  const rand = mulberry32(fnv1a(`sprite|${name}`));
  let cells: string[][] = [];
  for (let attempt = 0; attempt < 12; attempt++) {
    cells = Array.from({ length: 10 }, () => Array.from({ length: 10 }, () => '.'));
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < 5; x++) {
        // Denser towards the middle column and the middle rows, so the shape holds together.
        const p = 0.2 + x * 0.08 + (y > 1 && y < 8 ? 0.12 : 0);
        const v = rand() < p ? (rand() < 0.2 ? 'd' : 'a') : '.';
        setCell(cells, x, y, v);
      }
    }
    for (let y = 2; y < 8; y++) if (rand() < 0.85) setCell(cells, 4, y, 'a');
    // Drop lonely pixels.
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < 5; x++) {
        const lonely = [
          [0, -1],
          [0, 1],
          [-1, 0],
          [1, 0],
        ].every(([dx = 0, dy = 0]) => (cells[y + dy]?.[x + dx] ?? '.') === '.');
        if (lonely) setCell(cells, x, y, '.');
      }
    }
    const filled = cells.flat().filter((c) => c !== '.').length;
    if (filled >= 34 && filled <= 64) break;
  }
  // Eyes, with a body around them.
  const eyeY = int(rand, 2, 4);
  const eyeX = int(rand, 2, 3);
  for (const [dx, dy] of [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ] as const) {
    if ((cells[eyeY + dy]?.[eyeX + dx] ?? '.') === '.') setCell(cells, eyeX + dx, eyeY + dy, 'a');
  }
  setCell(cells, eyeX, eyeY, 'e');

  const hue = pick(rand, SPRITE_HUES[category], 50) + int(rand, -8, 8);
  const accentHue = (hue + int(rand, 140, 220)) % 360;
  return {
    grid: outline(shade(cells.map((r) => r.join('')))),
    colours: {
      o: ink,
      a: hsl(hue, 78, 58),
      b: hsl(hue, 90, 78),
      c: hsl(hue, 70, 38),
      d: hsl(accentHue, 85, 62),
      e: rand() < 0.5 ? '#ffffff' : ink,
    },
  };
}

function setCell(cells: string[][], x: number, y: number, v: string): void {
  const row = cells[y];
  if (row === undefined) return;
  row[x] = v;
  row[9 - x] = v;
}

function drawSprite(art: Art, sprite: Sprite, cx: number, cy: number, cell: number): void {
  const { w, h } = gridSize(sprite.grid);
  drawGrid(art, sprite.grid, sprite.colours, cx - (w * cell) / 2, cy - (h * cell) / 2, cell);
}

// ---------------------------------------------------------------------------------------------
// Motifs

const CARTRIDGE: Grid = [
  'aaaaaaaaaaaaaa',
  'abbbbbbbbbbbba',
  'abcbcbcbcbcbba',
  'abbbbbbbbbbbba',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abllllllllllca',
  'abbbbbbbbbbbca',
  'acccccccccccca',
  'aaaaaaaaaaaaaa',
  '.aaa......aaa.',
];

const CONTROLLER: Grid = [
  '..bbbbbb......bbbbbb..',
  '.aaaaaaaaaaaaaaaaaaaa.',
  'aaaaadaaaaaaaaaaaeaaaa',
  'aaaadddaaaaaaaaaeaeaaa',
  'aaaaadaaaccaccaaaeaaaa',
  'aaaaaaaaaaaaaaaaaaaaaa',
  'aaaaaaaaaaaaaaaaaaaaaa',
  'aaaaaaa........aaaaaaa',
  '.aaaaa..........aaaaa.',
  '..aaa............aaa..',
];

const JIGSAW: Grid = [
  '.....aa.........',
  '....aaaa........',
  '....aaaa........',
  '.....aa.........',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
  'a..aaaaaaaaa.aa.',
  '....aaaaaaaaaaaa',
  '....aaaaaaaaaaaa',
  'a..aaaaaaaaa.aa.',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
  'aaaaaaaaaaaa....',
];

const MEEPLE: Grid = [
  '...aaa...',
  '..aaaaa..',
  '..aaaaa..',
  '...aaa...',
  'aaaaaaaaa',
  'aaaaaaaaa',
  '.aaaaaaa.',
  '.aaaaaaa.',
  '.aaa.aaa.',
  'aaa...aaa',
];

const CARTRIDGE_SHELLS: readonly [Shell, ...Shell[]] = [
  { body: '#8d8f9c', light: '#b9bbc6', dark: '#5f6170' },
  { body: '#3f4250', light: '#5d6172', dark: '#272932' },
  { body: '#c9b48a', light: '#e4d3ad', dark: '#9a8660' },
  { body: '#6f5bb8', light: '#9683dc', dark: '#4b3b8a' },
];

function drawCartridge(
  art: Art,
  p: Palette,
  sprite: Sprite,
  x: number,
  y: number,
  s: number,
  shell = CARTRIDGE_SHELLS[0],
): void {
  const g = outline(CARTRIDGE);
  drawGrid(art, g, { o: p.ink, a: shell.body, b: shell.light, c: shell.dark, l: p.accent2 }, x - s, y - s, s);
  // Label: a stripe, the sprite and a line of "text".
  const lx = x + 2 * s;
  const ly = y + 4 * s;
  art.rect(lx, ly, 10 * s, Math.max(2, Math.round(s / 2)), p.paper, 0.8);
  const cell = Math.max(1, Math.floor((6 * s) / 12));
  drawSprite(art, sprite, lx + 5 * s, ly + 4 * s, cell);
  art.rect(lx + s, ly + 7 * s, 8 * s, Math.max(2, Math.round(s / 2)), p.ink, 0.6);
}

interface Shell {
  body: string;
  light: string;
  dark: string;
}

const SHELLS: readonly [Shell, ...Shell[]] = [
  { body: '#c9ccd8', light: '#e6e8f0', dark: '#9da1b0' },
  { body: '#3f4250', light: '#5d6172', dark: '#272932' },
  { body: '#7d5fd3', light: '#a58cf0', dark: '#5a3fa8' },
  { body: '#e4dcc6', light: '#fbf6e8', dark: '#bfb49a' },
];

function drawController(art: Art, p: Palette, x: number, y: number, s: number, shell = SHELLS[0]): void {
  drawGrid(
    art,
    outline(shade(CONTROLLER)),
    { o: p.ink, a: shell.body, b: shell.light, c: shell.dark, d: '#1d1f29', e: p.accent2 },
    x - s,
    y - s,
    s,
  );
}

function drawJigsaw(art: Art, ink: string, fill: string, x: number, y: number, s: number): void {
  drawGrid(art, outline(shade(JIGSAW)), { o: ink, a: fill, b: '#ffffff' }, x - s, y - s, s);
  // The shaded bottom edge: the same colour, darkened.
  drawGrid(art, outline(shade(JIGSAW)), { c: fill }, x - s, y - s, s);
  drawGrid(art, outline(shade(JIGSAW)), { c: ink }, x - s, y - s, s, 0.35);
}

function drawMeeple(art: Art, ink: string, fill: string, x: number, y: number, s: number): void {
  drawGrid(art, outline(MEEPLE), { o: ink, a: fill }, x - s, y - s, s);
}

const PIPS: Record<number, readonly (readonly [number, number])[]> = {
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [2, 0],
    [0, 2],
    [2, 2],
  ],
  5: [
    [0, 0],
    [2, 0],
    [1, 1],
    [0, 2],
    [2, 2],
  ],
  6: [
    [0, 0],
    [2, 0],
    [0, 1],
    [2, 1],
    [0, 2],
    [2, 2],
  ],
};

/** A die `size` pixels wide (a multiple of 8 looks best) showing `face`. */
function drawDie(art: Art, p: Palette, x: number, y: number, size: number, face: number, pip: string): void {
  const u = size / 8;
  art.notched(x - u, y - u, size + 2 * u, size + 2 * u, u, p.ink);
  art.notched(x, y, size, size, u, '#f6f0e0');
  art.rect(x + u, y + size - u, size - 2 * u, u, '#cfc6b0');
  art.rect(x + size - u, y + u, u, size - 2 * u, '#cfc6b0');
  for (const [px, py] of PIPS[face] ?? []) {
    art.rect(x + u * (1.5 + px * 2), y + u * (1.5 + py * 2), u, u, pip);
  }
}

/** The category's motif in a box roughly `size` pixels wide with its top-left at (x, y). */
function drawMotif(
  art: Art,
  category: Category,
  p: Palette,
  sprite: Sprite,
  rand: Rand,
  x: number,
  y: number,
  size: number,
): void {
  switch (category) {
    case 'retro-games': {
      const s = Math.floor(size / 15);
      drawCartridge(art, p, sprite, x + (size - 14 * s) / 2, y, s);
      break;
    }
    case 'board-games': {
      const d = Math.floor(size / 16) * 8;
      drawDie(art, p, x, y + d / 2, d, int(rand, 1, 6), p.ink);
      drawDie(art, p, x + size - d, y + d, d, int(rand, 1, 6), p.accent2);
      break;
    }
    case 'puzzles': {
      const s = Math.floor(size / 17);
      drawJigsaw(art, p.ink, p.accent, x, y, s);
      break;
    }
    case 'consoles': {
      const s = Math.floor(size / 23);
      drawController(art, p, x, y + size / 4, s);
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Shared pieces of the layouts

/** Bands of colour from top to bottom with a dithered seam between neighbours. */
function drawBands(art: Art, colours: readonly string[], y0: number, y1: number, cell = 8): void {
  const n = colours.length;
  const band = (y1 - y0) / n;
  colours.forEach((c, i) => art.rect(0, y0 + i * band, SIZE, band, c));
  colours.forEach((c, i) => {
    const next = colours[i + 1];
    if (next === undefined) return;
    const seam = Math.round(y0 + (i + 1) * band);
    art.rect(0, seam - 2 * cell, SIZE, cell * 2, art.dither(next, cell, true));
    art.rect(0, seam, SIZE, cell * 2, art.dither(c, cell, false));
  });
}

function drawDisc(
  art: Art,
  cx: number,
  cy: number,
  r: number,
  cell: number,
  fill: string,
  opacity = 1,
): void {
  for (let dy = -r; dy < r; dy += cell) {
    const mid = dy + cell / 2;
    const half = Math.floor(Math.sqrt(Math.max(0, r * r - mid * mid)) / cell) * cell;
    art.rect(cx - half, cy + dy, half * 2, cell, fill, opacity);
  }
}

function drawTwinkle(art: Art, x: number, y: number, s: number, fill: string): void {
  art.rect(x - s, y, s * 3, s, fill);
  art.rect(x, y - s, s, s * 3, fill);
}

function drawFrame(art: Art, p: Palette): void {
  art.rect(0, 0, SIZE, 8, p.ink);
  art.rect(0, SIZE - 8, SIZE, 8, p.ink);
  art.rect(0, 8, 8, SIZE - 16, p.ink);
  art.rect(SIZE - 8, 8, 8, SIZE - 16, p.ink);
  art.rect(8, 8, SIZE - 16, 4, p.accent, 0.85);
  art.rect(8, SIZE - 12, SIZE - 16, 4, p.accent, 0.85);
  art.rect(8, 12, 4, SIZE - 24, p.accent, 0.85);
  art.rect(SIZE - 12, 12, 4, SIZE - 24, p.accent, 0.85);
}

/** The title banner, centred at `cx` with its top at `y`; returns its bottom edge. */
function drawBanner(
  art: Art,
  p: Palette,
  lines: string[],
  cx: number,
  y: number,
  maxSize: number,
  maxWidth = 424,
): number {
  const longest = Math.max(4, ...lines.map((l) => l.length));
  // Monospace glyphs are about 0.6em wide.
  const size = Math.max(12, Math.min(maxSize, Math.floor((maxWidth - 40) / (longest * 0.62))));
  const lineHeight = Math.round(size * 1.18);
  const w = Math.min(maxWidth, Math.ceil((longest * size * 0.62 + 40) / 8) * 8);
  const h = lines.length * lineHeight + Math.round(size * 0.7);
  const x = Math.round(cx - w / 2);
  const u = 4;
  art.notched(x + 2 * u, y + 2 * u, w, h, u, p.ink, 0.45);
  art.notched(x - u, y - u, w + 2 * u, h + 2 * u, u, p.ink);
  art.rect(x, y, w, h, p.banner);
  art.rect(x, y, w, u, '#ffffff', 0.35);
  art.rect(x, y + h - u, w, u, p.ink, 0.3);
  const shadow = p.bannerInk === p.ink ? '#ffffff' : p.ink;
  lines.forEach((line, i) => {
    const baseline = y + Math.round(size * 0.35) + lineHeight * i + Math.round(size * 0.88);
    const off = Math.max(2, Math.round(size / 12));
    art.text(cx + off, baseline + off, line, size, shadow);
    art.text(cx, baseline, line, size, p.bannerInk);
  });
  return y + h + u;
}

function drawRibbon(art: Art, p: Palette, label: string, x: number, y: number): void {
  const w = label.length * 9 + 24;
  art.rect(x, y, w, 24, p.ink);
  art.rect(x + 4, y + 4, w - 8, 16, p.accent);
  art.text(x + w / 2, y + 17, label, 14, p.ink);
}

/** Category texture over the background. */
function drawBackdrop(art: Art, category: Category, p: Palette, rand: Rand, floorY: number): void {
  switch (category) {
    case 'retro-games': {
      for (let i = 0; i < 26; i++) {
        const s = rand() < 0.25 ? 8 : 4;
        art.rect(int(rand, 2, 57) * 8, int(rand, 2, Math.floor(floorY / 8) - 2) * 8, s, s, p.paper, 0.8);
      }
      for (let i = 0; i < 4; i++) drawTwinkle(art, int(rand, 3, 56) * 8, int(rand, 3, 30) * 8, 4, p.accent);
      // A synthwave floor: horizontal lines ever further apart towards the viewer.
      art.rect(0, floorY, SIZE, SIZE - floorY, p.ink, 0.55);
      art.rect(0, floorY, SIZE, 4, p.accent);
      for (let gap = 6, yy = floorY + 6; yy < SIZE; gap = Math.round(gap * 1.5), yy += gap) {
        art.rect(0, yy, SIZE, 4, p.accent, 0.55);
      }
      for (let i = -6; i <= 6; i++) {
        for (let yy = floorY + 4; yy < SIZE; yy += 8) {
          const t = (yy - floorY) / (SIZE - floorY);
          art.rect(Math.round((240 + i * (16 + 120 * t)) / 4) * 4, yy, 4, 8, p.accent, 0.35);
        }
      }
      break;
    }
    case 'board-games': {
      for (let px = 96; px < SIZE; px += 96) art.rect(px, 0, 4, SIZE, p.ink, 0.3);
      for (let i = 0; i < 34; i++) {
        art.rect(int(rand, 0, 55) * 8, int(rand, 1, 58) * 8, int(rand, 3, 12) * 8, 4, p.ink, 0.18);
      }
      for (let i = 0; i < 6; i++) art.rect(int(rand, 0, 58) * 8, int(rand, 1, 58) * 8, 8, 4, p.accent, 0.35);
      break;
    }
    case 'puzzles': {
      art.rect(0, 0, SIZE, SIZE, art.dither(p.paper, 48, false), 0.07);
      const colours = [p.accent, p.accent2, p.paper];
      for (let i = 0; i < 22; i++) {
        art.rect(int(rand, 1, 58) * 8, int(rand, 1, 58) * 8, 8, 8, pick(rand, colours, p.accent), 0.55);
      }
      break;
    }
    case 'consoles': {
      art.rect(0, 0, SIZE, SIZE, art.dither(p.ink, 4, false), 0.12);
      for (let i = 0; i < 7; i++) {
        const tx = int(rand, 1, 56) * 8;
        const ty = int(rand, 2, 56) * 8;
        const len = int(rand, 4, 14) * 8;
        if (rand() < 0.5) art.rect(tx, ty, len, 4, p.accent2, 0.35);
        else art.rect(tx, ty, 4, len, p.accent2, 0.35);
        art.rect(tx - 4, ty - 4, 12, 12, p.accent2, 0.5);
      }
      for (let yy = 0; yy < SIZE; yy += 6) art.rect(0, yy, SIZE, 2, p.ink, 0.16);
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The four views

interface Scene {
  name: string;
  category: Category;
  label: string;
  palettes: readonly [Palette, Palette];
  sprite: Sprite;
  rand: Rand;
  lines: string[];
}

function front(art: Art, s: Scene): void {
  const p = s.palettes[0];
  drawBands(art, p.bands, 0, SIZE);
  drawBackdrop(art, s.category, p, s.rand, 360);
  const bottom = drawBanner(art, p, s.lines, SIZE / 2, 32, 36);
  const cy = Math.round((bottom + 12 + 424) / 2);
  drawDisc(art, SIZE / 2, cy, 124, 8, p.paper, 0.12);
  drawDisc(art, SIZE / 2, cy, 100, 8, p.accent, 0.16);
  art.rect(SIZE / 2 - 80, cy + 92, 160, 12, p.ink, 0.45);
  drawSprite(art, s.sprite, SIZE / 2, cy, Math.max(14, Math.min(20, Math.floor((412 - bottom) / 13))));
  for (let i = 0; i < 3; i++) {
    drawTwinkle(art, int(s.rand, 4, 14) * 8 + (i % 2) * 260, int(s.rand, 24, 44) * 8, 4, p.paper);
  }
  drawMotif(art, s.category, p, s.sprite, s.rand, 356, 348, 96);
  drawRibbon(art, p, s.label, 24, 436);
  drawFrame(art, p);
}

function back(art: Art, s: Scene): void {
  const p = s.palettes[1];
  drawBands(art, [p.bands[0], p.bands[1], p.bands[1], p.bands[2]], 0, SIZE);
  art.rect(0, 0, SIZE, SIZE, art.dither(p.ink, 8, true), 0.25);
  const bottom = drawBanner(art, p, s.lines, SIZE / 2, 28, 26, 400);
  // Three "screenshots".
  const top = bottom + 20;
  for (let i = 0; i < 3; i++) {
    const x = 32 + i * 144;
    art.rect(x - 4, top - 4, 136, 104, p.ink);
    screenshot(art, s, p, x, top, 128, 96, i);
  }
  // A blurb of unreadable pixel text.
  let y = top + 124;
  for (let i = 0; i < 6 && y < 380; i++, y += 16) {
    art.rect(32, y, int(s.rand, 22, 34) * 8, 8, p.paper, i === 0 ? 0.9 : 0.5);
  }
  drawMotif(art, s.category, p, s.sprite, s.rand, 352, top + 124, 88);
  // Barcode.
  art.rect(320, 384, 128, 68, p.paper);
  for (let bx = 328; bx < 436;) {
    const bw = pick(s.rand, [2, 2, 4, 6] as const);
    art.rect(bx, 392, bw, 40, p.ink);
    bx += bw + pick(s.rand, [2, 4] as const);
  }
  const digits = String(fnv1a(`${s.name}|code`))
    .padStart(10, '0')
    .slice(0, 10);
  art.text(384, 446, digits, 11, p.ink);
  art.text(32, 424, 'PIXEL VAULT', 16, p.accent, 'start');
  art.text(32, 446, s.label, 12, p.paper, 'start');
  drawFrame(art, p);
}

function screenshot(art: Art, s: Scene, p: Palette, x: number, y: number, w: number, h: number, i: number) {
  const r = s.rand;
  if (s.category === 'board-games' && i !== 1) {
    // A board seen from above, with a few pieces.
    const cell = 16;
    for (let gy = 0; gy < h / cell; gy++) {
      for (let gx = 0; gx < w / cell; gx++) {
        art.rect(x + gx * cell, y + gy * cell, cell, cell, (gx + gy) % 2 === 0 ? '#f0dcb0' : p.bands[2]);
      }
    }
    for (let k = 0; k < 4; k++) {
      const fill = pick(r, [p.accent, p.accent2, '#3a7bd5', '#2e9e5b'] as const);
      drawMeeple(art, p.ink, fill, x + int(r, 0, 6) * cell + 2, y + int(r, 0, 3) * cell + 2, 1);
    }
    return;
  }
  // A side-on game scene: sky, a sun or moon, blocky ground and the sprite.
  const sky = pick(r, [p.bands[1], p.bands[2], s.palettes[0].bands[1]] as const);
  art.rect(x, y, w, h, sky);
  art.rect(x + int(r, 2, 12) * 8, y + 8, 16, 16, p.paper, 0.6);
  for (let gx = 0; gx < w; gx += 16) {
    const gh = int(r, 1, 3) * 8;
    art.rect(x + gx, y + h - gh, 16, gh, s.palettes[0].bands[3]);
    art.rect(x + gx, y + h - gh, 16, 4, p.accent, 0.7);
  }
  drawSprite(art, s.sprite, x + int(r, 3, 12) * 8, y + h - 48, 3);
  for (let k = 0; k < 3; k++) art.rect(x + int(r, 1, 14) * 8, y + int(r, 4, 6) * 8, 4, 4, p.accent2);
  if (s.category === 'puzzles') {
    // The finished picture, with the cut lines still showing.
    for (let gx = 32; gx < w; gx += 32) art.rect(x + gx, y, 2, h, p.ink, 0.35);
    for (let gy = 32; gy < h; gy += 32) art.rect(x, y + gy, w, 2, p.ink, 0.35);
  }
}

function closeUp(art: Art, s: Scene): void {
  const p = s.palettes[0];
  const alt = s.palettes[1];
  // Concentric pixel rings, as if zooming in.
  const ring = [p.bands[0], p.bands[1], alt.bands[1], p.bands[2], alt.bands[2], p.bands[3]];
  for (let i = 0; i < 10; i++) {
    const inset = i * 24;
    art.rect(inset, inset, SIZE - 2 * inset, SIZE - 2 * inset, ring[i % ring.length] ?? p.bands[0]);
  }
  art.rect(0, 0, SIZE, SIZE, art.dither(p.ink, 8, true), 0.3);
  drawDisc(art, SIZE / 2, 200, 168, 8, p.paper, 0.1);
  for (let i = 0; i < 6; i++) {
    drawTwinkle(art, int(s.rand, 3, 56) * 8, int(s.rand, 3, 44) * 8, int(s.rand, 1, 2) * 4, p.paper);
  }
  drawSprite(art, s.sprite, SIZE / 2, 196, 28);
  const lines = wrapTitle(s.name, 24, 2);
  const h = lines.length * 24 + 16;
  drawBanner(art, p, lines, SIZE / 2, SIZE - 32 - h, 20, 400);
  drawFrame(art, p);
}

function inTheBox(art: Art, s: Scene): void {
  const p = s.palettes[0];
  const alt = s.palettes[1];
  // The table top.
  art.rect(0, 0, SIZE, SIZE, p.bands[1]);
  for (let yy = 0; yy < SIZE; yy += 40) art.rect(0, yy, SIZE, 4, p.ink, 0.25);
  for (let i = 0; i < 24; i++) {
    art.rect(int(s.rand, 0, 56) * 8, int(s.rand, 0, 59) * 8, int(s.rand, 2, 8) * 8, 4, p.bands[0], 0.4);
  }
  const bottom = drawBanner(art, p, wrapTitle(s.name, 22, 3), SIZE / 2, 24, 20, 420);
  // The open box tray.
  const top = Math.max(bottom + 16, 112);
  const tx = 36;
  const tw = SIZE - 72;
  const th = SIZE - 28 - top;
  art.rect(tx + 8, top + 8, tw, th, p.ink, 0.45);
  art.rect(tx - 8, top - 8, tw + 16, th + 16, p.ink);
  art.rect(tx - 4, top - 4, tw + 8, th + 8, p.bands[3]);
  art.rect(tx, top, tw, th, alt.bands[0]);
  art.rect(tx, top, tw, 8, p.ink, 0.5);
  const split = tx + Math.round(tw * 0.55);
  art.rect(split, top, 8, th, p.bands[3]);
  const midY = top + Math.round(th / 2);
  art.rect(split + 8, midY, tx + tw - split - 8, 8, p.bands[3]);

  const leftCx = (tx + split) / 2;
  const rightX = split + 16;
  const rightW = tx + tw - rightX - 8;
  const r = s.rand;
  switch (s.category) {
    case 'retro-games': {
      const sc = Math.min(11, Math.floor((th - 24) / 16));
      drawCartridge(
        art,
        p,
        s.sprite,
        leftCx - 7 * sc,
        top + (th - 16 * sc) / 2,
        sc,
        pick(r, CARTRIDGE_SHELLS),
      );
      // The manual.
      const mw = rightW - 16;
      const mh = midY - top - 24;
      art.rect(rightX + 8, top + 12, mw, mh, p.paper);
      art.rect(rightX + 8, top + 12, mw, 16, p.accent2);
      drawSprite(art, s.sprite, rightX + 8 + mw / 2, top + 28 + (mh - 16) / 2, 3);
      // A fold-out map.
      art.rect(rightX + 8, midY + 20, mw, th / 2 - 40, '#e9d8a6');
      for (let k = 1; k < 4; k++) art.rect(rightX + 8 + (mw * k) / 4, midY + 20, 2, th / 2 - 40, p.ink, 0.3);
      // A dotted trail to an X.
      const mapH = th / 2 - 40;
      let [mx, my] = [rightX + 20, midY + 20 + mapH - 20];
      for (let k = 0; k < 6; k++) {
        art.rect(mx, my, 4, 4, '#8a5a2b');
        mx += int(r, 2, 3) * 6;
        my = Math.max(midY + 32, my - int(r, 0, 2) * 8);
      }
      art.rect(mx, my - 4, 4, 4, p.accent2);
      art.rect(mx + 8, my - 4, 4, 4, p.accent2);
      art.rect(mx + 4, my, 4, 4, p.accent2);
      art.rect(mx, my + 4, 4, 4, p.accent2);
      art.rect(mx + 8, my + 4, 4, 4, p.accent2);
      break;
    }
    case 'board-games': {
      const cell = Math.floor((split - tx - 32) / 8);
      const bx = leftCx - cell * 4;
      const by = top + (th - cell * 8) / 2;
      const boards: (readonly [string, string])[] = [
        ['#f0dcb0', p.bands[2]],
        ['#ece6d2', '#2e6b4f'],
        ['#f3e6c4', '#a8232a'],
        ['#dfe8f0', '#3a5a8c'],
      ];
      const [light, dark] = pick(r, boards, ['#f0dcb0', p.bands[2]]);
      art.rect(bx - 6, by - 6, cell * 8 + 12, cell * 8 + 12, p.ink);
      for (let gy = 0; gy < 8; gy++) {
        for (let gx = 0; gx < 8; gx++) {
          art.rect(bx + gx * cell, by + gy * cell, cell, cell, (gx + gy) % 2 === 0 ? light : dark);
        }
      }
      const meeples = shuffle(r, [p.accent2, p.accent, '#3a7bd5', '#2e9e5b', '#8e44ad']);
      for (let k = 0; k < 3; k++) {
        const fill = meeples[k] ?? p.accent;
        drawMeeple(art, p.ink, fill, bx + int(r, 0, 7) * cell + (cell - 18) / 2, by + k * 3 * cell + 2, 2);
      }
      drawDie(art, p, rightX + 12, top + 24, 40, int(r, 1, 6), p.ink);
      drawDie(art, p, rightX + rightW - 56, top + 44, 40, int(r, 1, 6), p.accent2);
      meeples
        .slice(0, 4)
        .forEach((fill, k) => drawMeeple(art, p.ink, fill, rightX + 8 + k * 34, midY + 28, 3));
      art.rect(rightX + 12, midY + 72, rightW - 24, 8, p.paper, 0.8);
      break;
    }
    case 'puzzles': {
      const colours = [p.accent, p.accent2, alt.banner, '#ff6fa8', p.paper];
      // Seven pieces in a loose 3 x 4 grid of slots, never on top of each other.
      const slots = shuffle(
        r,
        Array.from({ length: 12 }, (_, k) => k),
      ).slice(0, 7);
      const colW = Math.floor((split - tx - 8) / 3);
      const rowH = Math.floor((th - 8) / 4);
      for (const slot of slots) {
        const px = tx + 8 + (slot % 3) * colW + int(r, 0, Math.max(0, colW - 76));
        const py = top + 12 + Math.floor(slot / 3) * rowH + int(r, 0, Math.max(0, rowH - 76));
        drawJigsaw(art, p.ink, pick(r, colours, p.accent), px, py, 4);
      }
      // The picture on the lid.
      const lw = rightW - 8;
      art.rect(rightX + 4, top + 12, lw, th - 24, p.ink);
      art.rect(rightX + 8, top + 16, lw - 8, th - 32, p.bands[2]);
      drawSprite(art, s.sprite, rightX + 4 + lw / 2, top + th / 2, 6);
      break;
    }
    case 'consoles': {
      // The console itself.
      const shell = pick(r, SHELLS);
      const cw = split - tx - 40;
      const ch = Math.round(cw * 0.55);
      const cx = tx + 20;
      const cy = top + 24;
      art.notched(cx - 4, cy - 4, cw + 8, ch + 8, 4, p.ink);
      art.rect(cx, cy, cw, ch, shell.body);
      art.rect(cx, cy, cw, 6, shell.light);
      art.rect(cx + 16, cy + 16, cw - 32, 16, '#1d1f29');
      art.rect(cx + 16, cy + ch - 24, 24, 8, p.accent2);
      art.rect(cx + cw - 32, cy + ch - 24, 12, 8, '#ff4d4d');
      art.rect(cx, cy + ch - 8, cw, 8, shell.dark);
      drawSprite(art, s.sprite, cx + cw / 2, cy + ch / 2 + 8, 2);
      // A coiled cable.
      [48, 40, 32, 24, 16].forEach((radius, k) =>
        drawDisc(art, leftCx, cy + ch + 76, radius, 4, k === 4 ? alt.bands[0] : k % 2 ? p.ink : '#6f7380'),
      );
      const cs = Math.max(3, Math.floor(rightW / 23));
      drawController(art, p, rightX + 4, top + 40, cs, shell);
      drawController(art, p, rightX + 4, midY + 40, cs, pick(r, SHELLS));
      break;
    }
  }
  drawFrame(art, p);
}

/** Deterministic SVG document (string) of pixel-art box art drawn from the product name. */
export function renderBoxArt(product: { name: string; category: string }, variant: number): string {
  const category: Category = isCategory(product.category) ? product.category : 'retro-games';
  const view = Number.isFinite(variant) ? ((Math.floor(variant) % 4) + 4) % 4 : 0;
  const seed = fnv1a(`${category}|${product.name}|${view}`);
  const palettes = PALETTES[category];
  const art = new Art(seed.toString(36));
  const scene: Scene = {
    name: product.name,
    category,
    label: CATEGORY_LABELS[category],
    palettes,
    sprite: makeSprite(product.name, category, palettes[0].ink),
    rand: mulberry32(seed),
    lines: wrapTitle(product.name),
  };
  [front, back, closeUp, inTheBox][view]?.(art, scene);
  return art.toString(product.name);
}

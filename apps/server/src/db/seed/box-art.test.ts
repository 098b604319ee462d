import { describe, expect, it } from 'vitest';
import { renderBoxArt, wrapTitle } from './box-art.js';
import { SEED_PRODUCTS } from './catalogue.js';

const VARIANTS = [0, 1, 2, 3];
const neon = { name: 'Neon Drift 64', category: 'retro-games' };
const tricky = { name: `Tom & Jerry's <Quest> "Deluxe"`, category: 'board-games' };

function titleOf(svg: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(svg)?.[1];
}

describe('renderBoxArt', () => {
  it('returns a standalone, square SVG document', () => {
    for (const variant of VARIANTS) {
      const svg = renderBoxArt(neon, variant);
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
      expect(svg).toContain('viewBox="0 0 480 480"');
      expect(svg).toContain('width="480"');
      expect(svg).toContain('height="480"');
      expect(svg).toContain('shape-rendering="crispEdges"');
      expect(titleOf(svg)).toBe('Neon Drift 64');
    }
  });

  it('draws the same picture for the same product and variant', () => {
    for (const variant of VARIANTS) {
      expect(renderBoxArt(neon, variant)).toBe(renderBoxArt({ ...neon }, variant));
    }
  });

  it('draws a different picture for each variant and each name', () => {
    const views = VARIANTS.map((v) => renderBoxArt(neon, v));
    expect(new Set(views).size).toBe(4);
    const other = renderBoxArt({ name: 'Neon Drift 65', category: 'retro-games' }, 0);
    expect(other).not.toBe(views[0]);
  });

  it('gives every catalogue product its own front', () => {
    const fronts = SEED_PRODUCTS.map((p) => renderBoxArt(p, 0));
    expect(new Set(fronts).size).toBe(SEED_PRODUCTS.length);
  });

  it('escapes the name in the title and the banner', () => {
    for (const variant of VARIANTS) {
      const svg = renderBoxArt(tricky, variant);
      expect(svg).not.toContain('<Quest>');
      expect(svg).not.toContain('"Deluxe"');
      expect(svg).toContain('&amp;');
      expect(svg).toContain('&lt;Quest&gt;');
      expect(titleOf(svg)).toBe('Tom &amp; Jerry&apos;s &lt;Quest&gt; &quot;Deluxe&quot;');
    }
  });

  it('contains nothing active or external', () => {
    for (const product of [neon, tricky, { name: 'onload=alert(1) <script>', category: 'puzzles' }]) {
      for (const variant of VARIANTS) {
        const svg = renderBoxArt(product, variant);
        expect(svg).not.toMatch(/<script/i);
        expect(svg).not.toMatch(/href/i);
        expect(svg).not.toMatch(/foreignObject/i);
        expect(svg).not.toMatch(/<[^>]*\son\w+\s*=/i);
        expect(svg).not.toMatch(/url\((?!#)/);
      }
    }
  });

  it('stays under 20 KB for every catalogue product and variant', () => {
    for (const product of SEED_PRODUCTS) {
      for (const variant of VARIANTS) {
        expect(Buffer.byteLength(renderBoxArt(product, variant)), `${product.name} #${variant}`).toBeLessThan(
          20 * 1024,
        );
      }
    }
  });

  it('draws an unknown category and out-of-range variants without failing', () => {
    const svg = renderBoxArt({ name: 'Mystery Box', category: 'gadgets' }, 7);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(renderBoxArt(neon, 4)).toBe(renderBoxArt(neon, 0));
    expect(renderBoxArt(neon, -1)).toBe(renderBoxArt(neon, 3));
    expect(renderBoxArt(neon, Number.NaN)).toBe(renderBoxArt(neon, 0));
  });
});

describe('wrapTitle', () => {
  it('keeps a short name on one line', () => {
    expect(wrapTitle('Neon Drift 64')).toEqual(['Neon Drift 64']);
  });

  it('splits a long name on words over at most three lines', () => {
    expect(wrapTitle('Railbarons of the Iron Valley')).toEqual(['Railbarons of', 'the Iron Valley']);
    const lines = wrapTitle('The Great Game Shelf 3000-Piece Puzzle');
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.join(' ')).toBe('The Great Game Shelf 3000-Piece Puzzle');
  });

  it('cuts a name that does not fit short with an ellipsis', () => {
    const lines = wrapTitle('An Extraordinarily Long Name For A Game That Never Seems To End At All');
    expect(lines).toHaveLength(3);
    expect(lines[2]?.endsWith('…')).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(22);
  });

  it('breaks a single overlong word', () => {
    const lines = wrapTitle('Supercalifragilisticexpialidocious');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(22);
  });
});

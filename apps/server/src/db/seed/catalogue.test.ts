import { describe, expect, it } from 'vitest';
import { Platform, RegisterBody, ReviewBody } from '@pixel-vault/shared';
import { SEED_CUSTOMERS, SEED_PRODUCTS } from './catalogue.js';

const CATEGORIES = ['retro-games', 'board-games', 'puzzles', 'consoles'] as const;

// Names must be invented: no console makers, famous franchises or board-game brands.
const TRADEMARKS =
  /nintendo|sega|sony|playstation|xbox|atari|zelda|mario|pok[eé]mon|sonic|tetris|pac-?man|game ?boy|monopoly|scrabble|catan|carcassonne|ticket to ride|lego|ravensburger|rubik|vault ?boy/i;

describe('seed catalogue', () => {
  it('has at least 40 products and at least 8 in every category', () => {
    expect(SEED_PRODUCTS.length).toBeGreaterThanOrEqual(40);
    for (const category of CATEGORIES) {
      expect(SEED_PRODUCTS.filter((p) => p.category === category).length).toBeGreaterThanOrEqual(8);
    }
  });

  it('uses only the four category slugs', () => {
    for (const p of SEED_PRODUCTS) expect(CATEGORIES).toContain(p.category);
  });

  it('gives every product a unique, invented name', () => {
    const names = SEED_PRODUCTS.map((p) => p.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const p of SEED_PRODUCTS) {
      expect(p.name.trim()).toBe(p.name);
      expect(p.name).not.toMatch(TRADEMARKS);
      expect(p.description).not.toMatch(TRADEMARKS);
    }
  });

  it('prices in positive integer cents, from cheap to premium', () => {
    for (const p of SEED_PRODUCTS) {
      expect(Number.isInteger(p.priceCents)).toBe(true);
      expect(p.priceCents).toBeGreaterThan(0);
    }
    expect(SEED_PRODUCTS.filter((p) => p.priceCents < 5000).length).toBeGreaterThanOrEqual(3);
    expect(SEED_PRODUCTS.filter((p) => p.priceCents < 2000).length).toBeGreaterThanOrEqual(2);
    expect(SEED_PRODUCTS.filter((p) => p.priceCents > 10000).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps stock a non-negative integer, with some products sold out', () => {
    for (const p of SEED_PRODUCTS) {
      expect(Number.isInteger(p.stock)).toBe(true);
      expect(p.stock).toBeGreaterThanOrEqual(0);
    }
    const soldOut = SEED_PRODUCTS.filter((p) => p.stock === 0);
    expect(soldOut.length).toBeGreaterThanOrEqual(3);
    expect(new Set(soldOut.map((p) => p.category)).size).toBeGreaterThanOrEqual(3);
  });

  it('has reviews by the seeded customers only, one per customer and product, at most three a product', () => {
    const customers = Object.keys(SEED_CUSTOMERS);
    for (const p of SEED_PRODUCTS) {
      expect(p.reviews.length, p.name).toBeLessThanOrEqual(3);
      const authors = p.reviews.map((r) => r.by);
      expect(new Set(authors).size, p.name).toBe(authors.length);
      for (const author of authors) expect(customers).toContain(author);
    }
    // Most products have reviews; a few have none yet, as in a real shop.
    const unreviewed = SEED_PRODUCTS.filter((p) => p.reviews.length === 0).length;
    expect(unreviewed).toBeGreaterThanOrEqual(1);
    expect(unreviewed).toBeLessThanOrEqual(SEED_PRODUCTS.length / 4);
  });

  it('writes reviews with a whole-star rating, a title and a comment within the API limits', () => {
    for (const r of SEED_PRODUCTS.flatMap((p) => p.reviews)) {
      expect(ReviewBody.parse(r)).toEqual({ rating: r.rating, title: r.title, comment: r.comment });
    }
  });

  it('names believable customers with unique e-mails that the sign-up form accepts', () => {
    const all = Object.values(SEED_CUSTOMERS);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(new Set(all.map((c) => c.email)).size).toBe(all.length);
    for (const c of all) expect(RegisterBody.parse({ ...c, password: 'x'.repeat(12) })).toMatchObject(c);
  });

  it('gives every retro game and console a platform, and no board game or puzzle one (issue 33)', () => {
    for (const p of SEED_PRODUCTS) {
      if (p.category === 'retro-games' || p.category === 'consoles') {
        // Set, and what the admin's form and the import accept (not empty, trimmed, PLATFORM_MAX).
        expect(Platform.safeParse(p.platform), p.name).toEqual({ success: true, data: p.platform });
      } else expect(p.platform, p.name).toBeUndefined();
    }
    // One platform is shared by several products: filtering by it finds more than one.
    const counts = new Map<string, number>();
    for (const p of SEED_PRODUCTS) if (p.platform) counts.set(p.platform, (counts.get(p.platform) ?? 0) + 1);
    expect([...counts.values()].some((n) => n >= 3)).toBe(true);
  });

  it('has between one and four images per product, using each count somewhere (spec section 9)', () => {
    for (const p of SEED_PRODUCTS) expect([1, 2, 3, 4]).toContain(p.imageCount);
    expect(new Set(SEED_PRODUCTS.map((p) => p.imageCount)).size).toBe(4);
  });

  it('describes every product in two to four sentences', () => {
    for (const p of SEED_PRODUCTS) {
      expect(p.description.trim()).not.toBe('');
      const sentences = p.description.split(/[.!?](?=\s|$)/).filter((s) => s.trim() !== '');
      expect(sentences.length, p.name).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.name).toBeLessThanOrEqual(4);
    }
  });

  it('buys the retro games and consoles for store credit, boxed and new for more, and few board games or puzzles (issue 35)', () => {
    const creditsOf = (p: (typeof SEED_PRODUCTS)[number]) =>
      p.variants ? p.variants.map((v) => v.tradeInCreditCents ?? null) : [p.tradeInCreditCents ?? null];
    for (const p of SEED_PRODUCTS) {
      const credits = creditsOf(p);
      const prices = p.variants ? p.variants.map((v) => v.priceCents) : [p.priceCents];
      credits.forEach((credit, i) => {
        if (credit === null) return;
        // Whole 50 cents, and below what the shop sells it for.
        expect(credit % 50, p.name).toBe(0);
        expect(credit, p.name).toBeLessThan(prices[i]!);
      });
      if (p.category === 'retro-games' || p.category === 'consoles') {
        for (const credit of credits) expect(credit, p.name).not.toBeNull();
      }
    }
    const boughtBoardOrPuzzle = SEED_PRODUCTS.filter(
      (p) =>
        (p.category === 'board-games' || p.category === 'puzzles') && creditsOf(p).some((c) => c !== null),
    );
    expect(boughtBoardOrPuzzle.length).toBeLessThanOrEqual(1);
    // Within a product, a boxed or new copy fetches more credit than a loose one.
    const drift = SEED_PRODUCTS.find((p) => p.name === 'Neon Drift 64')!;
    const credit = (condition: string) =>
      drift.variants!.find((v) => v.options['Condition'] === condition && v.options['Region'] === 'NTSC-U')!
        .tradeInCreditCents!;
    expect(credit('Loose')).toBe(1400);
    expect(credit('Complete in box')).toBeGreaterThan(credit('Loose'));
    expect(credit('New')).toBeGreaterThan(credit('Complete in box'));
  });
});

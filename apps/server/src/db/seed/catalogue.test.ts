import { describe, expect, it } from 'vitest';
import { SEED_PRODUCTS } from './catalogue.js';

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

  it('rates between 0 and 5 with at most one decimal (spec section 3)', () => {
    for (const p of SEED_PRODUCTS) {
      expect(p.rating).toBeGreaterThanOrEqual(0);
      expect(p.rating).toBeLessThanOrEqual(5);
      expect(Math.round(p.rating * 10) / 10).toBe(p.rating);
    }
  });

  it('counts at least as many reviews as it samples, and rates unreviewed products 0', () => {
    for (const p of SEED_PRODUCTS) {
      expect(Number.isInteger(p.reviewCount)).toBe(true);
      expect(p.reviewCount).toBeGreaterThanOrEqual(p.reviews.length);
      expect(p.reviews.length).toBeLessThanOrEqual(3);
      if (p.reviewCount === 0) expect(p.rating).toBe(0);
      else expect(p.rating).toBeGreaterThan(0);
    }
  });

  it('writes sample reviews with an author, a comment and a whole-star rating', () => {
    for (const r of SEED_PRODUCTS.flatMap((p) => p.reviews)) {
      expect(r.author.trim()).not.toBe('');
      expect(r.comment.trim()).not.toBe('');
      expect(Number.isInteger(r.rating)).toBe(true);
      expect(r.rating).toBeGreaterThanOrEqual(1);
      expect(r.rating).toBeLessThanOrEqual(5);
    }
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
});

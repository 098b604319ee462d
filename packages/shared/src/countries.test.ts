import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, DEFAULT_SHOP_COUNTRY, isCountryCode } from './countries.js';

describe('ISO 3166-1 country codes (issue 30)', () => {
  it('holds the 249 assigned alpha-2 codes, once each, sorted', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    expect(COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });

  it('names every code in English through the platform', () => {
    const names = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
    expect(COUNTRY_CODES.filter((code) => !names.of(code))).toEqual([]);
    expect(names.of(DEFAULT_SHOP_COUNTRY)).toBe('United States');
  });

  it('knows a code from a name or a retired code', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('USA')).toBe(false);
    expect(isCountryCode('YU')).toBe(false);
  });
});

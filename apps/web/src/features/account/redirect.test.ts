import { describe, expect, it } from 'vitest';
import { redirectQuery, safeRedirect } from './redirect';
import { fullName } from './fullName';

describe('safeRedirect', () => {
  it('keeps a path on this site, with its query', () => {
    expect(safeRedirect('/place-order')).toBe('/place-order');
    expect(safeRedirect('/shop/consoles?page=2')).toBe('/shop/consoles?page=2');
  });

  it('falls back to the home page without a target', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
  });

  it('refuses targets that leave the site', () => {
    for (const target of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      'place-order',
    ]) {
      expect(safeRedirect(target), target).toBe('/');
    }
  });
});

describe('redirectQuery', () => {
  it('carries a target other than home, encoded', () => {
    expect(redirectQuery('/place-order')).toBe('?redirect=%2Fplace-order');
    expect(redirectQuery('/')).toBe('');
  });
});

describe('fullName', () => {
  it('trims each part and joins them with one space', () => {
    expect(fullName(' Ada ', ' Lovelace ')).toBe('Ada Lovelace');
    expect(fullName('Ada', '   ')).toBe('Ada');
  });
});

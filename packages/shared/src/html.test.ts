import { describe, expect, it } from 'vitest';
import { escapeHtml } from './index.js';

describe('escapeHtml', () => {
  it('escapes the five HTML special characters and leaves everything else as it is', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('Zelda II — 19.99 $ / ünïcode')).toBe('Zelda II — 19.99 $ / ünïcode');
  });

  it('escapes an ampersand of an entity again, so text is never read as markup', () => {
    expect(escapeHtml('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });

  it('writes numbers as text and null or undefined as an empty string', () => {
    expect(escapeHtml(42)).toBe('42');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(null)).toBe('');
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtml } from './html.js';
import { helmetOptions, securityHeaders } from './security-headers.js';
import { LocalDiskStorage, contentHash8 } from './storage.js';

describe('escapeHtml', () => {
  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('turns null and undefined into an empty string', () => {
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(null)).toBe('');
  });
});

describe('LocalDiskStorage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pv-storage-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the bytes under the key and answers the /uploads URL', async () => {
    const storage = new LocalDiskStorage(dir);
    const url = await storage.put('products/a-0-12345678.svg', Buffer.from('<svg/>'), 'image/svg+xml');
    expect(url).toBe('/uploads/products/a-0-12345678.svg');
    expect(readFileSync(path.join(dir, 'products/a-0-12345678.svg'), 'utf8')).toBe('<svg/>');
    await storage.remove('products/a-0-12345678.svg');
    expect(existsSync(path.join(dir, 'products/a-0-12345678.svg'))).toBe(false);
    await storage.remove('products/a-0-12345678.svg');
  });

  it.each(['../escape.svg', '/etc/passwd', 'a/../../b', 'a//b', '', 'with space.svg', 'a\\b'])(
    'refuses the unsafe key %j',
    async (key) => {
      const storage = new LocalDiskStorage(dir);
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe storage key/);
    },
  );

  it('hashes content to 8 hex digits', () => {
    expect(contentHash8('<svg/>')).toMatch(/^[0-9a-f]{8}$/);
    expect(contentHash8('<svg/>')).toBe(contentHash8(Buffer.from('<svg/>')));
    expect(contentHash8('<svg/>')).not.toBe(contentHash8('<svg />'));
  });
});

describe('securityHeaders', () => {
  it('computes helmet headers once, without x-powered-by', () => {
    const headers = securityHeaders();
    expect(headers['content-security-policy']).toMatch(
      /script-src 'self' 'sha256-[\w+/]{43}=' https:\/\/www\.paypal\.com/,
    );
    expect(headers['x-powered-by']).toBeUndefined();
    expect(Object.keys(headers).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it('lets pages show images from the PUBLIC_URL origin, and only adds to the image sources', () => {
    const base = securityHeaders()['content-security-policy'] ?? '';
    const csp = securityHeaders(helmetOptions(['https://api.example.com']))['content-security-policy'] ?? '';
    expect(csp).toMatch(/img-src [^;]*https:\/\/api\.example\.com/);
    expect(csp.replace(' https://api.example.com', '')).toBe(base);
  });
});

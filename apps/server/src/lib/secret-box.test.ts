import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

const KEY = 'test-secret-that-is-long-enough-for-hs256-0123456789';

describe('sealed secrets', () => {
  it('round-trip under one purpose and cannot be opened under another purpose or key', () => {
    const webhooks = createSecretBox(KEY, 'webhook secret encryption v1');
    const sealed = webhooks.seal('whsec_abc');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(webhooks.open(sealed)).toBe('whsec_abc');
    expect(() => createSecretBox(KEY, 'two-factor secret encryption v1').open(sealed)).toThrow();
    expect(() => createSecretBox(`${KEY}x`, 'webhook secret encryption v1').open(sealed)).toThrow();
    expect(() => webhooks.open('v2.a.b.c')).toThrow(/Unknown sealed secret format/);
  });
});

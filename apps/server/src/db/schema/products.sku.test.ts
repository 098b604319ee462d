import { describe, expect, it } from 'vitest';
import { defaultSku } from './products.js';

describe('the SKU a new product gets (issue 31)', () => {
  it('is different for ids alike in their first digits, and never of the migrated 12-digit form', () => {
    const a = defaultSku('aaaaaaaa-bbbb-4ccc-8ddd-000000000001');
    const b = defaultSku('aaaaaaaa-bbbb-4ccc-8ddd-000000000002');
    expect(a).toBe('PV-AAAAAAAABBBB4CCC8DDD000000000001');
    expect(b).not.toBe(a);
    // Migration 0015 named the products already there PV- and 12 digits (and a tie -2, -3, ...).
    expect(a).not.toMatch(/^PV-[0-9A-F]{12}(-\d+)?$/);
  });
});

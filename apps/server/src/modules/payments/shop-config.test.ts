import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopConfigResponse } from '@pixel-vault/shared';
import { type TestContext, createTestContext } from '../../test/context.js';

describe("GET /api/config: the shop's country beside the payment settings (issue 30)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { SHOP_COUNTRY: 'de' } });
  });
  afterAll(() => ctx.close());

  it('answers SHOP_COUNTRY as an upper-case code, to anyone, and the spec route stays the bare client id', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(ShopConfigResponse.strict().parse(res.json())).toEqual({
      clientId: 'demo',
      mode: 'demo',
      currency: 'USD',
      shopCountry: 'DE',
    });
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/config/paypal' });
    expect(spec.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(spec.body).toBe('demo');
  });
});

import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { mailOutbox, productVariants, stockAlerts } from '../../db/schema/index.js';
import { confirm, subscribe, visitorAlert } from '../../test/alerts.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertProduct, insertUser } from '../../test/factories.js';

/**
 * Issue 34: restocks, sell-outs, subscribes and confirmations of one variant all at once, on both
 * engines (npm test is PGlite, one connection; npm run test:pg is PostgreSQL with a pool, where they
 * really overlap). Nobody is mailed twice, nobody who waits is left out, and nothing deadlocks.
 */
let ctx: TestContext;
let admin: { authorization: string };

beforeAll(async () => {
  ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

const setStockByAdmin = (productId: string, stock: number) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/api/products/update/${productId}`,
    headers: admin,
    payload: { stockQuantity: stock },
  });

describe('a rush on one variant', () => {
  it('mails every waiting alert exactly once through concurrent restocks, sell-outs, subscribes and confirmations', async () => {
    const p = await insertProduct(ctx.db, { name: 'Rush Restock', stock: 0 });
    const shoppers = await Promise.all(Array.from({ length: 40 }, () => insertUser(ctx.db)));
    // Visitors who asked while it was sold out, and confirm during the rush.
    const visitors = Array.from({ length: 10 }, (_, i) => `rush-visitor-${i}-${Date.now()}@example.com`);
    const tokens: string[] = [];
    for (const email of visitors) {
      tokens.push(await visitorAlert(ctx.app, ctx.db, email, p.id, undefined, { confirmed: false }));
    }

    // Ten rounds, each started at once: four subscribes, a confirmation, and the variant put up and
    // down both by the admin's API and straight in the database (another path, another connection),
    // in an order that changes from round to round.
    const subscribes: LightMyRequestResponse[] = [];
    const confirmations: LightMyRequestResponse[] = [];
    const restocks: LightMyRequestResponse[] = [];
    for (let round = 0; round < 10; round += 1) {
      const up = 1 + (round % 3);
      const [byAdmin, byDatabase] = round % 2 === 0 ? [up, 0] : [0, up];
      const token = tokens[round];
      const [subscribed, confirmed, restocked] = await Promise.all([
        Promise.all(
          shoppers.slice(round * 4, round * 4 + 4).map((s) => subscribe(ctx.app, { product: p.id }, s.auth)),
        ),
        token ? confirm(ctx.app, token) : undefined,
        setStockByAdmin(p.id, byAdmin),
        ctx.db.update(productVariants).set({ stock: byDatabase }).where(eq(productVariants.id, p.variantId)),
      ]);
      subscribes.push(...subscribed);
      if (confirmed) confirmations.push(confirmed);
      restocks.push(restocked);
    }
    for (const res of restocks) expect(res.statusCode, res.body).toBe(200);
    for (const res of confirmations) expect(res.statusCode, res.body).toBe(200);
    // Subscribed (201), or told it is in stock right now (409); never a 5xx (no deadlock).
    for (const res of subscribes) expect([201, 409], res.body).toContain(res.statusCode);
    const subscribed = shoppers.filter((_, i) => subscribes[i]?.statusCode === 201);
    const refused = shoppers.filter((_, i) => subscribes[i]?.statusCode === 409);

    // One last restock for whoever still waits.
    expect((await setStockByAdmin(p.id, 0)).statusCode).toBe(200);
    expect((await setStockByAdmin(p.id, 1)).statusCode).toBe(200);

    const perAddress = await queryRows<{ to_address: string; mails: number | string }>(
      ctx.db,
      sql`select to_address, count(*) as mails from ${mailOutbox}
          where subject = ${`Back in stock: ${p.name}`} group by to_address`,
    );
    const mails = new Map(perAddress.map((r) => [r.to_address, Number(r.mails)]));
    expect([...mails.values()].filter((n) => n !== 1)).toEqual([]);
    expect([...mails.keys()].sort()).toEqual([...subscribed.map((s) => s.user.email), ...visitors].sort());
    for (const s of refused) expect(mails.has(s.user.email)).toBe(false);

    // Every alert is used, each by its own mail.
    const rows = await ctx.db.select().from(stockAlerts).where(eq(stockAlerts.variantId, p.variantId));
    expect(rows).toHaveLength(subscribed.length + visitors.length);
    expect(rows.filter((r) => r.status !== 'notified')).toEqual([]);
    expect(new Set(rows.map((r) => r.mailId)).size).toBe(rows.length);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product, Promotion } from '@pixel-vault/shared';
import { type TestContext, createTestContext } from '../../test/context.js';
import { TEST_ADDRESS, insertProduct, insertUser, createSale as createSaleAs } from '../../test/factories.js';
import { saleBookOf } from './promotions.sales.js';

/**
 * Issue 32: scheduled sales. The shop's clock is the test's: a sale starts and ends when the clock
 * says, and what the catalogue has cached stops being served at that moment, with no write.
 */
let ctx: TestContext;
let now = new Date('2026-11-27T12:00:00Z');
let admin: { authorization: string };
const HOUR = 3_600_000;

beforeAll(async () => {
  ctx = await createTestContext({ app: { clock: () => now } });
  admin = (await insertUser(ctx.db, { isAdmin: true })).auth;
});
afterAll(() => ctx.close());

const createSale = (body: Record<string, unknown>) => createSaleAs(ctx.app, admin, body);

const product = async (id: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();
const inCategory = async (category: string, id: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/products?category=${category}` }))
    .json<Product[]>()
    .find((p) => p._id === id);

describe('scheduled sales', () => {
  it('refuses a sale with a code, without a window, with limits, or over 99%', async () => {
    const at = (h: number) => new Date(now.getTime() + h * HOUR).toISOString();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ code: 'SALE20', value: 20, startsAt: at(1), endsAt: at(2) }, /no code/],
      [{ value: 20, startsAt: at(1) }, /start and an end/],
      [{ value: 20, startsAt: at(1), endsAt: at(2), usageLimit: 5 }, /no minimum subtotal or usage limits/],
      [{ value: 100, startsAt: at(1), endsAt: at(2) }, /1 to 99/],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/promotions/admin',
        headers: admin,
        payload: { kind: 'sale', ...body },
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    // A code cannot be given the kind of a sale, nor the other way round.
    const sale = await createSale({ value: 10, startsAt: at(1), endsAt: at(2), categories: ['consoles'] });
    expect(sale).toMatchObject({ code: null, kind: 'sale', value: 10, state: 'scheduled' });
    const toCode = await ctx.app.inject({
      method: 'PUT',
      url: `/api/promotions/admin/${sale._id}`,
      headers: admin,
      payload: { kind: 'percentage', value: 10 },
    });
    expect(toCode.statusCode).toBe(400);
    expect(toCode.json<{ message: string }>().message).toMatch(/cannot become/);
    const withLimit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/promotions/admin/${sale._id}`,
      headers: admin,
      payload: { usageLimit: 3 },
    });
    expect(withLimit.statusCode).toBe(400);
  });

  it('shows and charges the sale price from its start to its end, with no write at either moment', async () => {
    const puzzle = await insertProduct(ctx.db, { category: 'puzzles', priceCents: 2499, stock: 20 });
    const game = await insertProduct(ctx.db, { category: 'retro-games', priceCents: 4000, stock: 20 });
    const startsAt = new Date(now.getTime() + HOUR);
    const endsAt = new Date(now.getTime() + 3 * HOUR);
    await createSale({
      value: 20,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      categories: ['puzzles'],
    });

    // Before it starts: the regular price, and the answers are cached now.
    expect(await product(puzzle.id)).toMatchObject({ productPrice: 24.99 });
    expect((await product(puzzle.id)).compareAtPrice).toBeUndefined();
    expect((await inCategory('puzzles', puzzle.id))?.productPrice).toBe(24.99);

    // It starts: the same URLs answer the sale price at once (24.99 - 5.00 = 19.99), the regular beside it.
    now = new Date(startsAt.getTime());
    const onSale = await product(puzzle.id);
    expect(onSale).toMatchObject({
      productPrice: 19.99,
      compareAtPrice: 24.99,
      saleEndsAt: endsAt.toISOString(),
      priceRange: { min: 19.99, max: 19.99 },
    });
    expect(onSale.variants[0]).toMatchObject({ price: 19.99, compareAtPrice: 24.99 });
    expect(await inCategory('puzzles', puzzle.id)).toMatchObject({
      productPrice: 19.99,
      compareAtPrice: 24.99,
    });
    // Another category is not on sale.
    expect((await product(game.id)).compareAtPrice).toBeUndefined();

    // An order charges what the page shows; a code comes off the sale price.
    const shopper = (await insertUser(ctx.db)).auth;
    const code = await ctx.app.inject({
      method: 'POST',
      url: '/api/promotions/admin',
      headers: admin,
      payload: { code: `SALEPLUS${Date.now() % 100_000}`, kind: 'percentage', value: 10 },
    });
    const placed = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: shopper,
      payload: {
        orderItems: [
          { product: puzzle.id, itemQuantity: 2 },
          { product: game.id, itemQuantity: 1 },
        ],
        shippingAddress: TEST_ADDRESS,
        paymentMethod: 'paypal',
        discountCode: code.json<Promotion>().code,
      },
    });
    expect(placed.statusCode).toBe(201);
    // 2 x 19.99 + 40.00 = 79.98; 10% = 8.00; 71.98 + tax 10.80 (10.797) + shipping 7.99 = 90.77.
    expect(placed.json<Order>()).toMatchObject({
      price: 79.98,
      discountPrice: 8,
      taxPrice: 10.8,
      totalPrice: 90.77,
    });
    const lines = placed.json<Order>().orderItems;
    expect(lines.find((l) => l.product === puzzle.id)?.itemPrice).toBe(19.99);

    // It ends: the regular price again, on the same cached URLs.
    now = new Date(endsAt.getTime());
    expect(await product(puzzle.id)).toMatchObject({ productPrice: 24.99 });
    expect((await product(puzzle.id)).compareAtPrice).toBeUndefined();
    expect((await inCategory('puzzles', puzzle.id))?.productPrice).toBe(24.99);
    const after = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: (await insertUser(ctx.db)).auth,
      payload: {
        orderItems: [{ product: puzzle.id, itemQuantity: 1 }],
        shippingAddress: TEST_ADDRESS,
        paymentMethod: 'paypal',
      },
    });
    expect(after.json<Order>().price).toBe(24.99);
  });

  it('shows a sale written by an admin at once, and its end when the admin deactivates it', async () => {
    const consoleProduct = await insertProduct(ctx.db, {
      category: 'consoles',
      priceCents: 10_000,
      stock: 5,
    });
    expect((await product(consoleProduct.id)).productPrice).toBe(100);
    const sale = await createSale({
      value: 15,
      startsAt: new Date(now.getTime() - HOUR).toISOString(),
      endsAt: new Date(now.getTime() + HOUR).toISOString(),
      products: [consoleProduct.id],
    });
    expect(await product(consoleProduct.id)).toMatchObject({ productPrice: 85, compareAtPrice: 100 });
    await ctx.app.inject({ method: 'DELETE', url: `/api/promotions/admin/${sale._id}`, headers: admin });
    expect((await product(consoleProduct.id)).productPrice).toBe(100);
  });
});

describe('the sale book', () => {
  const sale = (over: Partial<Parameters<typeof saleBookOf>[0][number]>) => ({
    id: 's',
    percent: 10,
    startsAt: 100,
    endsAt: 200,
    categories: [] as string[],
    products: [] as string[],
    ...over,
  });

  it('takes the best of the sales running on a product, and knows when the next one starts or ends', () => {
    const book = saleBookOf([
      sale({ id: 'a', percent: 10, categories: ['puzzles'] }),
      sale({ id: 'b', percent: 30, startsAt: 150, endsAt: 300, products: ['p1'] }),
      sale({ id: 'c', percent: 5, startsAt: 400, endsAt: 500 }),
    ]);
    const p1 = { id: 'p1', category: 'puzzles' };
    expect(book.termsFor(p1, 99)).toBeUndefined();
    expect(book.termsFor(p1, 100)?.percent).toBe(10);
    expect(book.termsFor(p1, 150)?.percent).toBe(30);
    expect(book.termsFor({ id: 'p2', category: 'consoles' }, 150)).toBeUndefined();
    expect(book.termsFor({ id: 'p2', category: 'consoles' }, 450)?.percent).toBe(5);
    expect(book.nextChangeAfter(0)).toBe(100);
    expect(book.nextChangeAfter(100)).toBe(150);
    expect(book.nextChangeAfter(150)).toBe(200);
    expect(book.nextChangeAfter(300)).toBe(400);
    expect(book.nextChangeAfter(500)).toBe(Number.POSITIVE_INFINITY);
  });
});

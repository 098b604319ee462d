import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '@pixel-vault/shared';
import { cartItems, carts } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import {
  type TestProduct,
  insertGiftCard,
  insertProduct,
  insertUser,
  placeOrder,
} from '../../test/factories.js';

/**
 * Issue 34: writes to one account's cart at once, on both engines (npm test is PGlite, one connection;
 * npm run test:pg is PostgreSQL with a pool, where the writes really overlap). The newer write wins:
 * the cart is always exactly what one write made of the one before it, never a mix of two.
 */
let ctx: TestContext;
let shelf: TestProduct[];

beforeAll(async () => {
  ctx = await createTestContext({ env: { HOLD_MAX_ORDERS: '1000' }, app: { limits: NO_RATE_LIMITS } });
  // Stock enough that a merge's cap at stock never bites: the replay below needs no catalogue.
  shelf = [];
  for (let i = 0; i < 8; i += 1) shelf.push(await insertProduct(ctx.db, { stock: 500, images: [] }));
});
afterAll(() => ctx.close());

type Auth = { authorization: string };
/** A line as the test compares them: product and quantity (every product here has one variant). */
type Line = { product: string; qty: number };
type Write = { kind: 'put' | 'merge'; items: Line[] };

const send = (auth: Auth, write: Write) =>
  ctx.app.inject({
    method: write.kind === 'put' ? 'PUT' : 'POST',
    url: write.kind === 'put' ? '/api/cart' : '/api/cart/merge',
    headers: auth,
    payload: { items: write.items },
  });

/** The cart as the database holds it. */
async function stored(userId: string): Promise<{ lines: Line[]; version: number }> {
  const lines = await ctx.db
    .select({ product: cartItems.productId, qty: cartItems.qty })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(cartItems.position);
  const [cart] = await ctx.db.select({ version: carts.version }).from(carts).where(eq(carts.userId, userId));
  return { lines, version: cart?.version ?? 0 };
}

/** The merge rule on lines of one-variant products with plenty of stock: the larger quantity, new lines after. */
function merged(cart: Line[], items: Line[]): Line[] {
  const result = cart.map((l) => ({ ...l }));
  for (const item of items) {
    const known = result.find((l) => l.product === item.product);
    if (known) known.qty = Math.max(known.qty, item.qty);
    else result.push({ ...item });
  }
  return result;
}

/** A cart of `size` distinct products from the shelf, starting at `from`, quantities from `seed`. */
const cartOf = (from: number, size: number, seed: number): Line[] =>
  Array.from({ length: size }, (_, i) => ({
    product: shelf[(from + i) % shelf.length]!.id,
    qty: ((seed * 7 + i * 3) % 9) + 1,
  }));

const itemsOf = (cart: Cart): Line[] => cart.items.map((i) => ({ product: i.product, qty: i.qty }));

describe('the cart in a rush (issue 34)', () => {
  it('24 PUTs and merges at once: versions 1..24, each answer what its write made of the one before, the last one stored', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const writes: Write[] = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 2
        ? { kind: 'merge', items: cartOf(i, 1 + (i % 3), i) }
        : { kind: 'put', items: cartOf(i, 1 + (i % 5), i) },
    );
    // Every PUT body differs, so the stored cart names the write that made it.
    const bodies = writes.filter((w) => w.kind === 'put').map((w) => JSON.stringify(w.items));
    expect(new Set(bodies).size).toBe(bodies.length);

    const answers = await Promise.all(writes.map((write) => send(auth, write)));

    expect(answers.filter((a) => a.statusCode !== 200).map((a) => `${a.statusCode} ${a.body}`)).toEqual([]);
    const carts = answers.map((a) => a.json<Cart>());
    // Serialised: each write has its own version, and there were 24 of them.
    expect(carts.map((c) => c.version).sort((a, b) => a - b)).toEqual(writes.map((_, i) => i + 1));

    // Replayed in version order, each answer is its write applied to the cart the previous one left.
    const order = writes
      .map((w, i) => ({ write: w, cart: carts[i]! }))
      .sort((a, b) => a.cart.version - b.cart.version);
    let cart: Line[] = [];
    for (const { write, cart: answer } of order) {
      cart = write.kind === 'put' ? write.items : merged(cart, write.items);
      expect(itemsOf(answer), `version ${answer.version} (${write.kind})`).toEqual(cart);
    }
    const final = await stored(user.id);
    expect(final).toEqual({ lines: cart, version: 24 });
    // The stored cart is exactly one write's answer: the last.
    expect(final.lines).toEqual(itemsOf(order.at(-1)!.cart));
  });

  it('two PUTs at once, ten times over: the cart is exactly one of the two bodies, never a mix', async () => {
    const { user, auth } = await insertUser(ctx.db);
    for (let round = 0; round < 10; round += 1) {
      // Overlapping products, different quantities and orders: a mix would be visible.
      const first = cartOf(round, 5, round);
      const second = cartOf(round + 2, 5, round + 11).reverse();
      const [a, b] = await Promise.all([
        send(auth, { kind: 'put', items: first }),
        send(auth, { kind: 'put', items: second }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const later = a.json<Cart>().version > b.json<Cart>().version ? first : second;
      const { lines, version } = await stored(user.id);
      expect(lines).toEqual(later);
      expect([first, second]).toContainEqual(lines);
      expect(version).toBe(2 * (round + 1));
    }
  });

  it('PUTs while an order of a product in the cart is paid: no error, and the cart is one serial order of them', async () => {
    const { user, auth } = await insertUser(ctx.db);
    const paidProduct = shelf[0]!;
    const order = await placeOrder(ctx.app, auth, [{ product: paidProduct.id, itemQuantity: 1 }]);
    const card = await insertGiftCard(ctx.db, { balanceCents: 1_000_000 });
    // The paid product, then two of shelf[1..6] (never the paid one again: it would be summed).
    const puts = Array.from({ length: 8 }, (_, i) => [
      { product: paidProduct.id, qty: 1 },
      ...cartOf(1 + (i % 5), 2, i),
    ]);
    expect(new Set(puts.map((p) => JSON.stringify(p))).size).toBe(puts.length);

    const [pay, ...answers] = await Promise.all([
      ctx.app.inject({
        method: 'POST',
        url: '/api/giftcards/use',
        headers: auth,
        payload: { code: card.code, amount: order.totalPrice, orderId: order._id },
      }),
      ...puts.map((items) => send(auth, { kind: 'put', items })),
    ]);

    expect(pay.statusCode, pay.body).toBe(200);
    expect(answers.map((a) => a.statusCode)).toEqual(puts.map(() => 200));
    const versions = answers.map((a) => a.json<Cart>().version);
    const last = Math.max(...versions);
    const lastBody = puts[versions.indexOf(last)]!;
    const final = await stored(user.id);
    if (final.version === last) {
      // The payment came before the last PUT (or found nothing to remove): that PUT's body is the cart.
      expect(final.lines).toEqual(lastBody);
    } else {
      // The payment came after every PUT: the last body without the paid product, one write more.
      expect(final.version).toBe(last + 1);
      expect(final.lines).toEqual(lastBody.filter((l) => l.product !== paidProduct.id));
    }
    expect(final.version).toBeGreaterThanOrEqual(puts.length);
  });
});

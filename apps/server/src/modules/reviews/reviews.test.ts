import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_REVIEWS_PATH,
  AdminReviewPage,
  type AuditEntry,
  FORMER_CUSTOMER_NAME,
  MyReviewAnswer,
  Product,
  REVIEWS_PAGE_SIZE,
  REVIEW_DUPLICATE_MESSAGE,
  REVIEW_NOT_VERIFIED_MESSAGE,
  Review,
  ReviewPage,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { auditLog, orderItems, orders, productReviews, products } from '../../db/schema/index.js';
import { NO_RATE_LIMITS, type TestContext, createTestContext } from '../../test/context.js';
import { insertGiftCard, insertProduct, insertUser, placeOrder } from '../../test/factories.js';
import { REVIEW_UNVERIFIED_MESSAGE } from './reviews.service.js';

type Auth = { authorization: string };
type Customer = Awaited<ReturnType<typeof insertUser>>;
type Status = 'unpaid' | 'paid' | 'delivered' | 'cancelled' | 'refunded' | 'expired';

/**
 * An order of `productIds` straight in the database, in the given state: quick verified (or not)
 * buyers. The API's own paths (checkout, payment, delivery, refund) are exercised below too.
 */
async function insertOrder(db: Database, customer: Customer, productIds: string[], status: Status) {
  const now = new Date();
  const paid = status === 'paid' || status === 'delivered' || status === 'refunded';
  const [order] = await db
    .insert(orders)
    .values({
      userId: customer.user.id,
      customerName: customer.user.name,
      customerEmail: customer.user.email,
      shipAddress: '1 Test Street',
      shipCity: 'Testville',
      shipPostalCode: '12345',
      shipCountry: 'Testland',
      itemsCents: 1000,
      taxCents: 150,
      shippingCents: 799,
      totalCents: 1949,
      paymentMethod: 'paypal',
      status: status === 'delivered' ? 'paid' : status,
      paidAt: paid ? now : null,
      isDelivered: status === 'delivered',
      deliveredAt: status === 'delivered' ? now : null,
      refundedCents: status === 'refunded' ? 1949 : 0,
      expiresAt: new Date(now.getTime() + 30 * 60_000),
    })
    .returning();
  await db.insert(orderItems).values(
    productIds.map((productId) => ({
      orderId: order!.id,
      productId,
      name: 'Item',
      image: '/uploads/x.svg',
      unitPriceCents: 1000,
      quantity: 1,
    })),
  );
  return order!;
}

const body = (overrides: Record<string, unknown> = {}) => ({
  rating: 4,
  title: 'Works well',
  comment: 'Arrived quickly and plays fine.',
  ...overrides,
});

describe('reviews from verified buyers (issue 14)', () => {
  let ctx: TestContext;
  let admin: Customer;

  beforeAll(async () => {
    // A long catalogue cache: every review change must drop it, or the numbers below go stale.
    ctx = await createTestContext({ app: { limits: NO_RATE_LIMITS, productsCacheTtlMs: 60_000 } });
    admin = await insertUser(ctx.db, { isAdmin: true, name: 'Shop Admin' });
  });
  afterAll(() => ctx.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: Auth, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      ...(auth ? { headers: auth } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const post = (productId: string, auth: Auth | undefined, payload: unknown = body()) =>
    inject('POST', `/api/products/${productId}/reviews`, auth, payload);
  const put = (productId: string, reviewId: string, auth: Auth, payload: unknown = body()) =>
    inject('PUT', `/api/products/${productId}/reviews/${reviewId}`, auth, payload);
  const del = (productId: string, reviewId: string, auth: Auth) =>
    inject('DELETE', `/api/products/${productId}/reviews/${reviewId}`, auth);
  const hide = (productId: string, reviewId: string, auth: Auth, payload?: unknown) =>
    inject('PUT', `/api/products/${productId}/reviews/${reviewId}/hide`, auth, payload);
  const listOf = async (productId: string, query = '') => {
    const res = await inject('GET', `/api/products/${productId}/reviews${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ReviewPage.strict().parse(res.json());
  };
  const mine = async (productId: string, auth: Auth) => {
    const res = await inject('GET', `/api/products/${productId}/reviews/mine`, auth);
    expect(res.statusCode, res.body).toBe(200);
    return MyReviewAnswer.parse(res.json());
  };
  /** The product as the shop's pages read it: the cached detail and the cached category list. */
  const numbers = async (productId: string) => {
    const detail = Product.parse((await inject('GET', `/api/products/${productId}`)).json());
    const list = Product.array().parse((await inject('GET', `/api/products`)).json());
    const card = list.find((p) => p._id === productId);
    expect(card && { rating: card.productRating, count: card.reviewCount }).toEqual({
      rating: detail.productRating,
      count: detail.reviewCount,
    });
    return { rating: detail.productRating, count: detail.reviewCount, reviews: detail.reviews };
  };
  const buyer = async (productId: string, status: Status = 'paid', name = 'Rita Reviewer') => {
    const customer = await insertUser(ctx.db, { name });
    await insertOrder(ctx.db, customer, [productId], status);
    return customer;
  };

  describe('who may review', () => {
    it('refuses a visitor (401) and a customer without an order (403 with the message)', async () => {
      const product = await insertProduct(ctx.db);
      expect((await post(product.id, undefined)).statusCode).toBe(401);
      const stranger = await insertUser(ctx.db);
      const res = await post(product.id, stranger.auth);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: REVIEW_NOT_VERIFIED_MESSAGE, code: 'NOT_VERIFIED_BUYER' });
      expect(await mine(product.id, stranger.auth)).toEqual({
        canReview: false,
        reason: REVIEW_NOT_VERIFIED_MESSAGE,
        review: null,
      });
      // Buying something else does not make a buyer of this product.
      const other = await insertProduct(ctx.db);
      await insertOrder(ctx.db, stranger, [other.id], 'paid');
      expect((await post(product.id, stranger.auth)).statusCode).toBe(403);
    });

    it('refuses an unpaid order placed at checkout, then takes the review once the order is paid', async () => {
      const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
      const customer = await insertUser(ctx.db, { name: 'Paula Payer' });
      const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
      expect((await post(product.id, customer.auth)).statusCode).toBe(403);
      expect((await mine(product.id, customer.auth)).canReview).toBe(false);

      const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
      const paid = await inject('PUT', `/api/orders/${order._id}/payment`, customer.auth, {
        payment_method: 'Gift Card',
        gift_card_code: card.code,
      });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(await mine(product.id, customer.auth)).toEqual({ canReview: true, reason: null, review: null });

      const res = await post(product.id, customer.auth, body({ rating: 5, title: '  Great  ' }));
      expect(res.statusCode, res.body).toBe(201);
      const review = Review.strict().parse(res.json());
      expect(review).toMatchObject({
        productId: product.id,
        name: 'Paula P.',
        rating: 5,
        title: 'Great',
        comment: 'Arrived quickly and plays fine.',
        verifiedBuyer: true,
        hidden: false,
      });
      expect(review.createdAt).toBe(review.updatedAt);
    });

    it('takes a review from a delivered order, and refuses cancelled, expired and refunded ones', async () => {
      const product = await insertProduct(ctx.db);
      expect((await post(product.id, (await buyer(product.id, 'delivered')).auth)).statusCode).toBe(201);
      for (const status of ['cancelled', 'expired', 'refunded'] as const) {
        const res = await post(product.id, (await buyer(product.id, status)).auth);
        expect(res.statusCode, status).toBe(403);
      }
    });

    it('no longer takes a review once the admin refunded the order in full', async () => {
      const product = await insertProduct(ctx.db, { priceCents: 2000, stock: 5 });
      const customer = await insertUser(ctx.db);
      const order = await placeOrder(ctx.app, customer.auth, [{ product: product.id, itemQuantity: 1 }]);
      const card = await insertGiftCard(ctx.db, { balanceCents: 10_000 });
      await inject('PUT', `/api/orders/${order._id}/payment`, customer.auth, {
        payment_method: 'Gift Card',
        gift_card_code: card.code,
      });
      expect((await mine(product.id, customer.auth)).canReview).toBe(true);
      const refunded = await inject('POST', `/api/orders/${order._id}/refund`, admin.auth, {
        reason: 'Returned',
      });
      expect(refunded.statusCode, refunded.body).toBe(200);
      expect((await post(product.id, customer.auth)).statusCode).toBe(403);
    });

    it('answers 404 for an unknown or removed product and 400 for a malformed id', async () => {
      const customer = await insertUser(ctx.db);
      const unknown = await post(randomUUID(), customer.auth);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Product not found');
      const removed = await insertProduct(ctx.db, { deletedAt: new Date() });
      await insertOrder(ctx.db, customer, [removed.id], 'paid');
      expect((await post(removed.id, customer.auth)).statusCode).toBe(404);
      expect((await inject('GET', `/api/products/${removed.id}/reviews`)).statusCode).toBe(404);
      expect((await post('not-a-uuid', customer.auth)).statusCode).toBe(400);
      expect((await inject('GET', `/api/products/${randomUUID()}/reviews`)).statusCode).toBe(404);
    });

    it('takes one review per customer and product: the second is 409, and /mine shows the first', async () => {
      const product = await insertProduct(ctx.db);
      const customer = await buyer(product.id);
      const first = await post(product.id, customer.auth);
      expect(first.statusCode).toBe(201);
      const again = await post(product.id, customer.auth, body({ title: 'Again' }));
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(REVIEW_DUPLICATE_MESSAGE);
      // Two at once: one is taken, the other refused, never both.
      const other = await buyer(product.id);
      const both = await Promise.all([post(product.id, other.auth), post(product.id, other.auth)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await mine(product.id, customer.auth)).toEqual({
        canReview: false,
        reason: REVIEW_DUPLICATE_MESSAGE,
        review: { ...first.json(), hidden: false },
      });
      expect((await numbers(product.id)).count).toBe(2);
    });

    it('lets only the author edit or delete a review; others get 403, a review of another product 404', async () => {
      const product = await insertProduct(ctx.db);
      const author = await buyer(product.id, 'paid', 'Ada Author');
      const created = Review.parse((await post(product.id, author.auth, body({ rating: 2 }))).json());
      const intruder = await buyer(product.id);
      for (const caller of [intruder, admin]) {
        const edit = await put(product.id, created._id, caller.auth, body({ rating: 5 }));
        expect(edit.statusCode).toBe(403);
        expect(edit.json().message).toBe('You can only change your own review.');
        expect((await del(product.id, created._id, caller.auth)).statusCode).toBe(403);
      }
      const elsewhere = await insertProduct(ctx.db);
      expect((await put(elsewhere.id, created._id, author.auth)).statusCode).toBe(404);
      expect((await del(elsewhere.id, created._id, author.auth)).statusCode).toBe(404);
      expect((await put(product.id, randomUUID(), author.auth)).statusCode).toBe(404);
      expect((await numbers(product.id)).rating).toBe(2);

      await new Promise((resolve) => setTimeout(resolve, 5));
      const edited = await put(
        product.id,
        created._id,
        author.auth,
        body({ rating: 5, title: 'Changed my mind' }),
      );
      expect(edited.statusCode, edited.body).toBe(200);
      const after = Review.parse(edited.json());
      expect(after).toMatchObject({
        _id: created._id,
        rating: 5,
        title: 'Changed my mind',
        createdAt: created.createdAt,
      });
      expect(after.updatedAt > created.updatedAt).toBe(true);
      expect((await numbers(product.id)).rating).toBe(5);

      const removed = await del(product.id, created._id, author.auth);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ message: 'Review deleted' });
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0, reviews: [] });
      // Deleted, the author may write a new one.
      expect(await mine(product.id, author.auth)).toEqual({ canReview: true, reason: null, review: null });
      expect((await post(product.id, author.auth)).statusCode).toBe(201);
    });

    it.each([
      [{ rating: 0 }, /Rating must be from 1 to 5/],
      [{ rating: 6 }, /Rating must be from 1 to 5/],
      [{ rating: 4.5 }, /whole number/],
      [{ rating: '5' }, /Rating must be a number/],
      [{ rating: null }, /Rating must be a number/],
      [{ title: '   ' }, /Title is required/],
      [{ title: 'x'.repeat(121) }, /Title is at most 120 characters/],
      [{ comment: '' }, /Review is required/],
      [{ comment: 'x'.repeat(4001) }, /Review is at most 4000 characters/],
      [{ comment: 'a\u0000b' }, /NUL/],
      [{ title: ['a'] }, /Title is required/],
    ])('refuses %j with 400 and a message, never 500', async (bad, message) => {
      const product = await insertProduct(ctx.db);
      const customer = await buyer(product.id);
      const res = await post(product.id, customer.auth, body(bad));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    });

    it('refuses other malformed requests with 4xx, never 500', async () => {
      const product = await insertProduct(ctx.db);
      const customer = await buyer(product.id);
      const review = Review.parse((await post(product.id, customer.auth)).json());
      const cases = [
        await post(product.id, customer.auth, []),
        await post(product.id, customer.auth, 'not json'),
        await ctx.app.inject({
          method: 'POST',
          url: `/api/products/${product.id}/reviews`,
          headers: { ...customer.auth, 'content-type': 'application/json' },
          payload: '{"rating": 5,',
        }),
        await put(product.id, 'nope', customer.auth),
        await put(product.id, review._id, customer.auth, { rating: 3 }),
        await inject('GET', `/api/products/${product.id}/reviews?sort=best`),
        await inject('GET', `/api/products/${product.id}/reviews?page=0`),
        await inject('GET', `/api/products/${product.id}/reviews?page=abc`),
        await hide(product.id, review._id, admin.auth, { hidden: 'yes' }),
        await inject('GET', `${ADMIN_REVIEWS_PATH}?hidden=maybe`, admin.auth),
        await inject('GET', `${ADMIN_REVIEWS_PATH}?search=${'x'.repeat(101)}`, admin.auth),
      ];
      for (const res of cases) {
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(typeof res.json().message).toBe('string');
      }
    });

    it('stores text as typed and answers it as JSON text', async () => {
      const product = await insertProduct(ctx.db);
      const customer = await buyer(product.id, 'paid', '<b>Eve</b> Quote');
      const title = '</script><script>alert(1)</script>';
      const comment = 'Ünïcödé & <img src=x onerror=alert(2)> 🎮\nsecond line';
      const res = await post(product.id, customer.auth, body({ title, comment }));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ title, comment, name: '<b>Eve</b> Q.' });
      const [row] = await ctx.db
        .select()
        .from(productReviews)
        .where(eq(productReviews.productId, product.id));
      expect(row).toMatchObject({ title, comment });
    });
  });

  describe('rating and count', () => {
    it('are recomputed on create, edit, delete, hide and unhide, and show at once in the cached catalogue', async () => {
      const product = await insertProduct(ctx.db, { category: 'puzzles' });
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0 });

      const [a, b, c] = [await buyer(product.id), await buyer(product.id), await buyer(product.id)];
      const ra = Review.parse((await post(product.id, a!.auth, body({ rating: 5 }))).json());
      expect(await numbers(product.id)).toMatchObject({ rating: 5, count: 1 });
      await post(product.id, b!.auth, body({ rating: 4 }));
      const rc = Review.parse((await post(product.id, c!.auth, body({ rating: 4 }))).json());
      // 13 / 3 = 4.33 -> 4.3
      expect(await numbers(product.id)).toMatchObject({ rating: 4.3, count: 3 });
      const listed = await listOf(product.id);
      expect(listed.summary).toEqual({ average: 4.3, count: 3, histogram: { 1: 0, 2: 0, 3: 0, 4: 2, 5: 1 } });

      await put(product.id, rc._id, c!.auth, body({ rating: 1 }));
      // 10 / 3 = 3.33 -> 3.3
      expect(await numbers(product.id)).toMatchObject({ rating: 3.3, count: 3 });

      const hidden = await hide(product.id, ra._id, admin.auth);
      expect(hidden.statusCode, hidden.body).toBe(200);
      // 5 / 2 = 2.5
      expect(await numbers(product.id)).toMatchObject({ rating: 2.5, count: 2 });
      expect((await listOf(product.id)).summary).toMatchObject({ average: 2.5, count: 2 });
      expect((await listOf(product.id)).reviews.map((r) => r._id)).not.toContain(ra._id);

      expect((await hide(product.id, ra._id, admin.auth, { hidden: false })).statusCode).toBe(200);
      expect(await numbers(product.id)).toMatchObject({ rating: 3.3, count: 3 });

      await del(product.id, rc._id, c!.auth);
      expect(await numbers(product.id)).toMatchObject({ rating: 4.5, count: 2 });
    });

    it('reach another instance at once: its cached category card shows the new rating', async () => {
      const other = await ctx.newApp({ limits: NO_RATE_LIMITS, productsCacheTtlMs: 60_000 });
      const product = await insertProduct(ctx.db, { category: 'board-games' });
      const card = async () =>
        Product.array()
          .parse((await other.inject({ method: 'GET', url: '/api/products?category=board-games' })).json())
          .find((p) => p._id === product.id);
      expect(await card()).toMatchObject({ productRating: 0, reviewCount: 0 });
      expect((await post(product.id, (await buyer(product.id)).auth, body({ rating: 3 }))).statusCode).toBe(
        201,
      );
      // The message arrives asynchronously (PostgreSQL: on the other instance's own connection).
      const until = Date.now() + 3000;
      let seen = await card();
      while (seen?.reviewCount !== 1 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = await card();
      }
      expect(seen).toMatchObject({ productRating: 3, reviewCount: 1 });
    });

    it('rounds half up to a tenth, the same in the summary and on the product', async () => {
      const product = await insertProduct(ctx.db);
      // 4 + 5 + 5 + 4 = 18 / 4 = 4.5; then + 4 = 22 / 5 = 4.4; then + 5 = 27 / 6 = 4.5; + 3 = 30/7 = 4.29
      const expected = [4, 4.5, 4.7, 4.5, 4.4, 4.5, 4.3];
      for (const [i, rating] of [4, 5, 5, 4, 4, 5, 3].entries()) {
        await post(product.id, (await buyer(product.id)).auth, body({ rating }));
        const { rating: shown } = await numbers(product.id);
        expect(shown, `after ${i + 1}`).toBe(expected[i]);
        expect((await listOf(product.id)).summary.average).toBe(shown);
      }
    });

    it('count every one of ten customers reviewing one product at the same moment', async () => {
      const product = await insertProduct(ctx.db, { category: 'consoles' });
      const customers = await Promise.all(Array.from({ length: 10 }, () => buyer(product.id)));
      const ratings = [5, 4, 3, 5, 2, 5, 4, 1, 5, 4];
      const answers = await Promise.all(
        customers.map((c, i) => post(product.id, c.auth, body({ rating: ratings[i] }))),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
      // 38 / 10 = 3.8
      expect(await numbers(product.id)).toMatchObject({ rating: 3.8, count: 10 });
      const [row] = await ctx.db.select().from(products).where(eq(products.id, product.id));
      expect(row).toMatchObject({ ratingTenths: 38, reviewCount: 10 });

      // Edits, deletions and hiding at the same moment as new reviews: the numbers still add up.
      const created = answers.map((r) => Review.parse(r.json()));
      const late = await Promise.all(Array.from({ length: 4 }, () => buyer(product.id)));
      await Promise.all([
        ...late.map((c) => post(product.id, c.auth, body({ rating: 1 }))),
        del(product.id, created[0]!._id, customers[0]!.auth),
        put(product.id, created[1]!._id, customers[1]!.auth, body({ rating: 1 })),
        hide(product.id, created[2]!._id, admin.auth),
      ]);
      const visible = await ctx.db
        .select()
        .from(productReviews)
        .where(and(eq(productReviews.productId, product.id), eq(productReviews.hidden, false)));
      const sum = visible.reduce((s, r) => s + r.rating, 0);
      expect(visible).toHaveLength(12);
      expect(await numbers(product.id)).toMatchObject({
        rating: Math.round((sum * 10) / 12) / 10,
        count: 12,
      });
    });

    it('delete a product: its reviews go, and nothing else moves', async () => {
      const gone = await insertProduct(ctx.db);
      const kept = await insertProduct(ctx.db);
      const customer = await insertUser(ctx.db);
      await insertOrder(ctx.db, customer, [gone.id, kept.id], 'paid');
      await post(gone.id, customer.auth, body({ rating: 1, title: 'Gone soon' }));
      await post(kept.id, customer.auth, body({ rating: 5, title: 'Still here' }));
      expect((await inject('DELETE', `/api/products/delete/${gone.id}`, admin.auth)).statusCode).toBe(200);
      expect(await ctx.db.select().from(productReviews).where(eq(productReviews.productId, gone.id))).toEqual(
        [],
      );
      const [row] = await ctx.db.select().from(products).where(eq(products.id, gone.id));
      expect(row).toMatchObject({ ratingTenths: 0, reviewCount: 0 });
      expect(await numbers(kept.id)).toMatchObject({ rating: 5, count: 1 });
      expect((await inject('GET', `/api/products/${gone.id}/reviews/mine`, customer.auth)).statusCode).toBe(
        404,
      );
      const admins = AdminReviewPage.parse(
        (await inject('GET', `${ADMIN_REVIEWS_PATH}?search=Gone%20soon`, admin.auth)).json(),
      );
      expect(admins.total).toBe(0);
    });

    it('delete a customer: their reviews stay, from a former customer, and the numbers do not move', async () => {
      const product = await insertProduct(ctx.db);
      const leaving = await buyer(product.id, 'paid', 'Lee Leaving');
      const staying = await buyer(product.id, 'paid', 'Sam Staying');
      const review = Review.parse((await post(product.id, leaving.auth, body({ rating: 1 }))).json());
      await post(product.id, staying.auth, body({ rating: 4 }));
      const before = await numbers(product.id);
      expect(before).toMatchObject({ rating: 2.5, count: 2 });

      const res = await inject('DELETE', `/api/users/admin/user/${leaving.user.id}`, admin.auth);
      expect(res.statusCode, res.body).toBe(200);
      // The product page's cached answer names the author until it expires (2 s by default): deleting
      // an account does not drop the catalogue cache. The numbers do not change either way.
      ctx.app.services.products.invalidate();
      const after = await numbers(product.id);
      expect(after).toMatchObject({ rating: 2.5, count: 2 });
      expect(after.reviews.find((r) => r._id === review._id)?.name).toBe(FORMER_CUSTOMER_NAME);
      const listed = await listOf(product.id);
      expect(listed.summary).toMatchObject({ average: 2.5, count: 2 });
      expect(listed.reviews.find((r) => r._id === review._id)).toMatchObject({
        name: FORMER_CUSTOMER_NAME,
        rating: 1,
      });
      // The admin can still hide it; the numbers follow.
      expect((await hide(product.id, review._id, admin.auth)).json()).toMatchObject({
        name: FORMER_CUSTOMER_NAME,
        email: '',
        hidden: true,
      });
      expect(await numbers(product.id)).toMatchObject({ rating: 4, count: 1 });
    });
  });

  describe('the list', () => {
    let product: Awaited<ReturnType<typeof insertProduct>>;
    const at = new Date('2026-01-01T10:00:00.000Z');

    beforeAll(async () => {
      // 23 reviews, many written in the same millisecond: only the id can order those.
      product = await insertProduct(ctx.db, {
        reviews: Array.from({ length: 23 }, (_, i) => ({
          rating: (i % 5) + 1,
          title: `Review ${i}`,
          comment: `Comment ${i}`,
          author: `Author ${i} Person`,
          createdAt: new Date(at.getTime() + Math.floor(i / 4) * 1000),
        })),
      });
      await insertProduct(ctx.db, { reviews: [{ rating: 1, comment: 'Another product' }] });
      // Written behind the API's back: the catalogue cache does not know yet.
      ctx.app.services.products.invalidate();
    });

    it.each(['newest', 'highest', 'lowest'] as const)(
      'pages by %s, 10 a page, each review once, in order, ties broken by id',
      async (sort) => {
        const pages = [1, 2, 3].map((page) => listOf(product.id, `?sort=${sort}&page=${page}`));
        const answers = await Promise.all(pages);
        for (const [i, answer] of answers.entries()) {
          expect(answer).toMatchObject({ page: i + 1, totalPage: 3, total: 23 });
        }
        expect(answers.map((a) => a.reviews.length)).toEqual([REVIEWS_PAGE_SIZE, REVIEWS_PAGE_SIZE, 3]);
        const all = answers.flatMap((a) => a.reviews);
        expect(new Set(all.map((r) => r._id)).size).toBe(23);
        const key = (r: Review) => [
          sort === 'highest' ? -r.rating : sort === 'lowest' ? r.rating : 0,
          -Date.parse(r.createdAt),
          r._id,
        ];
        const sorted = [...all].sort((x, y) => {
          const [a, b] = [key(x), key(y)];
          for (let i = 0; i < a.length; i += 1) {
            if (a[i]! < b[i]!) return i === 2 ? 1 : -1;
            if (a[i]! > b[i]!) return i === 2 ? -1 : 1;
          }
          return 0;
        });
        expect(all.map((r) => r._id)).toEqual(sorted.map((r) => r._id));
        // The same page asked again is the same page.
        expect((await listOf(product.id, `?sort=${sort}&page=2`)).reviews).toEqual(answers[1]!.reviews);
      },
    );

    it('defaults to newest first, page 1; past the end answers no reviews with the totals', async () => {
      const first = await listOf(product.id);
      expect(first).toMatchObject({ page: 1, totalPage: 3, total: 23 });
      expect(first.reviews[0]!.createdAt >= first.reviews[9]!.createdAt).toBe(true);
      // 66 / 23 = 2.87 -> 2.9
      expect(first.summary).toEqual({ average: 2.9, count: 23, histogram: { 1: 5, 2: 5, 3: 5, 4: 4, 5: 4 } });
      expect(await listOf(product.id, '?page=9')).toMatchObject({
        reviews: [],
        page: 9,
        totalPage: 3,
        total: 23,
      });
      for (const review of first.reviews) {
        expect(review).toMatchObject({ productId: product.id, verifiedBuyer: true });
        expect(review).not.toHaveProperty('hidden');
        expect(review.name).toBe('Author P.');
      }
    });

    it('gives the product page its five newest visible reviews; lists carry none', async () => {
      const newest = (await listOf(product.id)).reviews.slice(0, 5);
      const detail = await numbers(product.id);
      expect(detail.reviews).toEqual(newest);
      const list = Product.array().parse((await inject('GET', '/api/products')).json());
      for (const p of list) expect(p.reviews).toEqual([]);
      const page = await inject('GET', '/api/products?page=1&limit=5');
      for (const p of page.json().products as Product[]) expect(p.reviews).toEqual([]);
    });
  });

  describe('the admin', () => {
    it('hides and shows a review again, audited, only as an admin', async () => {
      const product = await insertProduct(ctx.db, { name: 'Hideable Console' });
      const author = await buyer(product.id, 'paid', 'Hank Hidden');
      const review = Review.parse(
        (await post(product.id, author.auth, body({ title: 'Rude words' }))).json(),
      );

      expect((await hide(product.id, review._id, author.auth)).statusCode).toBe(403);
      expect((await hide(product.id, review._id, (await insertUser(ctx.db)).auth)).statusCode).toBe(403);
      expect((await hide(randomUUID(), review._id, admin.auth)).statusCode).toBe(404);
      expect((await hide(product.id, randomUUID(), admin.auth)).statusCode).toBe(404);

      // No body at all hides.
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/products/${product.id}/reviews/${review._id}/hide`,
        headers: admin.auth,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        _id: review._id,
        hidden: true,
        name: 'Hank Hidden',
        email: author.user.email,
        productName: 'Hideable Console',
      });
      // The author still sees it (marked hidden); the public does not.
      expect((await mine(product.id, author.auth)).review).toMatchObject({ _id: review._id, hidden: true });
      expect((await listOf(product.id)).total).toBe(0);
      // Hiding again changes nothing and writes no second audit row.
      expect((await hide(product.id, review._id, admin.auth, {})).json().hidden).toBe(true);
      expect((await hide(product.id, review._id, admin.auth, { hidden: false })).json().hidden).toBe(false);
      expect((await listOf(product.id)).total).toBe(1);

      const rows = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, review._id));
      expect(rows.map((r) => r.action).sort()).toEqual(['review.hide', 'review.unhide']);
      const audit = await inject('GET', '/api/admin/audit?limit=200', admin.auth);
      const entries = audit.json().entries as AuditEntry[];
      const hiding = entries.find((e) => e.targetId === review._id && e.action === 'review.hide');
      expect(hiding).toMatchObject({
        actor: { _id: admin.user.id, email: admin.user.email },
        targetType: 'review',
        before: { hidden: false, productId: product.id, rating: 4, title: 'Rude words' },
        after: { hidden: true },
      });
    });

    it('lists every review with search, the hidden filter and paging, for admins only', async () => {
      const product = await insertProduct(ctx.db, { name: 'Searchable Zephyr 100%' });
      const alice = await buyer(product.id, 'paid', 'Alice Quixote');
      const bob = await buyer(product.id, 'paid', 'Bob Builder');
      const a = Review.parse(
        (await post(product.id, alice.auth, body({ title: 'Marvellous', comment: 'x' }))).json(),
      );
      const b = Review.parse(
        (await post(product.id, bob.auth, body({ comment: 'Has a SNOWFLAKE inside' }))).json(),
      );
      await hide(product.id, b._id, admin.auth);

      const list = async (query: string) => {
        const res = await inject('GET', `${ADMIN_REVIEWS_PATH}${query}`, admin.auth);
        expect(res.statusCode, res.body).toBe(200);
        return AdminReviewPage.strict().parse(res.json());
      };
      const ids = async (query: string) => (await list(query)).reviews.map((r) => r._id).sort();
      expect(await ids('?search=searchable%20zephyr')).toEqual([a._id, b._id].sort());
      expect(await ids('?search=100%25')).toEqual([a._id, b._id].sort());
      expect(await ids('?search=QUIXOTE')).toEqual([a._id]);
      expect(await ids(`?search=${encodeURIComponent(bob.user.email.toUpperCase())}`)).toEqual([b._id]);
      expect(await ids('?search=marvellous')).toEqual([a._id]);
      expect(await ids('?search=snowflake')).toEqual([b._id]);
      expect(await ids('?search=snowflake&hidden=false')).toEqual([]);
      expect(await ids('?search=zephyr&hidden=true')).toEqual([b._id]);
      expect(await ids('?search=%25%25nothing%25')).toEqual([]);

      const one = (await list('?search=quixote')).reviews[0];
      expect(one).toMatchObject({
        _id: a._id,
        productId: product.id,
        productName: 'Searchable Zephyr 100%',
        name: 'Alice Quixote',
        email: alice.user.email,
        hidden: false,
        verifiedBuyer: true,
      });

      const all = await list('');
      expect(all.page).toBe(1);
      expect(all.reviews.length).toBe(Math.min(20, all.total));
      expect(all.totalPage).toBe(Math.ceil(all.total / 20));
      // Newest first, paging on with no repeats.
      const second = await list('?page=2');
      expect(second.reviews.map((r) => r._id)).not.toContain(all.reviews[0]!._id);
      expect(all.reviews[0]!.createdAt >= all.reviews[all.reviews.length - 1]!.createdAt).toBe(true);
      expect(await list('?page=999')).toMatchObject({
        reviews: [],
        total: all.total,
        totalPage: all.totalPage,
      });

      const customer = await insertUser(ctx.db);
      expect((await inject('GET', ADMIN_REVIEWS_PATH, customer.auth)).statusCode).toBe(403);
      expect((await inject('GET', ADMIN_REVIEWS_PATH)).statusCode).toBe(401);
    });
  });

  /**
   * Issue 28: a review stayed public as `verifiedBuyer: true`, and editable, after the order behind it
   * was cancelled or refunded in full. It now stops counting when its author has no order of the
   * product left that counts (docs/reviews.md): hidden, unverified, out of the numbers.
   */
  describe('when the order behind a review is cancelled or refunded in full', () => {
    /** An order of the product placed at checkout and paid with a gift card (through the API). */
    const paidOrder = async (customer: Customer, productId: string) => {
      const order = await placeOrder(ctx.app, customer.auth, [{ product: productId, itemQuantity: 1 }]);
      const card = await insertGiftCard(ctx.db, { balanceCents: 100_00 });
      const paid = await inject('PUT', `/api/orders/${order._id}/payment`, customer.auth, {
        payment_method: 'Gift Card',
        gift_card_code: card.code,
      });
      expect(paid.statusCode, paid.body).toBe(200);
      return order;
    };
    const cancel = async (customer: Customer, orderId: string) => {
      const res = await inject('POST', `/api/orders/${orderId}/cancel`, customer.auth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('cancelled');
    };
    const refund = async (orderId: string, payload: object) => {
      const res = await inject('POST', `/api/orders/${orderId}/refund`, admin.auth, payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().status as string;
    };
    const adminViewOf = async (productName: string, reviewId: string) => {
      const res = await inject(
        'GET',
        `${ADMIN_REVIEWS_PATH}?search=${encodeURIComponent(productName)}`,
        admin.auth,
      );
      return AdminReviewPage.parse(res.json()).reviews.find((r) => r._id === reviewId);
    };
    const storedRating = async (reviewId: string) =>
      (await ctx.db.select().from(productReviews).where(eq(productReviews.id, reviewId)))[0]?.rating;

    it('a cancelled only paid order: the review is hidden and unverified, the numbers follow, an edit cannot bring it back; another paid order keeps it', async () => {
      const product = await insertProduct(ctx.db, {
        name: 'Cancelled Cartridge',
        priceCents: 20_00,
        stock: 10,
      });
      const once = await insertUser(ctx.db, { name: 'Olga Once' });
      const twice = await insertUser(ctx.db, { name: 'Theo Twice' });
      const onlyOrder = await paidOrder(once, product.id);
      await insertOrder(ctx.db, twice, [product.id], 'paid');
      const secondOrder = await paidOrder(twice, product.id);
      const gone = Review.parse((await post(product.id, once.auth, body({ rating: 5 }))).json());
      const kept = Review.parse((await post(product.id, twice.auth, body({ rating: 2 }))).json());
      expect(await numbers(product.id)).toMatchObject({ rating: 3.5, count: 2 });

      await cancel(once, onlyOrder._id);
      await cancel(twice, secondOrder._id);

      // The public: the list, its summary, the product page and the cached category card.
      const listed = await listOf(product.id);
      expect(listed.reviews.map((r) => r._id)).toEqual([kept._id]);
      expect(listed.summary).toEqual({ average: 2, count: 1, histogram: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 0 } });
      const shown = await numbers(product.id);
      expect(shown).toMatchObject({ rating: 2, count: 1 });
      expect(shown.reviews.map((r) => r._id)).toEqual([kept._id]);

      // The author still sees it, hidden and unverified; no longer a buyer, they cannot write another.
      expect(await mine(product.id, once.auth)).toMatchObject({
        canReview: false,
        review: { _id: gone._id, rating: 5, verifiedBuyer: false, hidden: true },
      });
      expect((await post(product.id, once.auth, body({ title: 'Again' }))).statusCode).toBe(403);
      // An edit cannot bring it back into view: refused, nothing stored, nothing shown.
      const edit = await put(product.id, gone._id, once.auth, body({ rating: 1, title: 'Changed' }));
      expect(edit.statusCode, edit.body).toBe(403);
      expect(edit.json()).toEqual({ message: REVIEW_UNVERIFIED_MESSAGE, code: 'NOT_VERIFIED_BUYER' });
      expect(await storedRating(gone._id)).toBe(5);
      expect((await listOf(product.id)).total).toBe(1);

      // The admin sees why it is hidden, and cannot show it.
      expect(await adminViewOf(product.name, gone._id)).toMatchObject({ hidden: true, verifiedBuyer: false });
      const unhide = await hide(product.id, gone._id, admin.auth, { hidden: false });
      expect(unhide.statusCode, unhide.body).toBe(409);
      expect((await listOf(product.id)).total).toBe(1);

      // A buyer with another paid order of the product keeps a verified, counted, editable review.
      expect(await mine(product.id, twice.auth)).toMatchObject({
        review: { _id: kept._id, verifiedBuyer: true, hidden: false },
      });
      expect(await adminViewOf(product.name, kept._id)).toMatchObject({ hidden: false, verifiedBuyer: true });
      expect((await put(product.id, kept._id, twice.auth, body({ rating: 3 }))).statusCode).toBe(200);
      expect(await numbers(product.id)).toMatchObject({ rating: 3, count: 1 });

      // The author may still delete it.
      expect((await del(product.id, gone._id, once.auth)).statusCode).toBe(200);
    });

    it('an admin refund: a partial one keeps the review, the full rest hides it (no restock, still at once in the cached catalogue)', async () => {
      const product = await insertProduct(ctx.db, {
        name: 'Refunded Joystick',
        priceCents: 20_00,
        stock: 10,
      });
      const customer = await insertUser(ctx.db, { name: 'Rhea Refunded' });
      const order = await paidOrder(customer, product.id);
      const review = Review.parse((await post(product.id, customer.auth, body({ rating: 4 }))).json());
      expect(await numbers(product.id)).toMatchObject({ rating: 4, count: 1 });

      // Partly refunded, the order still counts.
      expect(await refund(order._id, { amount: 5, reason: 'Scratched box' })).toBe('paid');
      expect(await numbers(product.id)).toMatchObject({ rating: 4, count: 1 });
      expect((await mine(product.id, customer.auth)).review).toMatchObject({
        verifiedBuyer: true,
        hidden: false,
      });

      expect(await refund(order._id, { reason: 'Returned' })).toBe('refunded');
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0, reviews: [] });
      expect((await listOf(product.id)).summary).toMatchObject({ count: 0, average: 0 });
      expect((await mine(product.id, customer.auth)).review).toMatchObject({
        _id: review._id,
        verifiedBuyer: false,
        hidden: true,
      });
      expect((await put(product.id, review._id, customer.auth, body({ rating: 5 }))).statusCode).toBe(403);
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0 });
    });

    it('bought again: the review stays hidden until its author edits it, then counts again; an admin hide stays', async () => {
      const product = await insertProduct(ctx.db, { name: 'Rebought Racer', priceCents: 20_00, stock: 10 });
      const customer = await insertUser(ctx.db, { name: 'Bea Back' });
      const first = await paidOrder(customer, product.id);
      const review = Review.parse((await post(product.id, customer.auth, body({ rating: 5 }))).json());
      await cancel(customer, first._id);
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0 });
      // Hidden by the admin as well, while unverified: that is allowed, and it is the admin's to undo.
      expect((await hide(product.id, review._id, admin.auth)).statusCode).toBe(200);

      await paidOrder(customer, product.id);
      expect((await mine(product.id, customer.auth)).review).toMatchObject({
        verifiedBuyer: false,
        hidden: true,
      });
      const edited = await put(product.id, review._id, customer.auth, body({ rating: 3 }));
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ rating: 3, verifiedBuyer: true, hidden: true });
      expect(await numbers(product.id)).toMatchObject({ rating: 0, count: 0 });

      expect((await hide(product.id, review._id, admin.auth, { hidden: false })).statusCode).toBe(200);
      expect(await numbers(product.id)).toMatchObject({ rating: 3, count: 1 });
      expect((await listOf(product.id)).reviews.map((r) => r._id)).toEqual([review._id]);
    });
  });
});

describe('the review rate limit', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      app: { limits: { ...NO_RATE_LIMITS, reviews: { max: 3, windowMs: 60_000 } } },
    });
  });
  afterAll(() => ctx.close());

  it('counts every write (POST and PUT) per customer, in the database, shared by every instance', async () => {
    const products = await Promise.all([1, 2, 3].map(() => insertProduct(ctx.db)));
    const customer = await insertUser(ctx.db);
    await insertOrder(
      ctx.db,
      customer,
      products.map((p) => p.id),
      'paid',
    );
    const call = (app: typeof ctx.app, method: 'POST' | 'PUT', url: string) =>
      app.inject({ method, url, headers: customer.auth, payload: body() });

    const first = await call(ctx.app, 'POST', `/api/products/${products[0]!.id}/reviews`);
    expect(first.statusCode).toBe(201);
    const id = first.json()._id as string;
    expect((await call(ctx.app, 'PUT', `/api/products/${products[0]!.id}/reviews/${id}`)).statusCode).toBe(
      200,
    );
    // A second instance on the same database: the third write there, then refused here and there.
    const other = await ctx.newApp({ limits: { ...NO_RATE_LIMITS, reviews: { max: 3, windowMs: 60_000 } } });
    expect((await call(other, 'POST', `/api/products/${products[1]!.id}/reviews`)).statusCode).toBe(201);
    const refused = await call(ctx.app, 'POST', `/api/products/${products[2]!.id}/reviews`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/a lot of reviews/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(other, 'PUT', `/api/products/${products[0]!.id}/reviews/${id}`)).statusCode).toBe(429);
    // Nothing was written by the refused call.
    expect(
      await ctx.db.select().from(productReviews).where(eq(productReviews.productId, products[2]!.id)),
    ).toEqual([]);

    // Another customer has a budget of their own; reading is never limited.
    const another = await insertUser(ctx.db);
    await insertOrder(ctx.db, another, [products[2]!.id], 'paid');
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: `/api/products/${products[2]!.id}/reviews`,
      headers: another.auth,
      payload: body(),
    });
    expect(theirs.statusCode).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      const read = await ctx.app.inject({ method: 'GET', url: `/api/products/${products[0]!.id}/reviews` });
      expect(read.statusCode).toBe(200);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { type SQL, and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Category, Order, ProductOption, Promotion } from '@pixel-vault/shared';
import { type Database, type Executor, queryRows } from '../db/client.js';
import {
  type GiftCardRow,
  type ProductRow,
  type ProductVariantRow,
  type UserRow,
  giftCardLedger,
  giftCards,
  defaultSku,
  isDefaultVariant,
  productImages,
  productReviews,
  productVariants,
  products,
  users,
} from '../db/schema/index.js';
import type { App } from '../lib/http.js';
import { hashPassword } from '../lib/passwords.js';
import { createAuthService } from '../modules/auth/auth.service.js';
import { TEST_JWT_SECRET } from './context.js';

export const DEFAULT_PASSWORD = 'correct horse battery';

// Hashing takes ~10 ms; most tests use the same password, so hash it once per password.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
};

export interface UserOverrides {
  name?: string;
  email?: string;
  password?: string;
  isAdmin?: boolean;
  tokenVersion?: number;
  /** Issue 36: whether the address is verified (yes by default, like every account made before). */
  emailVerified?: boolean;
}

/** A user straight in the database, with a valid bearer token (signed with TEST_JWT_SECRET). */
export async function insertUser(
  db: Database,
  overrides: UserOverrides = {},
): Promise<{ user: UserRow; token: string; password: string; auth: { authorization: string } }> {
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const [user] = await db
    .insert(users)
    .values({
      name: overrides.name ?? 'Test Shopper',
      email: (overrides.email ?? `shopper-${randomUUID()}@example.com`).toLowerCase(),
      passwordHash: await hashOnce(password),
      isAdmin: overrides.isAdmin ?? false,
      tokenVersion: overrides.tokenVersion ?? 0,
      emailVerifiedAt: overrides.emailVerified === false ? null : new Date(),
    })
    .returning();
  if (!user) throw new Error('insertUser: no row');
  const token = await createAuthService({ db, jwtSecret: TEST_JWT_SECRET }).signToken(user);
  return { user, token, password, auth: { authorization: `Bearer ${token}` } };
}

export interface ProductOverrides {
  name?: string;
  description?: string;
  category?: Category;
  /** Issue 33: what it runs on; none by default. */
  platform?: string | null;
  /** When it was added (issue 33 sorts by it); now by default. */
  createdAt?: Date;
  priceCents?: number;
  stock?: number;
  images?: string[];
  /**
   * Reviews straight in the database, each by a new customer (no order behind it: use the API to test
   * who may review). The product's rating and count are recomputed from them, as the API does.
   */
  reviews?: {
    rating: number;
    title?: string;
    comment: string;
    author?: string;
    hidden?: boolean;
    createdAt?: Date;
  }[];
  deletedAt?: Date | null;
  /** Issue 31: the product's options, in order (`[]`, the default: sold in one form). */
  options?: ProductOption[];
  /**
   * Its variants in position order (the first is the default): each one's option values, and its own
   * SKU, price and stock (left out: the product's `priceCents` and `stock`, and a made-up SKU).
   * Without, one variant with the product's price and stock.
   */
  variants?: { options: Record<string, string>; sku?: string; priceCents?: number; stock?: number }[];
}

let productCounter = 0;

/** A product as the factory made it: its row, its images, and its default variant's price and stock. */
export type TestProduct = ProductRow & {
  images: string[];
  variantId: string;
  priceCents: number;
  stock: number;
  /** Every variant as inserted, in position order (the first is the default, `variantId`). */
  variants: ProductVariantRow[];
};

export async function insertProduct(db: Database, overrides: ProductOverrides = {}): Promise<TestProduct> {
  productCounter += 1;
  const [row] = await db
    .insert(products)
    .values({
      name: overrides.name ?? `Test Product ${productCounter}`,
      description: overrides.description ?? 'A product made by a test factory.',
      category: overrides.category ?? 'retro-games',
      platform: overrides.platform ?? null,
      ...(overrides.createdAt ? { createdAt: overrides.createdAt, updatedAt: overrides.createdAt } : {}),
      options: overrides.options ?? [],
      deletedAt: overrides.deletedAt ?? null,
    })
    .returning();
  if (!row) throw new Error('insertProduct: no row');
  // Sold in one form unless told otherwise (issue 31): the default variant holds the price and stock.
  const wanted = overrides.variants ?? [{ options: {} }];
  const variants = await db
    .insert(productVariants)
    .values(
      wanted.map((v, position) => ({
        productId: row.id,
        position,
        sku: v.sku ?? (position === 0 ? defaultSku(row.id) : `${defaultSku(row.id)}-${position}`),
        options: v.options,
        priceCents: v.priceCents ?? overrides.priceCents ?? 1999,
        stock: v.stock ?? overrides.stock ?? 5,
      })),
    )
    .returning();
  variants.sort((a, b) => a.position - b.position);
  const variant = variants[0];
  if (!variant) throw new Error('insertProduct: no variant');
  const product = {
    ...row,
    variantId: variant.id,
    priceCents: variant.priceCents,
    stock: variant.stock,
    variants,
  };
  const images = overrides.images ?? [`/uploads/products/test-${productCounter}-0-00000000.svg`];
  if (images.length > 0) {
    await db
      .insert(productImages)
      .values(images.map((url, position) => ({ productId: product.id, position, url })));
  }
  if (overrides.reviews?.length) {
    for (const r of overrides.reviews) {
      const { user } = await insertUser(db, { name: r.author ?? 'Test Reviewer' });
      await db.insert(productReviews).values({
        productId: product.id,
        userId: user.id,
        rating: r.rating,
        title: r.title ?? 'A test review',
        comment: r.comment,
        hiddenByAdmin: r.hidden ?? false,
        ...(r.createdAt ? { createdAt: r.createdAt, updatedAt: r.createdAt } : {}),
      });
    }
    const [recounted] = await queryRows<{ rating_tenths: number; review_count: number }>(
      db,
      sql`update ${products} set
        rating_tenths = coalesce((select round(sum(r.rating) * 10::numeric / count(*)) from ${productReviews} r
          where r.product_id = ${product.id} and not r.hidden), 0),
        review_count = (select count(*) from ${productReviews} r where r.product_id = ${product.id} and not r.hidden)
      where id = ${product.id}
      returning rating_tenths, review_count`,
    );
    if (recounted) {
      Object.assign(product, {
        ratingTenths: Number(recounted.rating_tenths),
        reviewCount: Number(recounted.review_count),
      });
    }
  }
  return { ...product, images };
}

/** Sets a product's stock (its default variant's, issue 31) straight in the database. */
export async function setStock(db: Executor, productId: string, stock: number): Promise<void> {
  await db
    .update(productVariants)
    .set({ stock })
    .where(and(eq(productVariants.productId, productId), isDefaultVariant('product_variants')));
}

/** Sets a product's price in cents (its default variant's) straight in the database. */
export async function setPrice(db: Executor, productId: string, priceCents: number): Promise<void> {
  await db
    .update(productVariants)
    .set({ priceCents })
    .where(and(eq(productVariants.productId, productId), isDefaultVariant('product_variants')));
}

/** A product's stock (its default variant's) as the database holds it. */
export async function stockOf(db: Executor, productId: string): Promise<number> {
  const [row] = await db
    .select({ stock: productVariants.stock })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), isDefaultVariant('product_variants')));
  if (!row) throw new Error(`stockOf: no variant of ${productId}`);
  return row.stock;
}

/** A product's price in cents (its default variant's) as the database holds it. */
export async function priceOf(db: Executor, productId: string): Promise<number> {
  const [row] = await db
    .select({ priceCents: productVariants.priceCents })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), isDefaultVariant('product_variants')));
  if (!row) throw new Error(`priceOf: no variant of ${productId}`);
  return row.priceCents;
}

/**
 * Product rows (all, or those `where` picks) by name, each with its default variant's price and stock
 * (issue 31), for tests that read the catalogue straight from the database.
 */
export async function productRows(db: Executor, where?: SQL) {
  return db
    .select({
      ...getTableColumns(products),
      priceCents: productVariants.priceCents,
      stock: productVariants.stock,
    })
    .from(products)
    .innerJoin(
      productVariants,
      and(eq(productVariants.productId, products.id), isDefaultVariant('product_variants')),
    )
    .where(where)
    .orderBy(products.name, products.id);
}

/** Empties the catalogue (products cascade to images and reviews). */
export async function clearProducts(db: Database): Promise<void> {
  await db.execute(sql`delete from ${products}`);
}

let giftCardCounter = 0;

/** A gift card straight in the database, with its 'issue' ledger row. */
export async function insertGiftCard(
  db: Database,
  overrides: { code?: string; balanceCents?: number; deletedAt?: Date | null } = {},
): Promise<GiftCardRow> {
  giftCardCounter += 1;
  const balanceCents = overrides.balanceCents ?? 5000;
  const [card] = await db
    .insert(giftCards)
    .values({
      code: overrides.code ?? `TEST-CARD-${giftCardCounter}-${randomUUID().slice(0, 8)}`,
      balanceCents,
      deletedAt: overrides.deletedAt ?? null,
    })
    .returning();
  if (!card) throw new Error('insertGiftCard: no row');
  await db.insert(giftCardLedger).values({
    giftCardId: card.id,
    kind: 'issue',
    amountCents: balanceCents,
    balanceAfterCents: balanceCents,
  });
  return card;
}

export const TEST_ADDRESS = {
  address: '1 Test Street',
  city: 'Testville',
  postalCode: '12345',
  country: 'Testland',
};

/** Places an order through the API (the only way stock gets reserved) and answers its DTO. */
export async function placeOrder(
  app: App,
  auth: { authorization: string },
  lines: { product: string; variant?: string; itemQuantity: number }[],
): Promise<Order> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: auth,
    payload: { orderItems: lines, shippingAddress: TEST_ADDRESS, paymentMethod: 'paypal' },
  });
  if (res.statusCode !== 201) throw new Error(`placeOrder: ${res.statusCode} ${res.body}`);
  return res.json<Order>();
}

/** A discount code (not a sale), as the admin's API answers it: its `code` is set. */
export type CodePromotion = Promotion & { code: string };

let promotionCounter = 0;

/** A scheduled sale through the admin API (issue 32): `body` is what the admin form sends. */
export async function createSale(
  app: App,
  admin: { authorization: string },
  body: Record<string, unknown>,
): Promise<Promotion> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/promotions/admin',
    headers: admin,
    payload: { kind: 'sale', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createSale: ${res.statusCode} ${res.body}`);
  return res.json<Promotion>();
}

/**
 * A discount code made through the admin's API (issue 32), under a code of its own (`prefix`, a
 * counter and the clock, so two test files on one database never collide) unless `body` names one.
 */
export async function createDiscountCode(
  app: App,
  admin: { authorization: string },
  body: Record<string, unknown>,
  prefix = 'CODE',
): Promise<CodePromotion> {
  promotionCounter += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/api/promotions/admin',
    headers: admin,
    payload: { code: `${prefix}${promotionCounter}X${Date.now() % 100_000}`, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createDiscountCode: ${res.statusCode} ${res.body}`);
  return res.json<CodePromotion>();
}

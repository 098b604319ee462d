import { randomBytes, randomUUID } from 'node:crypto';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { priceOrder } from '@pixel-vault/shared';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { contentHash8, type Storage } from '../../lib/storage.js';
import type { Database, Transaction } from '../client.js';
import {
  demoPaymentOrders,
  giftCardLedger,
  giftCards,
  orderEvents,
  orderItems,
  orders,
  payments,
  productImages,
  productReviews,
  defaultSku,
  productVariants,
  products,
  promotions,
  users,
} from '../schema/index.js';
import { renderBoxArt } from './box-art.js';
import { SEED_CUSTOMERS, SEED_PRODUCTS, type SeedCustomerKey, type SeedProduct } from './catalogue.js';

/** The part of a logger the seed needs; pino, fastify's logger and a console shim all fit. */
export interface SeedLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface SeedSource {
  products: readonly SeedProduct[];
  renderBoxArt(product: { name: string; category: string }, variant: number): string;
  /** Who wrote the products' reviews (keys of SeedReview.by). */
  customers?: Readonly<Record<SeedCustomerKey, { name: string; email: string }>>;
}

const DEFAULT_SOURCE: SeedSource = { products: SEED_PRODUCTS, renderBoxArt, customers: SEED_CUSTOMERS };

/** Same key in every instance: only one of several instances starting together seeds. */
const SEED_LOCK_KEY = 7_302_614_202;

export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/g, '') || 'product'
  );
}

/** Storage key `products/<slug>-<variant>-<hash8>.svg`: the hash makes the URL safe to cache forever. */
export function boxArtKey(name: string, variant: number, svg: string): string {
  return `products/${slugify(name)}-${variant}-${contentHash8(svg)}.svg`;
}

const DAY_MS = 24 * 60 * 60_000;

/** Where the seeded customers' parcels went: invented streets in real-sounding towns. */
const SEED_ADDRESSES = [
  { address: '14 Harbour Lane', city: 'Portsmouth', postalCode: 'PO1 3AX', country: 'United Kingdom' },
  { address: '221 Maple Avenue', city: 'Springfield', postalCode: '62704', country: 'United States' },
  { address: 'Lindenstraße 8', city: 'Leipzig', postalCode: '04109', country: 'Germany' },
  { address: '5 Rue des Lilas', city: 'Lyon', postalCode: '69003', country: 'France' },
  { address: '73 Queen Street West', city: 'Toronto', postalCode: 'M5H 2M9', country: 'Canada' },
  { address: 'Keizersgracht 402', city: 'Amsterdam', postalCode: '1016 GC', country: 'Netherlands' },
] as const;

/**
 * The seeded customers (issue 14): each with one paid, delivered order of everything they review, so
 * every seeded review is a verified buyer's. Their password is random and thrown away: nobody can log
 * in as them (an admin can still send them a reset link, to their example.com address). Orders are
 * paid through the demo provider's records (a completed demo order and its captured payment), so the
 * books add up as for any order paid in demo mode. Dates are spread over the last months, before now.
 */
async function seedCustomersAndReviews(
  tx: Transaction,
  source: SeedSource,
  productRows: { id: string; variantId: string; name: string; priceCents: number; image: string }[],
  now: Date,
): Promise<number> {
  const wanted = new Map<SeedCustomerKey, { product: number; review: SeedProduct['reviews'][number] }[]>();
  source.products.forEach((product, i) => {
    for (const review of product.reviews)
      wanted.set(review.by, [...(wanted.get(review.by) ?? []), { product: i, review }]);
  });
  const customers = source.customers;
  if (wanted.size === 0 || !customers) return 0;

  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const keys = [...wanted.keys()];
  await tx
    .insert(users)
    .values(
      keys.map((key) => ({
        ...customers[key],
        passwordHash,
        createdAt: new Date(now.getTime() - 200 * DAY_MS),
      })),
    )
    .onConflictDoNothing({ target: users.email });
  const accounts = await tx
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(
      inArray(
        users.email,
        keys.map((key) => customers[key].email),
      ),
    );
  const accountOf = new Map(accounts.map((a) => [a.email, a]));

  const reviewRows: (typeof productReviews.$inferInsert)[] = [];
  for (const [index, key] of keys.entries()) {
    const account = accountOf.get(customers[key].email);
    const bought = wanted.get(key) ?? [];
    if (!account || bought.length === 0) continue;
    const lines = bought.map(({ product }) => productRows[product]!);
    const totals = priceOrder(lines.map((line) => ({ priceCents: line.priceCents, qty: 1 })));
    const placedAt = new Date(now.getTime() - (20 + 7 * index) * DAY_MS);
    const paidAt = new Date(placedAt.getTime() + 2 * 60_000);
    const deliveredAt = new Date(placedAt.getTime() + 3 * DAY_MS);
    const ship = SEED_ADDRESSES[index % SEED_ADDRESSES.length]!;
    const demoId = randomUUID();
    const captureId = `DEMO-CAPTURE-${demoId}`;

    const [order] = await tx
      .insert(orders)
      .values({
        userId: account.id,
        customerName: account.name,
        customerEmail: account.email,
        shipAddress: ship.address,
        shipCity: ship.city,
        shipPostalCode: ship.postalCode,
        shipCountry: ship.country,
        itemsCents: totals.itemsCents,
        taxCents: totals.taxCents,
        shippingCents: totals.shippingCents,
        totalCents: totals.totalCents,
        paymentMethod: 'paypal',
        status: 'paid',
        paidAt,
        isDelivered: true,
        deliveredAt,
        expiresAt: new Date(placedAt.getTime() + 30 * 60_000),
        paymentResultMethod: 'demo',
        paymentResultProviderId: captureId,
        paymentResultStatus: 'COMPLETED',
        paymentResultPayerEmail: account.email,
        paymentResultUpdateTime: paidAt,
        createdAt: placedAt,
        updatedAt: deliveredAt,
      })
      .returning({ id: orders.id });
    if (!order) throw new Error('Seed order insert returned no row');
    await tx.insert(orderItems).values(
      lines.map((line) => ({
        orderId: order.id,
        productId: line.id,
        variantId: line.variantId,
        name: line.name,
        image: line.image,
        unitPriceCents: line.priceCents,
        quantity: 1,
      })),
    );
    await tx.insert(orderEvents).values([
      { orderId: order.id, kind: 'placed', actor: 'customer', actorUserId: account.id, at: placedAt },
      {
        orderId: order.id,
        kind: 'paid',
        actor: 'customer',
        actorUserId: account.id,
        amountCents: totals.totalCents,
        note: 'demo',
        at: paidAt,
      },
      { orderId: order.id, kind: 'delivered', actor: 'admin', at: deliveredAt },
    ]);
    await tx.insert(demoPaymentOrders).values({
      id: `DEMO-${demoId}`,
      amountCents: totals.totalCents,
      currency: 'USD',
      status: 'COMPLETED',
      createdAt: placedAt,
    });
    await tx.insert(payments).values({
      orderId: order.id,
      provider: 'demo',
      providerOrderId: `DEMO-${demoId}`,
      amountCents: totals.totalCents,
      currency: 'USD',
      status: 'captured',
      captureId,
      requestId: randomUUID(),
      createdAt: placedAt,
      updatedAt: paidAt,
    });

    bought.forEach(({ product, review }, j) => {
      const at = new Date(deliveredAt.getTime() + (2 + 2 * j) * DAY_MS + index * 60_000);
      reviewRows.push({
        productId: productRows[product]!.id,
        userId: account.id,
        rating: review.rating,
        title: review.title,
        comment: review.comment,
        createdAt: at,
        updatedAt: at,
      });
    });
  }
  if (reviewRows.length > 0) await tx.insert(productReviews).values(reviewRows);
  return reviewRows.length;
}

/**
 * The demo discount codes (issue 32), seeded with the demo catalogue so a fresh shop shows the feature:
 * one per kind, one with a minimum, and one that has ended. They are for the demo; an owner going live
 * deactivates them in the admin's Promotions, as they remove the demo products.
 */
export const DEMO_DISCOUNT_CODES: readonly (typeof promotions.$inferInsert)[] = [
  { code: 'RETRO10', kind: 'percentage', value: 10, categories: ['retro-games'] },
  { code: 'PUZZLE5', kind: 'fixed', value: 500, minSubtotalCents: 2500, categories: ['puzzles'] },
  { code: 'FREESHIP', kind: 'free_shipping', value: 0 },
  {
    code: 'SUMMER24',
    kind: 'percentage',
    value: 15,
    startsAt: new Date('2024-06-01T00:00:00Z'),
    endsAt: new Date('2024-09-01T00:00:00Z'),
  },
];

/** How long the demo sale runs from the demo catalogue's creation. */
export const DEMO_SALE_DAYS = 30;

/**
 * Idempotent: a code that exists (an earlier seed, or an admin's own) is left as it is. With them, a
 * scheduled sale (issue 32): 15% off board games for DEMO_SALE_DAYS from now, so the catalogue shows
 * struck-through prices on a fresh start (it runs only with the seed of an empty catalogue).
 */
async function seedDiscountCodes(tx: Transaction, now: Date): Promise<void> {
  await tx
    .insert(promotions)
    .values(DEMO_DISCOUNT_CODES.map((code) => ({ ...code, createdAt: now, updatedAt: now })))
    .onConflictDoNothing({ target: promotions.code });
  await tx.insert(promotions).values({
    kind: 'sale',
    value: 15,
    categories: ['board-games'],
    startsAt: now,
    endsAt: new Date(now.getTime() + DEMO_SALE_DAYS * 24 * 3_600_000),
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Every product's rating and review count from its visible reviews, as the reviews module computes
 * them after each change (modules/reviews/reviews.repo.ts recountProduct; the db layer imports no module).
 */
async function recountAllProducts(tx: Transaction): Promise<void> {
  await tx.execute(sql`
    update ${products} p set
      rating_tenths = coalesce((select round(sum(r.rating) * 10::numeric / count(*))
        from ${productReviews} r where r.product_id = p.id and not r.hidden), 0),
      review_count = (select count(*) from ${productReviews} r where r.product_id = p.id and not r.hidden)`);
}

/**
 * Fills an empty catalogue with the demo products and their box art, and adds the demo discount codes.
 * Does nothing when any product exists, so it is safe on every start. Answers how many products it
 * inserted.
 */
export async function seedIfEmpty({
  db,
  storage,
  log,
  source = DEFAULT_SOURCE,
}: {
  db: Database;
  storage: Storage;
  log: SeedLog;
  source?: SeedSource;
}): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(products);
  if ((existing?.n ?? 0) > 0) return 0;

  // Images first, outside the transaction: keys are content-addressed, so writing them twice
  // (two instances, or a retry after a crash) is harmless.
  const images: string[][] = [];
  for (const product of source.products) {
    const urls: string[] = [];
    for (let variant = 0; variant < product.imageCount; variant += 1) {
      const svg = source.renderBoxArt(product, variant);
      urls.push(await storage.put(boxArtKey(product.name, variant, svg), Buffer.from(svg), 'image/svg+xml'));
    }
    images.push(urls);
  }

  const inserted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const [again] = await tx.select({ n: count() }).from(products);
    if ((again?.n ?? 0) > 0) return 0;

    const now = new Date();
    const rows = await tx
      .insert(products)
      .values(
        source.products.map((p) => ({
          name: p.name,
          description: p.description,
          category: p.category,
          platform: p.platform ?? null,
          options: p.options ?? [],
          createdAt: new Date(now.getTime() - 240 * DAY_MS),
          updatedAt: new Date(now.getTime() - 240 * DAY_MS),
        })),
      )
      .returning({ id: products.id, name: products.name });
    // Its tiers (issue 31), or one variant of its price and stock; the first is its default.
    const variants = await tx
      .insert(productVariants)
      .values(
        rows.flatMap((row, i) => {
          const product = source.products[i]!;
          const tiers = product.variants ?? [
            {
              sku: defaultSku(row.id),
              options: {},
              priceCents: product.priceCents,
              stock: product.stock,
              // Issue 35: the buy list's credit (catalogue.ts seedTradeInCredit).
              tradeInCreditCents: product.tradeInCreditCents ?? null,
            },
          ];
          return tiers.map((tier, position) => ({ productId: row.id, position, ...tier }));
        }),
      )
      .returning({
        id: productVariants.id,
        productId: productVariants.productId,
        position: productVariants.position,
      });
    const variantOf = new Map(variants.filter((v) => v.position === 0).map((v) => [v.productId, v.id]));

    const imageRows = rows.flatMap((row, i) =>
      (images[i] ?? []).map((url, position) => ({ productId: row.id, position, url })),
    );
    if (imageRows.length > 0) await tx.insert(productImages).values(imageRows);

    const bought = rows.map((row, i) => ({
      ...row,
      variantId: variantOf.get(row.id)!,
      priceCents: source.products[i]!.priceCents,
      image: images[i]?.[0] ?? '',
    }));
    await seedCustomersAndReviews(tx, source, bought, now);
    await recountAllProducts(tx);
    await seedDiscountCodes(tx, now);
    return rows.length;
  });

  if (inserted > 0) {
    log.info(`Seeded the catalogue with ${inserted} products`);
    log.info(
      `Added the demo discount codes ${DEMO_DISCOUNT_CODES.map((c) => c.code).join(', ')} and a sale on board games`,
    );
  }
  return inserted;
}

export const ADMIN_NAME = 'Shop Admin';

/** Who the admin is (ADMIN_EMAIL) and, when set, their password (ADMIN_PASSWORD); the caller reads the settings. */
export interface AdminAccount {
  adminEmail: string;
  adminPassword: string | undefined;
}

export interface EnsureAdminResult {
  action: 'created' | 'promoted' | 'password-updated' | 'unchanged';
  /** Only when the admin was just created with a generated password. */
  generatedPassword?: string;
}

/**
 * Makes sure ADMIN_EMAIL can log in as an administrator. A generated password is shown once,
 * when the account is created; ADMIN_PASSWORD, when set, is applied (and old sessions ended) only
 * if it differs from the stored one, so restarts do not log the admin out.
 */
export async function ensureAdmin({
  db,
  adminEmail,
  adminPassword,
  log,
}: {
  db: Database;
  log: SeedLog;
} & AdminAccount): Promise<EnsureAdminResult> {
  const email = adminEmail.toLowerCase();
  const generatedPassword = adminPassword ? undefined : randomBytes(18).toString('base64url');
  const password = adminPassword ?? generatedPassword ?? '';

  const [created] = await db
    .insert(users)
    // Issue 36: the operator named this address (ADMIN_EMAIL): it counts as verified.
    .values({
      name: ADMIN_NAME,
      email,
      passwordHash: await hashPassword(password),
      isAdmin: true,
      emailVerifiedAt: new Date(),
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (created) {
    if (generatedPassword) {
      // The password itself never goes to the log (issue 9): the caller shows it to a person once.
      log.warn(
        `Created the admin account ${email} with a generated password (set ADMIN_PASSWORD to choose your own)`,
      );
      return { action: 'created', generatedPassword };
    }
    log.info(`Created the admin account ${email}`);
    return { action: 'created' };
  }

  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw new Error(`Admin account ${email} vanished while being checked`);

  const changes: Partial<typeof users.$inferInsert> = {};
  let action: EnsureAdminResult['action'] = 'unchanged';
  if (!user.isAdmin) {
    changes.isAdmin = true;
    action = 'promoted';
  }
  if (adminPassword && !(await verifyPassword(user.passwordHash, adminPassword))) {
    changes.passwordHash = await hashPassword(adminPassword);
    action = 'password-updated';
  }
  if (Object.keys(changes).length > 0) {
    await db
      .update(users)
      .set({
        ...changes,
        ...(changes.passwordHash ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id));
    const what = [changes.isAdmin ? 'made it an admin' : '', changes.passwordHash ? 'set ADMIN_PASSWORD' : '']
      .filter(Boolean)
      .join(', ');
    log.info(`Updated the admin account ${email}: ${what}`);
  }
  return { action };
}

/** The demo gift card's value: enough to try the gift-card-only and the split checkout. */
export const DEMO_GIFT_CARD_CENTS = 10_000;

/**
 * Issues one demo gift card with a random code, alongside the demo catalogue, so a new shop can try
 * every checkout path before an admin creates cards. The code is random (a fixed, documented code
 * would be free goods for anyone who read it) and is shown once, like the admin password.
 */
export async function seedDemoGiftCard({ db, log }: { db: Database; log: SeedLog }): Promise<string> {
  const code = `DEMO-${randomBytes(4).toString('hex').toUpperCase()}-${randomBytes(4).toString('hex').toUpperCase()}`;
  await db.transaction(async (tx) => {
    const [card] = await tx
      .insert(giftCards)
      .values({ code, balanceCents: DEMO_GIFT_CARD_CENTS })
      .returning({ id: giftCards.id });
    await tx.insert(giftCardLedger).values({
      giftCardId: card!.id,
      kind: 'issue',
      amountCents: DEMO_GIFT_CARD_CENTS,
      balanceAfterCents: DEMO_GIFT_CARD_CENTS,
    });
  });
  // The code is money: the caller shows it to a person once, never to the log (issue 9).
  log.info(`Issued a demo gift card of $${(DEMO_GIFT_CARD_CENTS / 100).toFixed(2)}`);
  return code;
}

import { randomBytes } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { contentHash8, type Storage } from '../../lib/storage.js';
import type { Database } from '../client.js';
import {
  giftCardLedger,
  giftCards,
  productImages,
  productReviews,
  products,
  users,
} from '../schema/index.js';
import { renderBoxArt } from './box-art.js';
import { SEED_PRODUCTS, type SeedProduct } from './catalogue.js';

/** The part of a logger the seed needs; pino, fastify's logger and a console shim all fit. */
export interface SeedLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface SeedSource {
  products: readonly SeedProduct[];
  renderBoxArt(product: { name: string; category: string }, variant: number): string;
}

const DEFAULT_SOURCE: SeedSource = { products: SEED_PRODUCTS, renderBoxArt };

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

const toTenths = (rating: number) => Math.min(50, Math.max(0, Math.round(rating * 10)));

/**
 * Fills an empty catalogue with the demo products and their box art. Does nothing when any
 * product exists, so it is safe on every start. Answers how many products it inserted.
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

    const rows = await tx
      .insert(products)
      .values(
        source.products.map((p) => ({
          name: p.name,
          description: p.description,
          category: p.category,
          priceCents: p.priceCents,
          stock: p.stock,
          ratingTenths: toTenths(p.rating),
          reviewCount: p.reviewCount,
        })),
      )
      .returning({ id: products.id });

    const imageRows = rows.flatMap((row, i) =>
      (images[i] ?? []).map((url, position) => ({ productId: row.id, position, url })),
    );
    if (imageRows.length > 0) await tx.insert(productImages).values(imageRows);

    const reviewRows = rows.flatMap((row, i) =>
      (source.products[i]?.reviews ?? []).map((r) => ({
        productId: row.id,
        authorName: r.author,
        ratingTenths: toTenths(r.rating),
        comment: r.comment,
      })),
    );
    if (reviewRows.length > 0) await tx.insert(productReviews).values(reviewRows);
    return rows.length;
  });

  if (inserted > 0) log.info(`Seeded the catalogue with ${inserted} products`);
  return inserted;
}

export const ADMIN_NAME = 'Shop Admin';

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
  config,
  log,
}: {
  db: Database;
  config: Pick<Config, 'adminEmail' | 'adminPassword'>;
  log: SeedLog;
}): Promise<EnsureAdminResult> {
  const email = config.adminEmail.toLowerCase();
  const generatedPassword = config.adminPassword ? undefined : randomBytes(18).toString('base64url');
  const password = config.adminPassword ?? generatedPassword ?? '';

  const [created] = await db
    .insert(users)
    .values({ name: ADMIN_NAME, email, passwordHash: await hashPassword(password), isAdmin: true })
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
  if (config.adminPassword && !(await verifyPassword(user.passwordHash, config.adminPassword))) {
    changes.passwordHash = await hashPassword(config.adminPassword);
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

import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import {
  type CreateProductBody,
  type Product,
  type ProductOption,
  type UpdateProductBody,
  toCents,
  variantsProblem,
} from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import {
  defaultSku,
  isDefaultVariant,
  productImages,
  productReviews,
  productVariants,
  products,
} from '../../db/schema/index.js';
import { type AuthUser, adminOnly } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage.js';
import { recordAudit } from '../audit/audit.repo.js';
import { processImages, storeImages } from './products.images.js';
import { auditView } from './products.repo.js';
import { asInput, liveVariantsForUpdate, writeVariants } from './products.variants.js';

/**
 * The admin's writes of the catalogue (issue 4; split from products.service.ts): add, update and
 * remove a product, each with its audit row, and each dropping the cached answers here and on every
 * instance. Options and variants (issue 31) are written with the product, in its transaction.
 */
export interface ProductWrites {
  /** Checks every image by content, resizes and stores them, then writes the product (+ audit row). */
  create(admin: AuthUser, fields: CreateProductBody, images: Buffer[]): Promise<Product>;
  /**
   * Field-wise partial update by an admin (+ audit row); 404 for unknown or removed products. A
   * customer may only send `stockQuantity` (the spec's checkout does, section 4): nothing is written,
   * the stock having been taken when the order was placed, and the product is answered as it is.
   */
  update(caller: AuthUser, id: string, fields: UpdateProductBody): Promise<Product>;
  /** Soft delete: gone from lists and detail; past orders keep their snapshot (+ audit row). */
  remove(admin: AuthUser, id: string): Promise<void>;
}

export interface ProductWritesOptions {
  db: Database;
  /** Where uploaded images go; needed by create() only. */
  storage?: Storage | undefined;
  /** Drops the cached answers (products.service.ts). */
  invalidate: () => void;
  get: (id: string) => Promise<Product>;
}

const productNotFound = () => notFound('Product not found');

export function createProductWrites({ db, storage, invalidate, get }: ProductWritesOptions): ProductWrites {
  return {
    async create(admin, fields, files) {
      if (!storage) throw new Error('products: create() needs a storage');
      // Every file is checked before anything is stored.
      const processed = await processImages(files);
      const id = randomUUID();
      const { urls, keys } = await storeImages(storage, id, processed);
      try {
        await db.transaction(async (tx) => {
          const now = new Date();
          const [row] = await tx
            .insert(products)
            .values({
              id,
              name: fields.productName,
              description: fields.productDescription,
              category: fields.productCategory,
              platform: fields.platform ?? null,
              options: (fields.options ?? []) as ProductOption[],
              // productRating and reviewCount, if sent (spec section 5), are ignored: a new product has
              // no reviews, so it starts at 0 / 0 (issue 14, docs/reviews.md).
              ratingTenths: 0,
              reviewCount: 0,
            })
            .returning();
          if (!row) throw new Error('Product insert returned no row');
          if (fields.variants) {
            await writeVariants(tx, {
              productId: id,
              options: fields.options ?? [],
              variants: fields.variants,
              current: [],
              now,
            });
          } else {
            // Sold in one form (issue 31): its default variant has the spec's price and stock.
            await tx.insert(productVariants).values({
              productId: id,
              position: 0,
              sku: defaultSku(id),
              priceCents: toCents(fields.productPrice ?? 0),
              stock: fields.stockQuantity ?? 0,
            });
          }
          await tx
            .insert(productImages)
            .values(urls.map((url, position) => ({ productId: id, position, url })));
          await recordAudit(tx, {
            actor: admin.id,
            action: 'product.create',
            targetType: 'product',
            targetId: id,
            before: null,
            after: await auditView(tx, row),
          });
        });
      } catch (error) {
        // No product row points at the files: do not leave them behind.
        await Promise.all(keys.map((key) => storage.remove(key).catch(() => {})));
        throw error;
      } finally {
        invalidate();
      }
      return get(id);
    },

    async update(caller, id, fields) {
      if (!caller.isAdmin) {
        const onlyStock = Object.entries(fields).every(([k, v]) => k === 'stockQuantity' || v === undefined);
        if (!onlyStock || fields.stockQuantity === undefined) throw adminOnly();
        return get(id);
      }
      const admin = caller;
      const set: Partial<typeof products.$inferInsert> = {};
      if (fields.productName !== undefined) set.name = fields.productName;
      if (fields.productCategory !== undefined) set.category = fields.productCategory;
      if (fields.productDescription !== undefined) set.description = fields.productDescription;
      if (fields.platform !== undefined) set.platform = fields.platform;
      // The spec's price and stock are the default variant's (issue 31), unless the variants are sent.
      const variantSet: Partial<typeof productVariants.$inferInsert> = {};
      if (!fields.variants) {
        if (fields.productPrice !== undefined) variantSet.priceCents = toCents(fields.productPrice);
        if (fields.stockQuantity !== undefined) variantSet.stock = fields.stockQuantity;
      }
      try {
        await db.transaction(async (tx) => {
          const now = new Date();
          await lockVariantsFirst(tx, id);
          const [before] = await tx
            .select()
            .from(products)
            .where(and(eq(products.id, id), isNull(products.deletedAt)))
            .for('update');
          if (!before) throw productNotFound();
          const beforeView = await auditView(tx, before);
          if (fields.options || fields.variants) {
            const current = await liveVariantsForUpdate(tx, id);
            const options = fields.options ?? before.options;
            // Options alone: the variants the product has must fit them.
            const variants = fields.variants ?? current.map(asInput);
            const problem = fields.variants ? null : variantsProblem(options, variants);
            if (problem) throw new AppError(400, `${problem}: send the variants with the options`);
            await writeVariants(tx, { productId: id, options, variants, current, now });
          }
          // Only the fields sent are written (Vendure #3398: no read-modify-write of the whole row).
          const [after] = await tx
            .update(products)
            .set({ ...set, updatedAt: now })
            .where(and(eq(products.id, id), isNull(products.deletedAt)))
            .returning();
          if (!after) throw productNotFound();
          if (Object.keys(variantSet).length > 0) {
            await tx
              .update(productVariants)
              .set({ ...variantSet, updatedAt: now })
              .where(and(eq(productVariants.productId, id), isDefaultVariant('product_variants')));
          }
          await recordAudit(tx, {
            actor: admin.id,
            action: 'product.update',
            targetType: 'product',
            targetId: id,
            before: beforeView,
            after: await auditView(tx, after),
          });
        });
      } finally {
        invalidate();
      }
      return get(id);
    },

    async remove(admin, id) {
      try {
        await db.transaction(async (tx) => {
          const now = new Date();
          const [row] = await tx
            .select()
            .from(products)
            .where(and(eq(products.id, id), isNull(products.deletedAt)))
            .for('update');
          if (!row) throw productNotFound();
          // Its reviews go with it (issue 14), and so do the numbers they made, in the same transaction.
          await tx.delete(productReviews).where(eq(productReviews.productId, id));
          await tx
            .update(products)
            .set({ deletedAt: now, updatedAt: now, ratingTenths: 0, reviewCount: 0 })
            .where(eq(products.id, id));
          await recordAudit(tx, {
            actor: admin.id,
            action: 'product.delete',
            targetType: 'product',
            targetId: id,
            before: await auditView(tx, row),
            after: { deletedAt: now },
          });
        });
      } finally {
        invalidate();
      }
    },
  };
}

/**
 * Locks the product's variants before its row. A transaction that writes variants (an order's
 * reservation, a restock) locks the product's row last, at its commit, where the trigger keeping the
 * product's search facts runs (issue 33, migration 0022): a write that locked the product first and
 * its variants after could wait for such an order while it waits for the product, a deadlock.
 */
export async function lockVariantsFirst(tx: Transaction, productId: string): Promise<void> {
  await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id))
    .for('update');
}

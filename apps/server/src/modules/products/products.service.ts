import { randomUUID } from 'node:crypto';
import { type SQL, and, asc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import {
  type Category,
  type CreateProductFields,
  PRODUCTS_DEFAULT_LIMIT,
  PRODUCT_PAGE_REVIEWS,
  type Product,
  type ProductList,
  type ProductListQuery,
  type ProductListResponse,
  type UpdateProductFields,
  requestedPage,
  reviewerName,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import type { Database, Executor } from '../../db/client.js';
import { type ProductRow, productImages, productReviews, products, users } from '../../db/schema/index.js';
import { type AuthUser, adminOnly } from '../../lib/access.js';
import { type CachedAnswer, type MaybeAnswer, cachedAnswer } from '../../lib/cached-answer.js';
import { keptValues } from '../../lib/kept.js';
import { notFound } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage.js';
import { type PublicUrlOf, relativeUrls } from '../../lib/urls.js';
import { recordAudit } from '../audit/audit.repo.js';
import { processImages, storeImages } from './products.images.js';

/**
 * What a catalogue write changed. `products`: which products there are, their names or categories
 * (any admin write). `details`: only what products show, their stock, rating or reviews (an order
 * placed or given back, a review): the lists of which products a category or search holds, in which
 * order, stay right and are kept, so a busy checkout does not make every category page read its
 * whole list again after each order (issue 13).
 */
export type CatalogueChange = 'products' | 'details';

export interface ProductsService {
  /**
   * `GET /api/products` answer from the cache, serialized with its ETag: the hot path sends it as is.
   * A cached answer comes back as it is, not in a promise: a hit costs no microtask (issue 10).
   */
  listAnswer(query: ProductListQuery): MaybeAnswer;
  /** `GET /api/products/:id` answer from the cache; 404 `Product not found` for unknown or removed. */
  getAnswer(id: string): MaybeAnswer;
  /** Every matching product (no page asked for, spec section 7), or the page asked for. */
  list(query: ProductListQuery): Promise<ProductList | ProductListResponse>;
  get(id: string): Promise<Product>;
  /**
   * Drops every cached answer, here and (through `onInvalidate`) on every other instance. Every write
   * that changes what the catalogue answers (products, stock) must call it, saying what changed.
   */
  invalidate(change?: CatalogueChange): void;
  /** Drops this instance's cached answers only: another instance said the catalogue changed. */
  invalidateLocal(change?: CatalogueChange): void;
  /**
   * Counts the catalogue changes this instance has seen (its own writes, other instances' messages):
   * what is kept under a key holding it (a page rendered from the catalogue) is not found after one.
   */
  version(): number;
  /** Checks every image by content, resizes and stores them, then writes the product (+ audit row). */
  create(admin: AuthUser, fields: CreateProductFields, images: Buffer[]): Promise<Product>;
  /**
   * Field-wise partial update by an admin (+ audit row); 404 for unknown or removed products. A
   * customer may only send `stockQuantity` (the spec's checkout does, section 4): nothing is written,
   * the stock having been taken when the order was placed, and the product is answered as it is.
   */
  update(caller: AuthUser, id: string, fields: UpdateProductFields): Promise<Product>;
  /** Soft delete: gone from lists and detail; past orders keep their snapshot (+ audit row). */
  remove(admin: AuthUser, id: string): Promise<void>;
}

export interface ProductsServiceOptions {
  db: Database;
  /**
   * How long a cached answer is fresh. A busy answer is served for one TTL more while it is refreshed,
   * so a write on another instance whose message is lost is seen within two.
   */
  cacheTtlMs?: number;
  /** Bounds memory: every distinct search text is a key. */
  cacheMaxEntries?: number;
  now?: () => number;
  /** Where uploaded images go; needed by create() only. */
  storage?: Storage;
  /** Makes stored image paths absolute when PUBLIC_URL is set. */
  publicUrl?: PublicUrlOf;
  /** Called by invalidate(): tells the other instances (issue 13). */
  onInvalidate?: (change: CatalogueChange) => void;
}

const productNotFound = () => notFound('Product not found');

/** What the audit log keeps of a product. */
async function auditView(tx: Executor, row: ProductRow) {
  const images = await tx
    .select({ url: productImages.url })
    .from(productImages)
    .where(eq(productImages.productId, row.id))
    .orderBy(asc(productImages.position));
  return {
    productName: row.name,
    productCategory: row.category,
    productDescription: row.description,
    productPrice: toDollars(row.priceCents),
    stockQuantity: row.stock,
    productRating: row.ratingTenths / 10,
    reviewCount: row.reviewCount,
    productImage: images.map((i) => i.url),
  };
}

/** `%`, `_` and `\` are LIKE syntax; a shopper searching for "100%" means the character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

interface ReviewJson {
  id: string;
  /** The author's full name; null when they deleted their account. */
  name: string | null;
  rating: number;
  title: string;
  comment: string;
  createdAt: string;
  updatedAt: string;
}

// Drizzle leaves columns unqualified in a single-table select, which inside a correlated
// subquery would bind to the inner table; so the subqueries name every column explicitly.
const outerId = sql`${products}.${sql.identifier(products.id.name)}`;

const isoUtc = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One row per product with its images aggregated in a correlated subquery, so a page of products
 * costs one query however many products it holds (no N+1). Lists carry no reviews (issue 14: the
 * whole-catalogue answer stays small); the product's own page adds its newest visible ones.
 */
const productColumns = {
  id: products.id,
  name: products.name,
  description: products.description,
  category: products.category,
  priceCents: products.priceCents,
  stock: products.stock,
  ratingTenths: products.ratingTenths,
  reviewCount: products.reviewCount,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  images: sql<string[]>`coalesce((
      select json_agg(i.url order by i.position)
      from ${productImages} i where i.product_id = ${outerId}
    ), '[]'::json)`,
};

/** The product page's columns: the newest PRODUCT_PAGE_REVIEWS visible reviews ride along (issue 14). */
const productPageColumns = {
  ...productColumns,
  reviews: sql<ReviewJson[]>`coalesce((
      select json_agg(json_build_object(
        'id', r.id, 'name', u.name, 'rating', r.rating,
        'title', r.title, 'comment', r.comment,
        'createdAt', ${isoUtc(sql`r.created_at`)}, 'updatedAt', ${isoUtc(sql`r.updated_at`)}
      ) order by r.created_at desc, r.id desc)
      from (
        select * from ${productReviews} r0
        where r0.product_id = ${outerId} and not r0.hidden
        order by r0.created_at desc, r0.id desc
        limit ${sql.raw(String(PRODUCT_PAGE_REVIEWS))}
      ) r left join ${users} u on u.id = r.user_id
    ), '[]'::json)`,
};

type ProductQueryRow = {
  id: string;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  stock: number;
  ratingTenths: number;
  reviewCount: number;
  createdAt: Date;
  updatedAt: Date;
  images: string[];
  /** Only on the product page's query; lists answer `reviews: []`. */
  reviews?: ReviewJson[];
};

/** The one place a product row becomes the spec's Product (prices in dollars, `_id`, rating 0..5). */
export function toProductDto(row: ProductQueryRow, publicUrl: PublicUrlOf = relativeUrls): Product {
  return {
    _id: row.id,
    productName: row.name,
    productDescription: row.description,
    productPrice: toDollars(row.priceCents),
    productCategory: row.category as Category,
    productImage: row.images.map(publicUrl),
    stockQuantity: row.stock,
    productRating: row.ratingTenths / 10,
    reviewCount: row.reviewCount,
    reviews: (row.reviews ?? []).map((r) => ({
      _id: r.id,
      productId: row.id,
      name: reviewerName(r.name),
      rating: r.rating,
      title: r.title,
      comment: r.comment,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      verifiedBuyer: true,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The key listAnswer's template below gives the unfiltered, unpaged list. */
const WHOLE_LIST_KEY = 'list\u0000\u0000all\u0000';

/** How long the catalogue's cached answers are fresh by default (see cacheTtlMs). */
export const CATALOGUE_TTL_MS = 2000;

/** A product id as PostgreSQL writes a uuid: 8-4-4-4-12 hex digits. */
const UUID_CHARS = 36;
/** At most 500,000 ids (18 MB) in the ordered-id lists of all categories and searches together. */
const ID_CHARS_MAX = UUID_CHARS * 500_000;
/** Distinct categories and searches whose id lists are kept (an empty result counts too). */
const ID_LISTS_MAX = 2_000;
/** The catalogue's answers together: the whole list of a large catalogue is megabytes. */
const ANSWER_BYTES_MAX = 64 * 1024 * 1024;

export function createProductsService({
  db,
  cacheTtlMs = CATALOGUE_TTL_MS,
  cacheMaxEntries = 1000,
  now = Date.now,
  storage,
  publicUrl = relativeUrls,
  onInvalidate,
}: ProductsServiceOptions): ProductsService {
  // Serialized answers, and the ordered ids of each category and search (orderedIds); both are
  // dropped at once on a write, and refreshed while served past their TTL (lib/kept.ts).
  const answers = keptValues<CachedAnswer>({
    ttlMs: cacheTtlMs,
    now,
    maxEntries: cacheMaxEntries,
    sizeOf: (answer) => answer.body.length,
    maxSize: ANSWER_BYTES_MAX,
  });
  const idLists = keptValues<string>({
    ttlMs: cacheTtlMs,
    now,
    maxEntries: ID_LISTS_MAX,
    sizeOf: (ids) => ids.length,
    maxSize: ID_CHARS_MAX,
  });

  function cached(key: string, load: () => Promise<unknown>): MaybeAnswer {
    // An expired entry whose bytes did not change keeps its ETag and compressed forms.
    return answers.get(key, async (previous) => cachedAnswer(JSON.stringify(await load()), previous));
  }

  async function list(query: ProductListQuery): Promise<ProductList | ProductListResponse> {
    const conditions: SQL[] = [isNull(products.deletedAt)];
    if (query.category) conditions.push(eq(products.category, query.category));
    if (query.q) conditions.push(ilike(products.name, `%${escapeLike(query.q)}%`));
    const where = and(...conditions);
    const order = [asc(products.name), asc(products.id)];
    const toDto = (row: ProductQueryRow) => toProductDto(row, publicUrl);

    const paging = requestedPage(query, PRODUCTS_DEFAULT_LIMIT);
    if (!paging) {
      const all = await db
        .select(productColumns)
        .from(products)
        .where(where)
        .orderBy(...order);
      return all.map(toDto);
    }
    const { page, limit } = paging;
    const ids = await orderedIds(query, where);
    const total = ids.length / UUID_CHARS;
    const pageIds: string[] = [];
    for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i += 1) {
      pageIds.push(ids.slice(i * UUID_CHARS, (i + 1) * UUID_CHARS));
    }
    // The page's rows by primary key; `where` again, so a row that stopped matching since the list
    // was read is left out rather than shown (a write drops the list, but a read may be under way).
    const rows = pageIds.length
      ? await db
          .select(productColumns)
          .from(products)
          .where(and(where, inArray(products.id, pageIds)))
          .orderBy(...order)
      : [];
    return { products: rows.map(toDto), page, totalPage: Math.max(1, Math.ceil(total / limit)), total };
  }

  /**
   * The ids of a category's or search's products in the list's order (name, id), as one string of
   * 36-character ids, kept like the answers (same TTL, dropped with them) per category and search
   * rather than per page (issue 13). A page is then a slice of it and 24 rows by primary key, where
   * OFFSET made the database walk every row before the page (page 900 of a 25,000-product category
   * read 21,600 index entries), and the count is its length, so page and total always agree.
   */
  function orderedIds(query: ProductListQuery, where: SQL | undefined): Promise<string> | string {
    const key = `${query.category ?? ''}\u0000${query.q ?? ''}`;
    return idLists.get(key, async () => {
      const [row] = await db
        .select({
          ids: sql<string>`coalesce(string_agg(${products.id}::text, '' order by ${products.name}, ${products.id}), '')`,
        })
        .from(products)
        .where(where);
      return row?.ids ?? '';
    });
  }

  async function get(id: string): Promise<Product> {
    const [row] = await db
      .select(productPageColumns)
      .from(products)
      .where(and(eq(products.id, id), isNull(products.deletedAt)))
      .limit(1);
    if (!row) throw notFound('Product not found');
    return toProductDto(row, publicUrl);
  }

  let changes = 0;
  function invalidateLocal(change: CatalogueChange = 'products') {
    changes += 1;
    answers.clear();
    if (change === 'products') idLists.clear();
  }

  function invalidate(change: CatalogueChange = 'products') {
    invalidateLocal(change);
    onInvalidate?.(change);
  }

  return {
    list,
    get,
    listAnswer(query) {
      const paging = requestedPage(query, PRODUCTS_DEFAULT_LIMIT);
      // The whole catalogue, as the shop's pages and the spec's clients ask for it: a key made once.
      if (!paging && !query.category && !query.q) return cached(WHOLE_LIST_KEY, () => list(query));
      const pageKey = paging ? `${paging.page}\u0000${paging.limit}` : 'all';
      const key = `list\u0000${query.category ?? ''}\u0000${pageKey}\u0000${query.q ?? ''}`;
      return cached(key, () => list(query));
    },
    getAnswer(id) {
      return cached(`id\u0000${id.toLowerCase()}`, () => get(id));
    },
    invalidate,
    invalidateLocal,
    version: () => changes,

    async create(admin, fields, files) {
      if (!storage) throw new Error('products: create() needs a storage');
      // Every file is checked before anything is stored.
      const processed = await processImages(files);
      const id = randomUUID();
      const { urls, keys } = await storeImages(storage, id, processed);
      try {
        await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(products)
            .values({
              id,
              name: fields.productName,
              description: fields.productDescription,
              category: fields.productCategory,
              priceCents: toCents(fields.productPrice),
              stock: fields.stockQuantity,
              // productRating and reviewCount, if sent (spec section 5), are ignored: a new product has
              // no reviews, so it starts at 0 / 0 (issue 14, docs/reviews.md).
              ratingTenths: 0,
              reviewCount: 0,
            })
            .returning();
          if (!row) throw new Error('Product insert returned no row');
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
      if (fields.productPrice !== undefined) set.priceCents = toCents(fields.productPrice);
      if (fields.stockQuantity !== undefined) set.stock = fields.stockQuantity;
      try {
        await db.transaction(async (tx) => {
          const [before] = await tx
            .select()
            .from(products)
            .where(and(eq(products.id, id), isNull(products.deletedAt)))
            .for('update');
          if (!before) throw productNotFound();
          // Only the fields sent are written (Vendure #3398: no read-modify-write of the whole row).
          const [after] = await tx
            .update(products)
            .set({ ...set, updatedAt: new Date() })
            .where(and(eq(products.id, id), isNull(products.deletedAt)))
            .returning();
          if (!after) throw productNotFound();
          await recordAudit(tx, {
            actor: admin.id,
            action: 'product.update',
            targetType: 'product',
            targetId: id,
            before: await auditView(tx, before),
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

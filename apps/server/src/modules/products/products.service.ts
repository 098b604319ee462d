import { type SQL, and, asc, eq, ilike, isNull, sql } from 'drizzle-orm';
import {
  type Category,
  type Product,
  type ProductListQuery,
  type ProductListResponse,
  toDollars,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { productImages, productReviews, products } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';

export interface ProductsService {
  /** `GET /api/products` answer, already serialized: the hot path sends it as is. */
  listJson(query: ProductListQuery): Promise<string>;
  /** `GET /api/products/:id` answer, serialized; 404 `Product not found` for unknown or removed. */
  getJson(id: string): Promise<string>;
  list(query: ProductListQuery): Promise<ProductListResponse>;
  get(id: string): Promise<Product>;
  /** Drops every cached answer. Every product write must call it (the cache TTL only covers other instances). */
  invalidate(): void;
}

export interface ProductsServiceOptions {
  db: Database;
  /** How long a cached answer may be served; bounds staleness after a write on another instance. */
  cacheTtlMs?: number;
  /** Bounds memory: every distinct search text is a key. */
  cacheMaxEntries?: number;
  now?: () => number;
}

/** `%`, `_` and `\` are LIKE syntax; a shopper searching for "100%" means the character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

interface ReviewJson {
  id: string;
  name: string;
  ratingTenths: number;
  comment: string;
  createdAt: string;
}

// Drizzle leaves columns unqualified in a single-table select, which inside a correlated
// subquery would bind to the inner table; so the subqueries name every column explicitly.
const outerId = sql`${products}.${sql.identifier(products.id.name)}`;

/**
 * One row per product with its images and reviews aggregated in correlated subqueries, so a page
 * of products costs one query however many products it holds (no N+1).
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
  reviews: sql<ReviewJson[]>`coalesce((
      select json_agg(json_build_object(
        'id', r.id, 'name', r.author_name, 'ratingTenths', r.rating_tenths, 'comment', r.comment,
        'createdAt', to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) order by r.created_at desc, r.id)
      from ${productReviews} r where r.product_id = ${outerId}
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
  reviews: ReviewJson[];
};

/** The one place a product row becomes the spec's Product (prices in dollars, `_id`, rating 0..5). */
export function toProductDto(row: ProductQueryRow): Product {
  return {
    _id: row.id,
    productName: row.name,
    productDescription: row.description,
    productPrice: toDollars(row.priceCents),
    productCategory: row.category as Category,
    productImage: row.images,
    stockQuantity: row.stock,
    productRating: row.ratingTenths / 10,
    reviewCount: row.reviewCount,
    reviews: row.reviews.map((r) => ({
      _id: r.id,
      name: r.name,
      rating: r.ratingTenths / 10,
      comment: r.comment,
      createdAt: r.createdAt,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

interface CacheEntry {
  json: string;
  expiresAt: number;
}

export function createProductsService({
  db,
  cacheTtlMs = 2000,
  cacheMaxEntries = 1000,
  now = Date.now,
}: ProductsServiceOptions): ProductsService {
  const cache = new Map<string, CacheEntry>();
  // Concurrent misses for one key share one query instead of stampeding the database.
  const inFlight = new Map<string, Promise<string>>();
  // A query that started before an invalidation must not put its (stale) answer in the cache.
  let generation = 0;

  async function cached(key: string, load: () => Promise<unknown>): Promise<string> {
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now()) return hit.json;
    const pending = inFlight.get(key);
    if (pending) return pending;

    const startedAt = generation;
    const loadAndStore = async () => {
      const json = JSON.stringify(await load());
      if (generation === startedAt) {
        if (cache.size >= cacheMaxEntries) {
          // Map iteration is insertion order: drop the oldest entry.
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.delete(key);
        cache.set(key, { json, expiresAt: now() + cacheTtlMs });
      }
      return json;
    };
    const promise = loadAndStore().finally(() => {
      if (inFlight.get(key) === promise) inFlight.delete(key);
    });
    inFlight.set(key, promise);
    return promise;
  }

  async function list({ category, q, page, limit }: ProductListQuery): Promise<ProductListResponse> {
    const conditions: SQL[] = [isNull(products.deletedAt)];
    if (category) conditions.push(eq(products.category, category));
    if (q) conditions.push(ilike(products.name, `%${escapeLike(q)}%`));
    const where = and(...conditions);

    const rows = await db
      .select({ ...productColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(products)
      .where(where)
      .orderBy(asc(products.name), asc(products.id))
      .limit(limit)
      .offset((page - 1) * limit);

    let total = rows[0]?.total;
    if (total === undefined) {
      // A page past the end has no row to carry the window count.
      const [counted] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(products)
        .where(where);
      total = counted?.n ?? 0;
    }
    return {
      products: rows.map(toProductDto),
      page,
      totalPage: Math.max(1, Math.ceil(total / limit)),
      total,
    };
  }

  async function get(id: string): Promise<Product> {
    const [row] = await db
      .select(productColumns)
      .from(products)
      .where(and(eq(products.id, id), isNull(products.deletedAt)))
      .limit(1);
    if (!row) throw notFound('Product not found');
    return toProductDto(row);
  }

  return {
    list,
    get,
    listJson(query) {
      const key = `list\u0000${query.category ?? ''}\u0000${query.page}\u0000${query.limit}\u0000${query.q ?? ''}`;
      return cached(key, () => list(query));
    },
    getJson(id) {
      return cached(`id\u0000${id.toLowerCase()}`, () => get(id));
    },
    invalidate() {
      generation += 1;
      cache.clear();
      // Requests from now on must not join a query that may have read the old rows.
      inFlight.clear();
    },
  };
}

import { type SQL, asc, isNull, sql } from 'drizzle-orm';
import type { ProductOption } from '@pixel-vault/shared';
import { type Transaction, queryRows } from '../../db/client.js';
import {
  type ProductVariantRow,
  isDefaultVariant,
  productImages,
  productVariants,
  products,
} from '../../db/schema/index.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import { writeVariants } from '../products/products.variants.js';
import type { Current } from './admin.import.columns.js';
import type { Work } from './admin.import.plan.js';
import type { SkuOwner } from './admin.import.skus.js';

/**
 * The product import's reads and writes (issue 15; variants, issue 31): the stored products a file
 * names, locked until the commit when about to be written, and every change in batches.
 */

/** Rows per INSERT / UPDATE statement: 5,000 rows are five round trips, not 5,000. */
export const IMPORT_BATCH = 1000;

/** A JSON array parameter, read back in SQL as a set of values: any number of them, one parameter. */
const jsonSet = (values: string[]) => sql`(select json_array_elements_text(${JSON.stringify(values)}::json))`;
const idIn = (column: SQL, ids: string[]) =>
  sql`${column} in (select value::uuid from ${jsonSet(ids)} as ids(value))`;

/**
 * The live products among `ids`, with their images; locked FOR UPDATE in id order when about to be
 * written, after their variants (two imports cannot deadlock, nor an import and an order): an admin's edit of one of them waits for the whole file, or
 * the file sees it, never half of it.
 */
export async function currentProducts(
  tx: Transaction,
  ids: string[],
  lock: boolean,
): Promise<Map<string, Current>> {
  const found = new Map<string, Current>();
  if (ids.length === 0) return found;
  // Their variants first, as every writer of variants locks them (lockVariantsFirst, issue 33).
  if (lock) {
    await tx.execute(
      sql`select v.id from ${productVariants} v where ${idIn(sql`v.product_id`, ids)}
          order by v.product_id, v.id for update`,
    );
  }
  const rows = await queryRows<{
    id: string;
    name: string;
    description: string;
    category: string;
    options: ProductOption[];
    platform: string | null;
    price_cents: number;
    stock: number;
    variant_id: string;
    trade_in_credit_cents: number | null;
  }>(
    tx,
    // Price and stock: the default variant's (issue 31), locked with its product when about to be written.
    sql`select p.id, p.name, p.description, p.category, p.options, p.platform, v.price_cents, v.stock,
          v.id as variant_id, v.trade_in_credit_cents
        from ${products} p
        join ${productVariants} v on v.product_id = p.id and ${isDefaultVariant('v')}
        where p.deleted_at is null and ${idIn(sql`p.id`, ids)}
        order by p.id
        ${lock ? sql`for update of p, v` : sql``}`,
  );
  for (const r of rows) {
    found.set(r.id, {
      id: r.id,
      name: r.name,
      description: r.description,
      category: r.category,
      priceCents: Number(r.price_cents),
      stock: Number(r.stock),
      variantId: r.variant_id,
      tradeInCreditCents: r.trade_in_credit_cents === null ? null : Number(r.trade_in_credit_cents),
      images: [],
      options: r.options,
      platform: r.platform,
    });
  }
  const images = await queryRows<{ product_id: string; url: string }>(
    tx,
    sql`select i.product_id, i.url from ${productImages} i
        where ${idIn(sql`i.product_id`, [...found.keys()])}
        order by i.product_id, i.position`,
  );
  for (const image of images) found.get(image.product_id)?.images.push(image.url);
  return found;
}

/**
 * The live variants of the products `ids`, in position order (issue 31), locked as their products are
 * (after them, in product and position order) when about to be written.
 */
export async function liveVariants(
  tx: Transaction,
  ids: string[],
  lock: boolean,
): Promise<Map<string, ProductVariantRow[]>> {
  const found = new Map<string, ProductVariantRow[]>();
  if (ids.length === 0) return found;
  const query = tx
    .select()
    .from(productVariants)
    .where(sql`${isNull(productVariants.archivedAt)} and ${idIn(sql`${productVariants.productId}`, ids)}`)
    .orderBy(asc(productVariants.productId), asc(productVariants.position));
  for (const row of lock ? await query.for('update') : await query) {
    found.set(row.productId, [...(found.get(row.productId) ?? []), row]);
  }
  return found;
}

/** The URLs among `urls` that some product (live or removed) shows: images the shop serves. */
export async function knownImages(tx: Transaction, urls: string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const rows = await queryRows<{ url: string }>(
    tx,
    sql`select distinct i.url from ${productImages} i where i.url in ${jsonSet(urls)}`,
  );
  return new Set(rows.map((r) => r.url));
}

/** The variants (any, of any product) holding one of `skus`, case aside, by lower-case SKU. */
export async function skuOwners(tx: Transaction, skus: string[]): Promise<Map<string, SkuOwner>> {
  if (skus.length === 0) return new Map();
  const rows = await queryRows<{ id: string; product_id: string; sku: string; name: string }>(
    tx,
    sql`select v.id, v.product_id, v.sku, p.name from ${productVariants} v
        join ${products} p on p.id = v.product_id
        where lower(v.sku) in ${jsonSet(skus.map((s) => s.toLowerCase()))}`,
  );
  return new Map(
    rows.map((r) => [
      r.sku.toLowerCase(),
      { id: r.id, productId: r.product_id, sku: r.sku, productName: r.name },
    ]),
  );
}

/**
 * Every change, batched: multi-row INSERTs, UPDATE ... FROM (VALUES ...), images replaced; a product
 * whose options or list of variants change goes through writeVariants, as the admin's form does.
 * `imageOf` stores and answers a category's placeholder art.
 */
export async function writeImport(
  tx: Transaction,
  { creates, updates, prices, credits, variantWrites }: Work,
  current: Map<string, Current>,
  placeholderUrl: (category: string) => Promise<string>,
): Promise<void> {
  const imageRows: { productId: string; position: number; url: string }[] = [];
  const addImages = async (productId: string, category: string, images: string[]) => {
    const list = images.length > 0 ? images : [await placeholderUrl(category)];
    list.forEach((url, position) => imageRows.push({ productId, position, url }));
  };

  try {
    for (let i = 0; i < creates.length; i += IMPORT_BATCH) {
      const batch = creates.slice(i, i + IMPORT_BATCH);
      await tx.insert(products).values(
        batch.map(({ id, name, description, category, platform, options }) => ({
          id,
          name,
          description,
          category,
          platform,
          options,
        })),
      );
      const variants = batch.flatMap((c) =>
        c.variants.map((v, position) => ({ ...v, productId: c.id, position })),
      );
      for (let j = 0; j < variants.length; j += IMPORT_BATCH) {
        await tx.insert(productVariants).values(variants.slice(j, j + IMPORT_BATCH));
      }
    }
  } catch (error) {
    // Every SKU was checked against the shop's; another admin's write took one since.
    if (isUniqueViolation(error))
      throw new AppError(409, 'A SKU of the file was taken meanwhile: import it again', 'SKU_TAKEN');
    throw error;
  }
  for (const c of creates) await addImages(c.id, c.category, c.images);

  const now = new Date();
  for (let i = 0; i < updates.length; i += IMPORT_BATCH) {
    const batch = updates.slice(i, i + IMPORT_BATCH);
    const values: SQL[] = batch.map(
      ({ id, set }) =>
        sql`(${id}::uuid, ${set.name ?? null}::text, ${set.description ?? null}::text,
             ${set.category ?? null}::text, ${set.priceCents ?? null}::int, ${set.stock ?? null}::int,
             ${set.platform !== undefined}::boolean, ${set.platform ?? null}::text)`,
    );
    // A column the file leaves as it is keeps the row's value (null in VALUES): field-wise, as the
    // products service's update (no read-modify-write of whole rows). The platform may be set to null
    // (issue 33: an empty cell clears it), so whether it is set is a column of its own.
    const columns = sql`v(id, name, description, category, price_cents, stock, platform_set, platform)`;
    await tx.execute(sql`
      update ${products} p set
        name = coalesce(v.name, p.name),
        description = coalesce(v.description, p.description),
        category = coalesce(v.category, p.category),
        platform = case when v.platform_set then v.platform else p.platform end,
        updated_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(values, sql`, `)}) as ${columns}
      where p.id = v.id`);
    // Price and stock go to each product's default variant (issue 31).
    if (batch.some(({ set }) => set.priceCents !== undefined || set.stock !== undefined)) {
      await tx.execute(sql`
        update ${productVariants} pv set
          price_cents = coalesce(v.price_cents, pv.price_cents),
          stock = coalesce(v.stock, pv.stock),
          updated_at = ${now.toISOString()}::timestamptz
        from (values ${sql.join(values, sql`, `)}) as ${columns}
        where pv.product_id = v.id and ${isDefaultVariant('pv')}
          and (v.price_cents is not null or v.stock is not null)`);
    }
  }
  // Variants repriced or restocked in place, whatever their position (issue 31).
  for (let i = 0; i < prices.length; i += IMPORT_BATCH) {
    const values = prices
      .slice(i, i + IMPORT_BATCH)
      .map(
        ({ variantId, priceCents, stock }) => sql`(${variantId}::uuid, ${priceCents}::int, ${stock}::int)`,
      );
    await tx.execute(sql`
      update ${productVariants} pv set
        price_cents = v.price_cents, stock = v.stock, updated_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(values, sql`, `)}) as v(id, price_cents, stock)
      where pv.id = v.id`);
  }
  // Issue 35: trade-in credits of variants kept in place (null: no longer bought).
  for (let i = 0; i < credits.length; i += IMPORT_BATCH) {
    const values = credits
      .slice(i, i + IMPORT_BATCH)
      .map(({ variantId, cents }) => sql`(${variantId}::uuid, ${cents}::int)`);
    await tx.execute(sql`
      update ${productVariants} pv set
        trade_in_credit_cents = v.cents, updated_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(values, sql`, `)}) as v(id, cents)
      where pv.id = v.id`);
  }
  for (const change of variantWrites) await writeVariants(tx, { ...change, now });

  const reimaged = updates.filter((u) => u.images !== undefined);
  for (let i = 0; i < reimaged.length; i += IMPORT_BATCH) {
    const ids = reimaged.slice(i, i + IMPORT_BATCH).map((u) => u.id);
    await tx.execute(sql`delete from ${productImages} where ${idIn(sql`product_id`, ids)}`);
  }
  for (const u of reimaged) {
    const category = u.set.category ?? current.get(u.id)?.category ?? 'retro-games';
    await addImages(u.id, category, u.images ?? []);
  }
  for (let i = 0; i < imageRows.length; i += IMPORT_BATCH) {
    await tx.insert(productImages).values(imageRows.slice(i, i + IMPORT_BATCH));
  }
}

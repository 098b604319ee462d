import { type SQL, and, eq, isNull, sql } from 'drizzle-orm';
import { type CreateOrderBody, type ProductOption, nameWithVariant, variantTitle } from '@pixel-vault/shared';
import { type Executor, type Transaction, queryRows } from '../../db/client.js';
import { isDefaultVariant, productVariants, products } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { byCodePoint } from '../../lib/sorting.js';
import type { LowStockCrossing } from '../admin/low-stock.mail.js';
import { STOCK_LSN, type StockChange, parseLsn } from '../products/products.stock.js';
import { NO_SALES, type SaleBook, priceUnder } from '../promotions/promotions.sales.js';

/**
 * An order's lines (`POST /api/orders`): which variant each buys, priced from the catalogue, and their
 * stock reserved (issue 31: price and stock are the variants'). Split from orders.place.ts.
 */

/** What the customer asked for: a product, and one of its variants or (none named) its default one. */
export interface WantedLine {
  productId: string;
  variantId: string | null;
  quantity: number;
}

export interface PricedLine {
  productId: string;
  variantId: string;
  /** The product's category slug (a discount code may apply to some categories only, issue 32). */
  category: string;
  /** The variant's option values joined (`Complete in box / PAL`); empty without options. */
  variantTitle: string;
  quantity: number;
  name: string;
  /** What the line costs: the variant's price, or its sale price while a sale runs (issue 32). */
  priceCents: number;
  /** The variant's own price as read: reserve() checks it still holds. */
  regularPriceCents: number;
  image: string;
  /** The variant's stock as read (not locked): reserve() is what counts. */
  stock: number;
}

/** A line's price or name changed between reading it and reserving it: price the order again. */
export class PriceMoved extends Error {}

/** The name a shopper knows the line by: the product's, with its variant's title. */
const shownName = (line: { name: string; variantTitle: string }) =>
  nameWithVariant(line.name, line.variantTitle);

export function outOfStock(line: { name: string; variantTitle: string }, stock: number): AppError {
  const name = shownName(line);
  return stock <= 0
    ? new AppError(409, `${name} is sold out`, 'OUT_OF_STOCK')
    : new AppError(409, `Only ${stock} left of ${name}`, 'OUT_OF_STOCK');
}

/** The body's lines, merged per product and named variant (ids as PostgreSQL writes them). */
export function wantedLines(body: Pick<CreateOrderBody, 'orderItems'>): WantedLine[] {
  const wanted = new Map<string, WantedLine>();
  for (const line of body.orderItems) {
    const productId = line.product.toLowerCase();
    const variantId = line.variant?.toLowerCase() ?? null;
    const key = `${productId}/${variantId ?? ''}`;
    const known = wanted.get(key);
    if (known) known.quantity += line.itemQuantity;
    else wanted.set(key, { productId, variantId, quantity: line.itemQuantity });
  }
  return [...wanted.values()];
}

interface VariantRow {
  product_id: string;
  name: string;
  category: string;
  product_options: ProductOption[];
  variant_id: string;
  position: number;
  options: Record<string, string>;
  price_cents: number;
  stock: number;
  image: string | null;
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * What the order's lines cost, read in one statement without locking anything: the variant, price and
 * name the order records. Unknown or deleted products are a 404, as in the spec; a variant that is not
 * the product's, or no longer sold, a 400 saying so. Two lines that come to the same variant (one
 * naming the default variant, one naming only the product) are one. In (product, variant) order: the
 * order reserve() locks them in, as returnStock() gives them back.
 */
export async function priceLines(
  tx: Executor,
  wanted: readonly WantedLine[],
  sales: { book: SaleBook; at: number } = { book: NO_SALES, at: 0 },
): Promise<PricedLine[]> {
  const named = wanted.flatMap((w) => (w.variantId ? [w.variantId] : []));
  const defaults = wanted.flatMap((w) => (w.variantId ? [] : [w.productId]));
  const which: SQL[] = [];
  if (named.length > 0) which.push(sql`v.id in (${idList(named)})`);
  if (defaults.length > 0)
    which.push(sql`(v.product_id in (${idList(defaults)}) and ${isDefaultVariant('v')})`);
  const rows = await queryRows<VariantRow>(
    tx,
    sql`select p.id as product_id, p.name, p.category, p.options as product_options,
          v.id as variant_id, v.position, v.options, v.price_cents, v.stock,
          (select url from product_images i where i.product_id = p.id order by i.position limit 1) as image
        from ${productVariants} v
        join ${products} p on p.id = v.product_id
        where p.deleted_at is null and v.archived_at is null and (${sql.join(which, sql` or `)})`,
  );
  const byVariant = new Map(rows.map((row) => [row.variant_id, row]));
  const byDefault = new Map(
    rows.filter((row) => Number(row.position) === 0).map((row) => [row.product_id, row]),
  );

  const lines = new Map<string, PricedLine>();
  for (const w of wanted) {
    const row = w.variantId ? byVariant.get(w.variantId) : byDefault.get(w.productId);
    if (!row || row.product_id !== w.productId) await refuseLine(tx, w, row);
    const found = row!;
    const known = lines.get(found.variant_id);
    if (known) {
      known.quantity += w.quantity;
      continue;
    }
    lines.set(found.variant_id, {
      productId: found.product_id,
      variantId: found.variant_id,
      category: found.category,
      variantTitle: variantTitle(found.product_options, found.options),
      quantity: w.quantity,
      name: found.name,
      priceCents: priceUnder(
        Number(found.price_cents),
        sales.book.termsFor({ id: found.product_id, category: found.category }, sales.at),
      ),
      regularPriceCents: Number(found.price_cents),
      image: found.image ?? '',
      stock: Number(found.stock),
    });
  }
  return [...lines.values()].sort(
    (a, b) => byCodePoint(a.productId, b.productId) || byCodePoint(a.variantId, b.variantId),
  );
}

/** Why a wanted line has no variant to sell: always throws. */
async function refuseLine(tx: Executor, w: WantedLine, found: VariantRow | undefined): Promise<never> {
  const [product] = await tx
    .select({ name: products.name })
    .from(products)
    .where(and(eq(products.id, w.productId), isNull(products.deletedAt)));
  if (!product) throw notFound('Product not found');
  if (found) {
    throw new AppError(400, `That variant is not one of ${product.name}'s. Please choose it again.`);
  }
  throw new AppError(400, `That version of ${product.name} is not sold any more. Please choose another.`);
}

/**
 * The conditional update is the reservation: it cannot take what is not there (no overselling).
 * It takes the variant's row lock, held until commit: every other order for that variant waits for
 * it, so it runs last in the transaction, just before the commit (issue 13: a popular product's
 * orders are serialized for the time between this statement and the commit, not the whole
 * placement). It also proves the line's price still holds: a price changed since priceLines read it
 * is a conflict the placement retries.
 *
 * Answers the variant when this placement took its stock from above the low-stock threshold to at
 * or below it (issue 15), read from the stock the update returns: no extra round trip. Under the row
 * lock the stock before the placement is exactly `stock + quantity - givenBack` (`givenBack`: what
 * the placement released of the customer's replaced or overdue orders), so of two orders that pass
 * the threshold one after the other only the first crosses it, and a checkout placed again does not.
 */
export async function reserve(
  tx: Transaction,
  line: PricedLine,
  givenBack: number,
  moved: StockChange[],
  lowStockThreshold: number | undefined,
): Promise<LowStockCrossing | undefined> {
  // The variant's row is the one locked; its product is only read (not locked: UPDATE ... FROM).
  const [row] = await queryRows<{
    price_cents: number;
    name: string;
    sku: string;
    stock: number;
    lsn: string;
  }>(
    tx,
    sql`update ${productVariants} v set stock = v.stock - ${line.quantity}
        from ${products} p
        where v.id = ${line.variantId} and p.id = v.product_id and p.deleted_at is null
          and v.archived_at is null and v.stock >= ${line.quantity}
        returning v.price_cents, p.name, v.sku, v.stock, ${STOCK_LSN} as lsn`,
  );
  if (row) {
    if (Number(row.price_cents) !== line.regularPriceCents || row.name !== line.name) throw new PriceMoved();
    const stock = Number(row.stock);
    moved.push({ id: line.variantId, stock, lsn: parseLsn(row.lsn), soldOutChanged: stock === 0 });
    const threshold = lowStockThreshold;
    return threshold !== undefined && stock <= threshold && stock + line.quantity - givenBack > threshold
      ? { productId: line.productId, name: shownName(line), sku: row.sku, stock }
      : undefined;
  }
  const [variant] = await tx
    .select({ stock: productVariants.stock, deletedAt: products.deletedAt })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(productVariants.id, line.variantId), isNull(productVariants.archivedAt)));
  if (!variant || variant.deletedAt) throw notFound('Product not found');
  throw outOfStock(line, variant.stock);
}

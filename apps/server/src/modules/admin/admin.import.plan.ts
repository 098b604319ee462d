import { randomUUID } from 'node:crypto';
import {
  CreateProductFields,
  Id,
  MAX_UPLOAD_IMAGES,
  type ProductImportChange,
  type ProductOptionInput,
  type ProductVariantInput,
  toCents,
} from '@pixel-vault/shared';
import { type ProductVariantRow, defaultSku } from '../../db/schema/index.js';
import {
  type ColumnsContext,
  type Current,
  type ProductValues,
  compareColumns,
} from './admin.import.columns.js';
import { ROWS_PER_TURN, issuesOf, nextTurn } from './admin.import.csv.js';
import type { ProductRows } from './admin.import.groups.js';
import type { SkuClaim } from './admin.import.skus.js';
import { type VariantCredit, type VariantPrice, planVariants } from './admin.import.variants.js';

/**
 * What the file asks of each product (issue 15; variants, issue 31): first what the file alone says
 * (readProducts), then each product compared with the stored one (planProducts) into the work of the
 * import, gathered so that it can be written in batches. Nothing here writes.
 */

export interface NewVariant {
  id: string;
  sku: string;
  options: Record<string, string>;
  priceCents: number;
  stock: number;
  /** Issue 35: null, not bought. */
  tradeInCreditCents: number | null;
}

export interface Create extends ProductValues {
  id: string;
  /** Empty: the placeholder art. */
  images: string[];
  options: ProductOptionInput[];
  /** In order; the first is the default, with the product's price and stock. */
  variants: NewVariant[];
}

/** What the file asks for an existing product: only the columns that change. */
export interface Update {
  id: string;
  set: Partial<ProductValues>;
  /** New images; undefined keeps the product's. Empty: the placeholder art. */
  images?: string[];
}

/** A product whose options or list of variants change: made true by writeVariants. */
export interface VariantsChange {
  productId: string;
  options: ProductOptionInput[];
  variants: ProductVariantInput[];
  current: ProductVariantRow[];
}

export type FilePlan =
  | { row: number; kind: 'create'; product: ProductRows; values: Partial<ProductValues>; images: string[] }
  | { row: number; kind: 'update'; product: ProductRows; id: string };

export interface Work {
  creates: Create[];
  updates: Update[];
  /** Variants whose price or stock alone change, in place. */
  prices: VariantPrice[];
  /** Issue 35: trade-in credits of variants kept in place (a product's variants written anew carry theirs). */
  credits: VariantCredit[];
  variantWrites: VariantsChange[];
  skus: SkuClaim[];
  changes: ProductImportChange[];
  unchanged: number;
}

export interface PlanContext extends ColumnsContext {
  dryRun: boolean;
  /** Fails the row for each URL that is not an image the shop serves. */
  checkImages: (row: number, images: string[]) => void;
}

/** The order of `changes[].fields`: the product's columns, then what the variant columns change. */
const FIELD_ORDER = [
  'productName',
  'productCategory',
  'productDescription',
  'productPrice',
  'stockQuantity',
  'productImage',
  'platform',
  'options',
  'variants',
  'sku',
  'variantPrice',
  'variantStock',
  'tradeInCredit',
];
const inOrder = (fields: Iterable<string>) =>
  [...new Set(fields)].sort((a, b) => FIELD_ORDER.indexOf(a) - FIELD_ORDER.indexOf(b));

/** Everything the file alone says of its products, checked without the database. */
export async function readProducts(
  products: ProductRows[],
  { fail, imagesOf }: Pick<PlanContext, 'fail' | 'imagesOf'>,
): Promise<FilePlan[]> {
  const plans: FilePlan[] = [];
  const firstRowOf = new Map<string, number>();
  for (const [i, product] of products.entries()) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    const { row, cells } = product;
    const images = imagesOf(cells.productImage);
    if (images.length > MAX_UPLOAD_IMAGES) fail(row, `At most ${MAX_UPLOAD_IMAGES} images`);
    const rawId = cells._id.trim();
    if (rawId === '') {
      // With the variant columns the price and stock are the variants' (admin.import.variants.ts).
      const schema = product.variants
        ? CreateProductFields.pick({
            productName: true,
            productCategory: true,
            productDescription: true,
            platform: true,
          })
        : CreateProductFields;
      const parsed = schema.safeParse({
        productName: cells.productName,
        productCategory: cells.productCategory,
        productDescription: cells.productDescription,
        productPrice: cells.productPrice,
        stockQuantity: cells.stockQuantity,
        // Issue 33: undefined when the file has no platform column (none, as an empty cell).
        platform: cells.platform,
      });
      if (!parsed.success) fail(row, issuesOf(parsed.error));
      else {
        const v = parsed.data as Partial<CreateProductFields>;
        const values: Partial<ProductValues> = {
          name: v.productName,
          description: v.productDescription,
          category: v.productCategory,
          platform: v.platform ?? null,
        };
        if (v.productPrice !== undefined) values.priceCents = toCents(v.productPrice);
        if (v.stockQuantity !== undefined) values.stock = v.stockQuantity;
        plans.push({ row, kind: 'create', product, values, images });
      }
      continue;
    }
    if (!Id.safeParse(rawId).success) {
      fail(
        row,
        `_id ${JSON.stringify(rawId.slice(0, 60))} is not a product id: leave it empty to add a product`,
      );
      continue;
    }
    const id = rawId.toLowerCase();
    const first = firstRowOf.get(id);
    if (first !== undefined) {
      const together = product.variants ? ": a product's rows follow one another" : '';
      fail(row, `Product ${id} is already in row ${first}${together}`);
      continue;
    }
    firstRowOf.set(id, row);
    plans.push({ row, kind: 'update', product, id });
  }
  return plans;
}

/**
 * Each product compared with the stored one (`current`, and `stored` live variants in a file with the
 * variant columns): what is created, what changes, what is unchanged. Problems go to `ctx.fail`.
 */
export async function planProducts(
  plans: FilePlan[],
  current: Map<string, Current>,
  stored: Map<string, ProductVariantRow[]>,
  ctx: PlanContext,
): Promise<Work> {
  const work: Work = {
    creates: [],
    updates: [],
    prices: [],
    credits: [],
    variantWrites: [],
    skus: [],
    changes: [],
    unchanged: 0,
  };
  for (const [i, plan] of plans.entries()) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    if (plan.kind === 'create') planCreate(plan, work, ctx);
    else {
      const found = current.get(plan.id);
      if (found) planUpdate(plan.product, found, stored.get(found.id) ?? [], work, ctx);
      else {
        const message = `No product has the _id ${plan.id} (was it removed?): leave _id empty to add it anew`;
        ctx.fail(plan.row, message);
      }
    }
  }
  return work;
}

function planCreate(plan: FilePlan & { kind: 'create' }, work: Work, ctx: PlanContext) {
  const { row, product, images } = plan;
  ctx.checkImages(row, images);
  const id = randomUUID();
  const {
    name = '',
    description = '',
    category = 'retro-games',
    priceCents = 0,
    stock = 0,
    platform = null,
  } = plan.values;
  let options: ProductOptionInput[] = [];
  // Sold in one form: its one variant gets the SKU made from the product's id, as the API's add-new.
  const tradeInCreditCents = product.tradeInCreditCents ?? null;
  let variants: NewVariant[] = [
    { id: randomUUID(), sku: defaultSku(id), options: {}, priceCents, stock, tradeInCreditCents },
  ];
  if (product.variants) {
    const asked = planVariants(product, undefined, undefined, ctx.fail);
    if (!asked) return;
    work.skus.push(...asked.skus);
    options = asked.options;
    // As writeVariants makes them: a variant without a SKU gets one made from its own id.
    variants = asked.variants.map((v) => {
      const variantId = randomUUID();
      const sku = v.sku ?? defaultSku(variantId);
      return {
        id: variantId,
        sku,
        options: v.options,
        priceCents: toCents(v.price),
        stock: v.stockQuantity,
        tradeInCreditCents: v.tradeInCredit == null ? null : toCents(v.tradeInCredit),
      };
    });
  }
  const [first] = variants;
  if (!first) return;
  const values = { name, description, category, platform, priceCents: first.priceCents, stock: first.stock };
  work.creates.push({ id, ...values, images, options, variants });
  work.changes.push({ row, action: 'create', _id: ctx.dryRun ? null : id, productName: name, fields: [] });
}

function planUpdate(
  product: ProductRows,
  found: Current,
  live: ProductVariantRow[],
  work: Work,
  ctx: PlanContext,
) {
  const { row } = product;
  const diff = compareColumns(row, product.cells, found, !product.variants, ctx);
  if (!diff) return;
  if (diff.images && diff.images.length > 0) ctx.checkImages(row, diff.images);
  const fields = [...diff.fields];
  if (product.variants) {
    const asked = planVariants(product, found.id, { options: found.options, variants: live }, ctx.fail);
    if (!asked) return;
    work.skus.push(...asked.skus);
    fields.push(...asked.fields);
    if (asked.change !== 'write') work.credits.push(...asked.credits);
    const [only] = asked.variants;
    if (asked.change === 'prices' && only && asked.variants.length === 1 && found.options.length === 0) {
      // Sold in one form: its price and stock go the way of a file without the variant columns.
      if (toCents(only.price) !== found.priceCents) diff.set.priceCents = toCents(only.price);
      if (only.stockQuantity !== found.stock) diff.set.stock = only.stockQuantity;
    } else if (asked.change === 'prices') work.prices.push(...asked.prices);
    else if (asked.change === 'write') {
      // A SKU a variant keeps is left out: writeVariants keeps it without asking the shop again (the
      // file's SKUs were checked against the shop's at once, admin.import.skus.ts).
      const variants = asked.variants.map(({ sku, ...variant }) =>
        sku === undefined || live.some((v) => v.id === variant._id && v.sku === sku)
          ? variant
          : { ...variant, sku },
      );
      work.variantWrites.push({ productId: found.id, options: asked.options, variants, current: live });
    }
  } else if (
    product.tradeInCreditCents !== undefined &&
    product.tradeInCreditCents !== found.tradeInCreditCents
  ) {
    // Issue 35: a product's row says its default variant's credit, as it says its price.
    work.credits.push({ variantId: found.variantId, cents: product.tradeInCreditCents });
    fields.push('tradeInCredit');
  }
  if (fields.length === 0) {
    work.unchanged += 1;
    work.changes.push({ row, action: 'unchanged', _id: found.id, productName: found.name, fields: [] });
    return;
  }
  work.updates.push({ id: found.id, set: diff.set, ...(diff.images ? { images: diff.images } : {}) });
  const productName = diff.set.name ?? found.name;
  work.changes.push({ row, action: 'update', _id: found.id, productName, fields: inOrder(fields) });
}

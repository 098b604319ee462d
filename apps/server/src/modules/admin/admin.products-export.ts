import { sql } from 'drizzle-orm';
import {
  OPTION_CSV_COLUMNS,
  type PRODUCTS_EXPORT_COLUMNS,
  type ProductOption,
  toDollars,
} from '@pixel-vault/shared';
import { type Database, queryRows } from '../../db/client.js';
import { productImages, productVariants, products } from '../../db/schema/index.js';

/**
 * The products export's rows (issue 15; one per variant since issue 31, as Shopify's product CSV):
 * each live variant of each live product in position order, the product's columns repeated on each
 * row. `productPrice` and `stockQuantity` are the default variant's (the first row's), as the API
 * answers them. The import (admin.import.ts) reads this file back.
 */

export type ProductExportRow = Record<(typeof PRODUCTS_EXPORT_COLUMNS)[number], string | number>;

const money = (cents: number) => toDollars(cents).toFixed(2);

/**
 * Live products by id (the primary key is the keyset), `batch` products a query, each query one
 * statement outside any transaction (a download as slow as its client must hold no snapshot open): a
 * product's columns and its variants come from the same statement, so they always agree.
 */
export async function* productExportRows(db: Database, batch: number): AsyncGenerator<ProductExportRow> {
  let after: string | undefined;
  for (;;) {
    const rows = await queryRows<{
      id: string;
      name: string;
      category: string;
      description: string;
      options: ProductOption[];
      platform: string | null;
      images: string | null;
      variant_id: string | null;
      sku: string;
      variant_options: Record<string, string>;
      price_cents: number;
      stock: number;
      trade_in_credit_cents: number | null;
    }>(
      db,
      // Images are gathered once per product (materialized), not once per variant row.
      sql`with page as materialized (
            select p.id, p.name, p.category, p.description, p.options, p.platform,
              (select string_agg(i.url, ' ' order by i.position) from ${productImages} i
                where i.product_id = p.id) as images
            from ${products} p
            where p.deleted_at is null ${after ? sql`and p.id > ${after}::uuid` : sql``}
            order by p.id
            limit ${batch})
          select page.*, v.id as variant_id, v.sku, v.options as variant_options, v.price_cents, v.stock,
            v.trade_in_credit_cents
          from page
          left join ${productVariants} v on v.product_id = page.id and v.archived_at is null
          order by page.id, v.position`,
    );
    let productCells: ProductExportRow | undefined;
    let productsRead = 0;
    for (const r of rows) {
      if (r.id !== productCells?._id) {
        productsRead += 1;
        productCells = undefined;
      }
      // A product without a live variant cannot be (decision 007); skipped rather than half-written.
      if (r.variant_id === null) continue;
      const names = OPTION_CSV_COLUMNS.map((_, n) => r.options[n]?.name ?? '');
      const valueOf = (name: string | undefined) => (name ? (r.variant_options[name] ?? '') : '');
      const variant = {
        variantId: r.variant_id,
        sku: r.sku,
        option1Name: names[0] ?? '',
        option1Value: valueOf(names[0]),
        option2Name: names[1] ?? '',
        option2Value: valueOf(names[1]),
        option3Name: names[2] ?? '',
        option3Value: valueOf(names[2]),
        variantPrice: money(Number(r.price_cents)),
        variantStock: Number(r.stock),
        // Issue 35: empty for not bought, as the import reads an empty cell.
        tradeInCredit: r.trade_in_credit_cents === null ? '' : money(Number(r.trade_in_credit_cents)),
      };
      // The first row of a product is its default variant: the spec's price and stock are its own.
      productCells ??= {
        _id: r.id,
        productName: r.name,
        productCategory: r.category,
        productDescription: r.description,
        productPrice: variant.variantPrice,
        stockQuantity: variant.variantStock,
        productImage: r.images ?? '',
        // Issue 33: empty for none, as the import reads an empty cell.
        platform: r.platform ?? '',
        ...variant,
      };
      yield { ...productCells, ...variant };
    }
    if (productsRead < batch) return;
    after = rows[rows.length - 1]?.id;
  }
}

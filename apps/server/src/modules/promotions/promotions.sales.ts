import { and, eq, gt, sql } from 'drizzle-orm';
import { salePriceCents } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { promotions } from '../../db/schema/index.js';

/**
 * Scheduled sales (issue 32): `kind = 'sale'` promotions take a percent off the catalogue's prices of
 * their categories or products (none named: every product) from `starts_at` to `ends_at`. The
 * catalogue shows them (products.repo.ts) and the placement charges them (orders.lines.ts) from the
 * same book, so a product never shows one price and costs another.
 */

/** A sale as the book keeps it. */
export interface Sale {
  id: string;
  percent: number;
  startsAt: number;
  endsAt: number;
  categories: readonly string[];
  products: readonly string[];
}

/** What a product is on sale for at a moment: the percent off and when it ends. */
export interface SaleTerms {
  percent: number;
  endsAt: Date;
}

/** The sales that have not ended, as read at one moment. */
export interface SaleBook {
  /** The best sale running on the product at `at` (the largest percent; the earliest end on a tie). */
  termsFor(product: { id: string; category: string }, at: number): SaleTerms | undefined;
  /** The next moment after `at` when a sale starts or ends (what the catalogue shows then changes). */
  nextChangeAfter(at: number): number;
  /** The sales running at `at` (issue 33: search compares and orders by the prices shown). */
  runningAt(at: number): readonly Sale[];
}

export function saleBookOf(sales: readonly Sale[]): SaleBook {
  return {
    termsFor(product, at) {
      let best: Sale | undefined;
      for (const sale of sales) {
        if (sale.startsAt > at || sale.endsAt <= at) continue;
        const covers =
          (sale.categories.length === 0 && sale.products.length === 0) ||
          sale.categories.includes(product.category) ||
          sale.products.includes(product.id);
        if (!covers) continue;
        if (
          !best ||
          sale.percent > best.percent ||
          (sale.percent === best.percent && sale.endsAt < best.endsAt)
        ) {
          best = sale;
        }
      }
      return best ? { percent: best.percent, endsAt: new Date(best.endsAt) } : undefined;
    },
    runningAt: (at) => sales.filter((sale) => sale.startsAt <= at && at < sale.endsAt),
    nextChangeAfter(at) {
      let next = Number.POSITIVE_INFINITY;
      for (const sale of sales) {
        if (sale.startsAt > at && sale.startsAt < next) next = sale.startsAt;
        if (sale.endsAt > at && sale.endsAt < next) next = sale.endsAt;
      }
      return next;
    },
  };
}

export const NO_SALES: SaleBook = saleBookOf([]);

/** A price under a sale's terms (none: the price itself). */
export const priceUnder = (priceCents: number, terms: SaleTerms | undefined) =>
  terms ? salePriceCents(priceCents, terms.percent) : priceCents;

export interface Sales {
  /** The book as of now: kept for `ttlMs`, read again after that or after `clear()`. */
  book(): SaleBook | Promise<SaleBook>;
  /** What the catalogue shows changed (a sale written here or on another instance): read again. */
  clear(): void;
  now(): number;
}

/** The active sales that have not ended, read at most once per `ttlMs` (and again after clear()). */
export function createSales(options: { db: Database; clock?: () => Date; ttlMs?: number }): Sales {
  const { db, clock = () => new Date(), ttlMs = 2000 } = options;
  let kept: { book: SaleBook; readAt: number } | undefined;
  let loading: { promise: Promise<SaleBook>; generation: number } | undefined;
  let generation = 0;

  async function load(): Promise<SaleBook> {
    const at = clock();
    const rows = await db
      .select()
      .from(promotions)
      .where(and(eq(promotions.kind, 'sale'), eq(promotions.active, true), gt(promotions.endsAt, at)))
      .orderBy(sql`${promotions.endsAt}`);
    return saleBookOf(
      rows.map((row) => ({
        id: row.id,
        percent: row.value,
        startsAt: row.startsAt?.getTime() ?? 0,
        endsAt: row.endsAt?.getTime() ?? Number.POSITIVE_INFINITY,
        categories: row.categories,
        products: row.products,
      })),
    );
  }

  return {
    book() {
      const at = clock().getTime();
      if (kept && at - kept.readAt < ttlMs) return kept.book;
      // A read begun before a clear() may miss the write that cleared it: not joined, not kept.
      if (loading && loading.generation === generation) return loading.promise;
      const started = generation;
      const promise = load().then((book) => {
        if (started === generation) kept = { book, readAt: at };
        return book;
      });
      const mine = { promise, generation: started };
      loading = mine;
      void promise
        .finally(() => {
          if (loading === mine) loading = undefined;
        })
        .catch(() => {});
      return promise;
    },
    clear() {
      generation += 1;
      kept = undefined;
    },
    now: options.clock ? () => clock().getTime() : Date.now,
  };
}

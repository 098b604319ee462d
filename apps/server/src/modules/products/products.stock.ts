import { sql } from 'drizzle-orm';

/**
 * A variant's stock as a committed write left it: the statement that wrote it answers the new stock
 * and `lsn`, the database's write-ahead log position right after its update (see STOCK_LSN).
 */
export interface StockChange {
  /** The variant's id (issue 31: stock is the variants'). */
  id: string;
  stock: number;
  lsn: bigint;
  /**
   * The write sold the variant out, or brought it back from 0 (known from the update itself: the
   * stock before it is the stock after it plus or minus the quantity). Sold-out products (every live
   * variant at 0) are listed after the others (issue 30), so the catalogue's lists are read again, on
   * every instance: whether the product's other variants have stock is not known here, so this may
   * read them again when it did not have to, never the other way.
   */
  soldOutChanged?: boolean;
}

/**
 * Selected beside the stock in an `UPDATE product_variants ... RETURNING`: orders the writes of one
 * variant. A second write of the same row waits for the first one's commit (its row lock), so it is
 * logged after that commit, and its position is greater: of two changes to a variant, the one with
 * the greater position is the newer, however late either reaches an instance. PGlite has it too.
 */
export const STOCK_LSN = sql<string>`pg_current_wal_insert_lsn()::text`;

/** `16/B374D848` (PostgreSQL's text form of a log position) as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high ?? '0'}`) << 32n) + BigInt(`0x${low ?? '0'}`);
}

/** A log position in PostgreSQL's text form again (parseLsn's inverse). */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16)}/${(lsn & 0xffffffffn).toString(16)}`;
}

/**
 * The stock changes an instance has seen lately: its own committed writes, and other instances'
 * (their change messages carry them). Cached answers keep the stock they were read with, and take the
 * newer figure from here while they are served (products.answers.ts), so an order does not make the
 * catalogue's answers and pages expensive again (issue 28).
 *
 * A change is kept `keepMs`, longer than any cached answer read before it can still be served (two
 * TTLs): after that every answer served was read from the database after the change. At most
 * `maxEntries` products are kept; beyond that `onOverflow` is told, and the caller drops what it cached.
 */
export interface StockBook {
  /** Moves with every change: something put together from the stock at this number is still right. */
  seq(): number;
  /** Takes the changes that are newer than what is known of their product; answers those taken. */
  apply(changes: readonly StockChange[]): StockChange[];
  /** The stock of `id` when it changed after `since` (a seq), else undefined. */
  since(id: string, since: number): number | undefined;
}

interface Entry {
  stock: number;
  lsn: bigint;
  seq: number;
  at: number;
}

export interface StockBookOptions {
  keepMs: number;
  maxEntries?: number;
  now?: () => number;
  onOverflow?: () => void;
}

export function createStockBook({
  keepMs,
  maxEntries = 100_000,
  now = Date.now,
  onOverflow,
}: StockBookOptions): StockBook {
  // In order of the last change (a changed entry is moved to the end): the oldest come first.
  const entries = new Map<string, Entry>();
  let seq = 0;

  function prune(at: number) {
    for (const [id, entry] of entries) {
      if (at - entry.at < keepMs && entries.size <= maxEntries) break;
      entries.delete(id);
      // Dropped before it had aged: an answer read before it might show the older figure again.
      if (at - entry.at < keepMs) onOverflow?.();
    }
  }

  return {
    seq: () => seq,
    apply(changes) {
      const at = now();
      const taken: StockChange[] = [];
      for (const change of changes) {
        const known = entries.get(change.id);
        if (known && known.lsn >= change.lsn) continue;
        seq += 1;
        entries.delete(change.id);
        entries.set(change.id, { stock: change.stock, lsn: change.lsn, seq, at });
        taken.push(change);
      }
      if (taken.length > 0) prune(at);
      return taken;
    },
    since(id, since) {
      const entry = entries.get(id);
      return entry !== undefined && entry.seq > since ? entry.stock : undefined;
    },
  };
}

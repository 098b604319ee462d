import { useCallback, useEffect, useState } from 'react';
import { MAX_TRADE_IN_ITEMS, toCents, type BuylistEntry, type CreateTradeInBody } from '@pixel-vault/shared';

/**
 * The list a shopper builds on the sell page, before a quote: the buy-list rows they picked and how many
 * of each. Kept in sessionStorage, so a reload and the login round-trip (a visitor logs in to get a
 * quote) lose nothing; the tab's own, like a form being filled in, and gone with it.
 */
export interface SellLine {
  entry: BuylistEntry;
  qty: number;
}

export const SELL_LIST_KEY = 'pixel-vault:sell-list';

function isLine(value: unknown): value is SellLine {
  if (!value || typeof value !== 'object') return false;
  const { entry, qty } = value as { entry?: Partial<BuylistEntry>; qty?: unknown };
  return (
    typeof qty === 'number' &&
    Number.isInteger(qty) &&
    qty >= 1 &&
    !!entry &&
    typeof entry.product === 'string' &&
    typeof entry.variant === 'string' &&
    typeof entry.productName === 'string' &&
    typeof entry.credit === 'number' &&
    typeof entry.options === 'object' &&
    entry.options !== null
  );
}

/** The stored list; an empty one when there is none, or it cannot be read (private mode, bad JSON). */
export function readSellList(): SellLine[] {
  try {
    const parsed = JSON.parse(globalThis.sessionStorage?.getItem(SELL_LIST_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter(isLine) : [];
  } catch {
    return [];
  }
}

function writeSellList(lines: readonly SellLine[]) {
  try {
    if (lines.length === 0) globalThis.sessionStorage?.removeItem(SELL_LIST_KEY);
    else globalThis.sessionStorage?.setItem(SELL_LIST_KEY, JSON.stringify(lines));
  } catch {
    // Storage full or refused: the list still works in this page.
  }
}

/** How many items the list holds (the sum of the quantities: MAX_TRADE_IN_ITEMS counts these). */
export function itemCount(lines: readonly SellLine[]): number {
  return lines.reduce((sum, line) => sum + line.qty, 0);
}

/** The credit the list would get at the buy list's prices, in cents (the server's quote decides). */
export function listCreditCents(lines: readonly SellLine[]): number {
  return lines.reduce((sum, line) => sum + toCents(line.entry.credit) * line.qty, 0);
}

/** What the list cannot be sent as, said to the shopper; null when it can. */
export function sellListProblem(lines: readonly SellLine[]): string | null {
  if (lines.length === 0) return 'Add at least one item to get a quote';
  if (itemCount(lines) > MAX_TRADE_IN_ITEMS) {
    return `A trade-in holds at most ${MAX_TRADE_IN_ITEMS} items: please take some off the list`;
  }
  return null;
}

/** POST /api/tradeins's body for the list. */
export function quoteBody(lines: readonly SellLine[]): CreateTradeInBody {
  return {
    items: lines.map(({ entry, qty }) => ({ product: entry.product, variant: entry.variant, qty })),
  };
}

/** The sell list, kept in step with sessionStorage. */
export function useSellList() {
  const [lines, setLines] = useState<SellLine[]>(readSellList);
  useEffect(() => writeSellList(lines), [lines]);

  const add = useCallback((entry: BuylistEntry) => {
    setLines((current) =>
      itemCount(current) >= MAX_TRADE_IN_ITEMS
        ? current
        : current.some((line) => line.entry.variant === entry.variant)
          ? current.map((line) =>
              line.entry.variant === entry.variant
                ? { ...line, qty: Math.min(line.qty + 1, MAX_TRADE_IN_ITEMS) }
                : line,
            )
          : [...current, { entry, qty: 1 }],
    );
  }, []);
  const setQty = useCallback((variant: string, qty: number) => {
    const whole = Math.min(Math.max(1, Math.floor(qty)), MAX_TRADE_IN_ITEMS);
    setLines((current) =>
      current.map((line) => (line.entry.variant === variant ? { ...line, qty: whole } : line)),
    );
  }, []);
  const remove = useCallback((variant: string) => {
    setLines((current) => current.filter((line) => line.entry.variant !== variant));
  }, []);
  const clear = useCallback(() => setLines([]), []);

  return { lines, add, setQty, remove, clear };
}

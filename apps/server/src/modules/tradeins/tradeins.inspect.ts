import { type InspectTradeInBody, formatCents, toCents } from '@pixel-vault/shared';
import type { TradeInItemRow, TradeInOutcome } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';

/**
 * Issue 35: an admin's inspection, checked against the trade-in's lines: every line exactly once;
 * `accepted` at the quote, `lowered` below it (0 included) with a reason, `rejected` (credit 0) with
 * a reason. Anything else is a 400 that names the line.
 */

export interface LineInspection {
  id: string;
  outcome: TradeInOutcome;
  /** Per unit, in cents. */
  inspectedCents: number;
  reason: string | null;
}

const lineName = (line: Pick<TradeInItemRow, 'productName' | 'options'>) => {
  const title = Object.values(line.options).join(' / ');
  return title ? `${line.productName} (${title})` : line.productName;
};

const invalid = (message: string) => new AppError(400, message, 'INSPECTION_INVALID');

export function inspectionOf(
  lines: readonly Pick<TradeInItemRow, 'id' | 'productName' | 'options' | 'offeredCents'>[],
  body: InspectTradeInBody,
): LineInspection[] {
  const given = new Map<string, InspectTradeInBody['items'][number]>();
  for (const item of body.items) {
    const id = item._id.toLowerCase();
    if (!lines.some((l) => l.id === id)) {
      throw invalid(`Item ${item._id} is not part of this trade-in.`);
    }
    if (given.has(id)) {
      const line = lines.find((l) => l.id === id);
      throw invalid(`${line ? lineName(line) : item._id} is listed twice: inspect each item once.`);
    }
    given.set(id, item);
  }
  const missing = lines.filter((l) => !given.has(l.id));
  if (missing.length > 0) {
    throw invalid(`Inspect every item of the trade-in: ${missing.map(lineName).join(', ')} missing.`);
  }
  return lines.map((line) => {
    const item = given.get(line.id);
    if (!item) throw invalid(`${lineName(line)} missing.`);
    const reason = item.reason ? item.reason : null;
    switch (item.outcome) {
      case 'accepted':
        return { id: line.id, outcome: 'accepted', inspectedCents: line.offeredCents, reason };
      case 'rejected':
        return { id: line.id, outcome: 'rejected', inspectedCents: 0, reason };
      case 'lowered': {
        const cents = toCents(item.credit ?? 0);
        if (cents >= line.offeredCents) {
          throw invalid(
            `The lowered credit of ${lineName(line)} must be below its quote of ${formatCents(line.offeredCents)}.`,
          );
        }
        return { id: line.id, outcome: 'lowered', inspectedCents: cents, reason };
      }
    }
  });
}

import {
  type CheckDiscountBody,
  type CheckDiscountResponse,
  describeDiscount,
  priceDiscountedOrder,
  toDollars,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../lib/access.js';
import { checkLimits, discountOf, linesFor, toPromotionDto } from '../promotions/promotions.codes.js';
import { findByCode, usesOf } from '../promotions/promotions.repo.js';
import type { Sales } from '../promotions/promotions.sales.js';
import type { PromotionsService } from '../promotions/promotions.service.js';
import { priceLines, wantedLines } from './orders.lines.js';

/**
 * The checkout's Apply button (issue 32, POST /api/promotions/check): the cart priced with a code as
 * an order placed now would be, by the same functions, or the refusal the order would get. Nothing is
 * reserved: the placement decides again in its own transaction.
 */
export type QuoteDiscount = (
  caller: { user: AuthUser; ip: string },
  body: CheckDiscountBody,
) => Promise<CheckDiscountResponse>;

export function createDiscountQuote({
  db,
  codes,
  sales,
  clock,
}: {
  db: Database;
  codes: Pick<PromotionsService, 'lookup'>;
  sales: Sales;
  clock: () => Date;
}): QuoteDiscount {
  return async (caller, body) => {
    const found = await codes.lookup(caller, body.code);
    const now = clock();
    const book = await sales.book();
    return db.transaction(async (tx) => {
      // Read again: the lookup may answer a code found a few seconds ago, and its limits say how many
      // uses are left (the order itself reserves against the row as it is).
      const code = (await findByCode(tx, found.code)) ?? found;
      const lines = await priceLines(tx, wantedLines(body), { book, at: now.getTime() });
      const priced = linesFor(code, lines, now);
      checkLimits(code, await usesOf(tx, code.id, caller.user.id));
      const totals = priceDiscountedOrder(priced, discountOf(code));
      const shown = toPromotionDto(code, now);
      return {
        code: code.code,
        kind: code.kind,
        description: describeDiscount(shown),
        price: toDollars(totals.itemsCents),
        discountPrice: toDollars(totals.discountCents),
        shippingPrice: toDollars(totals.shippingCents),
        taxPrice: toDollars(totals.taxCents),
        totalPrice: toDollars(totals.totalCents),
      };
    });
  };
}

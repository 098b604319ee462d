import { and, eq, inArray } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { tradeIns } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { recordEvent } from './tradeins.transitions.js';

/**
 * Issue 35: what deleting a customer's account (Manage Users) does to their trade-ins, in the deletion's
 * transaction (users.service adminDelete calls it before the row goes):
 * - a trade-in whose box is on its way or with the shop (shipped, received, inspected) refuses the
 *   deletion (409): the shop owes that customer their credit or their items back;
 * - a quote not shipped yet is cancelled (the timeline says why);
 * - closed ones stay, keeping the customer's name and e-mail as quoted (`user_id` goes NULL), and a
 *   store-credit card stays spendable by its code (`store_credit_user_id` goes NULL).
 */
export async function beforeAccountDeleted(tx: Transaction, userId: string, now: Date): Promise<void> {
  const open = await tx
    .select({ id: tradeIns.id, status: tradeIns.status })
    .from(tradeIns)
    .where(
      and(
        eq(tradeIns.userId, userId),
        inArray(tradeIns.status, ['quoted', 'shipped', 'received', 'inspected']),
      ),
    )
    .for('update');
  if (open.some((t) => t.status !== 'quoted')) {
    throw new AppError(
      409,
      'This customer has a trade-in in progress (shipped, received or inspected). Finish it before deleting the account.',
      'TRADE_IN_IN_PROGRESS',
    );
  }
  for (const quote of open) {
    await tx.update(tradeIns).set({ status: 'cancelled', updatedAt: now }).where(eq(tradeIns.id, quote.id));
    await recordEvent(tx, {
      tradeInId: quote.id,
      kind: 'cancelled',
      actor: 'system',
      note: 'The account was deleted',
      at: now,
    });
  }
}

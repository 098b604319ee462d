import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import {
  MAX_BALANCE_CENTS,
  type GiftCardRow,
  giftCardLedger,
  giftCards,
  productVariants,
  tradeInItems,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { enqueueMailIfVerified } from '../mail/mail.service.js';
import { lockUser } from '../users/users.lock.js';
import { creditedMail } from './tradeins.mail.js';
import { type LockedTradeIn, updateTradeIn } from './tradeins.repo.js';
import { recordEvent } from './tradeins.transitions.js';

/**
 * Issue 35: inspected -> accepted, and the credit, exactly once. The caller holds the trade-in's row
 * lock and has checked the move; everything here is in its transaction: the customer's store-credit
 * card (found or made), its balance, the ledger row naming the trade-in (its unique index is the last
 * line of defence against a second credit), the trade-in's credited amount, the timeline, the stock
 * of every accepted line, and the mail with the code.
 */

/** "CREDIT-1A2B3C4D-5E6F7A8B": the shape of the demo card's code (db/seed), 64 random bits. */
export const newStoreCreditCode = () =>
  `CREDIT-${randomBytes(4).toString('hex').toUpperCase()}-${randomBytes(4).toString('hex').toUpperCase()}`;

/** The customer's live store-credit card, locked; made (balance 0, with its 'issue' row) when none. */
async function storeCreditCard(tx: Transaction, userId: string, now: Date): Promise<GiftCardRow> {
  const [found] = await tx
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.storeCreditUserId, userId), isNull(giftCards.deletedAt)))
    .for('update');
  if (found) return found;
  // The user's row lock (taken by the caller) makes this the only one being made for them; a code
  // taken already (64 random bits: never in practice) is simply drawn again.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [card] = await tx
      .insert(giftCards)
      .values({
        code: newStoreCreditCode(),
        balanceCents: 0,
        storeCreditUserId: userId,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!card) continue;
    await tx.insert(giftCardLedger).values({
      giftCardId: card.id,
      kind: 'issue',
      amountCents: 0,
      balanceAfterCents: 0,
      createdAt: now,
    });
    return card;
  }
  throw new Error('No free store-credit code after 5 draws');
}

const accountGone = () =>
  new AppError(
    409,
    'The account of this trade-in was deleted: there is no one to credit.',
    'ACCOUNT_DELETED',
  );

export const nothingToCredit = () =>
  new AppError(
    409,
    'No item of this trade-in was accepted, so there is nothing to credit. Decline it to get your items back.',
    'NOTHING_TO_CREDIT',
  );

export interface CreditResult {
  creditedCents: number;
  /** Variants whose stock grew: the catalogue must be told once committed. */
  restocked: boolean;
}

/**
 * Accepts a locked, inspected trade-in: credits the inspected total, puts the accepted and lowered
 * lines into stock, records `accepted` (by `actor`) and `credited`, and mails the code.
 */
export async function acceptLocked(
  tx: Transaction,
  tradeIn: LockedTradeIn,
  actor: { actor: 'customer' | 'system'; actorUserId: string | null },
  now: Date,
): Promise<CreditResult> {
  const lines = await tx
    .select()
    .from(tradeInItems)
    .where(eq(tradeInItems.tradeInId, tradeIn.id))
    .orderBy(asc(tradeInItems.variantId));
  const kept = lines.filter((l) => l.outcome === 'accepted' || l.outcome === 'lowered');
  if (kept.length === 0) throw nothingToCredit();
  const cents = kept.reduce((sum, l) => sum + l.qty * (l.inspectedCents ?? 0), 0);

  let code: string | null = null;
  if (cents > 0) {
    // The customer's row, as every writer of their store credit takes it: one card per customer. An
    // account with a trade-in in progress cannot be deleted (tradeins.accounts.ts), so it is there.
    const userId = tradeIn.userId;
    if (userId === null || !(await lockUser(tx, userId))) throw accountGone();
    const card = await storeCreditCard(tx, userId, now);
    const [credited] = await tx
      .update(giftCards)
      .set({ balanceCents: sql`${giftCards.balanceCents} + ${cents}`, updatedAt: now })
      .where(and(eq(giftCards.id, card.id), sql`${giftCards.balanceCents} <= ${MAX_BALANCE_CENTS - cents}`))
      .returning();
    if (!credited) {
      throw new AppError(
        409,
        'Your store-credit card cannot hold this much more. Please contact us.',
        'BALANCE_TOO_HIGH',
      );
    }
    await tx.insert(giftCardLedger).values({
      giftCardId: card.id,
      kind: 'tradein_credit',
      tradeInId: tradeIn.id,
      amountCents: cents,
      balanceAfterCents: credited.balanceCents,
      actorUserId: actor.actorUserId,
      createdAt: now,
    });
    code = card.code;
  }

  // Into stock, in variant-id order as every multi-variant stock change goes (no deadlock); lines are
  // one per variant (the quote merged them).
  const variantIds = kept.map((l) => l.variantId);
  for (const line of kept) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${line.qty}` })
      .where(eq(productVariants.id, line.variantId));
  }

  await updateTradeIn(tx, tradeIn.id, { status: 'accepted', creditedCents: cents, updatedAt: now });
  tradeIn.status = 'accepted';
  tradeIn.creditedCents = cents;
  await recordEvent(tx, { tradeInId: tradeIn.id, kind: 'accepted', ...actor, at: now });
  await recordEvent(tx, {
    tradeInId: tradeIn.id,
    kind: 'credited',
    actor: 'system',
    amountCents: cents,
    at: now,
  });
  await enqueueMailIfVerified(tx, tradeIn.userId, creditedMail(tradeIn, cents, code));
  return { creditedCents: cents, restocked: variantIds.length > 0 };
}

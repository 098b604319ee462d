import { and, eq, isNull, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.js';
import type { Executor, Transaction } from '../../db/client.js';
import { type GiftCardRow, giftCards } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';

/** Finding and locking a card: shared by the admin routes (giftcards.service) and the order ones (giftcards.apply). */

export { MAX_BALANCE_CENTS } from '../../db/schema/index.js';

export const giftCardNotFound = () => notFound('Gift card not found');

/** Who is trying a code: the customer and the address they call from (each has a wrong-code budget). */
export interface CodeCaller {
  user: AuthUser;
  ip: string;
}

/** A card by its code for a customer, counted against their wrong-code budget (giftcards.service). */
export type FindCardCounted = (caller: CodeCaller, code: string) => Promise<GiftCardRow>;

/** Every use of a code asks this (a payment, a balance check): built once (db/built-once.ts). */
const cardByCode = builtOnce<{ code: string }, GiftCardRow[]>((executor) =>
  executor
    .select()
    .from(giftCards)
    .where(and(sql`lower(${giftCards.code}) = ${sql.placeholder('code')}`, isNull(giftCards.deletedAt))),
);

/** A card that is not deleted, by its code regardless of case. */
export async function findCard(executor: Executor, code: string): Promise<GiftCardRow | undefined> {
  const [card] = await cardByCode(executor, { code: code.toLowerCase() });
  return card;
}

/** A card that is not deleted, locked (FOR UPDATE) for the rest of the transaction. */
export async function lockCard(tx: Transaction, id: string): Promise<GiftCardRow | undefined> {
  const [card] = await tx
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.id, id), isNull(giftCards.deletedAt)))
    .for('update');
  return card;
}

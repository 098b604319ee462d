import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/**
 * Takes the user's row lock (NO KEY UPDATE: rows that only reference the user do not wait), so that
 * one shopper's writes under a limit (wishlist adds, back-in-stock subscribes, issue 34) run one at a
 * time and two at once cannot both slip under it. False when the account is gone.
 */
export async function lockUser(tx: Transaction, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row !== undefined;
}

import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/**
 * Takes the user's row lock (NO KEY UPDATE: rows that only reference the user do not wait), so that
 * one shopper's writes under a limit (wishlist adds, back-in-stock subscribes, issue 34) run one at a
 * time and two at once cannot both slip under it. Answers the account's name and e-mail as they are
 * under the lock, or undefined when the account is gone.
 */
export async function lockUser(
  tx: Transaction,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  const [row] = await tx
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}

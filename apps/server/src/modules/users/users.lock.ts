import { eq, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.js';
import type { Transaction } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** Every placement and every limited write takes it: a statement built once (db/built-once.ts). */
const userForLock = builtOnce<{ id: string }, { name: string; email: string }[]>((executor) =>
  executor
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .for('no key update'),
);

/**
 * Takes the user's row lock (NO KEY UPDATE: rows that only reference the user do not wait), so that
 * one shopper's writes under a limit (placements under the hold limits, issue 9; wishlist adds,
 * back-in-stock subscribes, issue 34) run one at a time and two at once cannot both slip under it.
 * Answers the account's name and e-mail as they are under the lock, or undefined when the account is
 * gone.
 */
export async function lockUser(
  tx: Transaction,
  userId: string,
): Promise<{ name: string; email: string } | undefined> {
  const [row] = await userForLock(tx, { id: userId });
  return row;
}

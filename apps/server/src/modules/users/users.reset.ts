import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { passwordResetTokens, users } from '../../db/schema/index.js';

/**
 * Password reset tokens (issue 11): 32 random bytes (256 bits) mailed as base64url, kept in the
 * database only as their SHA-256. A plain hash is enough here, unlike for passwords: the token is
 * random, so there is nothing to guess from the hash, and looking it up must be one index read.
 */
export interface NewResetToken {
  /** What the mail carries (43 characters), never stored. */
  token: string;
  tokenHash: string;
}

export function newResetToken(): NewResetToken {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashResetToken(token) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** No user has it (gen_random_uuid makes version 4 ids): an unknown e-mail's stand-in. */
export const NO_USER = '00000000-0000-0000-0000-000000000000';

/**
 * Replaces every earlier token of the user with this one: a newer request invalidates the older
 * links. Written as an insert from the users row, so for NO_USER the very same statements run and
 * write nothing: a request for an unknown e-mail does the same database work as for a known one.
 */
export async function replaceResetToken(
  tx: Transaction,
  userId: string,
  token: NewResetToken,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
  await tx.execute(sql`
    insert into ${passwordResetTokens} (user_id, token_hash, expires_at, created_at)
    select ${users.id}, ${token.tokenHash}, ${expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from ${users} where ${users.id} = ${userId}`);
}

const live = (tokenHash: string, now: Date) =>
  and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );

/** Whether the token is unused and unexpired right now: a cheap look, before any password is hashed. */
export async function isLiveResetToken(db: Executor, tokenHash: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(live(tokenHash, now))
    .limit(1);
  return row !== undefined;
}

/**
 * Marks the token used and answers its user, or undefined when it is used, expired or unknown.
 * One conditional update: of concurrent uses of one token, exactly one gets the row (the others wait
 * on its row lock, then find `used_at` set).
 */
export async function claimResetToken(
  tx: Transaction,
  tokenHash: string,
  now: Date,
): Promise<{ id: string; userId: string } | undefined> {
  const [claimed] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(live(tokenHash, now))
    .returning({ id: passwordResetTokens.id, userId: passwordResetTokens.userId });
  return claimed;
}

/** Every link the user was mailed stops working (`except` the one just used, kept as used). */
export async function dropResetTokens(tx: Transaction, userId: string, except?: string): Promise<void> {
  await tx
    .delete(passwordResetTokens)
    .where(
      except === undefined
        ? eq(passwordResetTokens.userId, userId)
        : and(eq(passwordResetTokens.userId, userId), ne(passwordResetTokens.id, except)),
    );
}

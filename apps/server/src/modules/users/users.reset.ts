import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { passwordResetTokens, users } from '../../db/schema/index.js';
import { type Periodic, periodic } from '../../lib/periodic.js';
import { type NewToken, hashToken, newToken } from '../../lib/tokens.js';

/**
 * Password reset tokens (issue 11): lib/tokens.ts's tokens, kept only as their SHA-256.
 */
export type NewResetToken = NewToken;
export const newResetToken = newToken;
export const hashResetToken = hashToken;

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

/** A reset token used or expired longer ago than this is deleted by the cleanup job. */
export const RESET_TOKEN_RETENTION_MS = 24 * 60 * 60_000;

/** How often the cleanup job runs (and once at start). */
export const RESET_TOKEN_CLEANUP_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes the reset tokens that expired, or were used, more than RESET_TOKEN_RETENTION_MS before
 * `now`, in one statement, and answers how many. A used token is kept for that day too, like an
 * expired one: it can never be claimed again (`used_at` is set and the claim is conditional), so
 * keeping it costs nothing, and it leaves a trace of the reset while a customer may still ask about
 * it. (A token is claimed only while unexpired, so `used_at` always comes before `expires_at`: a used
 * token goes a day after its use.)
 *
 * Several instances may run it at once: rows another transaction holds (a concurrent cleanup, or a
 * request replacing the user's tokens) are skipped, not waited on, so two cleanups never wait for or
 * deadlock with each other; whatever is skipped goes on a later run. No index on the dates: the
 * table keeps at most one row per user (a new request deletes the older ones), and it runs hourly.
 */
export async function deleteStaleResetTokens(db: Executor, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RESET_TOKEN_RETENTION_MS);
  const stale = db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, cutoff), lt(passwordResetTokens.usedAt, cutoff)))
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(passwordResetTokens)
    .where(inArray(passwordResetTokens.id, stale))
    .returning({ id: passwordResetTokens.id });
  return deleted.length;
}

export interface ResetTokenCleanupLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
}

/** Deletes stale reset tokens (deleteStaleResetTokens) at start and every hour. */
export function createResetTokenCleanup({
  db,
  log,
  clock = () => new Date(),
  intervalMs = RESET_TOKEN_CLEANUP_INTERVAL_MS,
}: {
  db: Executor;
  log: ResetTokenCleanupLog;
  clock?: () => Date;
  intervalMs?: number;
}): Periodic {
  return periodic(
    async () => {
      const deleted = await deleteStaleResetTokens(db, clock());
      if (deleted > 0) log.info({ deleted }, 'stale password reset tokens deleted');
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'password reset token cleanup failed'),
  );
}

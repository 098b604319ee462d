import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { SESSION_USER_AGENT_MAX, type UserSessionRow, userSessions } from '../../db/schema/index.js';
import { deviceLabel } from './sessions.device.js';

/** What the request that signed in tells of its client (the routes read it from the request). */
export interface SessionClient {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/** Control characters never help a person recognise a browser (and PostgreSQL text refuses NUL). */
const printable = (text: string) =>
  Array.from(text)
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('');

/** Makes a session row for a token about to be signed; answers its id (the token's `sid`). */
export async function insertSession(
  db: Executor,
  userId: string,
  client: SessionClient,
  now: Date,
): Promise<string> {
  const userAgent = printable(client.userAgent ?? '').slice(0, SESSION_USER_AGENT_MAX) || null;
  const [row] = await db
    .insert(userSessions)
    .values({
      userId,
      createdAt: now,
      lastUsedAt: now,
      userAgent,
      device: deviceLabel(userAgent),
      ip: client.ip ? printable(client.ip).slice(0, 64) : null,
    })
    .returning({ id: userSessions.id });
  if (!row) throw new Error('insertSession: no row');
  return row.id;
}

/**
 * A fresh token for a live session (a profile change answers one): the session goes on, used now.
 * Answers false when it was revoked (or deleted) meanwhile.
 */
export async function resumeSession(
  db: Executor,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const resumed = await db
    .update(userSessions)
    .set({ lastUsedAt: now })
    .where(
      and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)),
    )
    .returning({ id: userSessions.id });
  return resumed.length > 0;
}

/**
 * Marks the user's live sessions revoked: all of them, all but `except`, or just `only`. Answers the
 * ids revoked.
 */
export async function revokeSessions(
  db: Executor,
  userId: string,
  now: Date,
  which: { except?: string | undefined; only?: string } = {},
): Promise<string[]> {
  const revoked = await db
    .update(userSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.revokedAt),
        which.except !== undefined ? ne(userSessions.id, which.except) : undefined,
        which.only !== undefined ? eq(userSessions.id, which.only) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  return revoked.map((r) => r.id);
}

/**
 * The user's sessions whose tokens may still work: not revoked, and used within a token's lifetime
 * (every token of one unused for longer has expired). Newest used first.
 */
export async function liveSessions(
  db: Executor,
  userId: string,
  now: Date,
  lifetimeMs: number,
): Promise<UserSessionRow[]> {
  return db
    .select()
    .from(userSessions)
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.revokedAt),
        gt(userSessions.lastUsedAt, new Date(now.getTime() - lifetimeMs)),
      ),
    )
    .orderBy(desc(userSessions.lastUsedAt), desc(userSessions.createdAt), desc(userSessions.id));
}

/**
 * Deletes the sessions that can never be used again: revoked ones, and ones unused for longer than a
 * token lives (each token of a session was signed no later than its `last_used_at`, so all have
 * expired). Rows another transaction holds are skipped, not waited on. Answers how many went.
 */
export async function deleteDeadSessions(db: Executor, now: Date, lifetimeMs: number): Promise<number> {
  const dead = db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(
      or(
        isNotNull(userSessions.revokedAt),
        lt(userSessions.lastUsedAt, new Date(now.getTime() - lifetimeMs)),
      ),
    )
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(userSessions)
    .where(inArray(userSessions.id, dead))
    .returning({ id: userSessions.id });
  return deleted.length;
}

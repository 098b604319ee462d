import type { UserSession, UserSessionsResponse } from '@pixel-vault/shared';
import type { Database, Executor, Transaction } from '../../db/client.js';
import type { UserSessionRow } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';
import { TOKEN_TTL_SECONDS } from '../auth/auth.service.js';
import {
  type SessionClient,
  insertSession,
  liveSessions,
  resumeSession,
  revokeSessions,
} from './sessions.repo.js';

export type { SessionClient };

/** How a token about to be signed gets its session (users.service.ts's toUserInfo). */
export interface SessionStart {
  /** The transaction the token is issued in, when there is one: the row commits with it. */
  tx?: Executor | undefined;
  /** The browser and address of the request that signs in. */
  client?: SessionClient | undefined;
  /**
   * The caller's own session, which a fresh token continues (a profile change): no second row for
   * the same browser. Without one (a token from before sessions), a new row is made.
   */
  resume?: string | undefined;
}

/** What the users module uses: every token it signs belongs to a session (issue 36). */
export interface SessionIssuer {
  /** The session id for a token about to be signed for `userId`. */
  open(userId: string, start: SessionStart): Promise<string>;
  /**
   * Marks every live session of the user revoked but `except` (the caller's, which gets a fresh
   * token): what a password reset or a password or e-mail change does with the token version bump.
   */
  endOthers(tx: Transaction, userId: string, except?: string): Promise<void>;
}

export interface SessionsService extends SessionIssuer {
  /** The caller's live sessions, newest used first, the caller's own marked `current`. */
  list(actor: AuthUser): Promise<UserSessionsResponse>;
  /** Ends one of the caller's own sessions (the current one too: that logs out); 404 for any other. */
  revoke(actor: AuthUser, id: string): Promise<UserSessionsResponse>;
  /** "Sign out everywhere else": every session of the caller but the current one. */
  revokeOthers(actor: AuthUser): Promise<UserSessionsResponse>;
}

export const sessionNotFound = () => notFound('Session not found');

export const SESSION_LIFETIME_MS = TOKEN_TTL_SECONDS * 1000;

function toUserSession(row: UserSessionRow, currentId: string | undefined): UserSession {
  return {
    _id: row.id,
    device: row.device,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === currentId,
  };
}

export function createSessionsService({
  db,
  clock = () => new Date(),
}: {
  db: Database;
  clock?: () => Date;
}): SessionsService {
  async function list(actor: AuthUser): Promise<UserSessionsResponse> {
    const rows = await liveSessions(db, actor.id, clock(), SESSION_LIFETIME_MS);
    return { sessions: rows.map((row) => toUserSession(row, actor.sessionId)) };
  }

  return {
    async open(userId, { tx, client, resume }) {
      const now = clock();
      if (resume === undefined) return insertSession(tx ?? db, userId, client ?? {}, now);
      // Signed out from elsewhere while this request ran: no fresh token brings it back.
      if (!(await resumeSession(tx ?? db, userId, resume, now))) throw notAuthorized('SESSION_ENDED');
      return resume;
    },

    async endOthers(tx, userId, except) {
      await revokeSessions(tx, userId, clock(), { except });
    },

    list,

    async revoke(actor, id) {
      const revoked = await revokeSessions(db, actor.id, clock(), { only: id });
      // Someone else's session is as unknown as one that never existed.
      if (revoked.length === 0) throw sessionNotFound();
      return list(actor);
    },

    async revokeOthers(actor) {
      await revokeSessions(db, actor.id, clock(), { except: actor.sessionId });
      return list(actor);
    },
  };
}

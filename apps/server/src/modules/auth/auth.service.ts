import { type SQL, and, eq, lte, sql } from 'drizzle-orm';
import { type JWTPayload, SignJWT, errors, jwtVerify } from 'jose';
import { builtOnce } from '../../db/built-once.js';
import type { Database, Executor } from '../../db/client.js';
import { userSessions, userTwoFactor, users } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';

/** How long a token lives (7 days); sessions unused for longer are dead and get deleted. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const TOKEN_TTL = `${TOKEN_TTL_SECONDS}s`;
/**
 * How far ahead of this server's clock a token's `iat` may be: another instance's clock may run a
 * little fast, but a token issued in the future was not issued by a shop whose clock is right.
 */
export const IAT_SKEW_SECONDS = 60;
/** Tokens kept as verified (about 2 MB at most): the signed-in shoppers of the last while. */
const VERIFIED_TOKENS_MAX = 5_000;
/** A session's `last_used_at` is written at most this often (issue 36): reads stay reads. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What authentication reads of the token's user and session, by primary key, in one statement. */
function userAndSession(executor: Executor, session: SQL) {
  return executor
    .select({
      id: users.id,
      isAdmin: users.isAdmin,
      tokenVersion: users.tokenVersion,
      sessionId: userSessions.id,
      revokedAt: userSessions.revokedAt,
      lastUsedAt: userSessions.lastUsedAt,
      // Issue 36: REQUIRE_ADMIN_2FA reads this; joined by primary key, still one query.
      twoFactorSince: userTwoFactor.enabledAt,
    })
    .from(users)
    .leftJoin(userSessions, session)
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
    .where(eq(users.id, sql.placeholder('sub')))
    .limit(1);
}
type UserAndSession = Awaited<ReturnType<typeof userAndSession>>;

// Every signed-in request runs one of these: built once (db/built-once.ts), not for each request.
const userWithSession = builtOnce<{ sub: string; sid: string }, UserAndSession>((executor) =>
  userAndSession(
    executor,
    and(eq(userSessions.id, sql.placeholder('sid')), eq(userSessions.userId, users.id))!,
  ),
);
/** A token without `sid` (issued before sessions existed): no session row. */
const userWithoutSession = builtOnce<{ sub: string }, UserAndSession>((executor) =>
  userAndSession(executor, sql`false`),
);

export interface AuthService {
  /**
   * A bearer token for the user: `sub` = id, `ver` = token_version, `sid` = the session row it
   * belongs to (issue 36), valid 7 days.
   */
  signToken(user: { id: string; tokenVersion: number }, sessionId?: string): Promise<string>;
  /**
   * The token's user, re-read from the database (with the token's session, in the same query) so
   * deletion, demotion and revocation act at once. A token without `sid` (issued before sessions
   * existed) is still accepted until it expires.
   */
  authenticate(token: string): Promise<AuthUser>;
  /** Waits for the `last_used_at` writes under way (tests; closing the app). */
  settle(): Promise<void>;
}

export interface AuthServiceOptions {
  db: Database;
  jwtSecret: string;
  /** Tests move time: when a session was last used (the token's own expiry uses the real clock). */
  clock?: () => Date;
  /** Told when a `last_used_at` write failed (it is not waited for, so no request fails with it). */
  onTouchError?: (error: unknown) => void;
}

export function createAuthService({
  db,
  jwtSecret,
  clock = () => new Date(),
  onTouchError = () => {},
}: AuthServiceOptions): AuthService {
  const key = new TextEncoder().encode(jwtSecret);
  const touching = new Set<Promise<void>>();
  /** Tokens whose signature checked out, oldest first (verify). */
  const verified = new Map<string, JWTPayload>();

  /**
   * Moves the session's `last_used_at` to now, unless another request (on any instance) did within the
   * minute: the condition is in the UPDATE, so a race writes once. Not waited for by the request.
   */
  function touch(sessionId: string, now: Date): void {
    const cutoff = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS);
    const write = db
      .update(userSessions)
      .set({ lastUsedAt: now })
      .where(and(eq(userSessions.id, sessionId), lte(userSessions.lastUsedAt, cutoff)))
      .then(
        () => {},
        (error: unknown) => onTouchError(error),
      )
      .finally(() => touching.delete(write));
    touching.add(write);
  }

  /**
   * The token's claims once its signature, algorithm, `exp` and `iat` check out. A signed-in shopper
   * sends the same token with every request, so the last ones that checked out are kept (bounded,
   * and only until they expire): a repeat costs a lookup instead of an HMAC on the thread pool.
   * Deletion, demotion and revocation still act at once: they are read from the database each time.
   */
  async function verify(token: string): Promise<JWTPayload> {
    const known = verified.get(token);
    if (known !== undefined) {
      if ((known.exp ?? 0) * 1000 > Date.now()) return known;
      // Ran out: verified again, which says so (SESSION_EXPIRED).
      verified.delete(token);
    }
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + IAT_SKEW_SECONDS) {
      throw new Error('issued in the future');
    }
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, payload);
    return payload;
  }

  return {
    signToken(user, sessionId) {
      return new SignJWT(
        sessionId === undefined ? { ver: user.tokenVersion } : { ver: user.tokenVersion, sid: sessionId },
      )
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(key);
    },

    async authenticate(token) {
      let sub: unknown;
      let ver: unknown;
      let sid: unknown;
      try {
        // Pinning the algorithm refuses `alg: none` and any key confusion. Every token this shop
        // signs expires; one without `exp`, or issued in the future, was not made by signToken
        // (issue 28). jose checks `iat` in the future only with maxTokenAge and no skew (or a
        // clockTolerance that would loosen `exp` too), so the skew is checked here.
        const payload = await verify(token);
        sub = payload.sub;
        ver = payload.ver;
        sid = payload.sid;
      } catch (error) {
        // Only a token whose signature checked out can be told apart as one that ran out (issue 30).
        throw notAuthorized(error instanceof errors.JWTExpired ? 'SESSION_EXPIRED' : undefined);
      }
      if (typeof sub !== 'string' || !UUID.test(sub) || !Number.isInteger(ver)) throw notAuthorized();
      if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) throw notAuthorized();
      // One query, as before sessions: the session row comes with the user's, by primary key.
      const [row] =
        sid === undefined ? await userWithoutSession(db, { sub }) : await userWithSession(db, { sub, sid });
      // The app tells the person why (issue 30): an admin deleted the account, or the session was
      // ended (password or e-mail changed, an admin changed the role or e-mail, signed out from
      // another device: issue 36).
      if (!row) throw notAuthorized('ACCOUNT_DELETED');
      if (row.tokenVersion !== ver) throw notAuthorized('SESSION_ENDED');
      // Present only when on: the caller as every other route sees it is unchanged.
      const twoFactor = row.twoFactorSince !== null ? { twoFactorEnabled: true } : {};
      if (sid === undefined)
        return { id: row.id, isAdmin: row.isAdmin, tokenVersion: row.tokenVersion, ...twoFactor };
      if (row.sessionId === null || row.revokedAt !== null) throw notAuthorized('SESSION_ENDED');
      const now = clock();
      if (row.lastUsedAt !== null && now.getTime() - row.lastUsedAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
        touch(row.sessionId, now);
      }
      return {
        id: row.id,
        isAdmin: row.isAdmin,
        tokenVersion: row.tokenVersion,
        sessionId: row.sessionId,
        ...twoFactor,
      };
    },

    async settle() {
      while (touching.size > 0) await Promise.all(touching);
    },
  };
}

import { eq } from 'drizzle-orm';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';

export const TOKEN_TTL = '7d';
/**
 * How far ahead of this server's clock a token's `iat` may be: another instance's clock may run a
 * little fast, but a token issued in the future was not issued by a shop whose clock is right.
 */
export const IAT_SKEW_SECONDS = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuthService {
  /** A bearer token for the user: `sub` = id, `ver` = token_version, valid 7 days. */
  signToken(user: { id: string; tokenVersion: number }): Promise<string>;
  /** The token's user, re-read from the database so deletion, demotion and revocation act at once. */
  authenticate(token: string): Promise<AuthUser>;
}

export function createAuthService({ db, jwtSecret }: { db: Database; jwtSecret: string }): AuthService {
  const key = new TextEncoder().encode(jwtSecret);

  return {
    signToken(user) {
      return new SignJWT({ ver: user.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(key);
    },

    async authenticate(token) {
      let sub: unknown;
      let ver: unknown;
      try {
        // Pinning the algorithm refuses `alg: none` and any key confusion. Every token this shop
        // signs expires; one without `exp`, or issued in the future, was not made by signToken
        // (issue 28). jose checks `iat` in the future only with maxTokenAge and no skew (or a
        // clockTolerance that would loosen `exp` too), so the skew is checked here.
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
        if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + IAT_SKEW_SECONDS) {
          throw new Error('issued in the future');
        }
        sub = payload.sub;
        ver = payload.ver;
      } catch (error) {
        // Only a token whose signature checked out can be told apart as one that ran out (issue 30).
        throw notAuthorized(error instanceof errors.JWTExpired ? 'SESSION_EXPIRED' : undefined);
      }
      if (typeof sub !== 'string' || !UUID.test(sub) || !Number.isInteger(ver)) throw notAuthorized();
      const [user] = await db
        .select({ id: users.id, isAdmin: users.isAdmin, tokenVersion: users.tokenVersion })
        .from(users)
        .where(eq(users.id, sub))
        .limit(1);
      // The app tells the person why (issue 30): an admin deleted the account, or the session was
      // ended (password or e-mail changed, an admin changed the role or e-mail).
      if (!user) throw notAuthorized('ACCOUNT_DELETED');
      if (user.tokenVersion !== ver) throw notAuthorized('SESSION_ENDED');
      return { id: user.id, isAdmin: user.isAdmin, tokenVersion: user.tokenVersion };
    },
  };
}

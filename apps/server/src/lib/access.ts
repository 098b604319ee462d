import type { FastifyInstance, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, NOT_AUTHORIZED, type SessionEndCode } from '@pixel-vault/shared';
import { AppError } from './errors.js';

/**
 * Who may call a route. Declared on every /api route; checked in one place (installAccessControl).
 * 'visitor-or-user': anyone, and a caller who sends a bearer token is that user (an invalid one is a
 * 401, as on 'user' routes): for a call a visitor and a logged-in shopper both make (issue 34's alerts).
 */
export type Access = 'public' | 'visitor-or-user' | 'user' | 'admin';

export interface AuthUser {
  id: string;
  isAdmin: boolean;
  /**
   * The token version the caller's token carries (= the user's when it was checked): a change that
   * answers a fresh token refuses it when the version moved meanwhile (a reset in between ended it).
   */
  tokenVersion: number;
  /**
   * The session (issue 36) the caller's token belongs to; absent for a token issued before sessions
   * existed, which is accepted until it expires.
   */
  sessionId?: string;
  /** Issue 36: two-factor sign-in is on (read in authenticate's one query), for REQUIRE_ADMIN_2FA. */
  twoFactorEnabled?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /**
     * Set for 'user' and 'admin' routes once the bearer token checked out, and for 'visitor-or-user'
     * routes when one was sent; null elsewhere.
     */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** Every /api route and who may call it, for the access-control test. */
    accessTable: RouteAccess[];
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

/** Resolves a bearer token to a user, or throws 401 `Not authorized!`. */
export type Authenticate = (token: string) => Promise<AuthUser>;

/**
 * 401 with the spec's message. The code says why when a token the shop signed is refused (a session
 * that ran out or was ended, a deleted account: issue 30); NOT_AUTHORIZED for anything else.
 */
export const notAuthorized = (code: SessionEndCode | 'NOT_AUTHORIZED' = 'NOT_AUTHORIZED') =>
  new AppError(401, NOT_AUTHORIZED, code);
export const adminOnly = () => new AppError(403, 'Admin access only', 'ADMIN_ONLY');
export const adminTwoFactorRequired = () =>
  new AppError(403, ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, 'TWO_FACTOR_REQUIRED');

export interface AccessControlOptions {
  /** REQUIRE_ADMIN_2FA (issue 36): an admin without two-factor sign-in is refused every admin route. */
  requireAdminTwoFactor?: boolean;
}

/** For handlers of 'user' and 'admin' routes: the caller, typed as present. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw notAuthorized();
  return request.user;
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Must be called before any route is registered. Refuses to start when an /api route forgets to
 * say who may call it, and enforces the declaration in an onRequest hook, before the body is read.
 * The hook is the route's own, added only to 'user' and 'admin' routes and run before any other hook
 * of the route: public routes (the hot catalogue) run no access code at all per request (issue 10).
 */
export function installAccessControl(
  app: FastifyInstance,
  authenticate: Authenticate,
  { requireAdminTwoFactor = false }: AccessControlOptions = {},
): void {
  const table: RouteAccess[] = [];
  app.decorate('accessTable', table);
  app.decorateRequest('user', null);

  /** Callback style: a refusal without a token is answered without a promise. */
  const guard =
    (access: 'visitor-or-user' | 'user' | 'admin'): onRequestHookHandler =>
    (request, reply, done) => {
      // Someone's own data: never kept by a shared cache (a route may still choose otherwise).
      reply.header('cache-control', 'private, no-store');
      const header = request.headers.authorization;
      // A visitor sends no Authorization header at all; one that is sent must be a valid token.
      if (access === 'visitor-or-user' && (header === undefined || header === '')) return done();
      const token = bearerToken(header);
      if (!token) return done(notAuthorized());
      authenticate(token).then((user) => {
        if (access === 'admin' && !user.isAdmin) return done(adminOnly());
        // They may still log in and reach My Account (a 'user' route) to turn it on.
        if (access === 'admin' && requireAdminTwoFactor && user.twoFactorEnabled !== true) {
          return done(adminTwoFactorRequired());
        }
        request.user = user;
        done();
      }, done);
    };
  const guards = {
    'visitor-or-user': guard('visitor-or-user'),
    user: guard('user'),
    admin: guard('admin'),
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access;
    if (route.url.startsWith('/api')) {
      if (access !== 'public' && access !== 'visitor-or-user' && access !== 'user' && access !== 'admin') {
        throw new Error(
          `Route ${String(route.method)} ${route.url} must declare config.access ('public' | 'visitor-or-user' | 'user' | 'admin')`,
        );
      }
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') table.push({ method, url: route.url, access });
      }
    }
    if (access === 'visitor-or-user' || access === 'user' || access === 'admin') {
      // After the app's and the scope's hooks (security headers, CORS), before the route's own (rate
      // limits): where the app-wide hook it replaces ran.
      route.onRequest = [guards[access], ...[route.onRequest ?? []].flat()];
    }
  });
}

import { z } from 'zod';
import { Id } from './common.js';

/**
 * Issue 36: where an account is signed in. One entry per live session (a login, a sign-up, a password
 * reset), as GET /api/users/sessions answers it: newest used first.
 */
export const UserSession = z.object({
  _id: z.string(),
  /** A short label read from the browser's user agent: "Chrome on Android", "Firefox on Windows". */
  device: z.string(),
  /** The address the session was started from, as the shop saw it (null when unknown). */
  ip: z.string().nullable(),
  createdAt: z.string(),
  /** Written at most once a minute, so up to a minute behind. */
  lastUsedAt: z.string(),
  /** The session of the token that asked. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;

/** GET /api/users/sessions, POST /api/users/sessions/revoke-others: the live sessions. */
export const UserSessionsResponse = z.object({ sessions: z.array(UserSession) });
export type UserSessionsResponse = z.infer<typeof UserSessionsResponse>;

/** DELETE /api/users/sessions/:id */
export const SessionParams = z.object({ id: Id });
export type SessionParams = z.infer<typeof SessionParams>;

import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** The longest user agent kept: enough to tell browsers apart, not a place to store a megabyte. */
export const SESSION_USER_AGENT_MAX = 512;

/**
 * Where an account is signed in (issue 36): one row per token issued by a login, sign-up, password
 * reset (a profile change continues its caller's row). The token carries the row's id (`sid`), and
 * authenticate reads the row with the user's on every request: a revoked or deleted row ends the
 * token at once, on every instance. `last_used_at` is written at most once a minute per row
 * (docs/sessions.md); rows revoked, or unused for longer than a token lives, are deleted hourly.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** As the browser sent it, cut to SESSION_USER_AGENT_MAX characters; null when none was sent. */
    userAgent: text('user_agent'),
    /** A short label read from the user agent when the row was made: "Chrome on Android". */
    device: text('device').notNull(),
    /** The client's address as the app saw it (TRUST_PROXY decides how far X-Forwarded-For is read). */
    ip: text('ip'),
  },
  (t) => [
    index('user_sessions_user_created_idx').on(t.userId, t.createdAt),
    check('user_sessions_user_agent_length', sql`char_length(${t.userAgent}) <= 512`),
    check('user_sessions_device_length', sql`char_length(${t.device}) <= 100`),
  ],
);

export type UserSessionRow = typeof userSessions.$inferSelect;

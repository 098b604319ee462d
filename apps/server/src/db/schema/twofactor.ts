import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Two-factor sign-in (issue 36, docs/two-factor.md). One row per account that started a setup: the
 * secret is kept encrypted (AES-256-GCM, key derived from JWT_SECRET), never in plain text. 2FA is
 * on when `enabled_at` is set; authenticate reads that column in its one query (REQUIRE_ADMIN_2FA).
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The active secret, encrypted; null until enabled. */
  secret: text('secret'),
  /** A secret from setup, not yet proven by a code; replaced by a new setup. */
  pendingSecret: text('pending_secret'),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The time step of the last code accepted: a code of the same or an earlier step is refused (replay). */
  lastStep: bigint('last_step', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes, stored only as SHA-256 of the code without its dash. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);

/**
 * A login that passed the password and waits for the second factor: the challenge token is held by
 * the client, kept here only hashed; 5 minutes, 5 wrong codes.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attemptsLeft: integer('attempts_left').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_challenges_user_idx').on(t.userId)],
);

export type UserTwoFactorRow = typeof userTwoFactor.$inferSelect;

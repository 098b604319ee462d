import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    // Always stored lowercased (the shared Email schema lowercases), so a plain unique index
    // makes "Ann@x.com" and "ann@x.com" the same account.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    // Bumped on password change, demotion or deletion: every token carrying an older value dies at once.
    tokenVersion: integer('token_version').notNull().default(0),
    // Issue 36: set when the owner opened a verification link for `email`; null means the address is
    // unconfirmed and gets only the verification mail and its own orders' mails (docs/verified-email.md).
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
);

export type UserRow = typeof users.$inferSelect;

/**
 * Password reset links (issue 11). Only the SHA-256 of a token is kept: someone who reads this table
 * (a backup, a replica) holds no usable link. A token is single use (`used_at`, claimed by one
 * conditional update) and a newer request for the same user deletes the older rows.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lowercase hex SHA-256 of the token as mailed. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;

/**
 * E-mail verification links (issue 36), kept like password reset links: only the SHA-256 of a token,
 * single use (`used_at`), 24 hours, one live per user (a newer request deletes the user's unused
 * rows). `email` is the address the link verifies: the account's own at registration, or the new
 * address of an e-mail change, which replaces the account's only when its link is opened.
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lowercase hex SHA-256 of the token as mailed. */
    tokenHash: text('token_hash').notNull(),
    /** The address this link verifies (lowercased, like users.email). */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_verification_tokens_hash_unique').on(t.tokenHash),
    index('email_verification_tokens_user_idx').on(t.userId),
  ],
);

export type EmailVerificationTokenRow = typeof emailVerificationTokens.$inferSelect;

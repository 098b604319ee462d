import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { mailOutbox } from './mail.js';
import { productVariants } from './products.js';
import { users } from './users.js';

/**
 * pending (a visitor's, until they open the confirmation link) -> waiting (confirmed, not yet mailed)
 * -> notified (its one mail is in the outbox) or cancelled (unsubscribed). A row is used once: a
 * shopper who wants the next restock too subscribes again, which makes a new row.
 */
export const STOCK_ALERT_STATUSES = ['pending', 'waiting', 'notified', 'cancelled'] as const;
export type StockAlertStatus = (typeof STOCK_ALERT_STATUSES)[number];

/**
 * Issue 34: "notify me when it is back" for one variant. A logged-in shopper's row names the account
 * (`user_id`: mailed at the account's address as it is when the mail is written); a visitor's names
 * an e-mail (lower case), and waits for its confirmation link first. The alert mails themselves are
 * written by PostgreSQL, in the transaction that takes the variant's stock from 0 to above 0, whatever
 * path does it (migration 0025, docs/back-in-stock.md).
 */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A visitor's address (lower case); null on an account's row, which is mailed at the account's. */
    email: text('email'),
    status: text('status').$type<StockAlertStatus>().notNull(),
    /**
     * Where the mails' links point: PUBLIC_URL, else the origin the subscribe call came to (as reset
     * links do, lib/urls.ts siteBase). Kept on the row: the mail is written by the database, later.
     */
    linkBase: text('link_base').notNull(),
    /** SHA-256 (hex) of the visitor's confirmation token, which only the mail carries. */
    confirmTokenHash: text('confirm_token_hash'),
    /** When the last confirmation mail was written: at most one an hour per address and variant. */
    confirmSentAt: timestamp('confirm_sent_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** The alert mail in the outbox (one mail per address: two rows of one address share it). */
    mailId: uuid('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
    /** SHA-256 (hex) of the one-click unsubscribe token the alert mail carries (made with it). */
    unsubscribeTokenHash: text('unsubscribe_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('stock_alerts_status_valid', sql`${t.status} in ('pending', 'waiting', 'notified', 'cancelled')`),
    // Exactly one of the two: an account or a visitor's address.
    check('stock_alerts_one_recipient', sql`(${t.userId} is null) <> (${t.email} is null)`),
    check('stock_alerts_email_lowercase', sql`${t.email} = lower(${t.email})`),
    // Only a visitor confirms: an account's row is waiting from the start.
    check('stock_alerts_pending_is_visitor', sql`${t.status} <> 'pending' or ${t.userId} is null`),
    // One open alert per account or address and variant: a second subscribe finds the first.
    uniqueIndex('stock_alerts_open_user_unique')
      .on(t.variantId, t.userId)
      .where(sql`${t.userId} is not null and ${t.status} in ('pending', 'waiting')`),
    uniqueIndex('stock_alerts_open_email_unique')
      .on(t.variantId, t.email)
      .where(sql`${t.email} is not null and ${t.status} in ('pending', 'waiting')`),
    // What a restock reads (the trigger: a variant's waiting rows), the admin's most-wanted counts,
    // and deleting a variant for good.
    index('stock_alerts_variant_status_idx').on(t.variantId, t.status),
    uniqueIndex('stock_alerts_confirm_token_unique')
      .on(t.confirmTokenHash)
      .where(sql`${t.confirmTokenHash} is not null`),
    uniqueIndex('stock_alerts_unsubscribe_token_unique')
      .on(t.unsubscribeTokenHash)
      .where(sql`${t.unsubscribeTokenHash} is not null`),
    // A shopper's list, and an unsubscribe finding every open alert of an address.
    index('stock_alerts_user_idx').on(t.userId, t.createdAt),
    index('stock_alerts_email_idx')
      .on(t.email)
      .where(sql`${t.email} is not null`),
    index('stock_alerts_mail_idx')
      .on(t.mailId)
      .where(sql`${t.mailId} is not null`),
  ],
);

export type StockAlertRow = typeof stockAlerts.$inferSelect;

import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Transactional outbox: a mail is written in the same transaction as the change it reports, and a
 * worker sends it afterwards, so a mail is never lost on a crash nor sent for a rolled-back change.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    replyTo: text('reply_to'),
    /**
     * Extra headers sent as they are (issue 34: List-Unsubscribe and List-Unsubscribe-Post on alert
     * mails). Only names of the form mail.transport.ts allows are sent; null: none.
     */
    headers: jsonb('headers').$type<Record<string, string>>(),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('mail_outbox_status_valid', sql`${t.status} in ('pending', 'sent', 'failed')`),
    // The worker's only query: due pending rows, oldest first.
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export type MailRow = typeof mailOutbox.$inferSelect;

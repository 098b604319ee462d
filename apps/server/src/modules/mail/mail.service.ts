import type { Executor } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/index.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  /** Every piece of user text in it must have gone through escapeHtml. */
  html?: string;
  replyTo?: string;
}

/** Header values are single lines: a newline in user text must not start a new header. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

/**
 * Queues a mail in the caller's transaction: it is sent (by the worker) only if that transaction
 * commits, and it cannot be lost once it has. Answers the outbox id.
 */
export async function enqueueMail(tx: Executor, mail: NewMail): Promise<string> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      subject: oneLine(mail.subject),
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      replyTo: mail.replyTo ?? null,
    })
    .returning({ id: mailOutbox.id });
  if (!row) throw new Error('Outbox insert returned no row');
  return row.id;
}

import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { mailOutbox, users } from '../../db/schema/index.js';
import { escapeHtml } from '../../lib/html.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  /** Every piece of user text in it must have gone through escapeHtml. */
  html?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe, ...); names mail.transport.ts does not allow are not sent. */
  headers?: Record<string, string>;
}

/** Header values are single lines: a newline in user text must not start a new header. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

/** A mail's HTML document: `body` (already escaped) and the shop's signature. */
export const mailPage = (body: string) => `<!doctype html>
<html><body style="font-family:Arial,sans-serif;color:#222">
${body}
<p>Pixel Vault</p>
</body></html>`;

/** A link drawn as a button, for a mail's HTML. */
export const mailButton = (href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(label)}</a></p>`;

/**
 * Queues a mail in the caller's transaction: it is sent (by the worker) only if that transaction
 * commits, and it cannot be lost once it has. Answers the outbox id.
 */
export async function enqueueMail(tx: Executor, mail: NewMail): Promise<string> {
  const [row] = await outboxInsert(tx, mail).returning({ id: mailOutbox.id });
  if (!row) throw new Error('Outbox insert returned no row');
  return row.id;
}

/**
 * The outbox insert of enqueueMail, not yet run: for a caller that sends it as part of a larger
 * statement (a `with` clause), naming the mail's `id` itself so it can refer to it (issue 13).
 */
export function outboxInsert(tx: Executor, mail: NewMail, id?: string) {
  return tx.insert(mailOutbox).values({
    ...(id === undefined ? {} : { id }),
    toAddress: mail.to,
    subject: oneLine(mail.subject),
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    replyTo: mail.replyTo ?? null,
    headers: mail.headers ?? null,
  });
}

/**
 * enqueueMail to an account's own address, queued only when `userId` names an account. The statement
 * runs either way, so a caller that must not reveal whether an account exists (a forgotten password,
 * issue 11) does the same database work for an unknown one. Answers whether it queued.
 */
export async function enqueueMailToUser(
  tx: Executor,
  userId: string,
  mail: Omit<NewMail, 'to'>,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into ${mailOutbox} (to_address, subject, text_body, html_body, reply_to, headers)
        select ${users.email}, ${oneLine(mail.subject)}, ${mail.text}, ${mail.html ?? null}, ${mail.replyTo ?? null},
          ${mail.headers ? JSON.stringify(mail.headers) : null}::jsonb
        from ${users} where ${users.id} = ${userId}
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Issue 36: enqueueMail for a mail about an account (trade-ins, and any other notice that is not the
 * account's own order or its security), queued only when the account's address is verified: an
 * unverified address gets the verification mail and its own orders' mails, nothing else. No account
 * (deleted, or none): nothing queued. Answers whether it queued.
 */
export async function enqueueMailIfVerified(
  tx: Executor,
  userId: string | null,
  mail: NewMail,
): Promise<boolean> {
  if (userId === null) return false;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into ${mailOutbox} (to_address, subject, text_body, html_body, reply_to, headers)
        select ${mail.to}, ${oneLine(mail.subject)}, ${mail.text}, ${mail.html ?? null}, ${mail.replyTo ?? null},
          ${mail.headers ? JSON.stringify(mail.headers) : null}::jsonb
        where exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.emailVerifiedAt} is not null)
        returning id`,
  );
  return rows.length > 0;
}
